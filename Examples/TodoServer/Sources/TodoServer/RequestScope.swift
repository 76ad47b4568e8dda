import Foundation
import Hummingbird
import Logging
import Stitcher

/// The request a dependency scope serves: its ID, set by `RequestScopeMiddleware` when the
/// scope opens. `.scoped`: one per request.
public final class CurrentRequest: @unchecked Sendable {
    public var id = ""
    public init() {}
}

/// A logger carrying the request's ID. `.scoped`: one per request.
public struct RequestLogger: Sendable {
    public let logger: Logger

    public init(request: CurrentRequest, base: Logger) {
        var logger = base
        logger[metadataKey: "request-id"] = .string(request.id)
        self.logger = logger
    }
}

/// The changes one request makes, applied together when its scope ends if the request
/// succeeded, and dropped otherwise. `.scoped`: one per request.
public final class UnitOfWork: TeardownAware, @unchecked Sendable {
    private let lock = NSLock()
    private var staged: [TodoChange] = []
    private var succeeded = false
    /// Tells units apart in `UnitOfWorkOutcomes`.
    let id = UUID()
    private let repository: any TodoRepository
    private let logger: RequestLogger
    private let outcomes: UnitOfWorkOutcomes

    public init(repository: any TodoRepository, logger: RequestLogger, outcomes: UnitOfWorkOutcomes) {
        self.repository = repository
        self.logger = logger
        self.outcomes = outcomes
    }

    public func stage(_ change: TodoChange) { lock.withLock { staged.append(change) } }

    /// Marks the request as succeeded: its changes are committed when the scope ends.
    public func markSucceeded() { lock.withLock { succeeded = true } }

    public func tearDown() {
        let (changes, succeeded) = lock.withLock { (staged, self.succeeded) }
        if succeeded {
            repository.apply(changes)
            logger.logger.debug("committed \(changes.count) change(s)")
        } else {
            logger.logger.debug("rolled back \(changes.count) change(s)")
        }
        outcomes.record(
            .init(
                unit: id, requestID: logger.logger[metadataKey: "request-id"]?.description ?? "",
                outcome: succeeded ? .committed(changes.count) : .rolledBack(changes.count)))
    }
}

/// How units of work ended, for tests and logs.
public final class UnitOfWorkOutcomes: @unchecked Sendable {
    public enum Outcome: Equatable, Sendable {
        case committed(Int)
        case rolledBack(Int)
    }

    /// One unit of work's end: which unit, for which request (as its logger says), how.
    public struct Ending: Sendable {
        /// The unit's own identifier (an address could be reused once it is released).
        public let unit: UUID
        public let requestID: String
        public let outcome: Outcome
    }

    private let lock = NSLock()
    private var endings: [Ending] = []
    private let keepsEndings: Bool

    /// Outcomes that keep every ending (for tests), or none (a long-running server).
    public init(keepsEndings: Bool = true) { self.keepsEndings = keepsEndings }

    func record(_ ending: Ending) {
        if keepsEndings { lock.withLock { endings.append(ending) } }
    }
    public var all: [Ending] { lock.withLock { endings } }
}

/// Runs every request in a Stitcher dependency scope: its `.scoped` dependencies (the
/// request, its logger, its unit of work) are built once for the request and torn down when
/// it ends; the unit of work commits when the response is a success.
public struct RequestScopeMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await DependencyGraph.withScope {
            let current: CurrentRequest = try DependencyGraph.inject()
            current.id = request.headers[.init("x-request-id")!] ?? UUID().uuidString
            do {
                var response = try await next(request, context)
                if response.status.code < 400 { (try DependencyGraph.inject() as UnitOfWork).markSucceeded() }
                response.headers[.init("x-request-id")!] = current.id
                return response
            } catch let error as HTTPError {
                // The unit of work is not marked: it rolls back.
                throw error
            }
        }
    }
}
