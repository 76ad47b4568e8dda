import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

// The end of a resolution: the thread's last frame is popped by the engine, or by the
// injecting code where a struct's build ends (`DependencyGraph.makeValue(with:)`, through the
// same C function), and what the resolution kept on the thread's state (its chain, an
// inherited path, superseded snapshots) is forgotten then, whichever pops it. A resolution
// identified by the thread's spare chain marks it in use without counting it; the next
// outermost resolution gets the same chain only when nothing else holds it.

private final class Session: @unchecked Sendable {}
private struct Page: Sendable { let depth: Int }
private struct Report: Sendable {
    let session: Session
    let keptDuringBuild: Bool
}

private var state: ThreadState { ThreadState.current }

@Suite(.isolatedDependencyGraph)
struct ResolutionEndTests {
    @Test func aScopedBuildKeepsItsChainUntilItsLastFramePops() throws {
        let seen = Counter()
        let chainDuringBuild = Protected<ObjectIdentifier?>(nil)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Session in
                    #expect(state.frames.count == 1)
                    #expect(state.keepsResolutionState, "the outermost build adopted its chain")
                    let chain = state.chainInUse.map(ObjectIdentifier.init)
                    chainDuringBuild.withLock { $0 = chain }
                    seen.increment()
                    return Session()
                }
                .scope(.scoped)
            })
        #expect(state.chainInUse == nil)
        try DependencyGraph.withScope {
            _ = try DependencyGraph.inject() as Session
            #expect(state.frames.count == 0)
            #expect(state.chainInUse == nil, "the end of the build forgot the chain")
            #expect(!state.keepsResolutionState)
        }
        #expect(seen.value == 1)
        #expect(chainDuringBuild.withLock { $0 } != nil)
    }

    @Test func aStructWhoseFactoryStartedAChainForgetsItWhereItsBuildEnds() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Session() }.scope(.scoped)
                Dependency { () -> Report in
                    // A nested `.scoped` build inside the struct's frame gives the resolution
                    // its chain; the struct's frame is the last to pop, in the injecting code.
                    let session: Session = try DependencyGraph.inject()
                    return Report(session: session, keptDuringBuild: state.keepsResolutionState)
                }
            })
        for _ in 0..<3 {
            // A scope of its own each time, so that the session is built (and the chain
            // started) again: a built one is read without one.
            try DependencyGraph.withScope {
                let report: Report = try DependencyGraph.inject()
                #expect(report.keptDuringBuild)
                #expect(state.frames.count == 0)
                #expect(state.chainInUse == nil)
                #expect(!state.keepsResolutionState, "the injecting code's pop forgot what the resolution kept")
            }
        }
    }

    @Test func theSpareChainIsGivenAgainOnlyWhenNothingElseHoldsIt() throws {
        let chains = Protected<[ResolutionChain]>([])
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Session in
                    // Held, as a resolution waiting for this build would hold it.
                    if let chain = state.chainInUse { chains.withLock { $0.append(chain) } }
                    return Session()
                }
                .scope(.scoped)
            })
        weak var first: ResolutionChain?
        try DependencyGraph.withScope { _ = try DependencyGraph.inject() as Session }
        try DependencyGraph.withScope { _ = try DependencyGraph.inject() as Session }
        do {
            let held = chains.withLock { $0 }
            #expect(held.count == 2)
            #expect(held[0] !== held[1], "a chain something else holds is not given to the next resolution")
            first = held.first
        }
        chains.withLock { $0.removeAll() }
        #expect(first == nil, "a chain the state replaced is released once its last holder lets it go")
        // Nothing else holds the current spare chain any more: it is given again.
        let again = Protected<[ObjectIdentifier]>([])
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Page in
                    let chain = ObjectIdentifier(state.unretainedCurrentChain.takeUnretainedValue())
                    again.withLock { $0.append(chain) }
                    return Page(depth: state.frames.count)
                }
            })
        _ = try DependencyGraph.inject() as Page
        _ = try DependencyGraph.inject() as Page
        let chainsSeen = again.withLock { $0 }
        #expect(chainsSeen.count == 2)
        #expect(chainsSeen[0] == chainsSeen[1], "an unshared spare chain is reused")
    }

    @Test func aSparePathThatLetGoOfItsChainIsNotAskedForItAgain() {
        // Between resolutions, as a thread whose spare chain something keeps holding (a
        // waiter, a child task) finds it at the start of each outermost build.
        #expect(state.frames.count == 0)
        let first = state.newChain()
        // The spare path shares the spare chain, as a build bound to a task leaves it.
        _ = state.newSharedPath(chain: first) { _ in }
        // Held here: the path lets go of it, and the thread makes another.
        let second = state.newChain()
        // Held again: the path, which holds no chain now, must not be asked for it.
        let third = state.newChain()
        #expect(first !== second)
        #expect(second !== third)
        #expect(first !== third)
    }

    @Test func eachThreadCountsItsOwnFrames() throws {
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let builds = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Page in
                    let depth = state.frames.count
                    // The first build, on the other thread, waits inside its frame.
                    if builds.increment() == 1 {
                        inside.signal()
                        release.wait()
                    }
                    return Page(depth: depth)
                }
            })
        let context = DependencyGraph.currentContext
        let blockedDepth = Protected(-1)
        let thread = Thread {
            let depth = context.run { (try? DependencyGraph.inject() as Page)?.depth ?? -2 }
            blockedDepth.withLock { $0 = depth }
            finished.signal()
        }
        thread.start()
        inside.wait()
        // The other thread is inside its build (one frame on its path); this one has none.
        #expect(state.frames.count == 0)
        #expect(try (DependencyGraph.inject() as Page).depth == 1)
        #expect(state.frames.count == 0)
        release.signal()
        finished.wait()
        #expect(blockedDepth.withLock { $0 } == 1)
    }
}
