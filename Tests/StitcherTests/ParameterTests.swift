import Testing
import Stitcher
import StitcherTesting

private final class Session: Sendable {
    let user: String, attempt: Int
    init(user: String, attempt: Int = 0) { self.user = user; self.attempt = attempt }
}
private enum Context: Hashable { case main, background }

@Suite(.isolatedDependencyGraph)
struct ParameterTests {
    @Test func labelledAndUnlabelledParametersAreEquivalent() throws {
        DependencyGraph.activate(DependencyContainer {
            Dependency { (user: String, attempt: Int) in Session(user: user, attempt: attempt) }
        })
        let labelled: Session = try DependencyGraph.inject(parameters: "ann", 2)
        let unlabelled = try DependencyGraph.inject(byType: Session.self, "bob", 3)
        #expect(labelled.user == "ann" && labelled.attempt == 2)
        #expect(unlabelled.user == "bob" && unlabelled.attempt == 3)
    }

    @Test func wrongCountNamesCounts() throws {
        DependencyGraph.activate(DependencyContainer {
            Dependency { (user: String, attempt: Int) in Session(user: user, attempt: attempt) }
        })
        #expect(throws: InjectionError.invalidDependencyParameters(
            .type("Session"), .mismatchedCount(1, expected: 2), parameters: ["String"])) {
            let _: Session = try DependencyGraph.inject(parameters: "ann")
        }
        #expect(throws: InjectionError.invalidDependencyParameters(
            .type("Session"), .mismatchedCount(0, expected: 2), parameters: [])) {
            let _: Session = try DependencyGraph.inject()
        }
    }

    @Test func wrongTypeNamesThePosition() throws {
        DependencyGraph.activate(DependencyContainer {
            Dependency { (user: String, attempt: Int) in Session(user: user, attempt: attempt) }
        })
        #expect(throws: InjectionError.invalidDependencyParameters(
            .type("Session"), .mismatchedType("Double", expected: "Int", position: 1), parameters: ["String", "Double"])) {
            let _: Session = try DependencyGraph.inject(parameters: "ann", 2.5)
        }
    }

    @Test func parametersAreMatchedByStaticType() throws {
        DependencyGraph.activate(DependencyContainer {
            Dependency { (id: Int) in Session(user: "int-\(id)") }
            Dependency { (id: Int?) in Session(user: "optional-\(String(describing: id))") }
        })
        #expect(try DependencyGraph.inject(byType: Session.self, 1).user == "int-1")
        #expect(try DependencyGraph.inject(byType: Session.self, Int?.some(2)).user == "optional-Optional(2)")
    }

    @Test func storedScopesKeepOneInstancePerParameterValues() throws {
        DependencyGraph.activate(DependencyContainer {
            Dependency { (user: String) in Session(user: user) }.scope(.singleton)
            Dependency { (context: Context) in Session(user: "\(context)") }.named("contextual")
        })
        let ann1: Session = try DependencyGraph.inject(parameters: "ann")
        let ann2: Session = try DependencyGraph.inject(parameters: "ann")
        let bob: Session = try DependencyGraph.inject(parameters: "bob")
        #expect(ann1 === ann2)
        #expect(ann1 !== bob)
        let main: Session = try DependencyGraph.inject(byName: "contextual", Context.main)
        let mainAgain: Session = try DependencyGraph.inject(byName: "contextual", Context.main)
        #expect(main === mainAgain, "shared instances are reused while held")
    }

    @Test func instanceScopeIgnoresParameterEquality() throws {
        DependencyGraph.activate(DependencyContainer {
            Dependency { (user: String) in Session(user: user) }.scope(.instance)
        })
        let first: Session = try DependencyGraph.inject(parameters: "ann")
        let second: Session = try DependencyGraph.inject(parameters: "ann")
        #expect(first !== second)
    }
}
