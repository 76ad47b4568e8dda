import OpaqueUse
import Stitcher

// Workload 11: the work of one request. Five request-scoped objects (the repository
// depends on the session and the cache), two of which release something at the end, plus
// one process-wide singleton. Stitcher opens a scope, injects the six, closes the scope
// (teardown included); the hand-written baseline builds the same objects into a struct
// and calls the same teardowns. Both hand every object to the request's handlers (`use`, in
// another module): objects a request builds reach its code, and a baseline whose objects
// reach nothing lets the optimizer put some of them on the stack, which no request
// handler's dependencies ever are.

public final class RequestSession: TeardownAware {
    public init() {}
    public func tearDown() { closed &+= 1 }
}
public final class RequestCache {
    public init() {}
}
public final class RequestRepository: TeardownAware {
    let session: RequestSession
    let cache: RequestCache
    public init(session: RequestSession, cache: RequestCache) {
        self.session = session
        self.cache = cache
    }
    public func tearDown() { closed &+= 1 }
}
public final class RequestLog {
    public init() {}
}
public final class RequestUser {
    public init() {}
}
public final class ProcessClock {
    public init() {}
}

/// Counts teardowns, so that the optimizer keeps them.
nonisolated(unsafe) public var closed = 0

/// The registrations of workload 11.
public func scopeWorkloadContainer() -> DependencyContainer {
    DependencyContainer {
        Dependency { RequestSession() }.scope(.scoped)
        Dependency { RequestCache() }.scope(.scoped)
        Dependency { RequestRepository(session: try DependencyGraph.inject(), cache: try DependencyGraph.inject()) }
            .scope(.scoped)
        Dependency { RequestLog() }.scope(.scoped)
        Dependency { RequestUser() }.scope(.scoped)
        Dependency { ProcessClock() }.scope(.singleton)
    }
}

/// One request with Stitcher: open a scope, inject the six, end the scope.
@inline(never)
public func stitcherRequest() throws -> AnyObject {
    try DependencyGraph.withScope {
        let repository: RequestRepository = try DependencyGraph.inject()
        let session: RequestSession = try DependencyGraph.inject()
        let cache: RequestCache = try DependencyGraph.inject()
        let log: RequestLog = try DependencyGraph.inject()
        let user: RequestUser = try DependencyGraph.inject()
        let clock: ProcessClock = try DependencyGraph.inject()
        handle(repository, session, cache, log, user, clock)
        return repository
    }
}

/// The same request written by hand.
@inline(never)
public func handWrittenRequest(clock: ProcessClock) -> AnyObject {
    struct Request {
        let session = RequestSession()
        let cache = RequestCache()
        let repository: RequestRepository
        let log = RequestLog()
        let user = RequestUser()
        let clock: ProcessClock
        init(clock: ProcessClock) {
            repository = RequestRepository(session: session, cache: cache)
            self.clock = clock
        }
    }
    let request = Request(clock: clock)
    handle(request.repository, request.session, request.cache, request.log, request.user, request.clock)
    request.repository.tearDown()
    request.session.tearDown()
    return request.repository
}

/// The request's handlers, given its dependencies.
@inline(__always)
func handle(
    _ repository: RequestRepository, _ session: RequestSession, _ cache: RequestCache,
    _ log: RequestLog, _ user: RequestUser, _ clock: ProcessClock
) {
    use(repository)
    use(session)
    use(cache)
    use(log)
    use(user)
    use(clock)
}
