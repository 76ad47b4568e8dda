import Testing
import Stitcher
import StitcherTesting

final class Alpha { init() {} }
struct Beta { let n: Int }

@Suite(.isolatedDependencyGraph)
struct SmokeTests {
    @Test func basic() throws {
        DependencyGraph.activate(DependencyContainer {
            Dependency { Alpha() }.scope(.singleton)
            Dependency { (n: Int) in Beta(n: n) }
        })
        let a: Alpha = try DependencyGraph.inject()
        let b: Alpha = try DependencyGraph.inject(byType: Alpha.self)
        #expect(a === b)
        let beta: Beta = try DependencyGraph.inject(byType: Beta.self, 4)
        #expect(beta.n == 4)
        let beta2: Beta = try DependencyGraph.inject(parameters: 5)
        #expect(beta2.n == 5)
        #expect(throws: InjectionError.self) { let _: Beta = try DependencyGraph.inject() }
        do { let _: Beta = try DependencyGraph.inject(); Issue.record("no throw") } catch { print(error) }
        let o: String? = try DependencyGraph.inject()
        #expect(o == nil)
        let arr: [Alpha] = try DependencyGraph.inject()
        #expect(arr.count == 1)
    }
}
