import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

private final class HTTPClient: Sendable {}
private struct Credentials: Sendable { let user: String }
private final class ProfileStore: Sendable {
    let client: HTTPClient
    let credentials: Credentials
    init(client: HTTPClient, credentials: Credentials) {
        self.client = client
        self.credentials = credentials
    }
}
private final class Logger: Sendable {
    let label: String
    init(label: String) { self.label = label }
}
private final class Analytics: Sendable {
    let logger: Logger
    init(logger: Logger) { self.logger = logger }
}
private final class SessionToken: Sendable {}
/// A parent's singleton that wants what only a session registers.
private final class TokenCache: Sendable {
    init(token: SessionToken) {}
}
private final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    func record(_ entry: String) { lock.withLock { entries.append(entry) } }
    var recorded: [String] { lock.withLock { entries } }
}
private final class Database: TeardownAware, @unchecked Sendable {
    let recorder: Recorder
    init(recorder: Recorder) { self.recorder = recorder }
    func tearDown() throws { recorder.record("Database") }
}
private final class Repository: TeardownAware, @unchecked Sendable {
    let database: Database
    let recorder: Recorder
    init(database: Database, recorder: Recorder) {
        self.database = database
        self.recorder = recorder
    }
    func tearDown() throws { recorder.record("Repository") }
}
private final class EventLog: DependencyGraphObserver, @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    func didCreate(_ event: DependencyGraphEvent.InstanceCreated) { lock.withLock { events.append("created \(event.dependency)") } }
    func didTearDown(_ event: DependencyGraphEvent.Teardown) {
        lock.withLock { events.append("torn down \(event.dependency)\(event.scopeID == nil ? " with the graph" : "")") }
    }
    var recorded: [String] { lock.withLock { events } }
}

/// `Context.child()`: a graph for a session or a feature, over the app's.
struct ChildGraphTests {
    private func app() -> DependencyGraph.Context {
        let app = DependencyGraph.Context.isolated()
        app.activate(
            DependencyContainer(name: "App") {
                Dependency { HTTPClient() }.scope(.singleton)
                Dependency { Logger(label: "app") }.scope(.singleton)
                Dependency(autowiring: Analytics.init).scope(.singleton)
            })
        return app
    }

    @Test func aChildResolvesItsOwnFirstThenItsParentsAtEveryLevel() throws {
        let app = app()
        let session = app.child()
        session.activate(
            DependencyContainer(name: "Session") {
                Dependency { Credentials(user: "ada") }
                Dependency(autowiring: ProfileStore.init).scope(.singleton)
            })
        let store: ProfileStore = try session.inject()
        #expect(try store.client === app.inject(byType: HTTPClient.self))
        #expect(store.credentials.user == "ada")
        #expect(try session.inject(byType: ProfileStore.self) === store)
        // The parent does not see the child's registrations.
        #expect(throws: InjectionError.self) { try app.inject(byType: ProfileStore.self) }
    }

    @Test func whatTheParentStoresIsBuiltFromTheParentWhicheverChildAsksFirst() throws {
        let app = app()
        let session = app.child()
        session.activate(DependencyContainer { Dependency { Logger(label: "session") }.scope(.singleton) })
        // Asked from the child first: built in the app, with the app's logger.
        let analytics: Analytics = try session.inject()
        #expect(analytics.logger.label == "app")
        #expect(try app.inject(byType: Analytics.self) === analytics)
        // The child's own registration wins in the child only.
        #expect(try session.inject(byType: Logger.self).label == "session")
        #expect(try app.inject(byType: Logger.self).label == "app")
        session.deactivateAll()
        #expect(try session.inject(byType: Logger.self).label == "app")
    }

    @Test func endingAChildTearsDownAndReleasesWhatItStoresAndLeavesTheParentAlone() throws {
        let app = app()
        let recorder = Recorder()
        let log = EventLog()
        var session: DependencyGraph.Context? = app.child()
        session!.observer = log
        session!.activate(
            DependencyContainer {
                Dependency { recorder }
                Dependency(autowiring: Database.init).scope(.singleton)
                Dependency(autowiring: Repository.init).scope(.singleton)
            })
        weak let repository: Repository? = try session!.inject()
        let client: HTTPClient = try session!.inject()
        let lazy: Lazy<Repository> = try session!.inject()
        #expect(repository != nil && !session!.hasEnded)
        session!.end()
        // Dependents first: the repository before the database it uses.
        #expect(recorder.recorded == ["Repository", "Database"])
        #expect(log.recorded.suffix(2) == ["torn down Type[Repository] with the graph", "torn down Type[Database] with the graph"])
        #expect(repository == nil && session!.hasEnded)
        #expect(try app.inject(byType: HTTPClient.self) === client)
        // An ended child resolves nothing, not even its parent's registrations.
        #expect(throws: InjectionError.self) { try session!.inject(byType: HTTPClient.self) }
        #expect(throws: DeferredInjectionError.self) { try lazy.value }
        session!.end()
        #expect(recorder.recorded.count == 2)
        // Ending by letting the last copy go.
        session = app.child()
        session!.activate(
            DependencyContainer {
                Dependency { recorder }
                Dependency(autowiring: Database.init).scope(.singleton)
            })
        _ = try session!.inject(byType: Database.self)
        session = nil
        #expect(recorder.recorded == ["Repository", "Database", "Database"])
        #expect(app.graph.lock.withLock { app.graph.overlays.isEmpty })
    }

