// Every code sample of the Stitcher README (seed 002) for registration, activation and
// injection, as written there; only the placeholder types the samples leave undefined are
// declared here, and top-level samples are placed inside types or functions.
import Foundation
import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

// MARK: Placeholder types

private struct Email: Sendable {}
private struct Password: Sendable {}
private struct UIImage: Sendable {}
private enum ImageUploadLocation: Hashable, Sendable { case profileAvatar, banner }
private final class AuthenticationService: Sendable {
    init() {}
    func attemptLogin(email: Email, password: Password) async {}
}
private final class ImageUploadService: Sendable {
    let location: ImageUploadLocation?
    init(targeting location: ImageUploadLocation) { self.location = location }
    init() { self.location = nil }
    func upload(_ image: UIImage) async {}
}
private final class LocalStorageService: Sendable {}
private final class UserAccountService: Sendable {}
private final class LogoutService: Sendable {}
private final class AppModel: Sendable {
    static let shared = AppModel()
    var isPrincipalPresent: Bool { true }
    var canUseAuthentication: Bool { false }
}
private final class Service: ServiceSuperclass, ServiceProtocol, @unchecked Sendable {}
private protocol ServiceProtocol {}
private class ServiceSuperclass: @unchecked Sendable {}
private final class SomeService: Sendable {
    init() {}
    init(_ first: Int, _ second: String) {}
}
private final class RemoteRepository: Sendable { init(cachedBy cache: Int) {} }
private final class EventTracker: Sendable {}
private final class UserAccountManager: Sendable {}
private final class Repository: Sendable {
    init() {}
    init(cachedBy cache: Int) {}
    init(managedObjectContext context: ManagedObjectContexts) {}
}
private final class MotionDetectionService: Sendable {}
private enum System { static let isGyroscopeSupported = true }
private enum Services: String, Hashable { case service, repository }
private enum UploadServices: Hashable { case images }
private enum ManagedObjectContexts: Hashable { case repositoryContext, usersContext }
private protocol PrincipalAware {}
private struct User {}
private protocol UploadServiceProtocol {}
private final class ProfileAvatarUploadService: UploadServiceProtocol, Sendable {}
private final class ProfileBannerUploadService: UploadServiceProtocol, Sendable {}
private final class UserRepository: Sendable { init(managedObjectContext: ManagedObjectContexts) {} }
private final class AccountService: Sendable {}
extension Entity { fileprivate init(of: T.Type) {} }
private typealias Model = Entity
private func composeFeatureContainers() -> [DependencyContainer] {
    [DependencyContainer { LocalStorageService() }, DependencyContainer { UserAccountService() }]
}
nonisolated(unsafe) private let principalChangedPublisher = PassthroughSubject<Void, Never>()

private final class ObservableModel: ObservableObject, @unchecked Sendable {
    static let shared = ObservableModel()
    @Published var isLoggedIn = false
}
nonisolated(unsafe) private let authenticationStateChangedPublisher = PassthroughSubject<Void, Never>()

// MARK: Quick start

private final class QuickStartApp {
    @Dependencies
    private var container = DependencyContainer {
        // Dependency with no parameters
        AuthenticationService()
        // Dependency with parameters
        Dependency { location in
            ImageUploadService(targeting: location)
        }
        .scope(.instance)
    }
}

private class LoginSceneViewModel: ObservableObject {
    @Injected
    private var authenticationService: AuthenticationService
    func login(email: Email, password: Password) async {
        // The README passes the type `Password` here, which is not valid Swift; the value is meant.
        await authenticationService.attemptLogin(email: email, password: password)
    }
    var service: AuthenticationService { authenticationService }
}

private class ProfileSceneViewModel: ObservableObject {
    @Injected(ImageUploadLocation.profileAvatar)
    private var avatarUploadService: ImageUploadService
    func upload(image: UIImage) async {
        await avatarUploadService.upload(image)
    }
    var location: ImageUploadLocation? { avatarUploadService.location }
}

