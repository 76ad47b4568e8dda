// `Dependency(autowiring:)` for initializers of one to eight parameters, each compiled for
// its types: a pack's elements are injected in a loop over their metadata, which costs a
// generic-metadata lookup per parameter; these inject each as a direct `inject()` call would.
// Larger initializers take the parameter-pack form.

extension Dependency {
    /// ``init(autowiring:)`` for an initializer of 1 parameter.
    @inlinable @_disfavoredOverload
    public init<A>(autowiring initializer: @escaping @Sendable (A) throws -> T) {
        let provider = DependencyFactory.Provider<T>(
            autowired: [TypeKey(A.self)], AutowiredInitializer(call: initializer)
        ) {
            var position = 0
            return try initializer(
                try Autowiring.inject(A.self, at: &position, of: 1, in: T.self))
        }
        self.init(locator: .type(T.self), provider: provider)
    }

    /// ``init(autowiring:)`` for an initializer of 2 parameters.
    @inlinable @_disfavoredOverload
    public init<A, B>(autowiring initializer: @escaping @Sendable (A, B) throws -> T) {
        let provider = DependencyFactory.Provider<T>(
            autowired: [TypeKey(A.self), TypeKey(B.self)], AutowiredInitializer(call: initializer)
        ) {
            var position = 0
            return try initializer(
                try Autowiring.inject(A.self, at: &position, of: 2, in: T.self),
                try Autowiring.inject(B.self, at: &position, of: 2, in: T.self))
        }
        self.init(locator: .type(T.self), provider: provider)
    }

    /// ``init(autowiring:)`` for an initializer of 3 parameters.
    @inlinable @_disfavoredOverload
    public init<A, B, C>(autowiring initializer: @escaping @Sendable (A, B, C) throws -> T) {
        let provider = DependencyFactory.Provider<T>(
            autowired: [TypeKey(A.self), TypeKey(B.self), TypeKey(C.self)], AutowiredInitializer(call: initializer)
        ) {
            var position = 0
            return try initializer(
                try Autowiring.inject(A.self, at: &position, of: 3, in: T.self),
                try Autowiring.inject(B.self, at: &position, of: 3, in: T.self),
                try Autowiring.inject(C.self, at: &position, of: 3, in: T.self))
        }
        self.init(locator: .type(T.self), provider: provider)
    }

    /// ``init(autowiring:)`` for an initializer of 4 parameters.
    @inlinable @_disfavoredOverload
    public init<A, B, C, D>(autowiring initializer: @escaping @Sendable (A, B, C, D) throws -> T) {
        let provider = DependencyFactory.Provider<T>(
            autowired: [TypeKey(A.self), TypeKey(B.self), TypeKey(C.self), TypeKey(D.self)], AutowiredInitializer(call: initializer)
        ) {
            var position = 0
            return try initializer(
                try Autowiring.inject(A.self, at: &position, of: 4, in: T.self),
                try Autowiring.inject(B.self, at: &position, of: 4, in: T.self),
                try Autowiring.inject(C.self, at: &position, of: 4, in: T.self),
                try Autowiring.inject(D.self, at: &position, of: 4, in: T.self))
        }
        self.init(locator: .type(T.self), provider: provider)
    }

    /// ``init(autowiring:)`` for an initializer of 5 parameters.
    @inlinable @_disfavoredOverload
    public init<A, B, C, D, E>(autowiring initializer: @escaping @Sendable (A, B, C, D, E) throws -> T) {
        let provider = DependencyFactory.Provider<T>(
            autowired: [TypeKey(A.self), TypeKey(B.self), TypeKey(C.self), TypeKey(D.self), TypeKey(E.self)],
            AutowiredInitializer(call: initializer)
        ) {
            var position = 0
            return try initializer(
                try Autowiring.inject(A.self, at: &position, of: 5, in: T.self),
                try Autowiring.inject(B.self, at: &position, of: 5, in: T.self),
                try Autowiring.inject(C.self, at: &position, of: 5, in: T.self),
                try Autowiring.inject(D.self, at: &position, of: 5, in: T.self),
                try Autowiring.inject(E.self, at: &position, of: 5, in: T.self))
        }
        self.init(locator: .type(T.self), provider: provider)
    }

