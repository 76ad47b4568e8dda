import Foundation
import Stitcher
import StitcherTesting
import Testing

// Runtime parameters of any type: objects, existentials, closures. Matching stays by static
// type; only a registration that keeps instances by parameter values needs them Hashable,
// and says so with a typed error.

private final class Session: @unchecked Sendable {
    let token: String
    init(_ token: String) { self.token = token }
}
private protocol Logging: Sendable { func line(_ text: String) -> String }
private struct PrefixLogger: Logging {
    let prefix: String
    func line(_ text: String) -> String { prefix + text }
}
private final class Client: @unchecked Sendable {
    let session: Session
    init(_ session: Session) { self.session = session }
}
private final class Service: @unchecked Sendable {
    let logger: any Logging
    init(_ logger: any Logging) { self.logger = logger }
}
private final class Transformer: @unchecked Sendable {
    let transform: @Sendable (Int) -> Int
    init(_ transform: @escaping @Sendable (Int) -> Int) { self.transform = transform }
}
private final class Node: @unchecked Sendable {
    let children: [Node]
    init(children: [Node]) { self.children = children }
}
/// A non-Hashable depth, so that nested injections of `Node` differ only by an object.
private final class Depth: @unchecked Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}
private final class Repository: @unchecked Sendable {}
private final class Screen: @unchecked Sendable {
    let session: Session, repository: Repository
    init(repository: Repository, session: Session) {
        self.repository = repository
        self.session = session
    }
}

@Suite(.isolatedDependencyGraph)
struct NonHashableParameterTests {
    @Test func objectsExistentialsAndClosuresArePassedByStaticType() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (session: Session) in Client(session) }.scope(.instance)
                Dependency { (logger: any Logging) in Service(logger) }.scope(.instance)
                Dependency { (transform: @escaping @Sendable (Int) -> Int) in Transformer(transform) }.scope(.instance)
            })
        let session = Session("t")
        #expect(try DependencyGraph.inject(byType: Client.self, session).session === session)
        let service: Service = try DependencyGraph.inject(PrefixLogger(prefix: "> ") as any Logging)
        #expect(service.logger.line("x") == "> x")
        let transformer: Transformer = try DependencyGraph.inject({ @Sendable (x: Int) in x * 3 } as @Sendable (Int) -> Int)
        #expect(transformer.transform(2) == 6)
        #expect(throws: InjectionError.self, "a PrefixLogger is not an `any Logging`: matched by static type") {
            try DependencyGraph.inject(byType: Service.self, PrefixLogger(prefix: ""))
        }
    }

    @Test func aStoredScopeRejectsParametersThatAreNotHashable() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (session: Session) in Client(session) }.scope(.singleton)
                Dependency { (token: String) in Client(Session(token)) }.named("keyed").scope(.singleton)
            })
        let error = try #require(throws: DependencyScopeError.self) { try DependencyGraph.inject(byType: Client.self, Session("t")) }
        #expect(error.reason == .unhashableParameters(types: ["Session"]))
        #expect(error.description.contains("not all Hashable"))
        #expect(error.recoverySuggestion?.contains("To fix this") == true)
        let first: Client = try DependencyGraph.inject(byName: "keyed", "a")
        #expect(try DependencyGraph.inject(byName: "keyed", "a") as Client === first, "Hashable values still key instances")
        #expect(try DependencyGraph.inject(byName: "keyed", "b") as Client !== first)
    }

    @Test func asynchronousInjectionsTakeThemToo() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { (session: Session) async in Client(session) }.scope(.instance)
                Dependency { (session: Session) async in Client(session) }.named("stored").scope(.singleton)
            })
        let session = Session("async")
        let client: Client = try await DependencyGraph.injectAsync(byType: Client.self, parameters: session)
        #expect(client.session === session)
        await #expect(throws: DependencyScopeError.self) {
            try await DependencyGraph.injectAsync(byName: "stored", parameters: session) as Client
        }
    }

    @Test func nestedInjectionsWithDifferentObjectsAreNotACycle() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (depth: Depth) -> Node in
                    guard depth.value > 0 else { return Node(children: []) }
                    return Node(children: [try DependencyGraph.inject(byType: Node.self, Depth(depth.value - 1))])
                }
                .scope(.instance)
            })
        var node: Node = try DependencyGraph.inject(Depth(3))
        var levels = 1
        while let child = node.children.first {
            node = child
            levels += 1
        }
        #expect(levels == 4)
    }

    @Test func anAutowiredInitializerTakesAnObjectAsARuntimeParameter() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Repository() }.scope(.singleton)
                Dependency(autowiring: Screen.init, parameters: Session.self).scope(.instance)
            })
        let session = Session("s")
        let screen: Screen = try DependencyGraph.inject(session)
        #expect(screen.session === session)
        #expect(screen.repository === (try DependencyGraph.inject() as Repository))
    }
}