// MARK: Dependency container

private func conditionalContainer() -> DependencyContainer {
    DependencyContainer {
        Dependency {
            LocalStorageService()
        }
        if AppModel.shared.isPrincipalPresent {
            Dependency {
                UserAccountService()
            }
        }
        DependencyGroup {
            Dependency {
                AuthenticationService()
            }
        }
        .enabled(AppModel.shared.canUseAuthentication)
    }
}

private func invalidationSamples() -> [DependencyContainer] {
    [
        // Invalidate the dependency container when the shared instance of AppModel changes:
        DependencyContainer {
            if ObservableModel.shared.isLoggedIn {
                Dependency {
                    LogoutService()
                }
            }
        }
        .invalidated(tracking: ObservableModel.shared),
        // Invalidate the dependency container when the authenticationStateChangedPublisher receives an event:
        DependencyContainer {
            if ObservableModel.shared.isLoggedIn {
                Dependency {
                    LogoutService()
                }
            }
        }
        .invalidated(tracking: authenticationStateChangedPublisher),
    ]
}

private final class ManagedEmpty {
    @Dependencies
    var container = DependencyContainer {}
}

private func unmanaged() {
    let container = DependencyContainer {}
    // Manually activate a container
    DependencyGraph.activate(container)
    // Manually deactivate a container
    DependencyGraph.deactivate(container)
}

// MARK: Registration

private func registrationSamples() -> DependencyContainer {
    DependencyContainer {
        Dependency {
            Service()
        }
        Dependency { cache in
            RemoteRepository(cachedBy: cache)
        }
        Dependency { firstParameter, secondParameter in
            SomeService(firstParameter, secondParameter)
        }
        // Setting a name via initializer
        Dependency(named: "service") {
            Service()
        }
        Dependency(named: "repository") { cache in
            RemoteRepository(cachedBy: cache)
        }
        Dependency(named: "some-service") { firstParameter, secondParameter in
            SomeService(firstParameter, secondParameter)
        }
        // Setting a name via modifier
        Dependency(named: "service") {
            Service()
        }
        .named("service")
        Dependency { cache in
            RemoteRepository(cachedBy: cache)
        }
        .named("repository")
        Dependency { firstParameter, secondParameter in
            SomeService(firstParameter, secondParameter)
        }
        .named("some-service")
        // Setting a related type via initializer
        Dependency(conformingTo: ServiceProtocol.self) {
            Service()
        }
        Dependency(inheritingFrom: ServiceSuperclass.self) {
            Service()
        }
        // Setting a related type via modifier
        Dependency {
            Service()
        }
        .conforms(to: ServiceProtocol.self)
        Dependency {
            Service()
        }
        .inherits(from: ServiceSuperclass.self)
        // Setting an associated value via initializer
        Dependency(for: Services.service) {
            Service()
        }
        // Setting an associated value via modifier
        Dependency {
            Service()
        }
        .associated(with: Services.service)
    }
}

private func scopeSamples() -> DependencyContainer {
    DependencyContainer {
        Dependency {
            SomeService()
        }
        .scope(.instance)
        Dependency {
            EventTracker()
        }
        .scope(.shared)
        Dependency {
            Repository()
        }
        .scope(.singleton)
        Dependency {
            UserAccountManager()
        }
        .scope(.managed(by: principalChangedPublisher))
        Dependency {
            EventTracker()
        }
        .eagerness(.eager)
    }
}

private func groupAndAutoclosureSamples() -> [DependencyContainer] {
    [
        DependencyContainer {
            DependencyGroup {
                MotionDetectionService()
            }
            .enabled(System.isGyroscopeSupported)
        },
        DependencyContainer {
            SomeService()
            Dependency {
                SomeService()
            }
        },
    ]
}

