import Foundation
import StitcherMacros
import StitcherTesting
import Testing

final class NetworkingSession: Sendable {
    let host: String
    init(host: String) { self.host = host }
}

struct Clock: Sendable {
    let offset: Int
}

final class UploadViewModel {
    let session: NetworkingSession
    let clock: Clock

    @InjectedParameters
    init(session: NetworkingSession, clock: Clock) {
        self.session = session
        self.clock = clock
    }

    @InjectedParameters(ignoring: "file")
    func upload(file: String, session: NetworkingSession) throws -> String {
        "\(file)@\(session.host)"
    }

    @InjectedParameters(strategy: .stitcherByName)
    static func describe(primaryHost: String) -> String { primaryHost }
}

struct Counter {
    var total = 0

    @InjectedParameters(parent: .structParent)
    mutating func add(step: Int) async throws -> Int {
        total += step
        return total
    }
}

@Registerable(scope: .singleton)
final class Repository: Sendable {
    let cacheSize: Int
    init(cacheSize: Int) { self.cacheSize = cacheSize }
}

@Registerable(by: .name("greeter"))
struct Greeter: Sendable {
    let greeting: String
    @PreferredInitializer
    init() { greeting = "hello" }
    init(greeting: String) { self.greeting = greeting }
}

/// Its dependency is not `Hashable`: registered through the initializer that
/// `@InjectedParameters` generates, it is injected, not passed as a parameter.
@Registerable(scope: .singleton)
final class SessionReporter: Sendable {
    let session: NetworkingSession

    @InjectedParameters
    init(session: NetworkingSession) { self.session = session }
}

/// Takes its session later: `@InjectedParameters` injects a `Lazy` and a `Provider` as it
/// injects any other parameter.
final class DeferredReporter {
    let session: Lazy<NetworkingSession>
    let makeClock: Provider<Clock>

    @InjectedParameters
    init(session: Lazy<NetworkingSession>, makeClock: Provider<Clock>) {
        self.session = session
        self.makeClock = makeClock
    }
}

/// Its host is injected by name: `verify()` checks that name.
@Registerable
final class HostReporter: Sendable {
    let host: String

    @InjectedParameters(strategy: .stitcherByName)
    init(primaryHost: String) { host = primaryHost }
}

/// Built on the main actor, as its initializer requires.
@MainActor @Registerable(scope: .singleton)
final class BadgeModel {
    let count: Int
    init() { count = 5 }
}

@Registerable(by: .value(7))
struct Lucky: Sendable {
    init() {}
}

/// Thrown by `Archive` for an empty path.
struct MissingPath: Error, Equatable {}

/// Opens asynchronously, so `@Registerable` registers an async factory.
@Registerable(scope: .singleton)
final class Archive: Sendable {
    let path: String
    init(path: String) async throws {
        await Task.yield()
        guard !path.isEmpty else { throw MissingPath() }
        self.path = path
    }
}

