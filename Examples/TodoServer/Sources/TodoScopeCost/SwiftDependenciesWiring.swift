import Dependencies
import Foundation
import Hummingbird
import Logging
import TodoServer

// `todo-scope-cost swift-dependencies`: the request's objects made by hand, as the hand-wired
// middleware makes them, and its `TodoService` bound with swift-dependencies' `withDependencies`
// instead of a task-local value of our own; the handlers read it with `@Dependency`. What the
// lightest use of that library adds to the same request: it builds nothing and has no scope.

/// The request's service, as swift-dependencies binds it.
private enum TodoServiceKey: DependencyKey {
    static let liveValue: TodoService? = nil
}

extension DependencyValues {
    fileprivate var todoService: TodoService? {
        get { self[TodoServiceKey.self] }
        set { self[TodoServiceKey.self] = newValue }
    }
}

/// Makes the request's objects by hand, from singletons taken from the graph once (by the
/// caller: this file does not import Stitcher, whose `Dependency` and `Dependencies` would
/// hide swift-dependencies' names), and binds the service for the handlers with
/// `withDependencies`.
private struct SwiftDependenciesMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let repository: any TodoRepository
    let time: any TimeSource
    let ids: any IDGenerator
    let logger: Logger
    let outcomes: UnitOfWorkOutcomes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let current = CurrentRequest()
        current.id = request.headers[.init("x-request-id")!] ?? UUID().uuidString
        let logger = RequestLogger(request: current, base: logger)
        let unit = UnitOfWork(repository: repository, logger: logger, outcomes: outcomes)
        defer { unit.tearDown() }
        let service = TodoService(repository: repository, unitOfWork: unit, time: time, ids: ids, logger: logger)
        var response = try await withDependencies {
            $0.todoService = service
        } operation: {
            try await next(request, context)
        }
        if response.status.code < 400 { unit.markSucceeded() }
        response.headers[.init("x-request-id")!] = current.id
        return response
    }
}

/// The routes with swift-dependencies' wiring, over the given singletons.
func swiftDependenciesRouter(
    repository: any TodoRepository, time: any TimeSource, ids: any IDGenerator, logger: Logger, outcomes: UnitOfWorkOutcomes
) -> Router<BasicRequestContext> {
    let middleware = SwiftDependenciesMiddleware(repository: repository, time: time, ids: ids, logger: logger, outcomes: outcomes)
    return todoRouter(middleware: middleware) { () throws -> TodoService in
        @Dependency(\.todoService) var service: TodoService?
        return service!
    }
}
