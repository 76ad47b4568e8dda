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
        /// Runs the factory and returns the instance in stored form; the caller checks that
        /// the arguments match the signature. When `callsClassFactory`, the factory itself,
        /// never called as it is declared (see `callableMake`).
        @usableFromInline let make: (InjectionArguments) throws -> AnyObject
        /// What the three properties below read: one byte, so that copying a provider (which
        /// each modifier of a `Dependency` does) stays a few moves that the optimizer keeps
        /// inline.
        @usableFromInline let traits: ProviderTraits
        /// The factory closure's code address (see `RegistrationRecord.origin`).
        @usableFromInline let originCode: UInt
        /// The factory closure's context (see `RegistrationRecord.origin`).
        @usableFromInline let originContext: UInt
        /// What only some factories have: `make` itself and the factory's identity (unless
        /// `callsClassFactory`), parameters, a boxed form, an asynchronous factory. Nil for a
        /// class factory without parameters, which the record then keeps in one 72-byte
        /// allocation.
        @usableFromInline let extras: RegistrationExtras?

        /// Whether `T` is a class, so that instances are stored as themselves.
        @inlinable var storesObjects: Bool { traits.contains(.storesObjects) }
        /// Whether every `T` is `PostInstantiationAware` (see `RegistrationRecord.finish(_:)`).
        @inlinable var alwaysAware: Bool { traits.contains(.alwaysAware) }
        /// Whether `make` is a class's factory kept as it is (`CapturedClassFactory`).
        @inlinable var callsClassFactory: Bool { traits.contains(.callsClassFactory) }

        /// - Parameters:
        ///   - signature: equal to `InjectionArguments.signature` of the injections the
        ///     factory accepts.
        ///   - origin: the factory closure's code address and context.
        @usableFromInline
        init(
            parameterTypes: [TypeKey], signature: ObjectIdentifier, origin: ClosureIdentity, storesObjects: Bool,
            form: InstanceForm.Type?, writeValue: ValueWriter? = nil,
            makeAsync: ((InjectionArguments) async throws -> AnyObject)? = nil,
            isMainActor: Bool = false, declaredDependencies: [TypeKey] = [],
            make: @escaping (InjectionArguments) throws -> AnyObject
        ) {
            self.init(
                origin: origin, storesObjects: storesObjects,
                extras: RegistrationExtras.of(
                    parameterTypes: parameterTypes, signature: signature, form: form, writeValue: writeValue,
                    makeAsync: makeAsync, isMainActor: isMainActor, declaredDependencies: declaredDependencies,
                    origin: origin, make: make),
                make: make)
        }

        /// A provider with `extras` as given. A class factory without parameters (most
        /// registrations) passes nil: it then neither computes a signature nor makes and
        /// destroys the empty lists the initializer above takes (≈ 100 instructions an
        /// activated registration). Extras that do not hold `make` (nil, or a class factory's
        /// declared dependencies) get it when the record is made (`RegistrationExtras.adding`).
        @usableFromInline
        init(
            origin: ClosureIdentity, storesObjects: Bool, extras: RegistrationExtras?, callsClassFactory: Bool = false,
            make: @escaping (InjectionArguments) throws -> AnyObject
        ) {
            var traits: ProviderTraits = []
            if storesObjects { traits.insert(.storesObjects) }
            if isPostInstantiationAware(T.self) { traits.insert(.alwaysAware) }
            if callsClassFactory { traits.insert(.callsClassFactory) }
            self.traits = traits
            originCode = origin.code
            originContext = origin.context
            self.extras = extras
            self.make = make
        }

        /// A provider of a class's factory without parameters, kept as it is instead of in a
        /// closure that calls it (see `CapturedClassFactory`), or in one when that cannot be
        /// trusted. Not inlined: the registration's inlined code only makes the factory.
        @usableFromInline
        init(origin: ClosureIdentity, classFactory factory: ClassFactory<T>) {
            guard CapturedClassFactory.isReliable else {
                self.init(origin: origin, storesObjects: true, extras: nil) { _ in
                    unsafeBitCast(try factory.call(), to: AnyObject.self)
                }
                return
            }
            self.init(
                origin: origin, storesObjects: true, extras: nil, callsClassFactory: true,
                make: CapturedClassFactory.disguise(factory))
        }

        /// `make` as a closure that can be called, whatever it holds.
        var callableMake: (InjectionArguments) throws -> AnyObject {
            guard callsClassFactory else { return make }
            let factory = CapturedClassFactory.factory(disguisedAs: make)
            return { _ in try factory.call() }
        }

        /// This provider, with `declared` added to the dependencies its factory declares.
        func declaring(_ declared: [DeclaredDependency]) -> Provider {
            Provider(self, extras: RegistrationExtras.declaring(declared, in: extras))
        }

        /// This provider with its factories replaced (a decorator wraps them); the origin,
        /// and so the registration's identity, stays the factory's.
        init(
            _ provider: Provider, make: @escaping (InjectionArguments) throws -> AnyObject,
            makeAsync: ((InjectionArguments) async throws -> AnyObject)?
        ) {
            self.make = make
            traits = provider.traits.subtracting(.callsClassFactory)
            originCode = provider.originCode
            originContext = provider.originContext
            extras = RegistrationExtras.replacing(
                make: make, makeAsync: makeAsync,
                origin: ClosureIdentity(code: provider.originCode, context: provider.originContext), in: provider.extras)
        }

        private init(_ provider: Provider, extras: RegistrationExtras) {
            make = provider.make
            traits = provider.traits
            originCode = provider.originCode
            originContext = provider.originContext
            self.extras = extras
        }

        /// Creates a provider from a factory closure without parameters.
        ///
        /// Inlined, so that the caller's module compiles what makes instances for the
        /// concrete type: a class's factory is kept as it is (`CapturedClassFactory`), a
        /// value's written in place (`ValueWriter`); instantiation then runs no generic code.
        @inlinable
        public init(_ factory: @escaping @Sendable () throws -> T) {
            if T.self is AnyClass {
                self.init(origin: codeAddress(of: factory), classFactory: ClassFactory(call: factory))
            } else {
                self.init(origin: codeAddress(of: factory), values: factory)
            }
        }

        /// `init(origin:values:)` for a factory declared with an empty parameter pack; the
        /// closure calling it is made here, so that the initializer the registration inlines
        /// stays small.
        @inlinable
        init<each Parameter>(origin: ClosureIdentity, values factory: PackFactory<T, repeat each Parameter>) {
            let none = (() as Any) as! (repeat each Parameter)
            self.init(origin: origin, values: { try factory.call(repeat each none) })
        }

        /// A provider of values made by `factory`, which takes no parameters: boxed when
        /// stored, written in place when injected (see `ValueWriter`).
        ///
        /// A value of an existential `T` (`Impl() as any P`) is of another type, which may be
        /// `PostInstantiationAware`: the writer and the typed factory ask, as
        /// `RegistrationRecord.finish(_:)` does for a boxed one. Never inlined: inlined into
        /// the initializers, it made them too large for the optimizer to inline into a
        /// class's registration, which then called its factory through a context (30
        /// instructions more a transient).
        @inlinable @inline(never)
        init(origin: ClosureIdentity, values factory: @escaping () throws -> T) {
            let notifies = ValueWriter.notifiesInstances(of: T.self)
            self.init(
                parameterTypes: [], signature: InjectionArguments.noParameters, origin: origin, storesObjects: false,
                form: BoxedForm<T>.self,
                writeValue: ValueWriter(of: T.self, factory: notifies ? ValueFactory(notifying: factory) : ValueFactory(factory)) {
                    _, destination in
                    // Asked where it was written: a copy of an existential cost a move more.
                    let value = destination.initializeMemory(as: T.self, to: try factory())
                    if notifies { ValueWriter.notifyIfAware(&value.pointee) }
                }
            ) { _ in
                TypedBox(try factory())
            }
        }

        /// A provider of an asynchronous factory.
        init(
            asynchronous types: [TypeKey], signature: ObjectIdentifier, origin: ClosureIdentity,
            declaredDependencies: [TypeKey] = [],
            make: @escaping (InjectionArguments) async throws -> T
        ) {
            let storesObjects = T.self is AnyClass
            self.init(
                parameterTypes: types, signature: signature, origin: origin, storesObjects: storesObjects,
                form: storesObjects ? nil : BoxedForm<T>.self,
                makeAsync: { arguments in
                    let instance = try await make(arguments)
                    return storesObjects ? unsafeBitCast(instance, to: AnyObject.self) : TypedBox(instance)
                },
                declaredDependencies: declaredDependencies
            ) { _ in
                throw InjectionError.unsupportedOperation
            }
        }

        /// Creates a provider from a factory closure taking any number of `Hashable` parameters.
        ///
        /// Inlined, like the initializer without parameters, so that the registering module
        /// compiles the reading of the parameters for their concrete types.
        @inlinable
        public init<each Parameter>(
            _ factory: @escaping @Sendable (repeat each Parameter) throws -> T
        ) {
            var types: [TypeKey] = []
            repeat types.append(TypeKey((each Parameter).self))
            let origin = codeAddress(of: PackFactory(call: factory))
            let storesObjects = T.self is AnyClass
            let form: InstanceForm.Type? = storesObjects ? nil : BoxedForm<T>.self
            if types.isEmpty {
                // Cast the empty tuple once, not on every instantiation.
                let none = (() as Any) as! (repeat each Parameter)
                if storesObjects {
                    self.init(origin: origin, storesObjects: true, extras: nil) { _ in
                        unsafeBitCast(try factory(repeat each none), to: AnyObject.self)
                    }
                } else {
                    self.init(origin: origin, values: PackFactory(call: factory))
                }
            } else if storesObjects {
                // The signature matched: the arguments hold exactly these types.
                self.init(
                    parameterTypes: types, signature: ObjectIdentifier(ArgumentPack<repeat each Parameter>.self),
                    origin: origin, storesObjects: true, form: nil
                ) { arguments in
                    let values = arguments.load(as: (repeat each Parameter).self)
                    return unsafeBitCast(try factory(repeat each values), to: AnyObject.self)
                }
            } else {
                self.init(
                    parameterTypes: types, signature: ObjectIdentifier(ArgumentPack<repeat each Parameter>.self),
                    origin: origin, storesObjects: false, form: form
                ) { arguments in
                    let values = arguments.load(as: (repeat each Parameter).self)
                    return TypedBox(try factory(repeat each values))
                }
            }
        }
    }
}

