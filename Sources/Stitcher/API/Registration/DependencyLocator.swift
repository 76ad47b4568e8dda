/// How a dependency is found in the graph: by name, by type or by an associated value.
///
/// A type locator lists the dependency's own type first, then the protocols and
/// superclasses it can also be injected as.
///
/// ```swift
/// struct RepositoryDependency: DependencyRepresenting {
///     var locator: DependencyLocator { .name("repository") }
///     var dependencyProvider: DependencyFactory.Provider<Repository> {
///         DependencyFactory.Provider { Repository() }
///     }
/// }
/// ```
public struct DependencyLocator: Hashable, Sendable, CustomStringConvertible {
    enum Kind: Hashable, @unchecked Sendable {
        case name(String)
        case type(TypeList)
        // Boxed: an `AnyHashable` inline would make every locator, and every record, larger.
        indirect case value(AnyHashable)
    }

    let kind: Kind

    init(kind: Kind) { self.kind = kind }

    /// Locates a dependency by name.
    public static func name(_ name: String) -> DependencyLocator {
        DependencyLocator(kind: .name(name))
    }

    /// Locates a dependency by the raw value of a string-backed type, such as an enum case.
    public static func name<Name: RawRepresentable>(_ name: Name) -> DependencyLocator
    where Name.RawValue == String {
        DependencyLocator(kind: .name(name.rawValue))
    }

    /// Locates a dependency by the description of a value.
    public static func name(_ name: some CustomStringConvertible) -> DependencyLocator {
        DependencyLocator(kind: .name(name.description))
    }

    /// Locates a dependency by its type.
    public static func type<T>(_ type: T.Type) -> DependencyLocator {
        DependencyLocator(kind: .type(TypeList(TypeKey(type))))
    }

    /// Locates a dependency by its type and by one more type it conforms to or inherits from.
    public static func type<T, U>(_ type: T.Type, _ other: U.Type) -> DependencyLocator {
        DependencyLocator(kind: .type(TypeList(TypeKey(type), [.init(TypeKey(other), view: TypeList.view(as: U.self))])))
    }

    /// Locates a dependency by its type and by two more types it conforms to or inherits from.
    public static func type<T, U, V>(_ type: T.Type, _ other: U.Type, _ another: V.Type) -> DependencyLocator {
        DependencyLocator(
            kind: .type(
                TypeList(
                    TypeKey(type),
                    [
                        .init(TypeKey(other), view: TypeList.view(as: U.self)),
                        .init(TypeKey(another), view: TypeList.view(as: V.self)),
                    ])))
    }

    /// Locates a dependency by an associated `Hashable` value, compared by equality.
    public static func value(_ value: some Hashable) -> DependencyLocator {
        DependencyLocator(kind: .value(AnyHashable(value)))
    }

    /// Whether this locator finds dependencies by the given name.
    public func isLocatedBy(name: String) -> Bool {
        if case .name(let own) = kind { return own == name }
        return false
    }

    /// Whether this locator finds dependencies by the given type, one of its aliases included.
    public func isLocatedBy<T>(type: T.Type) -> Bool {
        if case .type(let types) = kind { return types.contains(TypeKey(type)) }
        return false
    }

    /// Whether this locator finds dependencies by the given associated value.
    public func isLocatedBy(value: some Hashable) -> Bool {
        if case .value(let own) = kind { return own == AnyHashable(value) }
        return false
    }

    /// The locator with another type appended to its aliases, presented through `view`
    /// (see `TypeList.view(as:)`); unchanged for names and values.
    @usableFromInline
    func adding(alias: TypeKey, view: TypeList.AliasView?) -> DependencyLocator {
        guard case .type(var types) = kind, !types.contains(alias) else { return self }
        types.append(.init(alias, view: view))
        return DependencyLocator(kind: .type(types))
    }

    /// How errors and diagnostics name what this locator finds.
    var context: InjectionError.DependencyContext {
        switch kind {
        case .name(let name): .name(name)
        case .type(let types): .type(types.head.description)
        case .value(let value): .value(value)
        }
    }

    public var description: String {
        switch kind {
        case .name, .value: return context.description
        case .type(let types):
            let aliases = types.dropFirst().map(\.description)
            return aliases.isEmpty
                ? context.description
                : "\(context) as \(aliases.joined(separator: ", "))"
        }
    }
}
