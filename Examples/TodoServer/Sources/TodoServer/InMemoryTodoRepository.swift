import Foundation
import Logging
import ServiceLifecycle

/// The in-memory repository, also a service: it opens before the services using it start
/// and closes after they stop (as a connection pool would).
public final class InMemoryTodoRepository: TodoRepository, Service, @unchecked Sendable {
    private let lock = NSLock()
    private var todos: [UUID: Todo] = [:]
    private let journal: LifecycleJournal

    public init(journal: LifecycleJournal) { self.journal = journal }

    public func all() -> [Todo] {
        // Oldest first; the identifier's text (costly to make) only breaks ties.
        lock.withLock {
            todos.values.sorted { $0.createdAt != $1.createdAt ? $0.createdAt < $1.createdAt : $0.id.uuidString < $1.id.uuidString }
        }
    }

    public func todo(id: UUID) -> Todo? { lock.withLock { todos[id] } }

    public func apply(_ changes: [TodoChange]) {
        lock.withLock {
            for change in changes {
                switch change {
                case .save(let todo): todos[todo.id] = todo
                case .delete(let id): todos[id] = nil
                }
            }
        }
    }

    public func run() async throws {
        journal.record("repository opened")
        try? await gracefulShutdown()
        journal.record("repository closed")
    }
}

/// What the server's services did, in order: read by the shutdown test, logged otherwise.
public final class LifecycleJournal: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []
    private let logger: Logger

    public init(logger: Logger) { self.logger = logger }

    public func record(_ entry: String) {
        lock.withLock { entries.append(entry) }
        logger.info("\(entry)")
    }

    public var all: [String] { lock.withLock { entries } }
}
