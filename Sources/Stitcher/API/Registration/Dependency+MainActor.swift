import Foundation

/// Marks a factory isolated to the main actor, for the registrations of main-actor types
/// (view models, coordinators, UI services).
///
/// Its factory runs on the main actor: a synchronous injection builds it when called on the
/// main actor, and `try await DependencyGraph.injectAsync(…)` hops to the main actor to
/// build it from anywhere else. A synchronous injection that would have to build it
/// elsewhere throws ``MainActorIsolationError``; an instance already stored is returned
/// on any thread.
///
/// Write the factory as a `@MainActor` closure, or pass `.mainActor` and write it as usual:
///
/// ```swift
/// DependencyContainer {
///     Dependency { @MainActor in ProfileViewModel(store: try DependencyGraph.inject()) }
///     Dependency(.mainActor) { SettingsCoordinator() }.scope(.singleton)
/// }
/// ```
public struct DependencyIsolation: Hashable, Sendable {
    private init() {}

    /// The factory is isolated to the main actor.
    public static let mainActor = DependencyIsolation()
}

extension Dependency {
    /// A dependency located by its type, built on the main actor.
    ///
    /// ```swift
    /// Dependency { @MainActor in ProfileViewModel() }
    /// ```
    public init(_ isolation: DependencyIsolation = .mainActor, _ factory: @escaping @MainActor @Sendable () throws -> T) {
        self.init(locator: .type(T.self), provider: .init(isolation, factory))
    }

    /// A dependency located by its type, built on the main actor from `Hashable` parameters.
    ///
    /// ```swift
    /// Dependency { @MainActor (userID: Int) in ProfileViewModel(userID: userID) }
    /// ```
    public init<each Parameter>(
        _ isolation: DependencyIsolation = .mainActor,
        _ factory: @escaping @MainActor @Sendable (repeat each Parameter) throws -> T
    ) {
        self.init(locator: .type(T.self), provider: .init(isolation, factory))
    }
}

extension Dependency {
    /// A dependency with every characteristic given at once and a factory isolated to the
    /// main actor, as `@Registerable` writes it for a `@MainActor` type.
    ///
    /// ```swift
    /// Dependency<ProfileViewModel>(locator: .type(ProfileViewModel.self), scope: .shared, eagerness: .lazy,
    ///                              isolation: .mainActor) { ProfileViewModel() }
    /// ```
    public init<each Parameter>(
        locator: DependencyLocator,
        scope: DependencyScope,
        eagerness: DependencyEagerness,
        isolation: DependencyIsolation,
        _ factory: @escaping @MainActor @Sendable (repeat each Parameter) throws -> T
    ) {
        self.init(locator: locator, scope: scope, eagerness: eagerness, provider: .init(isolation, factory))
    }
}

extension DependencyFactory.Provider {
    /// Creates a provider from a factory isolated to the main actor.
    ///
    /// ```swift
    /// DependencyFactory.Provider { @MainActor in ProfileViewModel() }
    /// ```
    public init(_ isolation: DependencyIsolation = .mainActor, _ factory: @escaping @MainActor @Sendable () throws -> T) {
        let storesObjects = T.self is AnyClass
        self.init(
            parameterTypes: [], signature: InjectionArguments.noParameters, origin: codeAddress(of: factory),
            storesObjects: storesObjects, form: storesObjects ? nil : BoxedForm<T>.self, isMainActor: true
        ) { _ in
            try onMainActor(storesObjects) { try factory() }
        }
    }

    /// Creates a provider from a factory isolated to the main actor, taking `Hashable`
    /// parameters.
    public init<each Parameter>(
        _ isolation: DependencyIsolation = .mainActor,
        _ factory: @escaping @MainActor @Sendable (repeat each Parameter) throws -> T
    ) {
        var types: [TypeKey] = []
        repeat types.append(TypeKey((each Parameter).self))
        let storesObjects = T.self is AnyClass
        let none = types.isEmpty ? (() as Any) as? (repeat each Parameter) : nil
        self.init(
            parameterTypes: types,
            signature: types.isEmpty ? InjectionArguments.noParameters : ObjectIdentifier(ArgumentPack<repeat each Parameter>.self),
            origin: codeAddress(of: MainActorPackFactory(call: factory)), storesObjects: storesObjects,
            form: storesObjects ? nil : BoxedForm<T>.self, isMainActor: true
        ) { arguments in
            // The signature matched: the arguments hold exactly these types.
            // Only called on the main thread (checked by `onMainThread`), so the values stay there.
            let values = UncheckedSendable(none ?? arguments.load(as: (repeat each Parameter).self))
            return try onMainActor(storesObjects) { try factory(repeat each values.value) }
        }
    }
}

/// A main-actor factory taking a parameter pack, wrapped to be passed as a generic value.
struct MainActorPackFactory<T, each Parameter> {
    let call: @MainActor @Sendable (repeat each Parameter) throws -> T
}

/// Runs a main-actor factory when called on the main actor and returns the instance in stored
/// form; elsewhere throws `OffMainActor`, which the engine reports as a
/// ``MainActorIsolationError`` naming the dependency.
func onMainActor<T>(_ storesObjects: Bool, _ factory: @MainActor () throws -> T) throws -> AnyObject {
    guard isOnMainActor() else { throw OffMainActor() }
    let instance = try MainActor.assumeIsolated { UncheckedSendable(try factory()) }.value
    return storesObjects ? unsafeBitCast(instance, to: AnyObject.self) : TypedBox(instance)
}

/// Thrown by a main-actor factory called off the main actor.
struct OffMainActor: Error {}
