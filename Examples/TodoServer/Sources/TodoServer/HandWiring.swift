import Foundation
import Hummingbird
import Logging
import Stitcher

/// How the routes get their `TodoService`: from the request's Stitcher dependency scope, or
/// built by hand per request (the baseline the load check compares the scope with).
public enum Wiring: Sendable {
    case stitcher
    /// The same objects, made by `HandWiredMiddleware` from dependencies resolved once.
    case byHand(HandWiredDependencies)
    /// `byHand`, each request inside an empty dependency scope (a measure of the scope's
    /// own cost: `todo-scope-cost empty-scope`).
    case byHandInEmptyScope(HandWiredDependencies)
    /// `byHandInEmptyScope`, taking the five singletons from the graph for every request: the
    /// scope and the lookups the request scope's wiring makes, with no scoped instance built
    /// (a floor for it: `todo-scope-cost lookups`).
    case byHandLookingUp

    func service() throws -> TodoService {
        switch self {
        case .stitcher: try DependencyGraph.inject()
        case .byHand, .byHandInEmptyScope, .byHandLookingUp: HandWiredService.current!
        }
    }
}

/// What hand wiring builds each request from, resolved once at start-up.
public struct HandWiredDependencies: Sendable {
    let repository: any TodoRepository
    let time: any TimeSource
    let ids: any IDGenerator
    let logger: Logger
    let outcomes: UnitOfWorkOutcomes

    /// The dependencies, taken from the current graph.
    public init() throws {
        repository = try DependencyGraph.inject()
        time = try DependencyGraph.inject()
        ids = try DependencyGraph.inject()
        logger = try DependencyGraph.inject()
        outcomes = try DependencyGraph.inject()
    }
}

/// Does by hand what `RequestScopeMiddleware` does with a dependency scope: makes the
/// request, its logger, its unit of work and the service, and ends the unit of work.
struct HandWiredMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The dependencies, resolved once; nil to take them from the graph for every request.
    let dependencies: HandWiredDependencies?
    /// Whether each request runs inside an empty dependency scope (see `Wiring`).
    var inEmptyScope = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard inEmptyScope else { return try await handWired(request, context: context, next: next) }
        return try await DependencyGraph.withScope { try await handWired(request, context: context, next: next) }
    }

    private func handWired(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        try await (self.dependencies ?? HandWiredDependencies()).respond(to: request) { service in
            try await HandWiredService.$current.withValue(service) { try await next(request, context) }
        }
    }
}

extension HandWiredDependencies {
    /// Makes a request's objects by hand (the request, its logger, its unit of work, the
    /// service), gets the response from `handle`, given the service, and ends the unit of
    /// work: committed when the response is a success, rolled back otherwise.
    ///
    /// What `HandWiredMiddleware` does, for any way of handing the service to the handlers
    /// (`todo-scope-cost swift-dependencies` binds it with swift-dependencies):
    ///
    /// ```swift
    /// enum Handlers { @TaskLocal static var service: TodoService? }
    ///
    /// try await dependencies.respond(to: request) { service in
    ///     try await Handlers.$service.withValue(service) { try await next(request, context) }
    /// }
    /// ```
    public func respond(to request: Request, _ handle: (TodoService) async throws -> Response) async throws -> Response {
        let current = CurrentRequest()
        current.id = request.headers[.init("x-request-id")!] ?? UUID().uuidString
        let logger = RequestLogger(request: current, base: self.logger)
        let unit = UnitOfWork(repository: repository, logger: logger, outcomes: outcomes)
        defer { unit.tearDown() }
        var response = try await handle(TodoService(repository: repository, unitOfWork: unit, time: time, ids: ids, logger: logger))
        if response.status.code < 400 { unit.markSucceeded() }
        response.headers[.init("x-request-id")!] = current.id
        return response
    }
}

/// The request's service, made by `HandWiredMiddleware`.
enum HandWiredService {
    @TaskLocal static var current: TodoService?
}
