import Atomics
import Foundation
import Stitcher

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// A container the storm activates, deactivates, invalidates and resets: every scope,
/// parameters (also beside a registration without), an alias, a value key, an
/// asynchronous factory, a conditional line.
private final class Volatile: @unchecked Sendable {
    let index: Int
    let scope = PassthroughSubject<Void, Never>()
    let tracked = PassthroughSubject<Void, Never>()
    let conditional = ManagedAtomic<Bool>(true)
    let container: DependencyContainer

    init(index: Int, census: Census) {
        self.index = index
        let (scope, conditional, tag) = (scope, conditional, index + 10)
        container = DependencyContainer {
            Dependency { Svc(tag: tag, census: census) }.named("singleton-\(index)").scope(.singleton)
            Dependency { Svc(tag: tag, census: census) }.named("shared-\(index)").scope(.shared)
            Dependency { Managed(tag: tag, census: census) }.named("managed-\(index)").scope(.managed(by: scope))
            Dependency { Svc(tag: tag, census: census) }.named("instance-\(index)").scope(.instance)
            Dependency { Svc(tag: tag, census: census) }.named("scoped-\(index)").scope(.scoped)
            Dependency { (key: Int) in Keyed(tag: key, census: census) }.named("keyed-\(index)").scope(.singleton)
            Dependency { Svc(tag: tag, census: census) }.associated(with: "volatile-\(index)")
            Dependency { () async -> Svc in Svc(tag: tag, census: census) }.named("async-\(index)").scope(.singleton)
            Dependency(conformingTo: Service.self) { Conforming(tag: tag, census: census) }.scope(.singleton)
            // One type with and without parameters: an injection with them is answered
            // through the index's overload table, rebuilt as the storm changes the graph.
            Dependency { Overloaded(tag: tag, census: census) }
            Dependency { (key: Int) in Overloaded(tag: tag, census: census) }.scope(.singleton)
            Dependency { (label: String) in Overloaded(tag: tag, census: census) }
            if conditional.load(ordering: .relaxed) {
                Dependency { Svc(tag: tag, census: census) }.named("conditional-\(index)").scope(.singleton)
            }
        }.invalidated(tracking: tracked)
    }
}

/// Reads its dependency through the property wrapper.
private final class Holder: @unchecked Sendable {
    @Injected(name: "singleton-0") var singleton: Svc?
}

