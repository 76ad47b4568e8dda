import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

// A class's factory without parameters, capturing values or not, is kept by its
// registration as it is, with no closure made around it (`CapturedClassFactory`): it must
// build what it builds, as often as its scope says, keep its captures alive exactly as long
// as its registration, and work with everything that wraps a factory (decorators, re-run
// builders).

private final class Endpoint: @unchecked Sendable {
    let url: String
    init(url: String) { self.url = url }
}

private final class Client: @unchecked Sendable {
    let endpoint: Endpoint
    let attempt: Int
    init(endpoint: Endpoint, attempt: Int = 0) {
        self.endpoint = endpoint
        self.attempt = attempt
    }
}

private final class AwareClient: PostInstantiationAware, @unchecked Sendable {
    let calls: Counter
    init(calls: Counter) { self.calls = calls }
    func didInstantiate() { calls.increment() }
}

private struct FactoryFailure: Error {}

/// The record the container keeps for its only registration.
private func onlyRecord(of container: DependencyContainer) -> RegistrationRecord {
    container.registrations()[0]
}

@Suite(.isolatedDependencyGraph)
struct CapturedClassFactoryTests {
    @Test func theCallIsTrustedOnThisRuntime() {
        // Linux and Apple platforms both use the convention the check verifies; false here
        // would send every capturing factory back to a closure of its own.
        #expect(CapturedClassFactory.isReliable)
    }

