import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Indexed: Sendable {}
private enum Slot: Hashable { case one }

@Suite(.isolatedDependencyGraph)
struct ConfigurationTests {
    @Test func unindexedGraphsResolveTheSame() throws {
        StitcherConfiguration.isIndexingEnabled = false
        defer { StitcherConfiguration.isIndexingEnabled = true }
        #expect(!StitcherConfiguration.isIndexingEnabled)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Indexed() }.scope(.singleton)
                Dependency { Indexed() }.named("named")
                Dependency { Indexed() }.associated(with: Slot.one)
            })
        let typed: Indexed = try DependencyGraph.inject()
        let named: Indexed = try DependencyGraph.inject(byName: "named")
        let valued: Indexed = try DependencyGraph.inject(byValue: Slot.one)
        #expect(typed !== named && named !== valued)
        #expect(try DependencyGraph.inject(byType: Indexed.self) === typed)
    }

    @Test func settingsRoundTrip() {
        let count = StitcherConfiguration.approximateDependencyCount
        StitcherConfiguration.approximateDependencyCount = -5
        #expect(StitcherConfiguration.approximateDependencyCount == 0)
        StitcherConfiguration.approximateDependencyCount = count
        #expect(StitcherConfiguration.autoCleanupEnabled)
        #expect(StitcherConfiguration.runtimeCycleDetectionAvailability == .always)
        #if DEBUG
        #expect(StitcherConfiguration.RuntimeCycleDetectionAvailability.debugOnly != .never)
        #endif
    }

    @Test func sharedInstancesReleasedElsewhereArePruned() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Indexed() }.scope(.shared) })
        weak var first: Indexed?
        do { first = try DependencyGraph.inject(byType: Indexed.self) }
        DependencyGraph.releaseUnusedStorage()
        #expect(first == nil)
        #expect(try DependencyGraph.inject(byType: Indexed.self) !== first)
    }

    @Test func cycleDetectionCanBeTurnedOffForTransientDependencies() async {
        await #expect(processExitsWith: .success) {
            final class Loop: Sendable { init(_ other: Loop) {} }
            StitcherConfiguration.runtimeCycleDetectionAvailability = .never
            DependencyGraph.activate(
                DependencyContainer {
                    Dependency { Loop(try DependencyGraph.inject()) }.scope(.instance)
                })
            // Unchecked, the cycle recurses until the stack guard stops it. On a 2 MB stack:
            // ThreadSanitizer's own call stack holds 65,536 calls per thread, and 8 MB of
            // debug-build levels come close to that.
            final class Outcome: @unchecked Sendable { var failure: String? = "did not run" }
            let outcome = Outcome()
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                do {
                    _ = try DependencyGraph.inject(byType: Loop.self) as Loop
                    outcome.failure = "expected an error"
                } catch let error as ResolutionTooDeep {
                    outcome.failure = error.depth > 100 ? nil : "stopped too early: \(error)"
                } catch {
                    outcome.failure = "expected ResolutionTooDeep, got \(error)"
                }
                done.signal()
            }
            thread.stackSize = 2 << 20
            thread.start()
            done.wait()
            if let failure = outcome.failure { fatalError(failure) }
        }
    }

    @Test func storedScopesStillRefuseToWaitForThemselves() async {
        await #expect(processExitsWith: .success) {
            final class Loop: Sendable { init(_ other: Loop) {} }
            StitcherConfiguration.runtimeCycleDetectionAvailability = .never
            DependencyGraph.activate(
                DependencyContainer {
                    Dependency { Loop(try DependencyGraph.inject()) }.scope(.singleton)
                })
            do {
                _ = try DependencyGraph.inject(byType: Loop.self) as Loop
            } catch InjectionError.cyclicDependencyReference {
                return
            } catch {}
            fatalError("expected a cycle error")
        }
    }
}
