import Foundation
import Stitcher

// A small order service wired with Stitcher: a clock, a logger, a cache and a repository
// shared by per-request handlers; each request runs in a dependency scope that provides its
// id and a transaction torn down when the request ends; a payment gateway whose factory
// connects asynchronously.

protocol Clock: Sendable { func now() -> Date }
struct SystemClock: Clock { func now() -> Date { Date() } }

final class Logger: PostInstantiationAware, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var lines: [String] = []
    func log(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
        print("  log: \(line)")
    }
    func didInstantiate() { log("logger ready") }
}

enum CacheRegion: Hashable { case orders, customers }

final class Cache: @unchecked Sendable {
    let region: CacheRegion
    private let lock = NSLock()
    private var storage: [String: String] = [:]
    init(region: CacheRegion) { self.region = region }
    subscript(key: String) -> String? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return storage[key]
        }
        set {
            lock.lock()
            storage[key] = newValue
            lock.unlock()
        }
    }
}

protocol OrderRepository: Sendable { func order(id: Int) -> String }

final class InMemoryOrderRepository: OrderRepository {
    let cache: Cache
    init(cache: Cache) { self.cache = cache }
    func order(id: Int) -> String {
        if let cached = cache["\(id)"] { return cached + " (cached)" }
        let order = "order #\(id): 2 × coffee"
        cache["\(id)"] = order
        return order
    }
}

/// What the scope of one request provides: its id.
struct RequestID: Sendable { let value: Int }

/// One per request (`.scoped`), closed when the request's scope ends.
final class RequestTransaction: TeardownAware, @unchecked Sendable {
    let requestID: RequestID
    let logger: Logger
    init(requestID: RequestID, logger: Logger) {
        self.requestID = requestID
        self.logger = logger
        logger.log("transaction \(requestID.value) opened")
    }
    func tearDown() { logger.log("transaction \(requestID.value) closed") }
}

struct OrderRequestHandler {
    let requestID: Int
    let repository: OrderRepository
    let clock: Clock
    let logger: Logger
    let transaction: RequestTransaction

    func handle() -> String {
        logger.log("request \(requestID) at \(clock.now().timeIntervalSince1970 > 0 ? "now" : "epoch")")
        return repository.order(id: requestID)
    }
}

/// Connects over the network, so its factory is asynchronous.
final class PaymentGateway: Sendable {
    let endpoint: String
    private init(endpoint: String) { self.endpoint = endpoint }
    static func connect() async throws -> PaymentGateway {
        try await Task.sleep(for: .milliseconds(5))
        return PaymentGateway(endpoint: "payments.example.org")
    }
}

final class AuditTrail: @unchecked Sendable {
    init() { print("  audit trail started eagerly") }
}

let featureFlags = (audit: true, experimentalPricing: false)

let container = DependencyContainer(name: "Orders") {
    Dependency { SystemClock() }.conforms(to: Clock.self)
    Dependency { Logger() }.scope(.singleton)
    Dependency { Cache(region: .orders) }.associated(with: CacheRegion.orders).scope(.singleton)
    Dependency { Cache(region: .customers) }.associated(with: CacheRegion.customers).scope(.singleton)
    Dependency(conformingTo: OrderRepository.self) {
        InMemoryOrderRepository(cache: try DependencyGraph.inject(byValue: CacheRegion.orders))
    }
    .named("orders")
    .scope(.singleton)
    Dependency(autowiring: RequestTransaction.init).scope(.scoped)
    Dependency {
        OrderRequestHandler(
            requestID: (try DependencyGraph.inject() as RequestID).value,
            repository: try DependencyGraph.inject(byName: "orders"),
            clock: try DependencyGraph.inject(),
            logger: try DependencyGraph.inject(),
            transaction: try DependencyGraph.inject()
        )
    }
    Dependency { () async throws -> PaymentGateway in try await PaymentGateway.connect() }.scope(.singleton)
    DependencyGroup {
        Dependency { AuditTrail() }.scope(.singleton).eagerness(.eager)
    }
    .enabled(featureFlags.audit)
}

// Records which dependency's factory injected which, for the graph's picture.
DependencyGraph.observer = DependencyEdgeRecorder()

print("Activating the order service container")
DependencyGraph.activate(container)

// One dependency scope per request: its container provides the request's id; its
// transaction is built once for the request and torn down when the scope ends.
for requestID in [7, 8, 7] {
    try DependencyGraph.withScope(DependencyContainer(name: "Request") { Dependency { RequestID(value: requestID) } }) {
        let handler: OrderRequestHandler = try DependencyGraph.inject()
        let sameTransaction: RequestTransaction = try DependencyGraph.inject()
        print("request \(requestID): \(handler.handle()), one transaction: \(handler.transaction === sameTransaction)")
    }
}

let logger: Logger = try DependencyGraph.inject()
let sameLogger: Logger = try DependencyGraph.inject()
print("logger is a singleton: \(logger === sameLogger), \(logger.lines.count) lines logged")

let customerCache: Cache = try DependencyGraph.inject(byValue: CacheRegion.customers)
print("customer cache region: \(customerCache.region)")

let gateway: PaymentGateway = try await DependencyGraph.injectAsync()
let sameGateway: PaymentGateway = try await DependencyGraph.injectAsync()
print("payment gateway at \(gateway.endpoint), connected once: \(gateway === sameGateway)")

let clocks: [Clock] = try DependencyGraph.inject()
print("clocks registered: \(clocks.count)")

print("Asking for a handler outside any request scope:")
do {
    let _: OrderRequestHandler = try DependencyGraph.inject()
} catch let error as InjectionError {
    print("  error: \(error)")
    print("  \(error.recoverySuggestion ?? "")")
}

print("Asking for the request's transaction outside any request scope:")
do {
    let _: RequestTransaction = try DependencyGraph.inject()
} catch let error as DependencyScopeError {
    print("  error: \(error)")
    print("  \(error.recoverySuggestion ?? "")")
}

// Verified inside a request's scope, whose container provides the request's id.
let requestScope = DependencyContainer(name: "Request") { Dependency { RequestID(value: 0) } }
print("Verifying the graph of a request:")
try DependencyGraph.withScope(requestScope) {
    print(DependencyGraph.verificationReport().description.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))
}

// `stitcher-demo --graph demo.dot` (or `demo.mmd` for Mermaid) writes the graph's picture.
if let option = CommandLine.arguments.firstIndex(of: "--graph"), option + 1 < CommandLine.arguments.count {
    let path = CommandLine.arguments[option + 1]
    let format: GraphExportFormat = path.hasSuffix(".mmd") || path.hasSuffix(".mermaid") ? .mermaid : .dot
    let picture = try DependencyGraph.withScope(requestScope) { DependencyGraph.export(format) }
    try picture.write(toFile: path, atomically: true, encoding: .utf8)
    print("Wrote the graph's picture to \(path)")
}

DependencyGraph.deactivate(container)
print("Deactivated; repository still injectable: \((try? DependencyGraph.inject(byName: "orders") as OrderRepository) != nil)")
