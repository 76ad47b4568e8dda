import Dispatch
import Foundation
import HeapStatistics
import OpaqueUse
import ScopeWorkload
import Stitcher

// A loop over one workload, for profilers (callgrind, perf): swift run -c release Profile <workload>
final class Single: @unchecked Sendable { init() {} }
final class Transient: @unchecked Sendable { init() {} }
final class Other: @unchecked Sendable { init() {} }
// Measured with the checks on: the default (`.debugOnly`) skips `.instance` cycle checks here.
StitcherConfiguration.runtimeCycleDetectionAvailability = .always
DependencyGraph.activate(
    DependencyContainer {
        Dependency { Single() }.scope(.singleton)
        Dependency { Other() }.scope(.singleton)
        Dependency { Transient() }.scope(.instance)
        Dependency { Single() }.named("named").scope(.singleton)
        Dependency { Shared() }.scope(.shared)
        Dependency { (value: Int) in Param(value) }.scope(.instance)
        Dependency { LeafB() }.scope(.instance)
        Dependency { NodeA(b: try DependencyGraph.inject()) }.scope(.instance)
        Dependency { LeafC() }.scope(.instance)
        Dependency { Root(a: try DependencyGraph.inject(), c: try DependencyGraph.inject()) }.scope(.instance)
        Dependency(autowiring: Autowired.init).scope(.instance)
    })
