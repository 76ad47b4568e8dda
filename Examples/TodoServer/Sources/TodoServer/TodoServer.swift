import Foundation
import Hummingbird
import Logging
import Stitcher
import StitcherServiceLifecycle

/// The server's dependencies: services (the repository, the sweeper), process-wide values
/// (the clock, identifiers, the logger), and what each request's scope builds.
public func todoContainer(logger: Logger, journal: LifecycleJournal, outcomes: UnitOfWorkOutcomes, sweepEvery: Duration = .seconds(60))
    -> DependencyContainer
{
    DependencyContainer {
        Dependency { logger }.scope(.singleton)
        Dependency { journal }.scope(.singleton)
        Dependency { outcomes }.scope(.singleton)
        Dependency { SweepInterval(sweepEvery) }.scope(.singleton)
        Dependency { SystemTime() as any TimeSource }.scope(.singleton)
        Dependency { RandomIDs() as any IDGenerator }.scope(.singleton)
        Dependency(autowiring: InMemoryTodoRepository.init).conforms(to: (any TodoRepository).self).scope(.singleton)
        Dependency(autowiring: CompletedTodoSweeper.init).scope(.singleton)
        // One per request, torn down when its scope ends.
        Dependency { CurrentRequest() }.scope(.scoped)
        Dependency(autowiring: RequestLogger.init).scope(.scoped)
        Dependency(autowiring: UnitOfWork.init).scope(.scoped)
        Dependency(autowiring: TodoService.init).scope(.instance)
    }
}

/// The routes: create, list, complete and delete todos.
public func todoRouter(wiring: Wiring = .stitcher) -> Router<BasicRequestContext> {
    switch wiring {
    case .stitcher: todoRouter(middleware: RequestScopeMiddleware(), service: wiring.service)
    case .byHand(let dependencies): todoRouter(middleware: HandWiredMiddleware(dependencies: dependencies), service: wiring.service)
    case .byHandInEmptyScope(let dependencies):
        todoRouter(middleware: HandWiredMiddleware(dependencies: dependencies, inEmptyScope: true), service: wiring.service)
    case .byHandLookingUp: todoRouter(middleware: HandWiredMiddleware(dependencies: nil, inEmptyScope: true), service: wiring.service)
    }
}

/// The routes behind `middleware`, each taking the request's `TodoService` from `service`:
/// a wiring of your own, such as another dependency library's (`todo-scope-cost` compares
/// one with the request scope).
///
/// ```swift
/// let router = todoRouter(middleware: RequestScopeMiddleware()) { try DependencyGraph.inject() }
/// ```
public func todoRouter(
    middleware: some RouterMiddleware<BasicRequestContext>, service: @escaping @Sendable () throws -> TodoService
) -> Router<BasicRequestContext> {
    let router = Router()
    router.add(middleware: middleware)
    let todos = router.group("todos")
    todos.post { request, context -> EditedResponse<Todo> in
        let create = try await request.decode(as: CreateTodo.self, context: context)
        return EditedResponse(status: .created, response: try service().create(title: create.title))
    }
    todos.get { _, _ in try service().list() }
    todos.patch(":id/complete") { _, context in try service().complete(id: try context.parameters.require("id", as: UUID.self)) }
    todos.delete(":id") { _, context -> HTTPResponse.Status in
        try service().delete(id: try context.parameters.require("id", as: UUID.self))
        return .noContent
    }
    return router
}

/// The body of `POST /todos`.
private struct CreateTodo: Decodable {
    let title: String
}

/// The application: the router, with the graph's services run by a `DependencyServiceGroup`
/// (the repository, then the sweeper) before the HTTP server starts.
public func todoApplication(
    graph: DependencyGraph.Context = DependencyGraph.currentContext, port: Int = 8080, wiring: Wiring = .stitcher,
    logger: Logger
) -> some ApplicationProtocol {
    Application(
        router: todoRouter(wiring: wiring),
        configuration: .init(address: .hostname("127.0.0.1", port: port)),
        services: [DependencyServiceGroup(graph: graph, gracefulShutdownSignals: [], logger: logger)],
        logger: logger
    )
}
