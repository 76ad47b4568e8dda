import Foundation
import Testing

@testable import Stitcher

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

private final class Assumed: @unchecked Sendable {}
private protocol Presented: AnyObject, Sendable {}
private final class Presenting: Presented, @unchecked Sendable {}

/// Every injection path that reads without a lock: a singleton by type and by protocol, a
/// shared instance, a managed one across a reset, then all of them released.
private func exerciseLockFreeReads() throws {
    let resets = PassthroughSubject<Void, Never>()
    let container = DependencyContainer {
        Dependency { Assumed() }.scope(.singleton)
        Dependency { Assumed() }.named("shared").scope(.shared)
        Dependency { Assumed() }.named("managed").scope(.managed(by: resets))
        Dependency(conformingTo: Presented.self) { Presenting() }.scope(.singleton)
    }
    DependencyGraph.activate(container)
    // In a closure: a debug build keeps locals alive until their scope ends.
    let released: () -> Bool = try {
        let singleton: Assumed = try DependencyGraph.inject()
        let singletonAgain: Assumed = try DependencyGraph.inject()
        precondition(singletonAgain === singleton, "a singleton is built once")
        let shared: Assumed = try DependencyGraph.inject(byName: "shared")
        let sharedAgain: Assumed = try DependencyGraph.inject(byName: "shared")
        precondition(sharedAgain === shared, "a shared instance is kept while held")
        let managed: Assumed = try DependencyGraph.inject(byName: "managed")
        resets.send()
        let renewed: Assumed = try DependencyGraph.inject(byName: "managed")
        precondition(renewed !== managed, "a reset scope builds anew")
        let presented: any Presented = try DependencyGraph.inject()
        let presentedAgain: any Presented = try DependencyGraph.inject()
        precondition(presentedAgain === presented, "a singleton's view is its instance")
        weak let kept = renewed
        return { kept == nil }
    }()
    DependencyGraph.deactivate(container)
    precondition(released(), "deactivation releases what the graph kept")
}

/// What the engine assumes about the Swift runtime or the system is checked at run time,
/// and each fallback works: these tests force it, each in a process of its own (the choice
/// is made once per process).
struct RuntimeAssumptionTests {
    @Test func metadataKindsAreNumberedAsTheEngineExpects() {
        #expect(MetadataKind.isReliable)
        #expect(MetadataKind.isExistential((any Sendable).self))
        #expect(!MetadataKind.isExistential(Int.self))
    }

    @Test func aClosureIdentityThatCannotBeReadEqualsNone() {
        struct ThreeWords {
            let closure: () -> Void
            let extra: Int
        }
        let unreadable = codeAddress(of: ThreeWords(closure: {}, extra: 1))
        #expect(!unreadable.isKnown)
        #expect(unreadable != unreadable, "an unknown identity is not even equal to itself")
        let plain: () -> Void = {}
        #expect(codeAddress(of: plain).isKnown)
    }

    @Test func readersAnnouncingWithFencesServeEveryLockFreeRead() async {
        await #expect(processExitsWith: .success) {
            HazardDomain.useSymmetricFences()
            precondition(!HazardDomain.usesAsymmetricFences)
            try exerciseLockFreeReads()
        }
    }
}
