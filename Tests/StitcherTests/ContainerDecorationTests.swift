import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

private protocol APIClient: Sendable { func fetch() -> String }
private final class LiveAPI: APIClient { func fetch() -> String { "live" } }
private final class FakeAPI: APIClient { func fetch() -> String { "fake" } }
private final class RecordingAPI: APIClient, @unchecked Sendable {
    let wrapped: any APIClient
    private let lock = NSLock()
    private var count = 0
    init(wrapping wrapped: any APIClient) { self.wrapped = wrapped }
    func fetch() -> String {
        lock.withLock { count += 1 }
        return "recorded " + wrapped.fetch()
    }
    var calls: Int { lock.withLock { count } }
}
private struct Prefixing: APIClient {
    let wrapped: any APIClient
    let prefix: String
    func fetch() -> String { prefix + wrapped.fetch() }
}
private final class Screen: Sendable {
    let client: any APIClient
    init(client: any APIClient) { self.client = client }
}
private final class Upload: Sendable {
    let size: Int
    init(size: Int) { self.size = size }
}
private struct DecorationFailed: Error {}

/// `Decoration(of:)`: a container wraps what other containers register, while it is active.
@Suite(.isolatedDependencyGraph)
struct ContainerDecorationTests {
    private func spy(_ decorations: Counter = Counter()) -> DependencyContainer {
        DependencyContainer(name: "Spy") {
            Decoration(of: (any APIClient).self) { client in
                decorations.increment()
                return RecordingAPI(wrapping: client)
            }
        }
    }

    @Test func aTestWrapsTheAppsClientWithoutRegisteringItAgain() throws {
        let builds = Counter()
        let decorations = Counter()
        DependencyGraph.activate(
            DependencyContainer(name: "App") {
                Dependency { () -> LiveAPI in
                    builds.increment()
                    return LiveAPI()
                }
                .conforms(to: (any APIClient).self)
                .scope(.singleton)
                Dependency(autowiring: Screen.init)
            })
        let spy = spy(decorations)
        DependencyGraph.activate(spy)
        let client: any APIClient = try DependencyGraph.inject()
        let recording = try #require(client as? RecordingAPI)
        #expect(recording.fetch() == "recorded live" && recording.calls == 1)
        // Everything injecting the protocol gets the decorated instance, decorated once.
        #expect(try DependencyGraph.inject(byType: Screen.self).client as? RecordingAPI === recording)
        #expect(decorations.value == 1)
        // By its own type, the undecorated singleton: the one the decoration wraps.
        let live: LiveAPI = try DependencyGraph.inject()
        #expect(recording.wrapped as? LiveAPI === live && builds.value == 1)
        // Deactivated, the decoration is gone; the app's singleton stays.
        DependencyGraph.deactivate(spy)
        #expect(try DependencyGraph.inject(byType: (any APIClient).self) as? LiveAPI === live)
        #expect(builds.value == 1)
    }

