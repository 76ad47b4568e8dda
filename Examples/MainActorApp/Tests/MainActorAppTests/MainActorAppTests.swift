import Foundation
import MainActorApp
import Stitcher
import StitcherTesting
import Testing

// Tests in a module isolated to the main actor by default: they run on the main actor.

/// A main-actor type torn down when its screen's scope ends.
final class ScreenSession: TeardownAware {
    private(set) var closed = false
    func tearDown() { closed = true }
}
@Suite(.isolatedDependencyGraph)
struct MainActorAppTests {
    @Test func theContainerResolvesOnTheMainActor() throws {
        DependencyGraph.activate(appContainer())
        let model: ViewModel = try DependencyGraph.inject()
        model.add("milk")
        let store: Store = try DependencyGraph.inject()
        #expect(store.items == ["milk"])
        let upload: ImageUploadService = try DependencyGraph.inject(byType: ImageUploadService.self, "avatars")
        #expect(upload.location == "avatars")
        let coordinator: Coordinator = try DependencyGraph.inject()
        #expect(coordinator.authentication === (try DependencyGraph.inject() as AuthenticationService))
    }

    @Test func propertyWrappersInjectOnTheMainActor() throws {
        DependencyGraph.activate(appContainer())
        let screen = ProfileScreen()
        screen.authentication.signIn()
        #expect(screen.model.store === (try DependencyGraph.inject() as Store))
        #expect((try DependencyGraph.inject() as AuthenticationService).isSignedIn)
    }

    @Test func injectAsyncFromAnotherContextBuildsOnTheMainActor() async throws {
        await DependencyGraph.activate(appContainer())
        // A child task runs off the main actor (and keeps the test's graph).
        let model = try await withThrowingTaskGroup(of: ViewModel.self) { group in
            group.addTask { try await DependencyGraph.injectAsync(byType: ViewModel.self) as ViewModel }
            return try await group.next()!
        }
        model.add("bread")
        #expect(model.store.items == ["bread"])
    }

    @Test func aScreenScopeOnTheMainActor() async throws {
        await DependencyGraph.activate(DependencyContainer { Dependency(.mainActor) { ScreenSession() }.scope(.scoped) })
        let (first, again) = try await DependencyGraph.withScope {
            await Task.yield()
            return (try DependencyGraph.inject() as ScreenSession, try DependencyGraph.inject() as ScreenSession)
        }
        #expect(first === again)
        #expect(first.closed)
        #expect(throws: DependencyScopeError.self) { try DependencyGraph.inject() as ScreenSession }
    }

    @Test func theAppDelegateActivatesItsContainer() throws {
        let delegate = AppDelegate()
        let upload: ImageUploadService = try DependencyGraph.inject(byType: ImageUploadService.self, "banners")
        #expect(upload.location == "banners")
        withExtendedLifetime(delegate) {}
    }
}
