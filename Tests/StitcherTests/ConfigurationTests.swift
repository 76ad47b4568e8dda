import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Indexed: Sendable {}
private enum Slot: Hashable { case one }

@Suite(.isolatedDependencyGraph)
struct ConfigurationTests {
    // The configuration is process-wide and other suites run in parallel: the tests that set
    // it run in processes of their own.

    @Test func unindexedGraphsResolveTheSame() async {
        await #expect(processExitsWith: .success) {
            StitcherConfiguration.isIndexingEnabled = false
            precondition(!StitcherConfiguration.isIndexingEnabled)
            DependencyGraph.activate(
                DependencyContainer {
                    Dependency { Indexed() }.scope(.singleton)
                    Dependency { Indexed() }.named("named")
                    Dependency { Indexed() }.associated(with: Slot.one)
                })
            let typed: Indexed = try DependencyGraph.inject()
            let named: Indexed = try DependencyGraph.inject(byName: "named")
            let valued: Indexed = try DependencyGraph.inject(byValue: Slot.one)
            let again: Indexed = try DependencyGraph.inject(byType: Indexed.self)
            precondition(typed !== named && named !== valued && again === typed)
        }
    }

    @Test func approximateDependencyCountIsNeverNegative() async {
        await #expect(processExitsWith: .success) {
            StitcherConfiguration.approximateDependencyCount = -5
            precondition(StitcherConfiguration.approximateDependencyCount == 0)
        }
    }

    @Test func processWideDefaults() {
        #expect(StitcherConfiguration.isIndexingEnabled && StitcherConfiguration.autoCleanupEnabled)
        #expect(StitcherConfiguration.runtimeCycleDetectionAvailability == .debugOnly)
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
            StitcherConfiguration.runtimeCycleDetectionAvailability = .never
            // Unchecked, the cycle recurses until the stack guard stops it.
            switch injectTransientLoop() {
            case let error as ResolutionTooDeep: if error.depth <= 100 { fatalError("stopped too early: \(error)") }
            case let other: fatalError("expected ResolutionTooDeep, got \(String(describing: other))")
            }
        }
    }

    @Test func cycleDetectionIsOnInDebugBuildsByDefault() async {
        // In a process of its own: other tests set the process-wide option for a moment.
        await #expect(processExitsWith: .success) {
            guard StitcherConfiguration.runtimeCycleDetectionAvailability == .debugOnly else {
                fatalError("the default is \(StitcherConfiguration.runtimeCycleDetectionAvailability), not .debugOnly (Stitcher 1.x)")
            }
            let failure = injectTransientLoop()
            #if DEBUG
            guard case InjectionError.cyclicDependencyReference? = failure else {
                fatalError("a debug build reports the cycle, got \(String(describing: failure))")
            }
            #else
            guard failure is ResolutionTooDeep else {
                fatalError("a release build leaves it to the stack guard, got \(String(describing: failure))")
            }
            #endif
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

/// Injects an `.instance` registration that depends on itself, from the process-wide graph, on
/// a thread with a 2 MB stack, and returns the error it ends with (nil if it returns).
///
/// The stack is small so that an unchecked loop ends quickly: ThreadSanitizer's own call
/// stack holds 65,536 calls per thread, and 8 MB of debug-build levels come close to that.
private func injectTransientLoop() -> (any Error)? {
    final class Loop: Sendable { init(_ other: Loop) {} }
    final class Outcome: @unchecked Sendable { var failure: (any Error)? }
    DependencyGraph.activate(DependencyContainer { Dependency { Loop(try DependencyGraph.inject()) }.scope(.instance) })
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do { _ = try DependencyGraph.inject(byType: Loop.self) as Loop } catch { outcome.failure = error }
        done.signal()
    }
    thread.stackSize = 2 << 20
    thread.start()
    done.wait()
    return outcome.failure
}
