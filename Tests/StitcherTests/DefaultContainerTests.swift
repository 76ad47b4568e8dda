import Foundation
import Stitcher
import StitcherTesting
import Testing

// The app's default container (`DependencyRegistering`): the process-wide graph activates it
// by itself, once, on its first use, before any container activated explicitly; isolated
// graphs do not see it unless they activate it. The process-wide graph's tests run in child
// processes, each with a graph that has not been used yet.

private final class DefaultClock: @unchecked Sendable {}
private final class ExplicitClock: @unchecked Sendable {}
/// How many times the default container was read, and its builder run.
private let defaultContainerReads = Counter()
private let defaultBuilderRuns = Counter()

// (An app writes `@retroactive`, which does not apply within Stitcher's own package.)
extension DependencyGraph: DependencyRegistering {
    public static var defaultContainer: DependencyContainer {
        defaultContainerReads.increment()
        return DependencyContainer {
            let _ = defaultBuilderRuns.increment()
            Dependency { DefaultClock() }.scope(.singleton)
            Dependency { DefaultClock() }.named("clock").scope(.singleton)
        }
    }
}

struct DefaultContainerTests {
    @Test func theFirstInjectionsOnEightThreadsActivateItOnce() async {
        await #expect(processExitsWith: .success) {
            let start = DispatchSemaphore(value: 0)
            let done = DispatchGroup()
            final class Seen: @unchecked Sendable {
                let lock = NSLock()
                var clocks: [ObjectIdentifier] = []
            }
            let seen = Seen()
            for _ in 0..<8 {
                done.enter()
                Thread.detachNewThread {
                    start.wait()
                    let clock = try? DependencyGraph.inject() as DefaultClock
                    seen.lock.withLock { seen.clocks.append(clock.map(ObjectIdentifier.init) ?? ObjectIdentifier(NSNull.self)) }
                    done.leave()
                }
            }
            for _ in 0..<8 { start.signal() }
            done.wait()
            let clocks = seen.clocks
            guard Set(clocks).count == 1, clocks.count == 8, clocks[0] != ObjectIdentifier(NSNull.self) else {
                fatalError("every thread gets the one default singleton: \(clocks)")
            }
            guard defaultContainerReads.value == 1, defaultBuilderRuns.value == 1 else {
                fatalError("read \(defaultContainerReads.value) times, built \(defaultBuilderRuns.value) times")
            }
        }
    }

    @Test func itComesBeforeAContainerActivatedExplicitly() async {
        await #expect(processExitsWith: .success) {
            // Activated first: the explicit container, activated after it, overrides it.
            DependencyGraph.activate(DependencyContainer { Dependency { ExplicitClock() }.named("clock").scope(.singleton) })
            guard (try? DependencyGraph.inject(byName: "clock") as ExplicitClock) != nil else {
                fatalError("the explicit container's registration wins")
            }
            guard (try? DependencyGraph.inject() as DefaultClock) != nil else { fatalError("the default one is active") }
            DependencyGraph.deactivateAll()
            guard case .some(.none) = try? DependencyGraph.inject() as DefaultClock? else {
                fatalError("deactivated like any container")
            }
            guard defaultBuilderRuns.value == 1 else { fatalError("built \(defaultBuilderRuns.value) times") }
        }
    }

    @Test(.isolatedDependencyGraph) func isolatedGraphsSeeItOnlyWhenTheyActivateIt() throws {
        #expect(try DependencyGraph.inject() as DefaultClock? == nil)
        DependencyGraph.activate(DependencyGraph.defaultContainer)
        #expect(try DependencyGraph.inject() as DefaultClock? != nil)
    }
}