extension DependencyFactory.Provider {
    /// Creates a provider from an asynchronous factory without parameters.
    ///
    /// Its dependency is injected with `try await DependencyGraph.injectAsync(…)`; a
    /// synchronous injection throws ``InjectionError/unsupportedOperation`` until an
    /// asynchronous one has built a stored instance.
    ///
    /// ```swift
    /// DependencyFactory.Provider { () async throws -> Database in try await Database.connect() }
    /// ```
    public init(_ factory: @escaping @Sendable () async throws -> T) {
        self.init(asynchronous: [], signature: InjectionArguments.noParameters, origin: codeAddress(of: factory)) { _ in
            try await factory()
        }
    }

    /// Creates a provider from an asynchronous factory taking `Hashable` parameters.
    public init<each Parameter>(_ factory: @escaping @Sendable (repeat each Parameter) async throws -> T) {
        var types: [TypeKey] = []
        repeat types.append(TypeKey((each Parameter).self))
        let origin = codeAddress(of: AsyncPackFactory(call: factory))
        if types.isEmpty {
            let none = (() as Any) as! (repeat each Parameter)
            self.init(asynchronous: [], signature: InjectionArguments.noParameters, origin: origin) { _ in
                try await factory(repeat each none)
            }
        } else {
            self.init(
                asynchronous: types, signature: ObjectIdentifier(ArgumentPack<repeat each Parameter>.self), origin: origin
            ) { arguments in
                let values = arguments.load(as: (repeat each Parameter).self)
                return try await factory(repeat each values)
            }
        }
    }
}