@Suite(.isolatedDependencyGraph)
struct MacroEndToEndTests {
    @Test func injectedParametersResolveFromTheGraph() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { NetworkingSession(host: "example.org") }.scope(.singleton)
                Dependency { Clock(offset: 3) }
                Dependency { "primary.example.org" }.named("primaryHost")
            })
        let model = UploadViewModel()
        #expect(model.session.host == "example.org")
        #expect(model.clock.offset == 3)
        #expect(try model.upload(file: "a.txt") == "a.txt@example.org")
        #expect(UploadViewModel.describe() == "primary.example.org")
    }

    @Test func injectedParametersTakeLazyAndProvider() throws {
        let builds = Flag(false)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> NetworkingSession in
                    builds.isOn = true
                    return NetworkingSession(host: "later.example")
                }
                Dependency { Clock(offset: 1) }
            })
        let reporter = DeferredReporter()
        #expect(!builds.isOn)
        #expect(try reporter.session.value.host == "later.example" && builds.isOn)
        #expect(try reporter.makeClock().offset == 1)
    }

    @Test func verifyChecksWhatARegisterableTypeInjects() throws {
        DependencyGraph.activate(
            DependencyContainer {
                #registrations(SessionReporter.self, HostReporter.self)
            })
        let problems = DependencyGraph.verificationReport().problems
        #expect(problems.map(\.kind) == [.missingDependency, .missingDependency])
        #expect(problems.map(\.requested) == [.type("NetworkingSession"), .name("primaryHost")])
        #expect(problems.last?.fix.contains("`Dependency { String(…) }.named(\"primaryHost\")`") == true)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { NetworkingSession(host: "example.org") }.scope(.singleton)
                Dependency { "primary.example.org" }.named("primaryHost")
            })
        try DependencyGraph.verify(.instantiating)
        #expect(try DependencyGraph.inject(byType: HostReporter.self).host == "primary.example.org")
    }

    @Test func throwingOverloadsPropagateInjectionErrors() async throws {
        var counter = Counter()
        await #expect(throws: InjectionError.missingDependency(.type("Int"))) {
            _ = try await counter.add()
        }
        await DependencyGraph.activate(DependencyContainer { Dependency { 5 } })
        #expect(try await counter.add() == 5)
        #expect(try await counter.add() == 10)
        let model = UploadViewModel(session: NetworkingSession(host: "h"), clock: Clock(offset: 0))
        #expect(throws: InjectionError.missingDependency(.type("NetworkingSession"))) {
            _ = try model.upload(file: "b")
        }
    }

    @Test func registerableTypesRegisterThemselves() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Repository.dependencyRegistration
                #registrations(Greeter.self, Lucky.self)
            })
        let repository: Repository = try DependencyGraph.inject(byType: Repository.self, 64)
        #expect(repository.cacheSize == 64)
        #expect(try DependencyGraph.inject(byType: Repository.self, 64) === repository, "singleton per parameters")
        #expect(Greeter.dependencyName == "greeter")
        let greeter: Greeter = try DependencyGraph.inject(byName: Greeter.dependencyName)
        #expect(greeter.greeting == "hello")
        #expect(Lucky.dependencyValue == AnyHashable(7))
        let _: Lucky = try DependencyGraph.inject(byValue: 7)
        #expect(Repository.dependencyRegistration.scope == .singleton)
    }

    @Test func asyncInitializersAreInjectedAsynchronously() async throws {
        await DependencyGraph.activate(DependencyContainer { Archive.dependencyRegistration })
        let archive = try await DependencyGraph.injectAsync(byType: Archive.self, "/var/archive")
        #expect(archive.path == "/var/archive")
        #expect(try await DependencyGraph.injectAsync(byType: Archive.self, "/var/archive") === archive)
        // Built: a synchronous injection now finds the stored instance.
        #expect(try DependencyGraph.inject(byType: Archive.self, "/var/archive") === archive)
        // Not built yet: a synchronous injection cannot run the async factory.
        #expect(throws: InjectionError.unsupportedOperation) {
            _ = try DependencyGraph.inject(byType: Archive.self, "/tmp")
        }
        // The initializer's own error reaches the caller, wrapped as 1.x wraps it.
        await #expect(throws: InjectionError.unknown(MissingPath())) {
            _ = try await DependencyGraph.injectAsync(byType: Archive.self, "")
        }
    }

    @Test func registerableTypesConformToBothMarkerProtocols() {
        func registration<R: RegisterableDependency>(of type: R.Type) -> DependencyLocator {
            R.dependencyRegistration.locator
        }
        func autoregistration<R: AutoregisterableDependency>(of type: R.Type) -> DependencyLocator {
            R.dependencyRegistration.locator
        }
        #expect(registration(of: Greeter.self) == .name("greeter"))
        #expect(registration(of: Repository.self) == .type(Repository.self))
        #expect(autoregistration(of: Lucky.self) == .value(7))
        #expect(autoregistration(of: SessionReporter.self) == .type(SessionReporter.self))
    }

    @Test func aTypeWhoseInitializerInjectsItsDependenciesRegistersWithoutParameters() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { NetworkingSession(host: "uploads.example") }
                SessionReporter.dependencyRegistration
            })
        let reporter: SessionReporter = try DependencyGraph.inject()
        #expect(reporter.session.host == "uploads.example", "the session came from the graph")
        #expect(try DependencyGraph.inject() as SessionReporter === reporter)
        #expect(DependencyGraph.activeRegistrations.last?.parameterTypeNames == [])
    }

    @Test func aMainActorRegisterableTypeIsBuiltOnTheMainActor() async throws {
        await DependencyGraph.activate(DependencyContainer { BadgeModel.dependencyRegistration })
        let model: BadgeModel = try await DependencyGraph.injectAsync()
        let count = await MainActor.run { model.count }
        #expect(count == 5)
        let again = try await MainActor.run { try DependencyGraph.inject() as BadgeModel }
        #expect(again === model)
    }
}

/// A flag set from a factory, read by the test.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var state: Bool
    init(_ state: Bool) { self.state = state }
    var isOn: Bool {
        get { lock.withLock { state } }
        set { lock.withLock { state = newValue } }
    }
}
