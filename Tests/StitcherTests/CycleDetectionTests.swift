import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Root: Sendable { init(_ leaf: Leaf) {} }
private final class Leaf: Sendable { init(_ root: Root) {} }
private final class SelfReferencing: Sendable { init(_ other: SelfReferencing?) {} }
private final class Chain: Sendable {
    let depth: Int
    init(depth: Int) { self.depth = depth }
}
private final class AsyncRoot: Sendable { init() {} }
private final class ThreadRoot: Sendable { init() {} }
private final class ThreadLeaf: Sendable { init() {} }
private final class Tree: Sendable {
    let children: [Tree]
    init(_ children: [Tree]) { self.children = children }
}

/// Blocks the calling thread until an async operation finishes.
private func blockingWait<T: Sendable>(_ operation: @escaping @Sendable () async -> T) -> T {
    let semaphore = DispatchSemaphore(value: 0)
    let result = Protected<T?>(nil)
    Task {
        let value = await operation()
        result.withLock { $0 = value }
        semaphore.signal()
    }
    semaphore.wait()
    return result.withLock { $0 }!
}

// Serialized: two tests block a thread of the cooperative pool until a task runs, and on
// a two-core machine two of them at once would leave that task no thread.
@Suite(.isolatedDependencyGraph, .serialized)
struct CycleDetectionTests {
    @Test(arguments: [DependencyScope.instance, .shared, .singleton])
    func twoNodeCycleIsReportedWithItsPath(scope: DependencyScope) throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Root(try DependencyGraph.inject()) }.scope(scope)
                Dependency { Leaf(try DependencyGraph.inject()) }.scope(scope)
            })
        let expected = InjectionError.cyclicDependencyReference(.init(entries: [.type("Root"), .type("Leaf"), .type("Root")]))
        #expect(throws: expected) { let _: Root = try DependencyGraph.inject() }
        do {
            let _: Root = try DependencyGraph.inject()
        } catch let error as InjectionError {
            #expect(error.description == "Dependency cycle detected, Type[Root] -> Type[Leaf] -> Type[Root].")
            if case .cyclicDependencyReference(let backtrace) = error { #expect(backtrace.depth == 3) }
        }
    }

    @Test func selfReferenceIsACycleOfOne() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { SelfReferencing(try DependencyGraph.inject(byName: "self")) }.named("self")
            })
        #expect(throws: InjectionError.cyclicDependencyReference(.init(entries: [.name("self"), .name("self")]))) {
            let _: SelfReferencing = try DependencyGraph.inject(byName: "self")
        }
    }

    @Test func deepCycleListsEveryStep() throws {
        let depth = 200
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (level: Int) in
                    Chain(depth: (try DependencyGraph.inject(byType: Chain.self, (level + 1) % depth) as Chain).depth + 1)
                }
            })
        do {
            let _: Chain = try DependencyGraph.inject(parameters: 0)
            Issue.record("expected a cycle")
        } catch InjectionError.cyclicDependencyReference(let backtrace) {
            #expect(backtrace.depth == depth + 1)
        }
    }

    @Test func recursionWithOtherParametersIsNotACycle() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (depth: Int) in
                    Tree(depth == 0 ? [] : [try DependencyGraph.inject(byType: Tree.self, depth - 1)])
                }
            })
        var tree: Tree = try DependencyGraph.inject(parameters: 50)
        var levels = 0
        while let child = tree.children.first {
            tree = child
            levels += 1
        }
        #expect(levels == 50)
    }

    @Test func cycleThroughAChildTaskIsDetected() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> AsyncRoot in
                    // The factory waits for a task that resolves the same dependency.
                    let result: Result<AsyncRoot, any Error> = blockingWait {
                        Result { try DependencyGraph.inject(byType: AsyncRoot.self) as AsyncRoot }
                    }
                    return try result.get()
                }
                .scope(.singleton)
            })
        #expect(throws: InjectionError.cyclicDependencyReference(.init(entries: [.type("AsyncRoot"), .type("AsyncRoot")]))) {
            let _: AsyncRoot = try DependencyGraph.inject()
        }
    }

    @Test func cycleThroughAChildTaskOfAScopedFactoryIsDetectedEachTime() async throws {
        // In a scope bound to the task, a `.scoped` factory shares its path with the tasks it
        // starts; the path is reused by the thread's next build once no task holds it.
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> AsyncRoot in
                    let result: Result<AsyncRoot, any Error> = blockingWait {
                        Result { try DependencyGraph.inject(byType: AsyncRoot.self) as AsyncRoot }
                    }
                    return try result.get()
                }
                .scope(.scoped)
                Dependency { ThreadLeaf() }.scope(.scoped)
            })
        let cycle = InjectionError.cyclicDependencyReference(.init(entries: [.type("AsyncRoot"), .type("AsyncRoot")]))
        try await DependencyGraph.withScope {
            await Task.yield()  // the asynchronous scope, bound to the task
            for _ in 0..<3 {
                #expect(throws: cycle) { let _: AsyncRoot = try DependencyGraph.inject() }
                _ = try DependencyGraph.inject() as ThreadLeaf
            }
        }
    }

    @Test func singletonCycleSplitAcrossThreadsFailsInsteadOfDeadlocking() throws {
        // Each factory waits until the other thread has started building its own singleton,
        // then asks for it: a lock-order cycle no single thread's path shows.
        let started = Barrier(parties: 2)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> ThreadRoot in
                    started.arriveAndWait()
                    _ = try DependencyGraph.inject(byType: ThreadLeaf.self) as ThreadLeaf
                    return ThreadRoot()
                }.scope(.singleton)
                Dependency { () throws -> ThreadLeaf in
                    started.arriveAndWait()
                    _ = try DependencyGraph.inject(byType: ThreadRoot.self) as ThreadRoot
                    return ThreadLeaf()
                }.scope(.singleton)
            })
        let paths = Protected<[[InjectionError.DependencyContext]]>([])
        let finished = onThreads(2, timeout: 30) { index in
            do {
                if index == 0 {
                    _ = try DependencyGraph.inject(byType: ThreadRoot.self) as ThreadRoot
                } else {
                    _ = try DependencyGraph.inject(byType: ThreadLeaf.self) as ThreadLeaf
                }
            } catch InjectionError.cyclicDependencyReference(let backtrace) {
                paths.withLock { $0.append(backtrace.entries) }
            } catch {}
        }
        #expect(finished, "no deadlock")
        let reported = paths.withLock { $0 }
        #expect(reported.count == 2, "both threads learn of the cycle")
        for path in reported {
            #expect(path.count == 3 && path.first == path.last, "the path closes: \(path)")
        }
    }

    @Test func aCycleThroughThreeThreadsIsReportedWholeOnEveryThread() throws {
        let started = Barrier(parties: 3)
        let names = ["first", "second", "third"]
        DependencyGraph.activate(
            DependencyContainer {
                for (index, name) in names.enumerated() {
                    Dependency { () throws -> ThreadRoot in
                        started.arriveAndWait()
                        let _: ThreadRoot = try DependencyGraph.inject(byName: names[(index + 1) % names.count])
                        return ThreadRoot()
                    }.named(name).scope(.singleton)
                }
            })
        let paths = Protected<[[InjectionError.DependencyContext]]>([])
        let finished = onThreads(3, timeout: 30) { index in
            do {
                let _: ThreadRoot = try DependencyGraph.inject(byName: names[index])
            } catch InjectionError.cyclicDependencyReference(let backtrace) {
                paths.withLock { $0.append(backtrace.entries) }
            } catch {}
        }
        #expect(finished, "no deadlock")
        let reported = paths.withLock { $0 }
        #expect(reported.count == 3, "every thread learns of the cycle")
        for path in reported {
            #expect(path.count == 4 && path.first == path.last, "the path closes: \(path)")
            #expect(Set(path.map(\.description)).count == 3, "through all three: \(path)")
        }
    }

    @Test func detectionCanBeTurnedOff() {
        #expect(StitcherConfiguration.runtimeCycleDetectionAvailability == .debugOnly)
        #expect(StitcherConfiguration.RuntimeCycleDetectionAvailability.never != .always)
    }
}