    @Test func eachNewInstanceIsDecoratedWhateverItsScopeAndParameters() async throws {
        let decorations = Counter()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { LiveAPI() as any APIClient }.scope(.instance)
                Dependency { (size: Int) in Upload(size: size) }
                Dependency { () async -> Screen in Screen(client: FakeAPI()) }
            })
        await DependencyGraph.activate(
            DependencyContainer {
                Decoration(of: (any APIClient).self) { client in
                    decorations.increment()
                    return Prefixing(wrapped: client, prefix: "> ")
                }
                Decoration(of: Upload.self) { upload in Upload(size: upload.size * 2) }
                Decoration(of: Screen.self) { screen in Screen(client: Prefixing(wrapped: screen.client, prefix: "async ")) }
            })
        let first: any APIClient = try DependencyGraph.inject()
        let second: any APIClient = try DependencyGraph.inject()
        #expect(first.fetch() == "> live" && second.fetch() == "> live" && decorations.value == 2)
        #expect(try DependencyGraph.inject(byType: Upload.self, 21).size == 42)
        #expect(try await DependencyGraph.injectAsync(byType: Screen.self).client.fetch() == "async fake")
    }

    @Test func itComposesWithOverridingAndWithOtherDecorations() throws {
        DependencyGraph.activate(DependencyContainer(name: "App") { Dependency { LiveAPI() }.conforms(to: (any APIClient).self) })
        DependencyGraph.activate(spy())
        DependencyGraph.activate(
            DependencyContainer(name: "Prefix") {
                Decoration(of: (any APIClient).self) { client in Prefixing(wrapped: client, prefix: "> ") }
            })
        // In activation order: the spy first, then the prefix around it.
        #expect(try DependencyGraph.inject(byType: (any APIClient).self).fetch() == "> recorded live")
        // An override activated later is what gets decorated.
        DependencyGraph.activate(DependencyContainer(name: "Fake") { Dependency { FakeAPI() as any APIClient } })
        #expect(try DependencyGraph.inject(byType: (any APIClient).self).fetch() == "> recorded fake")
        // Every registration of the type is decorated: both, in a collection.
        let all: [any APIClient] = try DependencyGraph.inject()
        #expect(all.map { $0.fetch() } == ["> recorded live", "> recorded fake"])
    }

    @Test func activeRegistrationsVerifyAndExportShowIt() throws {
        let builds = Counter()
        DependencyGraph.activate(
            DependencyContainer(name: "App") {
                Dependency { () -> LiveAPI in
                    builds.increment()
                    return LiveAPI()
                }
                .conforms(to: (any APIClient).self)
                .scope(.singleton)
            })
        DependencyGraph.activate(spy())
        let registrations = DependencyGraph.activeRegistrations
        #expect(registrations.count == 1)
        #expect(registrations.first?.decorations.map { "\($0.type) in \($0.container)" } == ["APIClient in Spy"])
        let report = DependencyGraph.verificationReport()
        #expect(report.isValid && report.registrationCount == 2)
        let dot = DependencyGraph.export(.dot)
        #expect(dot.contains("label=\"Spy\""))
        #expect(dot.contains("decorates Type[LiveAPI]"))
        #expect(dot.contains("n1 -> n0;"))
        // Building in a sandbox decorates a copy, never the graph's own singleton.
        try DependencyGraph.verify(.instantiating)
        #expect(builds.value == 1)
        _ = try DependencyGraph.inject(byType: (any APIClient).self)
        #expect(builds.value == 2)
    }

    @Test func aFailingDecorationFailsTheInjectionAndStoresNothing() throws {
        let failing = Flag(true)
        DependencyGraph.activate(DependencyContainer { Dependency { LiveAPI() }.conforms(to: (any APIClient).self).scope(.singleton) })
        DependencyGraph.activate(
            DependencyContainer {
                Decoration(of: (any APIClient).self) { client in
                    if failing.isOn { throw DecorationFailed() }
                    return client
                }
            })
        #expect(throws: InjectionError.unknown(DecorationFailed())) { try DependencyGraph.inject(byType: (any APIClient).self) }
        failing.isOn = false
        #expect(try DependencyGraph.inject(byType: (any APIClient).self) is LiveAPI)
    }

    @Test func aChildGraphDecoratesItsParentsRegistrationsForItselfOnly() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { LiveAPI() }.conforms(to: (any APIClient).self).scope(.singleton) })
        let session = DependencyGraph.currentContext.child()
        session.activate(spy())
        #expect(try session.inject(byType: (any APIClient).self).fetch() == "recorded live")
        #expect(try DependencyGraph.inject(byType: (any APIClient).self).fetch() == "live")
        let live: LiveAPI = try DependencyGraph.inject()
        #expect(try (session.inject(byType: (any APIClient).self) as? RecordingAPI)?.wrapped as? LiveAPI === live)
    }
}
