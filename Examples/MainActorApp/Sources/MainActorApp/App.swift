import Foundation
import StitcherMacros

// Every type here is isolated to the main actor: the module's default.

public protocol Store: AnyObject {
    var items: [String] { get set }
}

public final class DiskStore: Store {
    public var items: [String] = []
    public init() {}
}

public final class ViewModel {
    public let store: Store
    public init(store: Store) { self.store = store }
    public func add(_ item: String) { store.items.append(item) }
}

public final class AuthenticationService {
    public private(set) var isSignedIn = false
    public init() {}
    public func signIn() { isSignedIn = true }
}

public final class ImageUploadService {
    public let location: String
    public init(targeting location: String) { self.location = location }
}

/// A coordinator whose dependencies come from the graph (`@InjectedParameters` generates
/// `init()`), registered by `@Registerable`.
@MainActor @Registerable(scope: .singleton)
public final class Coordinator {
    public let authentication: AuthenticationService

    @InjectedParameters
    public init(authentication: AuthenticationService) { self.authentication = authentication }
}

/// A screen reading its dependencies through property wrappers.
public final class ProfileScreen {
    @Injected public var model: ViewModel
    @EagerInjected public var authentication: AuthenticationService
    public init() {}
}

/// The app's dependencies. Factories of main-actor types are `@MainActor` closures, or take
/// `.mainActor`; everything else reads as in any module.
public func appContainer() -> DependencyContainer {
    DependencyContainer {
        Dependency(.mainActor) { DiskStore() }.conforms(to: Store.self).scope(.singleton)
        Dependency { @MainActor in ViewModel(store: try DependencyGraph.inject()) }
        DependencyGroup {
            Dependency(.mainActor) { AuthenticationService() }.scope(.singleton).eagerness(.eager)
            Dependency { @MainActor (location: String) in ImageUploadService(targeting: location) }
        }
        Coordinator.dependencyRegistration
    }
}

/// The quick start's `AppDelegate`, in a module isolated to the main actor.
public final class AppDelegate {
    @Dependencies
    public var container = DependencyContainer {
        Dependency(.mainActor) { AuthenticationService() }  // built on the main actor
        Dependency { @MainActor location in  // a factory with a parameter
            ImageUploadService(targeting: location)
        }
        .scope(.instance)
    }

    public init() {}
}