    /// ``init(autowiring:)`` for an initializer of 6 parameters.
    @inlinable @_disfavoredOverload
    public init<A, B, C, D, E, F>(autowiring initializer: @escaping @Sendable (A, B, C, D, E, F) throws -> T) {
        let provider = DependencyFactory.Provider<T>(
            autowired: [TypeKey(A.self), TypeKey(B.self), TypeKey(C.self), TypeKey(D.self), TypeKey(E.self), TypeKey(F.self)],
            AutowiredInitializer(call: initializer)
        ) {
            var position = 0
            return try initializer(
                try Autowiring.inject(A.self, at: &position, of: 6, in: T.self),
                try Autowiring.inject(B.self, at: &position, of: 6, in: T.self),
                try Autowiring.inject(C.self, at: &position, of: 6, in: T.self),
                try Autowiring.inject(D.self, at: &position, of: 6, in: T.self),
                try Autowiring.inject(E.self, at: &position, of: 6, in: T.self),
                try Autowiring.inject(F.self, at: &position, of: 6, in: T.self))
        }
        self.init(locator: .type(T.self), provider: provider)
    }

    /// ``init(autowiring:)`` for an initializer of 7 parameters.
    @inlinable @_disfavoredOverload
    public init<A, B, C, D, E, F, G>(autowiring initializer: @escaping @Sendable (A, B, C, D, E, F, G) throws -> T) {
        let provider = DependencyFactory.Provider<T>(
            autowired: [
                TypeKey(A.self), TypeKey(B.self), TypeKey(C.self), TypeKey(D.self), TypeKey(E.self), TypeKey(F.self), TypeKey(G.self),
            ], AutowiredInitializer(call: initializer)
        ) {
            var position = 0
            return try initializer(
                try Autowiring.inject(A.self, at: &position, of: 7, in: T.self),
                try Autowiring.inject(B.self, at: &position, of: 7, in: T.self),
                try Autowiring.inject(C.self, at: &position, of: 7, in: T.self),
                try Autowiring.inject(D.self, at: &position, of: 7, in: T.self),
                try Autowiring.inject(E.self, at: &position, of: 7, in: T.self),
                try Autowiring.inject(F.self, at: &position, of: 7, in: T.self),
                try Autowiring.inject(G.self, at: &position, of: 7, in: T.self))
        }
        self.init(locator: .type(T.self), provider: provider)
    }

    /// ``init(autowiring:)`` for an initializer of 8 parameters.
    @inlinable @_disfavoredOverload
    public init<A, B, C, D, E, F, G, H>(autowiring initializer: @escaping @Sendable (A, B, C, D, E, F, G, H) throws -> T) {
        let provider = DependencyFactory.Provider<T>(
            autowired: [
                TypeKey(A.self), TypeKey(B.self), TypeKey(C.self), TypeKey(D.self), TypeKey(E.self), TypeKey(F.self), TypeKey(G.self),
                TypeKey(H.self),
            ], AutowiredInitializer(call: initializer)
        ) {
            var position = 0
            return try initializer(
                try Autowiring.inject(A.self, at: &position, of: 8, in: T.self),
                try Autowiring.inject(B.self, at: &position, of: 8, in: T.self),
                try Autowiring.inject(C.self, at: &position, of: 8, in: T.self),
                try Autowiring.inject(D.self, at: &position, of: 8, in: T.self),
                try Autowiring.inject(E.self, at: &position, of: 8, in: T.self),
                try Autowiring.inject(F.self, at: &position, of: 8, in: T.self),
                try Autowiring.inject(G.self, at: &position, of: 8, in: T.self),
                try Autowiring.inject(H.self, at: &position, of: 8, in: T.self))
        }
        self.init(locator: .type(T.self), provider: provider)
    }

}
