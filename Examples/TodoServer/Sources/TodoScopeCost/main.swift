import Dispatch
import Hummingbird
import HummingbirdTesting
import Logging
import Stitcher
import TodoServer

// `swift run -c release --package-path Examples/TodoServer todo-scope-cost`: what the
// request scope costs per request, without the network. `GET /todos` (ten todos) goes through
// the router in process (HummingbirdTesting's router mode), with the dependency scope and with
// the handlers' objects made by hand, in alternating bursts; prints each wiring's time per
// request and the median of the bursts' ratios (this VM's speed moves too much for single
// figures).
var logger = Logger(label: "todo-scope-cost")
logger.logLevel = .warning
DependencyGraph.activate(todoContainer(logger: logger, journal: LifecycleJournal(logger: logger), outcomes: UnitOfWorkOutcomes(keepsEndings: false)))
let repository: any TodoRepository = try DependencyGraph.inject()
repository.apply((0..<10).map { .save(Todo(id: .init(), title: "todo \($0)", completed: false, createdAt: .now)) })

let burst = 2_000
let rounds = 31

/// Nanoseconds per request of `burst` requests through `client`.
func time(_ client: some TestClientProtocol) async throws -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<burst { _ = try await client.execute(uri: "/todos", method: .get) }
    return Double(DispatchTime.now().uptimeNanoseconds - start) / Double(burst)
}

let scoped = Application(router: todoRouter(wiring: .stitcher), logger: logger)
let byHand = Application(router: todoRouter(wiring: .byHand(try HandWiredDependencies())), logger: logger)
/// Each burst's time per request with the scope and by hand, alternating.
let (scopedTimes, handTimes) = try await scoped.test(.router) { scopedClient in
    try await byHand.test(.router) { handClient in
        _ = try await time(scopedClient)
        _ = try await time(handClient)
        var scopedTimes: [Double] = [], handTimes: [Double] = []
        for _ in 0..<rounds {
            scopedTimes.append(try await time(scopedClient))
            handTimes.append(try await time(handClient))
        }
        return (scopedTimes, handTimes)
    }
}
let ratios = zip(scopedTimes, handTimes).map { $0 / $1 }
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
print("request scope: \(Int(median(scopedTimes))) ns/request; by hand: \(Int(median(handTimes))) ns/request")
print("scope ÷ hand, median of \(rounds) bursts: \((median(ratios) * 1000).rounded() / 1000)")
print("scope cost per request: \(Int(median(scopedTimes) - median(handTimes))) ns")
