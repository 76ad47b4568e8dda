import Foundation
import Stitcher
import StitcherTesting
import Testing

private struct Outage: Error, Equatable { let attempt: Int }
private final class Database: Sendable { init() {} }
private final class Repository: Sendable { init(_ database: Database) {} }
private final class Service: Sendable { init(_ repository: Repository) {} }
private final class Missing: Sendable {}
private final class NeedsMissing: Sendable { init(_ missing: Missing) {} }
private final class Ping: Sendable { init() {} }
private final class Pong: Sendable { init() {} }

@Suite(.isolatedDependencyGraph)
struct FaultInjectionTests {
    @Test func aThrowingFactoryLeavesNothingStoredAndTheNextAttemptSucceeds() throws {
        let attempts = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Database in
                    let attempt = attempts.increment()
                    if attempt <= 2 { throw Outage(attempt: attempt) }
                    return Database()
                }.scope(.singleton)
                Dependency { Repository(try DependencyGraph.inject()) }.scope(.singleton)
                Dependency { Service(try DependencyGraph.inject()) }
            })
        let before = DependencyGraph.activeRegistrations.map(\.description)
        // Wrapped once, where the failing factory ran, and passed through the outer ones.
        #expect(throws: InjectionError.unknown(Outage(attempt: 1))) { try DependencyGraph.inject(byType: Service.self) as Service }
        #expect(throws: InjectionError.unknown(Outage(attempt: 2))) { try DependencyGraph.inject(byType: Repository.self) as Repository }
        #expect(DependencyGraph.activeRegistrations.map(\.description) == before, "the graph is unchanged")
        let service = try DependencyGraph.inject(byType: Service.self)
        _ = service
        let repository = try DependencyGraph.inject(byType: Repository.self)
        #expect(try DependencyGraph.inject(byType: Repository.self) === repository)
        #expect(attempts.value == 3)
    }

    @Test func factoriesThatFailSometimesUnderContention() throws {
        let attempts = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Database in
                    if attempts.increment().isMultiple(of: 3) { throw Outage(attempt: 0) }
                    return Database()
                }.scope(.instance)
            })
        let successes = Counter()
        let failures = Counter()
        #expect(
            onThreads(4) { _ in
                for _ in 0..<scaled(300) {
                    do {
                        _ = try DependencyGraph.inject(byType: Database.self)
                        successes.increment()
                    } catch InjectionError.unknown(let error) where error is Outage { failures.increment() } catch {
                        Issue.record("unexpected \(error)")
                    }
                }
            })
        #expect(successes.value + failures.value == 4 * scaled(300))
        #expect(failures.value == attempts.value / 3)
    }

    @Test func aMissingNestedDependencyNamesTheChainThatNeededIt() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { NeedsMissing(try DependencyGraph.inject()) }.named("needs-missing")
            })
        do {
            let _: NeedsMissing = try DependencyGraph.inject(byName: "needs-missing")
            Issue.record("expected an error")
        } catch let error as InjectionError {
            #expect(error == .missingDependency(.type("Missing")))
            #expect(error.neededBy == [.name("needs-missing")])
            #expect(error.failureReason?.contains("Needed while instantiating Name[needs-missing]") == true)
        }
        // The same request at the top level has no chain.
        do {
            let _: Missing = try DependencyGraph.inject()
        } catch let error as InjectionError {
            #expect(error.neededBy == nil)
        }
    }

    @Test func cyclesAcrossThreadsFailEveryTimeAndLeaveTheGraphUsable() throws {
        let barrier = Barrier(parties: 2)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Ping in
                    barrier.arriveAndWait(timeout: 2)
                    _ = try DependencyGraph.inject(byType: Pong.self) as Pong
                    return Ping()
                }.scope(.singleton)
                Dependency { () throws -> Pong in
                    barrier.arriveAndWait(timeout: 2)
                    _ = try DependencyGraph.inject(byType: Ping.self) as Ping
                    return Pong()
                }.scope(.singleton)
                Dependency { Database() }.scope(.singleton)
            })
        for _ in 0..<3 {
            let cycles = Counter()
            #expect(
                onThreads(2, timeout: 30) { index in
                    do {
                        if index == 0 {
                            _ = try DependencyGraph.inject(byType: Ping.self) as Ping
                        } else {
                            _ = try DependencyGraph.inject(byType: Pong.self) as Pong
                        }
                    } catch InjectionError.cyclicDependencyReference {
                        cycles.increment()
                    } catch {
                        Issue.record("unexpected \(error)")
                    }
                }, "no deadlock")
            #expect(cycles.value == 2)
        }
        #expect(try DependencyGraph.inject(byType: Database.self) === DependencyGraph.inject(byType: Database.self))
    }
}
