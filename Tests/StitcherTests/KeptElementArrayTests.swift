import Foundation
import Stitcher
import StitcherTesting
import Testing

// An array of singletons is kept by the index that answered it (`ElementArrays`): later
// requests return it while the graph does not change, and never an instance the graph let go.

private protocol Listed: AnyObject, Sendable {}
private final class FirstListed: Listed {}
private final class SecondListed: Listed {}
private final class ThirdListed: Listed {}
private final class TransientListed: Listed {}

@Suite(.isolatedDependencyGraph)
struct KeptElementArrayTests {
    private static func singletons() -> DependencyContainer {
        DependencyContainer {
            Dependency { FirstListed() }.conforms(to: Listed.self).scope(.singleton)
            Dependency { SecondListed() }.conforms(to: Listed.self).scope(.singleton)
        }
    }

    private static func storage(of array: [any Listed]) -> UnsafeRawPointer? {
        array.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func singletonsAreAnsweredWithTheSameArrayUntilTheGraphChanges() throws {
        DependencyGraph.activate(Self.singletons())
        let first: [any Listed] = try DependencyGraph.inject()
        let second: [any Listed] = try DependencyGraph.inject()
        let third: [any Listed] = try DependencyGraph.inject()
        #expect(first.count == 2)
        #expect(zip(first, third).allSatisfy { $0 === $1 }, "the same singletons, in the same order")
        #expect(zip(second, third).allSatisfy { $0 === $1 })
        #expect(Self.storage(of: second) == Self.storage(of: third), "the kept array itself, not a new one")

        // A container activated since adds its singleton: the kept array is not answered.
        let more = DependencyContainer { Dependency { ThirdListed() }.conforms(to: Listed.self).scope(.singleton) }
        DependencyGraph.activate(more)
        let grown: [any Listed] = try DependencyGraph.inject()
        #expect(grown.count == 3)
        #expect(grown.contains { $0 is ThirdListed })
        #expect(Self.storage(of: grown) != Self.storage(of: third))
        #expect(try (DependencyGraph.inject() as [any Listed]).count == 3)

        DependencyGraph.deactivate(more)
        let shrunk: [any Listed] = try DependencyGraph.inject()
        #expect(shrunk.count == 2)
        #expect(!shrunk.contains { $0 is ThirdListed })
    }

    @Test func anArrayWithATransientIsBuiltForEveryRequest() throws {
        DependencyGraph.activate(Self.singletons())
        DependencyGraph.activate(DependencyContainer { Dependency { TransientListed() }.conforms(to: Listed.self).scope(.instance) })
        let first: [any Listed] = try DependencyGraph.inject()
        let second: [any Listed] = try DependencyGraph.inject()
        #expect(first.count == 3 && second.count == 3)
        let firstTransient = try #require(first.first { $0 is TransientListed })
        let secondTransient = try #require(second.first { $0 is TransientListed })
        #expect(firstTransient !== secondTransient, "a new transient in every array")
        #expect(Self.storage(of: first) != Self.storage(of: second))
        #expect(
            first.filter { !($0 is TransientListed) }.map(ObjectIdentifier.init)
                == second.filter { !($0 is TransientListed) }.map(ObjectIdentifier.init))
    }

    /// Another thread keeps the index that kept the array (a thread's cached snapshot lives
    /// until its next lookup): deactivating the container must still release its singletons.
    @Test func aKeptArrayDoesNotOutliveItsSingletonsRegistrations() async throws {
        weak var first: FirstListed?
        weak var second: SecondListed?
        let container = Self.singletons()
        await DependencyGraph.activate(container)
        let context = DependencyGraph.currentContext
        let cached = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)
        // Handed over through a lock: when the thread has signalled before the wait, the
        // continuation below is resumed before the test's task suspends, and
        // ThreadSanitizer sees nothing that orders the thread's write before the read.
        let kept = Protected(0)
        Thread.detachNewThread {
            context.run {
                // Twice: the first request keeps the array, the second is answered with it.
                _ = try? DependencyGraph.inject() as [any Listed]
                let count = ((try? DependencyGraph.inject() as [any Listed]) ?? []).count
                kept.withLock { $0 = count }
            }
            cached.signal()
            release.wait()
            ended.signal()
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                cached.wait()
                continuation.resume()
            }
        }
        #expect(kept.withLock { $0 } == 2)
        do {
            let listed: [any Listed] = try DependencyGraph.inject()
            first = listed.first { $0 is FirstListed } as? FirstListed
            second = listed.first { $0 is SecondListed } as? SecondListed
        }
        #expect(first != nil && second != nil)

        DependencyGraph.deactivate(container)
        #expect(first == nil, "released with its container, although a parked thread caches the index that kept it")
        #expect(second == nil)
        release.signal()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                ended.wait()
                continuation.resume()
            }
        }
    }

    /// A child graph's index lists its parent's entries: the parent's change must release
    /// them even if the child keeps an array of them and is not used again.
    @Test func aChildGraphsKeptArrayDoesNotOutliveItsParentsRegistrations() throws {
        weak var first: FirstListed?
        let container = Self.singletons()
        DependencyGraph.activate(container)
        let child = DependencyGraph.currentContext.child()
        try child.run {
            _ = try DependencyGraph.inject() as [any Listed]
            let listed: [any Listed] = try DependencyGraph.inject()
            first = listed.first { $0 is FirstListed } as? FirstListed
        }
        #expect(first != nil)
        DependencyGraph.deactivate(container)
        #expect(first == nil, "released with its container, although the child graph kept an array of it")
        #expect(try child.run { try DependencyGraph.inject() as [any Listed] }.isEmpty)
    }

    @Test func aValueOrAnUnrelatedElementTypeIsNotKept() throws {
        DependencyGraph.activate(Self.singletons())
        DependencyGraph.activate(DependencyContainer { Dependency { 7 }.scope(.singleton) })
        #expect(try DependencyGraph.inject() as [Int] == [7])
        #expect(try DependencyGraph.inject() as [Int] == [7])
        #expect(try (DependencyGraph.inject() as [FirstListed]).count == 1)
        let same = try (DependencyGraph.inject() as [FirstListed])[0] === (DependencyGraph.inject() as [FirstListed])[0]
        #expect(same)
    }
}
