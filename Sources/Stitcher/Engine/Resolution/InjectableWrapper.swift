/// A requested type that stands for other registrations: `Optional` (the wrapped type, or
/// nil), `Array` and `Set` (every match).
///
/// Only consulted when nothing is registered under the requested type itself, so plain
/// lookups pay nothing for it.
protocol InjectableWrapper {
    static func resolveWrapped(in graph: GraphEngine, key: LookupKey, arguments: InjectionArguments) throws -> Self
    /// Whether the value is nil or an empty collection (what `loadIfNeeded()` reloads).
    var isEmptyInjection: Bool { get }
    /// The type the wrapper stands for, and whether it takes every match (a collection)
    /// rather than one or none: what checking a declared dependency of this type looks for.
    static var wrappedRequest: (element: TypeKey, takesEveryMatch: Bool) { get }
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

    static var wrappedRequest: (element: TypeKey, takesEveryMatch: Bool) { (TypeKey(Wrapped.self), false) }

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

    static var wrappedRequest: (element: TypeKey, takesEveryMatch: Bool) { (TypeKey(Element.self), true) }

    var isEmptyInjection: Bool { isEmpty }
}

extension Set: InjectableWrapper {
    static func resolveWrapped(in graph: GraphEngine, key: LookupKey, arguments: InjectionArguments) throws -> Self {
        Set(try graph.resolveAll(key.forElement(Element.self), arguments, as: Element.self))
    }

    static var wrappedRequest: (element: TypeKey, takesEveryMatch: Bool) { (TypeKey(Element.self), true) }

    var isEmptyInjection: Bool { isEmpty }
}