private struct RepositoryDependency: DependencyRepresenting {
    var locator: DependencyLocator {
        .name(Self.name)
    }
    var scope: DependencyScope {
        .singleton
    }
    var eagerness: DependencyEagerness {
        .eager
    }
    var dependencyProvider: DependencyFactory.Provider<Repository> {
        DependencyFactory.Provider { cache in
            Repository(cachedBy: cache)
        }
    }
    static let name = "repository"
}

private final class RepresentingSample {
    @Dependencies
    var container = DependencyContainer {
        RepositoryDependency()
    }
    @Injected(name: RepositoryDependency.name, 1)
    var repository: Repository
}

private func mergingSample() -> DependencyContainer {
    let containers: [DependencyContainer] = composeFeatureContainers()
    let container = DependencyContainer(merging: containers)
    return container
}

// MARK: Injection

private final class InjectByNameSample {
    @Dependencies
    var container = DependencyContainer {
        Dependency {
            Service()
        }
        .named(Services.service)
        Dependency { context in
            Repository(managedObjectContext: context)
        }
        .named(Services.repository)
    }
    @Injected(name: Services.service)
    var service: Service
    @Injected(name: Services.repository, ManagedObjectContexts.repositoryContext)
    var repository: Repository
}

private class AccountRepository: PrincipalAware {}
private class AccountSettingsRepository: PrincipalAware {}

private final class InjectByTypeSample {
    @Dependencies
    var container = DependencyContainer {
        Dependency {
            AccountRepository()
        }
        .conforms(to: PrincipalAware.self)
        Dependency {
            AccountSettingsRepository()
        }
        .conforms(to: PrincipalAware.self)
    }
    @Injected
    var accountRepository: AccountRepository
    @Injected
    var optionalAccountRepository: AccountRepository?
    @Injected
    var principalAwareServices: [PrincipalAware]
    @Injected
    var optionalPrincipalAwareServices: [PrincipalAware]?
}

private enum UploadLocation: Hashable {
    case avatar
    case banner
}
private struct Entity<T>: Hashable {}

private final class InjectByValueSample {
    @Dependencies
    var container = DependencyContainer {
        Dependency {
            ProfileAvatarUploadService()
        }
        .associated(with: UploadLocation.avatar)
        Dependency {
            ProfileBannerUploadService()
        }
        .associated(with: UploadLocation.banner)
        Dependency { context in
            UserRepository(managedObjectContext: context)
        }
        .associated(
            with: Entity(
                of: User.self
            )
        )
    }
    @Injected(value: UploadLocation.avatar)
    var avatarUploadService: UploadServiceProtocol
    @Injected(value: UploadLocation.banner)
    var bannerUploadService: UploadServiceProtocol
    @Injected(value: Model(of: User.self), ManagedObjectContexts.usersContext)
    var userRepository: UserRepository
}

private final class ManualInjectionSample {
    @Dependencies
    var container = DependencyContainer {
        Dependency {
            AccountService()
        }
        .named("account-service")
        Dependency { context in
            UserRepository(managedObjectContext: context)
        }
        Dependency {
            ImageUploadService()
        }
        .associated(with: UploadServices.images)
    }

    func inject() throws -> (AccountService, UserRepository, ImageUploadService) {
        let accountService: AccountService = try DependencyGraph.inject(byName: "account-service")
        let userRepository: UserRepository = try DependencyGraph.inject(byType: UserRepository.self, ManagedObjectContexts.usersContext)
        let imageUploadService: ImageUploadService = try DependencyGraph.inject(byValue: UploadServices.images)
        return (accountService, userRepository, imageUploadService)
    }
}

private class EventTrackingService: PostInstantiationAware, @unchecked Sendable {
    static let events = Counter()
    init() {}
    func didInstantiate() {
        sendEvent(named: "App started")
    }
    func sendEvent(named: String) { Self.events.increment() }
}

private final class PostInstantiationSample {
    @Dependencies
    var container = DependencyContainer {
        Dependency {
            EventTrackingService()
        }
        .scope(.singleton)
        .eagerness(.eager)
    }
}

