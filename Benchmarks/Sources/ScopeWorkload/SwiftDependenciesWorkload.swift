import Dependencies
import OpaqueUse

// Workloads 11 and 11b as swift-dependencies writes them. It has no scope and builds no
// graph: a request's values are made by hand and bound around the request with
// `withDependencies`, and read with `@Dependency`, as its documentation shows for values
// that change per request. Nothing is torn down for the request: the teardowns are called
// by hand, as the hand-written baselines call them.

extension RequestSession: @unchecked Sendable {}
extension RequestCache: @unchecked Sendable {}
extension RequestRepository: @unchecked Sendable {}
extension RequestLog: @unchecked Sendable {}
extension RequestUser: @unchecked Sendable {}
extension ProcessClock: @unchecked Sendable {}

// Live values are placeholders: every request overrides them.
private enum SessionKey: DependencyKey { static var liveValue: RequestSession { RequestSession() } }
private enum CacheKey: DependencyKey { static var liveValue: RequestCache { RequestCache() } }
private enum RepositoryKey: DependencyKey {
    static var liveValue: RequestRepository { RequestRepository(session: RequestSession(), cache: RequestCache()) }
}
private enum LogKey: DependencyKey { static var liveValue: RequestLog { RequestLog() } }
private enum UserKey: DependencyKey { static var liveValue: RequestUser { RequestUser() } }
private enum ClockKey: DependencyKey { static let liveValue = ProcessClock() }

private enum ServerServiceKey: DependencyKey {
    static var liveValue: ServerService {
        let logger = ServerRequestLogger(request: ServerRequest(), base: ServerLogger())
        return ServerService(
            store: MemoryStore(), unitOfWork: ServerUnitOfWork(store: MemoryStore(), logger: logger, journal: ServerLogger()),
            clock: WallClock(), ids: RandomServerIDs(), logger: logger)
    }
}

extension DependencyValues {
    fileprivate var requestSession: RequestSession {
        get { self[SessionKey.self] }
        set { self[SessionKey.self] = newValue }
    }
    fileprivate var requestCache: RequestCache {
        get { self[CacheKey.self] }
        set { self[CacheKey.self] = newValue }
    }
    fileprivate var requestRepository: RequestRepository {
        get { self[RepositoryKey.self] }
        set { self[RepositoryKey.self] = newValue }
    }
    fileprivate var requestLog: RequestLog {
        get { self[LogKey.self] }
        set { self[LogKey.self] = newValue }
    }
    fileprivate var requestUser: RequestUser {
        get { self[UserKey.self] }
        set { self[UserKey.self] = newValue }
    }
    fileprivate var processClock: ProcessClock {
        get { self[ClockKey.self] }
        set { self[ClockKey.self] = newValue }
    }
    fileprivate var serverService: ServerService {
        get { self[ServerServiceKey.self] }
        set { self[ServerServiceKey.self] = newValue }
    }
}

/// Workload 11 with swift-dependencies: the five request values made by hand and bound
/// with `withDependencies`; the handler reads the six with `@Dependency`.
@inline(never)
public func swiftDependenciesRequest() -> AnyObject {
    let session = RequestSession()
    let cache = RequestCache()
    let repository = RequestRepository(session: session, cache: cache)
    // The operation returns nothing: an object returned from `withDependencies` is kept by
    // swift-dependencies for `withDependencies(from:)` (a global table swept by a task
    // started for each call), which here cost about 275 µs per request.
    withDependencies {
        $0.requestSession = session
        $0.requestCache = cache
        $0.requestRepository = repository
        $0.requestLog = RequestLog()
        $0.requestUser = RequestUser()
    } operation: {
        @Dependency(\.requestRepository) var repository
        @Dependency(\.requestSession) var session
        @Dependency(\.requestCache) var cache
        @Dependency(\.requestLog) var log
        @Dependency(\.requestUser) var user
        @Dependency(\.processClock) var clock
        handle(repository, session, cache, log, user, clock)
    }
    repository.tearDown()
    session.tearDown()
    return repository
}

/// Workload 11b with swift-dependencies: the request's objects made by hand (as the
/// hand-written request makes them) and the service bound with `withDependencies`; the
/// handler reads it with `@Dependency`.
@inline(never)
public func swiftDependenciesServerRequest(id: Int, _ singletons: ServerSingletons) async throws -> AnyObject {
    let service = handMadeService(id: id, singletons)
    let unit = service.unitOfWork
    defer { unit.tearDown() }
    let handled = try await withDependencies {
        $0.serverService = service
    } operation: {
        try await serverHandler {
            @Dependency(\.serverService) var service
            return service
        }
    }
    unit.succeeded = true
    return handled.unitOfWork
}
