import Foundation
import Stitcher
import StitcherTesting
import Testing

// An `@Injected` property can be assigned (a fake put in place): the assignment changes
// that property only, and `reload()` injects the graph's value again.

private protocol Routing: AnyObject, Sendable { var name: String { get } }
private final class Router: Routing, @unchecked Sendable { let name = "router" }
private final class FakeRouter: Routing, @unchecked Sendable { let name = "fake" }

private final class Screen {
    @Injected var router: any Routing
}

@Suite(.isolatedDependencyGraph)
struct AssignableInjectedTests {
    @Test func anAssignmentChangesThisPropertyOnlyUntilReload() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Router() as any Routing }.scope(.singleton) })
        let screen = Screen()
        let other = Screen()
        #expect(screen.router.name == "router")
        screen.router = FakeRouter()
        #expect(screen.router.name == "fake")
        #expect(other.router.name == "router", "another property injecting the same dependency")
        #expect(try DependencyGraph.inject(byType: (any Routing).self).name == "router", "the graph")
        try screen.$router.reload()
        #expect(screen.router.name == "router")
        #expect(screen.router === other.router)
    }

    @Test func aPropertyAssignedBeforeItsFirstReadNeverInjects() throws {
        // Nothing is registered: reading the property unassigned would stop the program.
        let screen = Screen()
        screen.router = FakeRouter()
        #expect(screen.router.name == "fake")
        #expect(throws: InjectionError.missingDependency(.type("Routing"))) { try screen.$router.reload() }
        #expect(screen.router.name == "fake", "a failed reload keeps the value")
    }

    @Test func assignmentsAndReadsFromManyThreads() async throws {
        await DependencyGraph.activate(DependencyContainer { Dependency { Router() as any Routing }.scope(.singleton) })
        let screen = Screen()
        _ = screen.router
        let box = UncheckedScreen(screen)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    for _ in 0..<200 {
                        if index.isMultiple(of: 2) { box.screen.router = FakeRouter() }
                        #expect(["router", "fake"].contains(box.screen.router.name))
                    }
                }
            }
        }
        try screen.$router.reload()
        #expect(screen.router.name == "router")
    }
}

private final class UncheckedScreen: @unchecked Sendable {
    let screen: Screen
    init(_ screen: Screen) { self.screen = screen }
}