/// Workload 12: a transient whose three parameters are injected by autowiring.
final class Autowired: @unchecked Sendable {
    let single: Single, other: Other, shared: Shared
    init(single: Single, other: Other, shared: Shared) {
        self.single = single
        self.other = other
        self.shared = shared
    }
}
final class LeafB: @unchecked Sendable { init() {} }
final class NodeA: @unchecked Sendable {
    let b: LeafB
    init(b: LeafB) { self.b = b }
}
final class LeafC: @unchecked Sendable { init() {} }
final class Root: @unchecked Sendable {
    let a: NodeA, c: LeafC
    init(a: NodeA, c: LeafC) {
        self.a = a
        self.c = c
    }
}
final class Shared: @unchecked Sendable { init() {} }
final class Setting: @unchecked Sendable { init() {} }
final class Configured: @unchecked Sendable {
    let setting: Setting
    init(setting: Setting) { self.setting = setting }
}
final class Param: @unchecked Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}
let keptShared: Shared = try! DependencyGraph.inject()
final class Holder: @unchecked Sendable { @Injected var single: Single }
let holder = Holder()
_ = holder.single
let workload = CommandLine.arguments.dropFirst().first ?? "singleton"
/// The names of the wide workloads' 100,000 registrations.
let wideNames = (0..<100_000).map { "service-\($0)" }
/// A container of a named singleton for each of `wideNames` (built when activated).
func wideContainer() -> DependencyContainer {
    DependencyContainer {
        for name in wideNames { Dependency { Wide() }.named(name).scope(.singleton) }
    }
}
// As in the benchmark package, whose setup also activates 100,000 named registrations.
if ProcessInfo.processInfo.environment["PROFILE_WIDE"] != nil {
    DependencyGraph.activate(wideContainer())
}
let iterations = Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 2_000_000
final class Wide: @unchecked Sendable { init() {} }
/// A registration's product that keeps the number its factory captured.
final class Widget: @unchecked Sendable {
    let value: Int
    init(value: Int) { self.value = value }
}
/// Workload 7 as real code writes it: factories that capture, named with `Dependency(named:)`.
func capturingContainer() -> DependencyContainer {
    DependencyContainer {
        for (i, name) in wideNames.enumerated() { Dependency(named: name) { Widget(value: i) } }
    }
}
/// glibc's `malloc_trim`, which gives the pages of freed memory back to the system, so that
/// resident memory counts what is still allocated (not in Glibc's module map).
@_silgen_name("malloc_trim") func mallocTrim(_ pad: Int) -> Int32
/// Resident memory in bytes, from /proc/self/statm.
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    return (Int(text.split(separator: " ")[1]) ?? 0) * 4096
}
/// Bytes the C heap has handed out and not taken back (glibc's `mallinfo2`), counting
/// mapped blocks: unlike resident memory, it does not depend on which pages were reused.
func heapBytes() -> Int {
    Int(heap_statistics_allocated_bytes())
}
/// Prints the heap and resident bytes per registration that `body` leaves allocated.
func perRegistration(_ label: String, _ body: () -> Any) {
    _ = mallocTrim(0)
    let heap = heapBytes()
    let resident = residentBytes()
    let kept = body()
    let heapUsed = heapBytes() - heap
    let residentUsed = residentBytes() - resident
    print("\(label): \(heapUsed / wideNames.count) B per registration on the heap (resident: \(residentUsed / wideNames.count) B)")
    withExtendedLifetime(kept) {}
}
if workload == "memory" {
    perRegistration("[String: closure]") {
        var dictionary: [String: () -> Wide] = [:]
        for name in wideNames { dictionary[name] = { Wide() } }
        return dictionary
    }
    perRegistration("capturing [String: closure]") {
        var dictionary: [String: () -> Widget] = [:]
        for (i, name) in wideNames.enumerated() { dictionary[name] = { Widget(value: i) } }
        return dictionary
    }
    // In an empty graph, as workload 7 and as Swinject and the dictionary start: this
    // process has the other workloads' container active in the shared graph.
    DependencyGraph.withIsolatedGraph {
        perRegistration("Stitcher, workload 7 (empty isolated graph)") {
            let container = wideContainer()
            DependencyGraph.activate(container)
            return container
        }
    }
    DependencyGraph.withIsolatedGraph {
        perRegistration("Stitcher, capturing factories (empty isolated graph)") {
            let container = capturingContainer()
            DependencyGraph.activate(container)
            return container
        }
    }
    // As an app's second module would be: beside this process's other container.
    perRegistration("Stitcher, capturing factories (process-wide graph, beside another container)") {
        let container = capturingContainer()
        DependencyGraph.activate(container)
        return container
    }
    exit(0)
}
/// Times 1 and 2 threads (twice each) running `resolve(thread)` `iterations` times each.
func timeThreads(_ resolve: @escaping @Sendable (Int) -> AnyObject) {
    for count in [1, 2, 1, 2] {
        let start = Date()
        let group = DispatchGroup()
        for thread in 0..<count {
            group.enter()
            Thread.detachNewThread {
                var local = 0
                for _ in 0..<iterations { local &+= unsafeBitCast(resolve(thread), to: Int.self) }
                if local == 42 { print(local) }
                group.leave()
            }
        }
        group.wait()
        print("\(count) threads: \(Date().timeIntervalSince(start) * 1000) ms")
    }
}
if workload == "threads-distinct" {
    // Each thread resolves its own singleton: what the engine costs when threads share no
    // instance, and so no reference count.
    timeThreads { thread in
        thread == 0 ? try! DependencyGraph.inject(byType: Single.self) as AnyObject : try! DependencyGraph.inject(byType: Other.self)
    }
    exit(0)
}
if workload == "threads" {
    var keep: [AnyObject] = []
    for _ in 0..<(Int(CommandLine.arguments.dropFirst(3).first ?? "0") ?? 0) { keep.append(Transient()) }
    let first: Single = try! DependencyGraph.inject()
    print("instance at", String(UInt(bitPattern: ObjectIdentifier(first).hashValue), radix: 16))
    timeThreads { _ in try! DependencyGraph.inject(byType: Single.self) }
    exit(0)
}
if workload == "ratios" {
    try printRatios()
    exit(0)
}
if workload == "autowired" {
    // Workload 12 alone, for a profiler.
    var kept = 0
    for _ in 0..<iterations { kept &+= ObjectIdentifier(try DependencyGraph.inject() as Autowired).hashValue & 1 }
    print(kept)
    exit(0)
}
if workload == "activation" {
    // Workload 7's rows of `ratios` alone.
    compareActivation()
    exit(0)
}
if workload == "captured" {
    // A transient class whose factory captures a value (`Dependency { Configured(setting: setting) }`),
    // injected by its type: the factory kept as it is (`CapturedClassFactory`), for a profiler.
    let setting = Setting()
    DependencyGraph.activate(DependencyContainer { Dependency { Configured(setting: setting) }.scope(.instance) })
    try measure { (try DependencyGraph.inject(byType: Configured.self) as Configured) }
    exit(0)
}
if workload == "scope" {
    // Workload 11 alone, for a profiler.
    DependencyGraph.activate(scopeWorkloadContainer())
    var kept = 0
    for _ in 0..<iterations { kept &+= ObjectIdentifier(try stitcherRequest()).hashValue & 1 }
    print(kept)
    exit(0)
}
if workload == "scope-baseline" {
    // Workload 11's hand-written request alone: under callgrind, the instructions row 11's
    // ratio compares `scope`'s with.
    let processClock = ProcessClock()
    var kept = 0
    for _ in 0..<iterations { kept &+= ObjectIdentifier(handWrittenRequest(clock: processClock)).hashValue & 1 }
    print(kept)
    exit(0)
}
if workload == "handler-in-scope" || workload == "handler-in-task-local" {
    serverHandlerLoop(inScope: workload == "handler-in-scope")
    exit(0)
}
if workload == "scoped-build" {
    serverInjectionLoop(inHandler: false, onlyRequest: true)
    exit(0)
}
if workload == "inject-in-handler" || workload == "inject-in-body" {
    serverInjectionLoop(inHandler: workload == "inject-in-handler")
    exit(0)
}
if workload == "server-parts" {
    serverRequestParts()
    exit(0)
}
if workload == "server-request-parallel" {
    compareServerRequestInParallel()
    exit(0)
}
if workload == "server-request-cold" {
    compareColdServerRequest(kilobytes: Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? 1024)
    exit(0)
}
if workload == "server-request" {
    compareServerRequest(only: CommandLine.arguments.dropFirst(2).first)
    exit(0)
}
if workload == "empty-scope" {
    // An empty request scope alone, for a profiler.
    for _ in 0..<iterations { try DependencyGraph.withScope {} }
    exit(0)
}
if workload == "scope-one" || workload == "scope-one-teardown" {
    // A scope that builds one `.scoped` instance, without (`RequestLog`) or with a teardown
    // (`RequestSession`), for a profiler: the difference is what a teardown costs.
    DependencyGraph.activate(scopeWorkloadContainer())
    if workload == "scope-one" {
        for _ in 0..<iterations { try DependencyGraph.withScope { use(try DependencyGraph.inject() as RequestLog) } }
    } else {
        for _ in 0..<iterations { try DependencyGraph.withScope { use(try DependencyGraph.inject() as RequestSession) } }
    }
    exit(0)
}
if workload == "scope-ratio" {
    // Workload 11's row of `ratios` alone.
    DependencyGraph.activate(scopeWorkloadContainer())
    let processClock = ProcessClock()
    try compare(
        "11 request scope: 5 scoped + 1 singleton, teardown (struct)", burst: 2_000,
        baseline: { handWrittenRequest(clock: processClock) }, stitcher: { try stitcherRequest() })
    exit(0)
}
if workload == "scope-parts" {
    DependencyGraph.activate(scopeWorkloadContainer())
    let n = 20_000
    func report(_ name: String, _ body: () throws -> Void) rethrows {
        var times: [Double] = []
        for _ in 0..<15 {
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<n { try body() }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(n))
        }
        print(name, String(format: "%.0f ns", median(times)))
    }
    try report("empty scope") { try DependencyGraph.withScope {} }
    try report("scope + 1 scoped (RequestLog)") { try DependencyGraph.withScope { _ = try DependencyGraph.inject() as RequestLog } }
    try report("scope + 1 scoped with teardown (RequestSession)") {
        try DependencyGraph.withScope { _ = try DependencyGraph.inject() as RequestSession }
    }
    try report("scope + singleton") { try DependencyGraph.withScope { _ = try DependencyGraph.inject() as ProcessClock } }
    try report("scope + 1 scoped injected twice") {
        try DependencyGraph.withScope {
            _ = try DependencyGraph.inject() as RequestLog
            _ = try DependencyGraph.inject() as RequestLog
        }
    }
    try report("whole request") { _ = try stitcherRequest() }
    exit(0)
}
if workload == "shape-overload" || workload == "shape-overload-without" {
    try profileParameterOverloadShape(iterations, withParameter: workload == "shape-overload")
    exit(0)
}
if workload == "shape-transient" {
    try profileTransientShape(iterations)
    exit(0)
}
if ["shape-struct", "shape-struct-baseline", "shape-value", "shape-made-value", "shape-made", "shape-singleton"].contains(workload) {
    try profileShape(String(workload.dropFirst("shape-".count)), iterations)
    exit(0)
}
if workload == "shape-array" || workload == "shape-array-baseline" {
    try profileArrayShape(iterations, baseline: workload == "shape-array-baseline")
    exit(0)
}
if workload == "verify" {
    try profileVerification()
    exit(0)
}
if workload == "shapes" {
    try printShapes()
    exit(0)
}
if workload == "activate-beside" {
    // Workload 7's capturing row alone, for a profiler: a capturing container activated
    // (and deactivated) beside 100,000 active registrations, `iterations` times.
    // PROFILE_DISTINCT: names of its own, beside the others instead of replacing them.
    let distinct = ProcessInfo.processInfo.environment["PROFILE_DISTINCT"] != nil
    DependencyGraph.activate(wideContainer())
    for _ in 0..<iterations {
        let container =
            distinct
            ? DependencyContainer { for (i, name) in wideNames.enumerated() { Dependency(named: "other-" + name) { Widget(value: i) } } }
            : capturingContainer()
        let start = Date()
        DependencyGraph.activate(container)
        print("activate: \(Date().timeIntervalSince(start) * 1000) ms")
        DependencyGraph.deactivate(container)
    }
    exit(0)
}
if workload == "activate" {
    // In an empty graph, as workload 7.
    for _ in 0..<3 {
        DependencyGraph.withIsolatedGraph {
            let start = Date()
            DependencyGraph.activate(wideContainer())
            print("build+activate: \(Date().timeIntervalSince(start) * 1000) ms")
        }
    }
    exit(0)
}
/// Times `iterations` calls of `body`, one workload per loop so that nothing else runs in it.
@inline(__always)
func measure(_ body: () throws -> AnyObject) rethrows {
    let start = Date()
    var sink = 0
    for _ in 0..<iterations { sink &+= unsafeBitCast(try body(), to: Int.self) }
    let elapsed = Date().timeIntervalSince(start)
    print("\(workload): \(elapsed / Double(iterations) * 1e9) ns/op (\(sink & 1))")
}
/// The loop workloads (callgrind, perf), in a function of their own: the top-level code's
/// size changes what the optimizer inlines into it, and so the instructions counted.
@inline(never)
func measureWorkload() throws {
    switch workload {
    case "graph": try measure { (try DependencyGraph.inject(byType: Root.self) as Root) }
    case "graph-baseline": measure { Root(a: NodeA(b: LeafB()), c: LeafC()) }
    case "transient": try measure { (try DependencyGraph.inject(byType: Transient.self) as Transient) }
    case "transient-baseline": measure { Transient() }
    case "injected": measure { holder.single }
    case "param": try measure { (try DependencyGraph.inject(byType: Param.self, 42) as Param) }
    case "param-baseline": measure { Param(42) }
    case "shared": try measure { (try DependencyGraph.inject(byType: Shared.self) as Shared) }
    case "named": try measure { try DependencyGraph.inject(byName: "named") as Single }
    case "provider", "lazy": try profileDeferredInjection(workload)
    default: try measure { (try DependencyGraph.inject(byType: Single.self) as Single) }
    }
}
try measureWorkload()
