import Stitcher
import StitcherTesting
import Testing

// The exact type wins over an alias: injecting `P` when one registration's own type is `P`
// and others only list `P` among their aliases picks the first, on the direct path and on
// the general one, synchronously and asynchronously; `[P]` still gets every match.

private protocol Router: AnyObject { var name: String { get } }
private protocol DeeplinkHandling: AnyObject {}
private final class AppRouter: Router, DeeplinkHandling, @unchecked Sendable { let name = "app" }
private final class FakeRouter: Router, @unchecked Sendable { let name = "fake" }
private final class OtherRouter: Router, @unchecked Sendable { let name = "other" }
@Suite(.isolatedDependencyGraph)
struct ExactTypeTests {
    @Test func aRegistrationOfTheProtocolItselfWinsOverAliases() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { AppRouter() }.conforms(to: Router.self).conforms(to: DeeplinkHandling.self).scope(.singleton)
                Dependency { OtherRouter() }.conforms(to: Router.self).scope(.singleton)
                Dependency { FakeRouter() as any Router }.scope(.singleton)
            }
        }) { path throws in
            let router: any Router = try DependencyGraph.inject()
            #expect(router.name == "fake", "\(path)")
            #expect((try DependencyGraph.inject() as (any Router)?)?.name == "fake", "\(path)")
            let handler: any DeeplinkHandling = try DependencyGraph.inject()
            #expect(handler is AppRouter, "\(path): the registration's other alias is untouched")
            let all: [any Router] = try DependencyGraph.inject()
            #expect(all.map(\.name).sorted() == ["app", "fake", "other"], "\(path): every match")
        }
    }

    @Test func aTestContainerOverridesOneAliasOfAMultiAliasRegistration() throws {
        try inBothPaths({
            DependencyContainer(merging: [
                DependencyContainer {
                    Dependency { AppRouter() }.conforms(to: Router.self).conforms(to: DeeplinkHandling.self).scope(.singleton)
                },
                DependencyContainer { Dependency { FakeRouter() as any Router }.scope(.instance) },
            ])
        }) { path throws in
            #expect(try DependencyGraph.inject(byType: (any Router).self).name == "fake", "\(path)")
            #expect(try DependencyGraph.inject(byType: (any DeeplinkHandling).self) is AppRouter, "\(path)")
        }
    }

    @Test func onlyAliasesStayAmbiguous() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { AppRouter() }.conforms(to: Router.self)
                Dependency { OtherRouter() }.conforms(to: Router.self)
            }
        }) { path throws in
            #expect(throws: InjectionError.multipleDependencies(.type("Router")), "\(path)") {
                try DependencyGraph.inject() as any Router
            }
        }
    }

    @Test func theExactTypeWinsOnlyAmongRegistrationsTakingTheInjectionsParameters() throws {
        // (Two registrations of the protocol itself and the same parameters cannot both be
        // active: they have one identity, and the later one replaces the earlier.)
        try inBothPaths({
            DependencyContainer {
                Dependency { (_: Int) in FakeRouter() as any Router }
                Dependency { AppRouter() }.conforms(to: Router.self)
                Dependency { OtherRouter() }.conforms(to: Router.self)
            }
        }) { path throws in
            #expect(throws: InjectionError.multipleDependencies(.type("Router")), "\(path)") {
                try DependencyGraph.inject() as any Router
            }
            #expect(try DependencyGraph.inject(byType: (any Router).self, 1).name == "fake", "\(path)")
        }
    }

    @Test func theExactTypeWinsForAsynchronousInjectionsToo() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { AppRouter() }.conforms(to: Router.self).scope(.singleton)
                Dependency { () async -> any Router in FakeRouter() }.scope(.singleton)
            })
        let router: any Router = try await DependencyGraph.injectAsync()
        #expect(router.name == "fake")
    }
}
