import Dependencies
import Hummingbird
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

/// Makes the request's objects by hand, as the hand-wired middleware does
/// (`HandWiredDependencies.respond(to:_:)`), and binds the service for the handlers with
/// `withDependencies`.
private struct SwiftDependenciesMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let dependencies: HandWiredDependencies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await dependencies.respond(to: request) { service in
            try await withDependencies {
                $0.todoService = service
            } operation: {
                try await next(request, context)
            }
        }
    }
}

/// The routes with swift-dependencies' wiring, over singletons taken from the graph once.
func swiftDependenciesRouter(_ dependencies: HandWiredDependencies) -> Router<BasicRequestContext> {
    todoRouter(middleware: SwiftDependenciesMiddleware(dependencies: dependencies)) { () throws -> TodoService in
        @Dependency(\.todoService) var service: TodoService?
        return service!
    }
}