// MARK: Behaviour

@Suite(.isolatedDependencyGraph)
struct SeedSamplesTests {
    @Test func quickStart() async throws {
        let app = QuickStartApp()
        let login = LoginSceneViewModel()
        await login.login(email: Email(), password: Password())
        #expect(login.service === (try DependencyGraph.inject(byType: AuthenticationService.self)))
        #expect(ProfileSceneViewModel().location == .profileAvatar)
        withExtendedLifetime(app) {}
    }

    @Test func conditionalContainerFollowsAppState() throws {
        DependencyGraph.activate(conditionalContainer())
        let accounts: UserAccountService? = try DependencyGraph.inject()
        let authentication: AuthenticationService? = try DependencyGraph.inject()
        #expect(accounts != nil)
        #expect(authentication == nil)
    }

    @Test func invalidationSamplesFollowTheModel() throws {
        let containers = invalidationSamples()
        DependencyGraph.activate(containers[0])
        #expect((try DependencyGraph.inject() as LogoutService?) == nil)
        ObservableModel.shared.isLoggedIn = true
        defer { ObservableModel.shared.isLoggedIn = false }
        #expect((try DependencyGraph.inject() as LogoutService?) != nil)
        DependencyGraph.deactivate(containers[0])
        DependencyGraph.activate(containers[1])
        #expect((try DependencyGraph.inject() as LogoutService?) != nil)
    }

    @Test func activationSamples() {
        let managed = ManagedEmpty()
        #expect(DependencyGraph.isActive(managed.container))
        unmanaged()
    }

    @Test func registrationSamplesResolve() throws {
        DependencyGraph.activate(registrationSamples())
        let named: Service = try DependencyGraph.inject(byName: "service")
        let byValue: Service = try DependencyGraph.inject(byValue: Services.service)
        let repository: RemoteRepository = try DependencyGraph.inject(byName: "repository", 1)
        let some: SomeService = try DependencyGraph.inject(byType: SomeService.self, 1, "two")
        let protocols: [ServiceProtocol] = try DependencyGraph.inject()
        _ = (named, byValue, repository, some)
        // The five type-located `Service` registrations share one identity (type `Service`, no
        // parameters): the last, `.inherits(from: ServiceSuperclass.self)`, wins.
        #expect(protocols.isEmpty)
        #expect(try DependencyGraph.inject(byType: ServiceSuperclass.self) is Service)
        DependencyGraph.activate(scopeSamples())
        let repositoryA: Repository = try DependencyGraph.inject()
        let repositoryB: Repository = try DependencyGraph.inject()
        #expect(repositoryA === repositoryB)
        for container in groupAndAutoclosureSamples() { DependencyGraph.activate(container) }
        #expect((try DependencyGraph.inject() as MotionDetectionService?) != nil)
        DependencyGraph.activate(mergingSample())
        #expect((try DependencyGraph.inject() as LocalStorageService?) != nil)
    }

    @Test func representingSample() {
        let sample = RepresentingSample()
        _ = sample.repository
    }

    @Test func injectionSamples() throws {
        let byName = InjectByNameSample()
        _ = (byName.service, byName.repository)
        let byType = InjectByTypeSample()
        #expect(byType.optionalAccountRepository === byType.accountRepository)
        #expect(byType.principalAwareServices.count == 2)
        #expect(byType.optionalPrincipalAwareServices?.count == 2)
        let byValue = InjectByValueSample()
        #expect(byValue.avatarUploadService is ProfileAvatarUploadService)
        #expect(byValue.bannerUploadService is ProfileBannerUploadService)
        _ = byValue.userRepository
        let manual = ManualInjectionSample()
        _ = try manual.inject()
    }

    @Test func postInstantiationSample() {
        let before = EventTrackingService.events.value
        let sample = PostInstantiationSample()
        #expect(EventTrackingService.events.value == before + 1)
        withExtendedLifetime(sample) {}
    }
}