extension Scenarios {
    /// Every public operation from several threads, with the invariants checked after each.
    static let storm = Scenario(
        name: "storm",
        summary: "4 threads: activation, injection of every kind, invalidation, resets, scopes, isolated graphs, releases"
    ) { runner in
        let census = Census()
        let volatiles = (0..<3).map { Volatile(index: $0, census: census) }
        // Never released: its singleton is built once, whatever the storm does to the others.
        let once = DependencyGraph.Context.isolated()
        let builds = ManagedAtomic<Int>(0)
        once.activate(
            DependencyContainer {
                Dependency { () -> Counted in
                    builds.wrappingIncrement(ordering: .relaxed)
                    return Counted(tag: 7, census: census)
                }.scope(.singleton)
            })
        let firstIdentity = ObjectIdentifier(try! once.inject() as Counted)
        let tasks = DispatchGroup()
        let step: Runner.Step = { random in
            let volatile = volatiles[Int.random(in: 0..<3, using: &random)]
            let index = volatile.index
            let tags = (index + 10)...(index + 10)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<36:
                try injectVolatile(volatile, tags, &random)
            case 36..<44:
                let counted: Counted = try once.inject()
                try counted.check("the singleton never released", tags: 7...7)
                guard ObjectIdentifier(counted) == firstIdentity else { throw StressFailure("a second instance of a singleton") }
            case 44..<52: DependencyGraph.activate(volatile.container)
            case 52..<58: DependencyGraph.deactivate(volatile.container)
            case 58..<62:
                volatile.conditional.store(Bool.random(using: &random), ordering: .relaxed)
                if Bool.random(using: &random) { volatile.container.invalidate() } else { volatile.tracked.send() }
            case 62..<68: volatile.scope.send()
            case 68..<70: DependencyGraph.releaseInstances()
            case 70..<74:
                // The volatile container is shared with the process-wide graph (its resets
                // reach both); the private one is changed by nothing else.
                let own = DependencyContainer { Dependency { Svc(tag: 20, census: census) }.named("own").scope(.singleton) }
                try DependencyGraph.withIsolatedGraph {
                    DependencyGraph.activate(volatile.container)
                    DependencyGraph.activate(own)
                    let singleton: Svc = try DependencyGraph.inject(byName: "own")
                    try singleton.check("an isolated graph's singleton", tags: 20...20)
                    if Bool.random(using: &random) { volatile.scope.send() }
                    let again: Svc = try DependencyGraph.inject(byName: "own")
                    guard again === singleton else { throw StressFailure("an isolated graph built its singleton twice") }
                    let managed: Managed = try DependencyGraph.inject(byName: "managed-\(index)")
                    try managed.check("an isolated graph's managed instance", tags: tags)
                }
            case 74..<80:
                try DependencyGraph.withScope {
                    guard let scoped: Svc = try? DependencyGraph.inject(byName: "scoped-\(index)") else { return }
                    try scoped.check("a scoped instance", tags: tags)
                    if let again: Svc = try? DependencyGraph.inject(byName: "scoped-\(index)") {
                        try again.check("a scoped instance again", tags: tags)
                    }
                }
            case 80..<86:
                let holder = Holder()
                try holder.singleton?.check("@Injected", tags: 10...10)
            case 86..<90:
                tasks.enter()
                Task {
                    defer { tasks.leave() }
                    if let svc: Svc = try? await DependencyGraph.injectAsync(byName: "async-\(index)") {
                        try? svc.check("injectAsync", tags: tags)
                    }
                }
            default:
                DependencyGraph.releaseUnusedStorage()
            }
        }
        var outcome = runner.run(Array(repeating: ("storm", step), count: 4))
        tasks.wait()
        let builtOnce = builds.load(ordering: .relaxed)
        if builtOnce != 1 { outcome.failures.append("a singleton injected from every thread was built \(builtOnce) times") }
        once.deactivateAll()
        return released(census, outcome)
    }

    /// One injection from a volatile container; absence is an answer when it is not active.
    private static func injectVolatile(_ volatile: Volatile, _ tags: ClosedRange<Int>, _ random: inout SeededGenerator) throws {
        let index = volatile.index
        func check(_ svc: Svc?, _ what: String) throws { try svc?.check(what, tags: tags) }
        do {
            switch Int.random(in: 0..<11, using: &random) {
            case 0: try check(DependencyGraph.inject(byName: "singleton-\(index)"), "a singleton by name")
            case 1: try check(DependencyGraph.inject(byName: "shared-\(index)"), "a shared instance by name")
            case 2:
                let managed: Managed = try DependencyGraph.inject(byName: "managed-\(index)")
                try managed.check("a managed instance", tags: tags)
            case 3: try check(DependencyGraph.inject(byName: "instance-\(index)"), "a transient instance")
            case 4:
                let key = Int.random(in: 0..<4, using: &random)
                let keyed: Keyed = try DependencyGraph.inject(byName: "keyed-\(index)", parameters: key)
                try keyed.check("a singleton per parameter", tags: key...key)
            case 5: try check(DependencyGraph.inject(byValue: "volatile-\(index)"), "an instance by value")
            case 6:
                let services: [any Service] = try DependencyGraph.inject()
                for service in services {
                    guard let probe = service as? Probe else { throw StressFailure("[any Service] held a \(type(of: service))") }
                    try probe.check("an element of [any Service]", tags: 10...12)
                }
            case 7:
                let service: (any Service)? = try? DependencyGraph.inject()
                if let probe = service.map({ $0 as? Probe }) { try probe?.check("a service by protocol", tags: 10...12) }
            case 8:
                // Any active container's (the last activated answers): tags 10 to 12.
                let keyed: Overloaded = try DependencyGraph.inject(byType: Overloaded.self, Int.random(in: 0..<4, using: &random))
                try keyed.check("a singleton per parameter beside a registration without", tags: 10...12)
            case 9:
                let labelled: Overloaded = try DependencyGraph.inject(byType: Overloaded.self, "label")
                try labelled.check("a transient with a parameter beside a registration without", tags: 10...12)
                let plain: Overloaded = try DependencyGraph.inject()
                try plain.check("a transient without parameters beside registrations with", tags: 10...12)
            default:
                let conditional: Svc? = try DependencyGraph.inject(byName: "conditional-\(index)")
                try check(conditional, "an optional request")
            }
        } catch InjectionError.missingDependency {
            // The container was not active.
        } catch let error as InjectionError {
            // Several containers register `Service`: an ambiguity is an answer too.
            if case .multipleDependencies = error { return }
            throw error
        }
    }
}
