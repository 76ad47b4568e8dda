import Foundation
import Hummingbird
import ServiceLifecycle

/// The API's operations for one request: changes go through the request's unit of work.
/// Autowired; `.instance`, built per use from the request's scoped dependencies.
public struct TodoService: Sendable {
    let repository: any TodoRepository
    let unitOfWork: UnitOfWork
    let time: any TimeSource
    let ids: any IDGenerator
    let logger: RequestLogger

    public init(repository: any TodoRepository, unitOfWork: UnitOfWork, time: any TimeSource, ids: any IDGenerator, logger: RequestLogger) {
        self.repository = repository
        self.unitOfWork = unitOfWork
        self.time = time
        self.ids = ids
        self.logger = logger
    }

    public func create(title: String) throws -> Todo {
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw HTTPError(.badRequest, message: "A todo needs a title.")
        }
        let todo = Todo(id: ids.next(), title: title, completed: false, createdAt: time.now())
        unitOfWork.stage(.save(todo))
        logger.logger.info("created todo \(todo.id)")
        return todo
    }

    public func list() -> [Todo] { repository.all() }

    public func complete(id: UUID) throws -> Todo {
        guard var todo = repository.todo(id: id) else { throw HTTPError(.notFound, message: "No todo \(id).") }
        todo.completed = true
        unitOfWork.stage(.save(todo))
        return todo
    }

    public func delete(id: UUID) throws {
        guard repository.todo(id: id) != nil else { throw HTTPError(.notFound, message: "No todo \(id).") }
        unitOfWork.stage(.delete(id))
    }
}

/// How often the sweeper runs; a dependency, so that tests can make it short.
public struct SweepInterval: Sendable {
    public let duration: Duration
    public init(_ duration: Duration) { self.duration = duration }
}

/// A background job: removes completed todos, every `SweepInterval`, until the server shuts
/// down. A service, started after the repository it uses and stopped before it.
public final class CompletedTodoSweeper: Service, @unchecked Sendable {
    let repository: any TodoRepository
    let journal: LifecycleJournal
    let interval: SweepInterval

    public init(repository: any TodoRepository, journal: LifecycleJournal, interval: SweepInterval) {
        self.repository = repository
        self.journal = journal
        self.interval = interval
    }

    public func run() async throws {
        journal.record("sweeper started")
        let duration = interval.duration
        while !Task.isShuttingDownGracefully {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: duration) }
            sweep()
        }
        journal.record("sweeper stopped")
    }

    func sweep() {
        let completed = repository.all().filter(\.completed)
        if !completed.isEmpty { repository.apply(completed.map { .delete($0.id) }) }
    }
}
