import OpaqueUse
import Stitcher

// Workload 11b: the dependencies of one request of Examples/TodoServer, without the HTTP
// server around them. An asynchronous scope (as a server's middleware opens one), the
// request object, a request logger (a struct, autowired from the request and a singleton),
// a unit of work torn down at the end (autowired from three), and a service built per use
// (autowired from five: three singletons behind protocols and the two scoped ones). The
// hand-written baseline makes the same objects and binds the service to the task, as the
// example's hand-wired middleware does.

public protocol ServerStore: AnyObject, Sendable {}
public protocol ServerClock: Sendable {}
public protocol ServerIDs: Sendable {}
public final class MemoryStore: ServerStore { public init() {} }
public struct WallClock: ServerClock { public init() {} }
public final class RandomServerIDs: ServerIDs { public init() {} }

public final class ServerRequest: @unchecked Sendable {
    public var id = 0
    public init() {}
}

public final class ServerLogger: @unchecked Sendable {
    public init() {}
}

public struct ServerRequestLogger: Sendable {
    let requestID: Int
    let base: ServerLogger
    public init(request: ServerRequest, base: ServerLogger) {
        requestID = request.id
        self.base = base
    }
}

public final class ServerUnitOfWork: TeardownAware, @unchecked Sendable {
    let store: any ServerStore
    let logger: ServerRequestLogger
    let journal: ServerLogger
    var succeeded = false
    public init(store: any ServerStore, logger: ServerRequestLogger, journal: ServerLogger) {
        self.store = store
        self.logger = logger
        self.journal = journal
    }
    public func tearDown() { if succeeded { closed &+= 1 } }
}

public struct ServerService: Sendable {
    let store: any ServerStore
    public let unitOfWork: ServerUnitOfWork
    let clock: any ServerClock
    let ids: any ServerIDs
    let logger: ServerRequestLogger
    public init(
        store: any ServerStore, unitOfWork: ServerUnitOfWork, clock: any ServerClock, ids: any ServerIDs, logger: ServerRequestLogger
    ) {
        self.store = store
        self.unitOfWork = unitOfWork
        self.clock = clock
        self.ids = ids
        self.logger = logger
    }
}

/// The registrations of workload 11b, as Examples/TodoServer declares them.
public func serverRequestContainer() -> DependencyContainer {
    DependencyContainer {
        Dependency { ServerLogger() }.scope(.singleton)
        Dependency { WallClock() as any ServerClock }.scope(.singleton)
        Dependency { RandomServerIDs() as any ServerIDs }.scope(.singleton)
        Dependency { MemoryStore() as any ServerStore }.scope(.singleton)
        Dependency { ServerRequest() }.scope(.scoped)
        Dependency(autowiring: ServerRequestLogger.init).scope(.scoped)
        Dependency(autowiring: ServerUnitOfWork.init).scope(.scoped)
        Dependency(autowiring: ServerService.init).scope(.instance)
    }
}

/// One request with Stitcher: a scope around the handler, which injects the service.
@inline(never)
public func stitcherServerRequest(id: Int) async throws -> AnyObject {
    try await DependencyGraph.withScope {
        let request: ServerRequest = try DependencyGraph.inject()
        request.id = id
        let service: ServerService = try await serverHandler { try DependencyGraph.inject() }
        (try DependencyGraph.inject() as ServerUnitOfWork).succeeded = true
        return service.unitOfWork
    }
}

/// What the baseline builds each request from, made once.
public struct ServerSingletons: Sendable {
    let store: any ServerStore = MemoryStore()
    let clock: any ServerClock = WallClock()
    let ids: any ServerIDs = RandomServerIDs()
    let logger = ServerLogger()
    public init() {}
}

/// The service the hand-written middleware binds for the handler.
enum HandWiredServerService {
    @TaskLocal static var current: ServerService?
}

/// A request's objects made by hand, as the example's hand-wired middleware makes them: the
/// service the handler gets (its unit of work is torn down by the caller).
@inline(__always)
public func handMadeService(id: Int, _ singletons: ServerSingletons) -> ServerService {
    let request = ServerRequest()
    request.id = id
    let logger = ServerRequestLogger(request: request, base: singletons.logger)
    let unit = ServerUnitOfWork(store: singletons.store, logger: logger, journal: singletons.logger)
    return ServerService(store: singletons.store, unitOfWork: unit, clock: singletons.clock, ids: singletons.ids, logger: logger)
}

/// The same request written by hand.
@inline(never)
public func handWrittenServerRequest(id: Int, _ singletons: ServerSingletons) async throws -> AnyObject {
    let service = handMadeService(id: id, singletons)
    let unit = service.unitOfWork
    defer { unit.tearDown() }
    let handled = try await HandWiredServerService.$current.withValue(service) {
        try await serverHandler { HandWiredServerService.current! }
    }
    unit.succeeded = true
    return handled.unitOfWork
}

/// The request's handler: gets its service, uses it.
@inline(never)
public func serverHandler(_ service: () throws -> ServerService) async throws -> ServerService {
    let service = try service()
    use(service.unitOfWork)
    use(service.store)
    return service
}

/// An asynchronous call that returns at once: a closure that makes it is asynchronous, so
/// that `withScope` opens the asynchronous scope a server's middleware does.
@inline(never)
public func asynchronousStep() async {}
