extension Dependency {
    /// Adjusts or wraps each new instance the factory makes, before it is stored and handed
    /// out: a logging proxy, retries, metrics, or a spy in a test.
    ///
    /// `decorate` runs once per new instance (once for a singleton, for every injection of
    /// an `.instance` dependency), right after the factory, inside the same build: what it
    /// injects is part of the instance's resolution path (cycles through it are reported),
    /// and an error it throws fails the injection as the factory's would. It works on every
    /// kind of registration: factories with parameters, asynchronous factories (it runs
    /// after the factory's value is awaited), autowired initializers and the macros'
    /// registrations. Decorators added one after another run in that order.
    ///
    /// ```swift
    /// Dependency(autowiring: LiveAPIClient.init)
    ///     .conforms(to: APIClient.self)
    ///     .decorated { client in
    ///         client.requestTimeout = .seconds(10)
    ///         return client
    ///     }
    ///     .scope(.singleton)
    /// ```
    ///
    /// To replace the instance with a wrapper of another type, register the wrapper under
    /// the protocol both conform to (`Dependency { LoggingClient(wrapping: LiveClient()) as any APIClient }`).
    public func decorated(_ decorate: @escaping @Sendable (T) throws -> T) -> Dependency {
        let provider = dependencyProvider
        let wrap = Self.decorating(decorate, storesObjects: provider.storesObjects)
        let make = provider.callableMake
        let makeAsync = provider.extras?.makeAsync.map { makeAsync in
            { (arguments: InjectionArguments) async throws -> AnyObject in try wrap(await makeAsync(arguments)) }
        }
        return Dependency(
            locator: locator, scope: scope, eagerness: eagerness,
            provider: DependencyFactory.Provider(provider, make: { try wrap(make($0)) }, makeAsync: makeAsync))
    }

    /// `decorate` applied to a factory's stored form: the object itself, or a value in its
    /// `TypedBox`.
    private static func decorating(
        _ decorate: @escaping @Sendable (T) throws -> T, storesObjects: Bool
    ) -> @Sendable (AnyObject) throws -> AnyObject {
        { stored in
            if storesObjects, let instance = stored as? T {
                return unsafeBitCast(try decorate(instance), to: AnyObject.self)
            }
            if let box = stored as? TypedBox<T> { return TypedBox(try decorate(box.value)) }
            // Another stored form (a factory's `unsupportedOperation` placeholder never
            // returns): left as it is.
            return stored
        }
    }
}
