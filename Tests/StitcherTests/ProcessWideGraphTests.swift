import Foundation
import Stitcher
import Testing

/// The process-wide graph, outside any isolated graph: lookups there take the direct path
/// without a task-local read. Each test runs in a child process, so that it neither sees nor
/// disturbs the parallel tests' isolated graphs.
struct ProcessWideGraphTests {
    @Test func directLookupsOfEveryScopeAndParameters() async {
        await #expect(processExitsWith: .success) {
            final class Single: Sendable {}
            final class Shared: Sendable {}
            final class Fresh: Sendable {}
            final class Sized: Sendable {
                let size: Int
                init(size: Int) { self.size = size }
            }
            final class Root: Sendable {
                let fresh: Fresh
                init(fresh: Fresh) { self.fresh = fresh }
            }
            final class Named: Sendable {}
            DependencyGraph.activate(
                DependencyContainer {
                    Dependency { Single() }.scope(.singleton)
                    Dependency { Shared() }.scope(.shared)
                    Dependency { Fresh() }.scope(.instance)
                    Dependency { (size: Int) in Sized(size: size) }.scope(.instance)
                    Dependency { Root(fresh: try DependencyGraph.inject()) }.scope(.instance)
                    Dependency { Named() }.named("named").scope(.singleton)
                })
            func check(_ condition: Bool, _ message: String) {
                if !condition { fatalError(message) }
            }
            let single: Single = try! DependencyGraph.inject()
            check(try! DependencyGraph.inject(byType: Single.self) === single, "one singleton")
            let shared: Shared = try! DependencyGraph.inject()
            check(try! DependencyGraph.inject(byType: Shared.self) === shared, "shared while held")
            check(
                try! DependencyGraph.inject(byType: Fresh.self) !== (try! DependencyGraph.inject(byType: Fresh.self)),
                "a new transient each time")
            check(try! DependencyGraph.inject(byType: Sized.self, 3).size == 3, "parameters reach the factory")
            let root: Root = try! DependencyGraph.inject()
            check(root.fresh !== (try! DependencyGraph.inject(byType: Fresh.self)), "nested transient")
            let named: Named = try! DependencyGraph.inject(byName: "named")
            check(try! DependencyGraph.inject(byName: "named") as Named === named, "one named singleton")
            do {
                _ = try DependencyGraph.inject(byType: Sized.self) as Sized
                fatalError("expected a parameter error")
            } catch let error as InjectionError {
                guard case .invalidDependencyParameters = error else { fatalError("wrong error \(error)") }
            } catch {
                fatalError("wrong error \(error)")
            }
            // Other threads see the same instances through their own thread state.
            let group = DispatchGroup()
            let fromThreads = Protected<[ObjectIdentifier]>([])
            for _ in 0..<4 {
                group.enter()
                Thread.detachNewThread {
                    let instance: Single = try! DependencyGraph.inject()
                    fromThreads.withLock { $0.append(ObjectIdentifier(instance)) }
                    group.leave()
                }
            }
            group.wait()
            check(fromThreads.withLock { $0 } == Array(repeating: ObjectIdentifier(single), count: 4), "threads share the singleton")
        }
    }
}
