/// A requested type that stands for other registrations: `Optional` (the wrapped type, or
/// nil), `Array` and `Set` (every match), `Lazy` and `Provider` (the wrapped type, later).
///
/// Only consulted when nothing is registered under the requested type itself, so plain
/// lookups pay nothing for it.
protocol InjectableWrapper {
    static func resolveWrapped(in graph: GraphEngine, key: LookupKey, arguments: InjectionArguments) throws -> Self
    /// Whether the value is nil or an empty collection (what `loadIfNeeded()` reloads).
    var isEmptyInjection: Bool { get }
    /// The type the wrapper stands for, and how it stands for it: what checking a declared
    /// dependency of this type looks for.
    static var wrappedRequest: (element: TypeKey, kind: WrapperKind) { get }
}

/// A `Lazy` or `Provider`: made at once, without building anything, whatever the request
/// finds under its key.
protocol DeferredInjection: InjectableWrapper {}

/// How a wrapper stands for the registrations of its element.
enum WrapperKind {
    /// One or none (`Optional`).
    case optional
    /// Every match (`Array`, `Set`).
    case collection
    /// One, resolved later (`Lazy`, `Provider`): not a dependency of the build that injects it.
    case deferred
}

extension LookupKey {
    /// The same lookup for another type: type keys are replaced, names and values kept.
    var isType: Bool {
        if case .type = self { return true }
        return false
    }

    func forElement<E>(_ type: E.Type) -> LookupKey {
        if case .type = self { return .type(TypeKey(type)) }
        return self
    }
}

extension Optional: InjectableWrapper {
    static func resolveWrapped(in graph: GraphEngine, key: LookupKey, arguments: InjectionArguments) throws -> Self {
        try graph.resolveIfPresent(key.forElement(Wrapped.self), arguments, as: Wrapped.self)
    }

    static var wrappedRequest: (element: TypeKey, kind: WrapperKind) { (TypeKey(Wrapped.self), .optional) }

    var isEmptyInjection: Bool {
        switch self {
        case .none: true
        case .some(let wrapped): (wrapped as? any InjectableWrapper)?.isEmptyInjection ?? false
        }
    }
}

extension Array: InjectableWrapper {
    static func resolveWrapped(in graph: GraphEngine, key: LookupKey, arguments: InjectionArguments) throws -> Self {
        try graph.resolveAll(key.forElement(Element.self), arguments, as: Element.self)
    }

    static var wrappedRequest: (element: TypeKey, kind: WrapperKind) { (TypeKey(Element.self), .collection) }

    var isEmptyInjection: Bool { isEmpty }
}

extension Set: InjectableWrapper {
    static func resolveWrapped(in graph: GraphEngine, key: LookupKey, arguments: InjectionArguments) throws -> Self {
        Set(try graph.resolveAll(key.forElement(Element.self), arguments, as: Element.self))
    }

    static var wrappedRequest: (element: TypeKey, kind: WrapperKind) { (TypeKey(Element.self), .collection) }

    var isEmptyInjection: Bool { isEmpty }
}

extension Lazy: DeferredInjection {
    static func resolveWrapped(in graph: GraphEngine, key: LookupKey, arguments: InjectionArguments) throws -> Self {
        Self(request: DeferredRequest(for: Value.self, key: key, arguments: arguments, in: graph, deferredType: "\(Self.self)"))
    }

    static var wrappedRequest: (element: TypeKey, kind: WrapperKind) { (TypeKey(Value.self), .deferred) }

    var isEmptyInjection: Bool { false }
}

extension Provider: DeferredInjection {
    static func resolveWrapped(in graph: GraphEngine, key: LookupKey, arguments: InjectionArguments) throws -> Self {
        Self(request: DeferredRequest(for: Value.self, key: key, arguments: arguments, in: graph, deferredType: "\(Self.self)"))
    }

    static var wrappedRequest: (element: TypeKey, kind: WrapperKind) { (TypeKey(Value.self), .deferred) }

    var isEmptyInjection: Bool { false }
}
