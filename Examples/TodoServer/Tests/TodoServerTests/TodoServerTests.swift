import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Stitcher
import StitcherTesting
import Testing
import TodoServer

// The Todo API over loopback (HummingbirdTesting's live mode): status codes and bodies, a
// dependency scope per request whose unit of work commits or rolls back, concurrent requests
// that never share a scoped instance, and services stopped in dependency order.

private let logger = Logger(label: "todo-server.tests")

/// A graph with the server's container, the journal of its services and the endings of its
/// units of work.
private func serverGraph(sweepEvery: Duration = .seconds(60)) -> (LifecycleJournal, UnitOfWorkOutcomes) {
    let journal = LifecycleJournal(logger: logger)
    let outcomes = UnitOfWorkOutcomes()
    DependencyGraph.activate(todoContainer(logger: logger, journal: journal, outcomes: outcomes, sweepEvery: sweepEvery))
    return (journal, outcomes)
}

private func json(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

private func decode<T: Decodable>(_ type: T.Type, _ response: TestResponse) throws -> T {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode(T.self, from: Data(buffer: response.body))
}

@Suite(.isolatedDependencyGraph)
struct TodoServerTests {
    @Test func createListCompleteAndDelete() async throws {
        _ = serverGraph()
        try DependencyGraph.verify()
        try await todoApplication(port: 0, logger: logger).test(.live) { client in
            let created = try await client.execute(uri: "/todos", method: .post, body: json(#"{"title":"buy milk"}"#)) { response in
                #expect(response.status == .created)
                return try decode(Todo.self, response)
            }
            #expect(created.title == "buy milk" && !created.completed)
            try await client.execute(uri: "/todos", method: .get) { response in
                #expect(response.status == .ok)
                let todos = try decode([Todo].self, response)
                #expect(todos == [created])
            }
            try await client.execute(uri: "/todos/\(created.id)/complete", method: .patch) { response in
                #expect(response.status == .ok)
                let todo = try decode(Todo.self, response)
                #expect(todo.completed)
            }
            try await client.execute(uri: "/todos/\(created.id)", method: .delete) { #expect($0.status == .noContent) }
            try await client.execute(uri: "/todos/\(created.id)", method: .delete) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/todos", method: .post, body: json(#"{"title":"  "}"#)) { #expect($0.status == .badRequest) }
            try await client.execute(uri: "/todos", method: .get) { response in
                let todos = try decode([Todo].self, response)
                #expect(todos.isEmpty)
            }
        }
    }

    @Test func eachRequestHasItsScopeAndItsUnitOfWorkEndsWithIt() async throws {
        let (_, outcomes) = serverGraph()
        try await todoApplication(port: 0, logger: logger).test(.live) { client in
            try await client.execute(
                uri: "/todos", method: .post, headers: [.init("x-request-id")!: "create-1"], body: json(#"{"title":"a"}"#)
            ) {
                #expect($0.headers[.init("x-request-id")!] == "create-1")
            }
            try await client.execute(uri: "/todos", method: .get, headers: [.init("x-request-id")!: "list-1"])
            try await client.execute(uri: "/todos/\(UUID())", method: .delete, headers: [.init("x-request-id")!: "delete-missing"])
        }
        let endings = outcomes.all
        #expect(endings.map(\.requestID) == ["create-1", "list-1", "delete-missing"])
        #expect(endings.map(\.outcome) == [.committed(1), .committed(0), .rolledBack(0)])
        #expect(Set(endings.map(\.unit)).count == 3)
    }

    @Test func concurrentRequestsNeverShareAScopedInstance() async throws {
        let (_, outcomes) = serverGraph()
        let count = 64
        try await todoApplication(port: 0, logger: logger).test(.live) { client in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<count {
                    group.addTask {
                        try await client.execute(
                            uri: "/todos", method: .post, headers: [.init("x-request-id")!: "request-\(index)"],
                            body: json(#"{"title":"todo \#(index)"}"#)
                        ) { #expect($0.status == .created) }
                    }
                }
                try await group.waitForAll()
            }
            try await client.execute(uri: "/todos", method: .get) { response in
                let todos = try decode([Todo].self, response)
                #expect(todos.count == count)
            }
        }
        // Each request's unit of work was its own, and its logger carried its own request's ID.
        let endings = outcomes.all.filter { $0.requestID.hasPrefix("request-") }
        #expect(endings.count == count)
        #expect(Set(endings.map(\.requestID)) == Set((0..<count).map { "request-\($0)" }))
        #expect(Set(endings.map(\.unit)).count == count)
        #expect(endings.allSatisfy { $0.outcome == .committed(1) })
    }

    @Test func servicesStartBeforeTheServerAndStopInDependencyOrder() async throws {
        let (journal, _) = serverGraph(sweepEvery: .milliseconds(20))
        try await todoApplication(port: 0, logger: logger).test(.live) { client in
            try await client.execute(uri: "/todos", method: .get) { #expect($0.status == .ok) }
        }
        let entries = journal.all
        #expect(Set(entries.prefix(2)) == ["repository opened", "sweeper started"])
        // The sweeper uses the repository: it stops first, the repository closes last.
        #expect(Array(entries.suffix(2)) == ["sweeper stopped", "repository closed"])
    }

    @Test func theHandWiredBaselineAnswersTheSame() async throws {
        let (_, outcomes) = serverGraph()
        let app = todoApplication(port: 0, wiring: .byHand(try HandWiredDependencies()), logger: logger)
        try await app.test(.live) { client in
            try await client.execute(
                uri: "/todos", method: .post, headers: [.init("x-request-id")!: "hand-1"], body: json(#"{"title":"a"}"#)
            ) {
                #expect($0.status == .created && $0.headers[.init("x-request-id")!] == "hand-1")
            }
            try await client.execute(uri: "/todos", method: .get) { response in
                let todos = try decode([Todo].self, response)
                #expect(todos.map(\.title) == ["a"])
            }
        }
        #expect(outcomes.all.map(\.outcome) == [.committed(1), .committed(0)])
    }
}