    @Test func aClassFactoryWithoutParametersIsKeptAsItIsAndOthersAreNot() {
        let endpoint = Endpoint(url: "https://example.com")
        #expect(onlyRecord(of: DependencyContainer { Dependency { Client(endpoint: endpoint) } }).callsClassFactory)
        #expect(onlyRecord(of: DependencyContainer { Dependency { Endpoint(url: "fixed") } }).callsClassFactory)
        // A value, and a class factory with a parameter, keep their closures.
        let url = "https://example.com"
        #expect(!onlyRecord(of: DependencyContainer { Dependency { url.count } }).callsClassFactory)
        #expect(
            !onlyRecord(of: DependencyContainer { Dependency { (attempt: Int) in Client(endpoint: endpoint, attempt: attempt) } })
                .callsClassFactory)
    }

    @Test func itBuildsWithItsCapturesAsItsScopeSays() throws {
        let endpoint = Endpoint(url: "https://example.com")
        let made = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(named: "transient") { () -> Client in
                    made.increment()
                    return Client(endpoint: endpoint)
                }
                .scope(.instance)
                Dependency(named: "singleton") { Client(endpoint: endpoint, attempt: 7) }.scope(.singleton)
            })
        let first: Client = try DependencyGraph.inject(byName: "transient")
        let second: Client = try DependencyGraph.inject(byName: "transient")
        #expect(first !== second)
        #expect(first.endpoint === endpoint && second.endpoint === endpoint)
        #expect(made.value == 2)
        let singleton: Client = try DependencyGraph.inject(byName: "singleton")
        #expect(singleton.attempt == 7)
        #expect(try DependencyGraph.inject(byName: "singleton") as Client === singleton)
    }

    @Test func itsErrorFailsTheInjection() {
        let failing = true
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Client in
                    if failing { throw FactoryFailure() }
                    return Client(endpoint: Endpoint(url: ""))
                }
            })
        let error = #expect(throws: InjectionError.self) { try DependencyGraph.inject() as Client }
        guard case .unknown(let underlying)? = error else {
            Issue.record("expected the factory's error, got \(String(describing: error))")
            return
        }
        #expect(underlying is FactoryFailure)
    }

    @Test func itsCapturesLiveAsLongAsTheRegistrationAndNoLonger() throws {
        weak var captured: Endpoint?
        weak var built: Client?
        try DependencyGraph.withIsolatedGraph {
            var container: DependencyContainer? = {
                let endpoint = Endpoint(url: "https://example.com")
                captured = endpoint
                return DependencyContainer { Dependency { Client(endpoint: endpoint) }.scope(.instance) }
            }()
            DependencyGraph.activate(container!)
            // Called many times: a call that released what it borrowed would free the
            // captured endpoint early.
            for _ in 0..<1_000 {
                let client: Client = try DependencyGraph.inject()
                built = client
                #expect(client.endpoint === captured)
            }
            #expect(captured != nil)
            DependencyGraph.deactivate(container!)
            container = nil
        }
        #expect(built == nil)
        #expect(captured == nil)
    }

    @Test func aDecoratorWrapsIt() throws {
        let endpoint = Endpoint(url: "https://example.com")
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Client(endpoint: endpoint) }
                    .decorated { Client(endpoint: $0.endpoint, attempt: $0.attempt + 1) }
                    .scope(.instance)
            })
        let client: Client = try DependencyGraph.inject()
        #expect(client.attempt == 1)
        #expect(client.endpoint === endpoint)
    }

    @Test func aPostInstantiationAwareInstanceIsToldOnce() throws {
        let calls = Counter()
        DependencyGraph.activate(DependencyContainer { Dependency { AwareClient(calls: calls) }.scope(.instance) })
        _ = try DependencyGraph.inject() as AwareClient
        _ = try DependencyGraph.inject() as AwareClient
        #expect(calls.value == 2)
    }

    @Test func aBuilderRerunWithTheSameCaptureKeepsItsInstances() throws {
        // A factory capturing one object has that object for its context on every run: each
        // line below is the same declaration again, kept or not, as with a closure around it.
        let endpoint = Endpoint(url: "https://example.com")
        let container = DependencyContainer {
            Dependency { Client(endpoint: endpoint) }.named("kept").scope(.singleton)
            Dependency { Client(endpoint: endpoint) }.named("decorated").decorated { $0 }.scope(.singleton)
            Dependency { (attempt: Int) in Client(endpoint: endpoint, attempt: attempt) }.named("keyed").scope(.singleton)
        }
        DependencyGraph.activate(container)
        let kept: Client = try DependencyGraph.inject(byName: "kept")
        let decorated: Client = try DependencyGraph.inject(byName: "decorated")
        let keyed: Client = try DependencyGraph.inject(byName: "keyed", 1)
        container.invalidate()
        let keptAgain: Client = try DependencyGraph.inject(byName: "kept")
        let decoratedAgain: Client = try DependencyGraph.inject(byName: "decorated")
        let keyedAgain: Client = try DependencyGraph.inject(byName: "keyed", 1)
        #expect(keptAgain === kept)
        #expect(decoratedAgain === decorated)
        #expect(keyedAgain === keyed)
    }

    @Test func withTheFallbackEveryFactoryIsWrappedAndBehavesTheSame() async {
        // The check is made once per process: the fallback runs in a process of its own.
        await #expect(processExitsWith: .success) {
            setenv("STITCHER_FORCE_CLOSURES_AROUND_FACTORIES", "1", 1)
            precondition(!CapturedClassFactory.isReliable, "the fallback is forced")
            let endpoint = Endpoint(url: "https://example.com")
            let generation = Counter()
            let container = DependencyContainer {
                let url = "generation \(generation.value)"
                Dependency { Client(endpoint: endpoint) }.named("same").scope(.singleton)
                Dependency { Client(endpoint: Endpoint(url: url)) }.named("new").scope(.singleton)
            }
            precondition(container.registrations().allSatisfy { !$0.callsClassFactory }, "wrapped")
            try DependencyGraph.withIsolatedGraph {
                DependencyGraph.activate(container)
                let same: Client = try DependencyGraph.inject(byName: "same")
                let new: Client = try DependencyGraph.inject(byName: "new")
                generation.increment()
                container.invalidate()
                let sameAgain: Client = try DependencyGraph.inject(byName: "same")
                precondition(sameAgain === same, "the same capture is kept")
                let renewed: Client = try DependencyGraph.inject(byName: "new")
                precondition(renewed !== new && renewed.endpoint.url == "generation 1", "new captures build anew")
                precondition(same.endpoint === endpoint)
            }
        }
    }

    @Test func aBuilderRerunWithNewCapturesBuildsWithTheNewOnes() throws {
        // Each run captures a new endpoint: a re-run registers a different factory, whose
        // instances are built anew.
        let generation = Counter()
        let container = DependencyContainer {
            let endpoint = Endpoint(url: "generation \(generation.value)")
            Dependency { Client(endpoint: endpoint) }.scope(.singleton)
        }
        DependencyGraph.activate(container)
        let first: Client = try DependencyGraph.inject()
        generation.increment()
        container.invalidate()
        let second: Client = try DependencyGraph.inject()
        #expect(first.endpoint.url == "generation 0")
        #expect(second.endpoint.url == "generation 1")
    }
}
