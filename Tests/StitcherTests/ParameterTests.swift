import Stitcher
import StitcherTesting
import Testing

private final class Session: Sendable {
    let user: String, attempt: Int
    init(user: String, attempt: Int = 0) {
        self.user = user
        self.attempt = attempt
    }
}
private enum Context: Hashable { case main, background }

@Suite(.isolatedDependencyGraph)
struct ParameterTests {
    @Test func labelledAndUnlabelledParametersAreEquivalent() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (user: String, attempt: Int) in Session(user: user, attempt: attempt) }
            })
        let labelled: Session = try DependencyGraph.inject(parameters: "ann", 2)
        let unlabelled: Session = try DependencyGraph.inject(byType: Session.self, "bob", 3)
        #expect(labelled.user == "ann" && labelled.attempt == 2)
        #expect(unlabelled.user == "bob" && unlabelled.attempt == 3)
    }

    @Test func wrongCountNamesCounts() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (user: String, attempt: Int) in Session(user: user, attempt: attempt) }
            })
        #expect(
            throws: InjectionError.invalidDependencyParameters(
                .type("Session"), .mismatchedCount(1, expected: 2), parameters: ["String"])
        ) {
            let _: Session = try DependencyGraph.inject(parameters: "ann")
        }
        #expect(
            throws: InjectionError.invalidDependencyParameters(
                .type("Session"), .mismatchedCount(0, expected: 2), parameters: [])
        ) {
            let _: Session = try DependencyGraph.inject()
        }
    }

    @Test func wrongTypeNamesThePosition() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (user: String, attempt: Int) in Session(user: user, attempt: attempt) }
            })
        #expect(
            throws: InjectionError.invalidDependencyParameters(
                .type("Session"), .mismatchedType("Double", expected: "Int", position: 1), parameters: ["String", "Double"])
        ) {
            let _: Session = try DependencyGraph.inject(parameters: "ann", 2.5)
        }
    }

    @Test func parametersAreMatchedByStaticType() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (id: Int) in Session(user: "int-\(id)") }
                Dependency { (id: Int?) in Session(user: "optional-\(String(describing: id))") }
            })
        #expect(try DependencyGraph.inject(byType: Session.self, 1).user == "int-1")
        #expect(try DependencyGraph.inject(byType: Session.self, Int?.some(2)).user == "optional-Optional(2)")
    }

    @Test func storedScopesKeepOneInstancePerParameterValues() throws {
        DependencyGraph.activate(
            DependencyContainer {
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
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (user: String) in Session(user: user) }.scope(.instance)
            })
        let first: Session = try DependencyGraph.inject(parameters: "ann")
        let second: Session = try DependencyGraph.inject(parameters: "ann")
        #expect(first !== second)
    }

    /// Parameter values live on the injecting caller's stack during a synchronous injection;
    /// a stored instance per values must keep a copy that outlives them.
    @Test func storedInstancesKeepTheirParameterValuesAfterTheInjection() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (user: String, tags: [String]) in Session(user: user + tags.joined()) }.scope(.singleton)
            })
        func inject(_ prefix: String, _ count: Int) throws -> Session {
            // Built at run time, so that the strings and the array are heap values.
            let user = String(repeating: prefix, count: 40)
            let tags = (0..<count).map { "tag-\($0)-" + String(repeating: "x", count: 30) }
            return try DependencyGraph.inject(byType: Session.self, user, tags)
        }
        let first = try inject("a", 3)
        for _ in 0..<50 { _ = try inject("b", 2) }
        let again = try inject("a", 3)
        #expect(first === again)
        #expect(
            first.user.hasPrefix(String(repeating: "a", count: 40)) && first.user.hasSuffix("tag-2-" + String(repeating: "x", count: 30)))
        #expect(try inject("a", 4) !== first)
    }

    /// `@Injected` resolves on first read, long after its initializer's arguments are gone.
    @Test func injectedPropertiesKeepTheirParametersUntilTheFirstRead() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (user: String, attempt: Int) in Session(user: user, attempt: attempt) }.scope(.instance)
            })
        final class Screen {
            @Injected var session: Session
            init(user: String) { _session = Injected(String(repeating: user, count: 20), 7) }
        }
        let screen = Screen(user: ["c", "d"].joined())
        _ = (0..<20).map { _ in String(repeating: "z", count: 64) }
        #expect(screen.session.user == String(repeating: "cd", count: 20))
        #expect(screen.session.attempt == 7)
    }

    /// A factory that injects with parameters of its own nests borrowed values; a cycle
    /// through the same values is still found, and different values are not a cycle.
    @Test func nestedInjectionsWithParametersAreTrackedPerValues() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (depth: Int) throws -> Session in
                    if depth == 0 { return Session(user: "leaf") }
                    let inner: Session = try DependencyGraph.inject(byType: Session.self, depth - 1)
                    return Session(user: inner.user + "<")
                }.scope(.instance)
                Dependency { (user: String) throws -> Session in
                    let inner: Session = try DependencyGraph.inject(byName: "loop", user)
                    return Session(user: inner.user)
                }.named("loop")
            })
        #expect(try DependencyGraph.inject(byType: Session.self, 3).user == "leaf<<<")
        let error = #expect(throws: InjectionError.self) {
            let _: Session = try DependencyGraph.inject(byName: "loop", "ann")
        }
        guard case .cyclicDependencyReference(let path) = error else {
            Issue.record("expected a cycle, got \(String(describing: error))")
            return
        }
        #expect(path.entries.count == 2)
    }
}
