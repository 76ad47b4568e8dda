/// Namespace for the factories that instantiate dependencies.
public enum DependencyFactory {
    /// A factory of any arity that instantiates `T` from the parameters given at injection.
    ///
    /// The parameter types are recorded, so an injection with other parameter types fails
    /// with ``InjectionError/invalidDependencyParameters(_:_:parameters:)`` instead of
    /// calling the factory.
    ///
    /// ```swift
    /// var dependencyProvider: DependencyFactory.Provider<Repository> {
    ///     DependencyFactory.Provider { cache in
    ///         Repository(cachedBy: cache)
    ///     }
    /// }
    /// ```
    public struct Provider<T>: @unchecked Sendable {
        let parameterTypes: [TypeKey]
        let make: (InjectionArguments) throws -> T
        let argumentKey: (InjectionArguments) -> ArgumentKey
        /// A hash of the parameter values, computed without allocating.
        let argumentHash: (InjectionArguments) -> Int
        /// The factory closure's code address and context: tells a builder's re-run of the
        /// same line apart from a different factory registered under the same identity.
        let origin: ClosureIdentity

        /// Creates a provider from a factory closure without parameters.
        public init(_ factory: @escaping @Sendable () throws -> T) {
            origin = codeAddress(of: factory)
            parameterTypes = []
            make = { _ in try factory() }
            argumentKey = { _ in .empty }
            argumentHash = { _ in 0 }
        }

        /// Creates a provider from a factory closure taking any number of `Hashable` parameters.
        public init<each Parameter: Hashable>(
            _ factory: @escaping @Sendable (repeat each Parameter) throws -> T
        ) {
            var types: [TypeKey] = []
            repeat types.append(TypeKey((each Parameter).self))
            parameterTypes = types
            origin = codeAddress(of: PackFactory(call: factory))
            if types.isEmpty {
                // Cast the empty tuple once, not on every instantiation.
                let none = (() as Any) as! (repeat each Parameter)
                make = { _ in try factory(repeat each none) }
            } else {
                make = { arguments in
                    let values = arguments.values as! (repeat each Parameter)
                    return try factory(repeat each values)
                }
            }
            argumentKey = { arguments in
                guard !types.isEmpty else { return .empty }
                let values = arguments.values as! (repeat each Parameter)
                var keys: [AnyHashable] = []
                repeat keys.append(AnyHashable(each values))
                return ArgumentKey(values: keys)
            }
            argumentHash = { arguments in
                guard !types.isEmpty else { return 0 }
                let values = arguments.values as! (repeat each Parameter)
                var hasher = Hasher()
                repeat hasher.combine(each values)
                return hasher.finalize()
            }
        }
    }
}

/// The parameters passed at an injection site, with their static types.
struct InjectionArguments: @unchecked Sendable {
    /// The values and their static types; nil when there are none, so that injections
    /// without parameters pass and copy a single null word.
    private let storage: Storage?

    private final class Storage: @unchecked Sendable {
        let types: [TypeKey]
        /// The parameters as the tuple `(repeat each P)`.
        let values: Any

        init(types: [TypeKey], values: Any) {
            self.types = types
            self.values = values
        }
    }

    /// No parameters.
    @inline(__always)
    static var none: InjectionArguments { InjectionArguments(storage: nil) }

    private init(storage: Storage?) { self.storage = storage }

    @inline(__always)
    init<each P: Hashable>(_ parameters: repeat each P) {
        var types: [TypeKey] = []
        repeat types.append(TypeKey((each P).self))
        storage = types.isEmpty ? nil : Storage(types: types, values: (repeat each parameters))
    }

    /// The static types of the parameters, in order.
    var types: [TypeKey] { storage?.types ?? [] }

    /// The parameters as the tuple `(repeat each P)`; `()` when there are none.
    var values: Any { storage?.values ?? () }

    var typeNames: [String] { types.map(\.description) }
}

/// The parameter values of an injection, used to keep one stored instance per distinct
/// set of parameters.
struct ArgumentKey: Hashable, @unchecked Sendable {
    let values: [AnyHashable]
    static let empty = ArgumentKey(values: [])
}

/// A factory taking a parameter pack, wrapped so that it can be passed as a generic value.
struct PackFactory<T, each Parameter> {
    let call: @Sendable (repeat each Parameter) throws -> T
}

/// A closure's code address and context.
///
/// A Swift closure value is that pair. Two runs of a closure expression that captures
/// nothing are equal; a capturing closure gets a new context each run, so it compares equal
/// only to itself (its captures may differ).
struct ClosureIdentity: Equatable, Sendable {
    let code: UInt
    let context: UInt
}

/// The identity of a closure (or of a struct holding only a closure).
func codeAddress<F>(of closure: F) -> ClosureIdentity {
    guard MemoryLayout<F>.size == 2 * MemoryLayout<UInt>.size else { return ClosureIdentity(code: 0, context: 1) }
    let (code, context) = unsafeBitCast(closure, to: (UInt, UInt).self)
    return ClosureIdentity(code: code, context: context)
}