    @Test func aParentsSingletonCapturingAChildsDependencyIsAnError() throws {
        let app = app()
        app.activate(DependencyContainer { Dependency(autowiring: TokenCache.init).scope(.singleton) })
        let session = app.child()
        session.activate(DependencyContainer(name: "Session") { Dependency { SessionToken() } })
        let autowiring = #expect(throws: AutowiringError.self) { try session.inject(byType: TokenCache.self) }
        guard case .uninjectable(_, _, let underlying)? = autowiring?.failure else {
            Issue.record("expected the parameter's error, got \(String(describing: autowiring))")
            return
        }
        let error = underlying as? DependencyScopeError
        #expect(error?.reason == .capturesChildDependency(holder: .type("TokenCache"), holderScope: "singleton"))
        #expect(error?.requested == .type("SessionToken"))
        #expect(error?.recoverySuggestion?.hasPrefix("To fix this, ") == true)
        // Injected by a closure factory, the same error reaches the caller.
        app.activate(DependencyContainer { Dependency { TokenCache(token: try DependencyGraph.inject()) }.named("cache") })
        #expect(throws: DependencyScopeError.self) { let _: TokenCache = try session.inject(byName: "cache") }
        app.deactivateAll()
        app.activate(DependencyContainer { Dependency(autowiring: TokenCache.init).scope(.singleton) })
        // verify() on the child reports it, checking the child with its ancestry.
        let problems = session.run { DependencyGraph.verificationReport().problems }
        #expect(
            problems.map { "\($0.kind) \($0.dependency) \($0.requested.map(String.init(describing:)) ?? "")" } == [
                "captiveDependency Type[TokenCache] Type[SessionToken]"
            ])
        #expect(problems.first?.fix.hasPrefix("To fix this, ") == true)
        // In the parent, it is simply missing.
        #expect(app.run { DependencyGraph.verificationReport().problems.map(\.kind) } == [.missingDependency])
    }

    @Test func anAsynchronousParentSingletonIsBuiltInTheParentToo() async throws {
        let app = DependencyGraph.Context.isolated()
        await app.activate(
            DependencyContainer {
                Dependency { Logger(label: "app") }
                Dependency { () async throws -> Analytics in
                    await Task.yield()
                    return Analytics(logger: try DependencyGraph.inject())
                }
                .scope(.singleton)
                Dependency { () async throws -> TokenCache in TokenCache(token: try await DependencyGraph.injectAsync()) }
                    .scope(.singleton)
            })
        let session = app.child()
        await session.activate(
            DependencyContainer {
                Dependency { Logger(label: "session") }
                Dependency { SessionToken() }
            })
        let analytics: Analytics = try await session.injectAsync()
        #expect(analytics.logger.label == "app")
        await #expect(throws: DependencyScopeError.self) { let _: TokenCache = try await session.injectAsync() }
    }

    @Test func scopesWrappersObserversAndGrandchildrenWorkOnAChild() throws {
        let app = app()
        let session = app.child()
        let log = EventLog()
        session.observer = log
        session.activate(
            DependencyContainer {
                Dependency { Credentials(user: "ada") }
                Dependency { SessionToken() }.scope(.scoped)
                Dependency { Database(recorder: Recorder()) }.scope(.singleton)
            })
        try session.withScope {
            let first: SessionToken = try DependencyGraph.inject()
            #expect(try DependencyGraph.inject(byType: SessionToken.self) === first)
            #expect(try DependencyGraph.inject(byType: Credentials.self).user == "ada")
        }
        @Injected(in: session) var credentials: Credentials
        #expect(credentials.user == "ada")
        let eager = EagerInjected<Credentials>(in: session)
        #expect(eager.wrappedValue.user == "ada")
        let database: Database = try session.inject()
        session.releaseInstances()
        #expect(try session.inject(byType: Database.self) !== database)
        #expect(log.recorded.contains("created Type[SessionToken]"))
        // A child of a child follows every level, and sees what its ancestors activate later.
        let feature = session.child()
        feature.activate(DependencyContainer { Dependency { Logger(label: "feature") } })
        #expect(try feature.inject(byType: Credentials.self).user == "ada")
        #expect(try feature.inject(byType: Logger.self).label == "feature")
        app.activate(DependencyContainer { Dependency { ProfileStore(client: HTTPClient(), credentials: Credentials(user: "late")) } })
        #expect(try feature.inject(byType: ProfileStore.self).credentials.user == "late")
        // A child keeps its parent alive: the feature outlives every other copy of the session.
        var orphan: DependencyGraph.Context? = app.child()
        orphan!.activate(DependencyContainer { Dependency { Credentials(user: "grace") } })
        let orphanFeature = orphan!.child()
        orphan = nil
        #expect(try orphanFeature.inject(byType: Credentials.self).user == "grace")
        // Ending the session ends the feature.
        session.end()
        #expect(feature.hasEnded)
        #expect(throws: InjectionError.self) { try feature.inject(byType: Logger.self) }
    }

    @Test func childrenComeAndGoWhileThreadsResolveThroughThem() throws {
        let app = app()
        let failures = Counter()
        #expect(
            onThreads(4) { _ in
                for round in 0..<scaled(300) {
                    let session = app.child()
                    session.activate(
                        DependencyContainer {
                            Dependency { Credentials(user: "user \(round)") }
                            Dependency(autowiring: ProfileStore.init).scope(.singleton)
                        })
                    guard let store = try? session.inject(byType: ProfileStore.self),
                        store.credentials.user == "user \(round)",
                        (try? app.inject(byType: HTTPClient.self)) === store.client
                    else {
                        failures.increment()
                        continue
                    }
                    if round.isMultiple(of: 2) { session.end() }
                }
            })
        #expect(failures.value == 0)
        #expect(app.graph.lock.withLock { app.graph.overlays.isEmpty })
    }
}
