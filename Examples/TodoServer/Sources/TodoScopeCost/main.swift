import Dispatch
import Foundation
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
// figures). `todo-scope-cost scope N` or `todo-scope-cost hand N` runs one wiring only, for N
// bursts (to profile it, e.g. under `perf record`); `todo-scope-cost empty-scope` compares the
// hand-wired handlers inside an empty dependency scope with the same handlers without it;
// `todo-scope-cost lookups` compares them inside an empty scope, taking their five singletons
// from the graph for every request (the scope and lookups alone, no scoped instance built);
// `todo-scope-cost same` runs the hand-wired handlers on both sides, a control: what the
// method reads when there is no difference; `todo-scope-cost swift-dependencies` compares
// the hand-wired handlers whose service is bound with swift-dependencies' `withDependencies`
// (`SwiftDependenciesWiring.swift`) with them as they are. Besides the two medians'
// difference, it prints the median of each round's paired difference with a 90% bootstrap
// interval (the steadier figure).
var logger = Logger(label: "todo-scope-cost")
logger.logLevel = .warning
DependencyGraph.activate(
    todoContainer(logger: logger, journal: LifecycleJournal(logger: logger), outcomes: UnitOfWorkOutcomes(keepsEndings: false)))
let repository: any TodoRepository = try DependencyGraph.inject()
repository.apply((0..<10).map { .save(Todo(id: .init(), title: "todo \($0)", completed: false, createdAt: .now)) })

let burst = 2_000
let rounds = 61

/// The processor time the process has used, in nanoseconds (all its threads).
func processorTime() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
}

/// One burst's cost per request: elapsed time, and processor time (what limits throughput
/// when a server is busy; elapsed time also counts the threads' hand-offs).
struct Cost {
    var elapsed: Double
    var processor: Double
}

/// The cost per request of `burst` requests through `client`.
func time(_ client: some TestClientProtocol) async throws -> Cost {
    let start = DispatchTime.now().uptimeNanoseconds
    let startProcessor = processorTime()
    for _ in 0..<burst { _ = try await client.execute(uri: "/todos", method: .get) }
    return Cost(
        elapsed: Double(DispatchTime.now().uptimeNanoseconds - start) / Double(burst),
        processor: (processorTime() - startProcessor) / Double(burst))
}

let arguments = CommandLine.arguments.dropFirst()
// `empty-scope`: the hand-wired handlers inside an empty dependency scope, in place of the
// request scope's wiring: what opening and ending the scope costs alone.
let emptyScope = arguments.first == "empty-scope"
// `lookups`: the same, each request also taking the handlers' five singletons from the graph.
let lookups = arguments.first == "lookups"
// `same`: the hand-wired handlers on both sides (a control).
let same = arguments.first == "same"
// `swift-dependencies`: the hand-wired handlers, their service bound with swift-dependencies.
let swiftDependencies = arguments.first == "swift-dependencies"
let scopedWiring: Wiring =
    emptyScope
    ? .byHandInEmptyScope(try HandWiredDependencies())
    : lookups ? .byHandLookingUp : same ? .byHand(try HandWiredDependencies()) : .stitcher
let scoped = Application(
    router: swiftDependencies ? swiftDependenciesRouter(try HandWiredDependencies()) : todoRouter(wiring: scopedWiring),
    logger: logger)
let byHand = Application(router: todoRouter(wiring: .byHand(try HandWiredDependencies())), logger: logger)
if let only = arguments.first, !emptyScope, !lookups, !same, !swiftDependencies {
    guard only == "scope" || only == "hand", let bursts = Int(arguments.dropFirst().first ?? "20") else {
        print(
            "usage: todo-scope-cost [scope|hand [bursts]] | todo-scope-cost empty-scope | todo-scope-cost lookups | "
                + "todo-scope-cost same | todo-scope-cost swift-dependencies")
        exit(2)
    }
    let times = try await (only == "scope" ? scoped : byHand).test(.router) { client in
        var times: [Double] = []
        for _ in 0..<bursts { times.append(try await time(client).elapsed) }
        return times
    }
    print("\(only): \(Int(times.sorted()[times.count / 2])) ns/request (median of \(bursts) bursts)")
    exit(0)
}

/// Each burst's cost per request with the scope and by hand, alternating.
let (scopedCosts, handCosts) = try await scoped.test(.router) { scopedClient in
    try await byHand.test(.router) { handClient in
        _ = try await time(scopedClient)
        _ = try await time(handClient)
        var scopedCosts: [Cost] = []
        var handCosts: [Cost] = []
        for round in 0..<rounds {
            // Which runs first alternates, so that neither always follows the other.
            if round.isMultiple(of: 2) {
                scopedCosts.append(try await time(scopedClient))
                handCosts.append(try await time(handClient))
            } else {
                handCosts.append(try await time(handClient))
                scopedCosts.append(try await time(scopedClient))
            }
        }
        return (scopedCosts, handCosts)
    }
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

/// The 5th and 95th percentiles of the median of `values` resampled with replacement (a
/// bootstrap, seeded: the same bursts give the same interval; Knuth's MMIX constants).
func medianInterval(_ values: [Double]) -> (low: Double, high: Double) {
    var state: UInt64 = 39
    func nextIndex() -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(values.count))
    }
    let medians = (0..<2_000).map { _ in median(values.indices.map { _ in values[nextIndex()] }) }.sorted()
    return (medians[medians.count / 20], medians[medians.count - 1 - medians.count / 20])
}

for (name, measure) in [("elapsed", \Cost.elapsed), ("processor", \Cost.processor)] {
    let scope = scopedCosts.map { $0[keyPath: measure] }
    let hand = handCosts.map { $0[keyPath: measure] }
    let ratio = median(zip(scope, hand).map { $0 / $1 })
    print(
        "\(name) time: request scope \(Int(median(scope))) ns/request, by hand \(Int(median(hand))) ns/request; "
            + "scope ÷ hand, median of \(rounds) bursts: \(rounded(ratio)); cost per request: \(Int(median(scope) - median(hand))) ns")
}
// Each round's two bursts ran back to back: their difference cancels the VM's slower drifts,
// which the difference of the two medians above does not.
let differences = zip(scopedCosts, handCosts).map { $0.processor - $1.processor }
let interval = medianInterval(differences)
print(
    "processor time, paired: median of the \(rounds) rounds' differences \(Int(median(differences))) ns/request "
        + "(90% bootstrap interval \(Int(interval.low))–\(Int(interval.high)) ns)")
