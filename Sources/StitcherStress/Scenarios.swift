import Foundation
import Stitcher

/// A stress scenario: what it registers, which threads do what, and what it checks after.
struct Scenario: Sendable {
    let name: String
    let summary: String
    /// Runs the scenario for the runner's time; returns its outcome after the final checks.
    let run: @Sendable (Runner) -> Runner.Outcome
}

/// The scenarios that reproduce the crashes the reclamation design prevents (docs/Reclamation.md).
enum Scenarios {
    static let all: [Scenario] = [hazard, overrides, managedReset, releaseInstances, idleChain, storm, children, decorations, scopes]

    /// Overriding containers activated and deactivated while other threads inject.
    static let overrides = Scenario(
        name: "overrides",
        summary:
            "3 overriding containers swapped by 2 threads while 3 inject by name, type, value, as arrays, as structs and as protocols registered as themselves"
    ) { runner in
        let census = Census()
        let base = DependencyContainer {
            Dependency(named: "svc") { Svc(tag: 0, census: census) }.scope(.instance)
            Dependency { Svc(tag: 0, census: census) }.scope(.singleton)
            Dependency(named: "base-singleton") { Svc(tag: 0, census: census) }.scope(.singleton)
            Dependency { Conforming(tag: 0, census: census) }.conforms(to: (any Service).self).scope(.singleton)
            Dependency { Carrier(tag: 0, made: Svc(tag: 0, census: census), injected: try DependencyGraph.inject()) }
            Dependency { Reader(tag: 0, census: census) as any Reading }
            Dependency { Holding(probe: Svc(tag: 0, census: census)) as any Gauge }
        }
        let overrides = (1...3).map { k in
            DependencyContainer {
                Dependency(named: "svc") { Svc(tag: k, census: census) }.scope(.instance)
                Dependency { Svc(tag: k, census: census) }.scope(.singleton)
                Dependency(named: "only-\(k)") { Svc(tag: k, census: census) }.scope(.shared)
                Dependency(for: k) { Svc(tag: k, census: census) }.scope(.singleton)
                Dependency { Conforming(tag: k, census: census) }.conforms(to: (any Service).self).scope(.singleton)
                // Its factory injects, which may replace the thread's snapshot while it runs.
                Dependency { Carrier(tag: k, made: Svc(tag: k, census: census), injected: try DependencyGraph.inject()) }
                // Values of protocols registered as themselves, made by the injecting code.
                Dependency { Reader(tag: k, census: census) as any Reading }
                Dependency { Holding(probe: Svc(tag: k, census: census)) as any Gauge }
            }
        }
        DependencyGraph.activate(base)
        let swap: Runner.Step = { random in
            let container = overrides[Int.random(in: 0..<3, using: &random)]
            if Bool.random(using: &random) { DependencyGraph.activate(container) } else { DependencyGraph.deactivate(container) }
        }
        let inject: Runner.Step = { random in
            do {
                let k = Int.random(in: 1...3, using: &random)
                let named: Svc = try DependencyGraph.inject(byName: "svc")
                try named.check("inject(byName: \"svc\")", tags: 0...3)
                let typed: Svc = try DependencyGraph.inject()
                try typed.check("inject(byType: Svc.self)", tags: 0...3)
                // A singleton by its protocol: its instance, presented from a template once
                // its view has been made.
                guard let conforming = try DependencyGraph.inject() as any Service as? Probe else {
                    throw StressFailure("inject() as any Service is not a probe")
                }
                try conforming.check("inject() as any Service", tags: 0...3)
                let carrier: Carrier = try DependencyGraph.inject()
                try carrier.made.check("the probe a struct's factory made", tags: carrier.tag...carrier.tag)
                try carrier.injected.check("the probe a struct's factory injected", tags: 0...3)
                guard let reader = try DependencyGraph.inject() as any Reading as? Probe else {
                    throw StressFailure("inject() as any Reading is not a probe")
                }
                try reader.check("inject() as any Reading", tags: 0...3)
                try (try DependencyGraph.inject() as any Gauge).probe.check("the probe of inject() as any Gauge", tags: 0...3)
                let baseSingleton: Svc = try DependencyGraph.inject(byName: "base-singleton")
                try baseSingleton.check("the base's named singleton", tags: 0...0)
                if let byValue: Svc = try? DependencyGraph.inject(byValue: k) {
                    try byValue.check("inject(byValue: \(k))", tags: k...k)
                }
                if let shared: Svc = try? DependencyGraph.inject(byName: "only-\(k)") {
                    try shared.check("inject(byName: \"only-\(k)\")", tags: k...k)
                }
                // Arrays of singletons, kept by the index that answered them (`ElementArrays`).
                for svc in try DependencyGraph.inject() as [Svc] { try svc.check("an element of [Svc]", tags: 0...3) }
                for service in try DependencyGraph.inject() as [any Service] {
                    guard let probe = service as? Probe else {
                        throw StressFailure("an element of [any Service] is a \(type(of: service))")
                    }
                    try probe.check("an element of [any Service]", tags: 0...3)
                }
            }
        }
        return runThenRelease(runner, [("swap", swap), ("swap", swap), ("inject", inject), ("inject", inject), ("inject", inject)], census)
    }

    /// A managed scope reset in a loop while other threads inject its instance.
    static let managedReset = Scenario(
        name: "managed-reset",
        summary: "a managed scope reset by 2 threads while 2 inject its instance, alone, by its protocol and as an array"
    ) { runner in
        let census = Census()
        let signal = ResetSignal()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Managed(tag: 1, census: census) }.conforms(to: (any Service).self).scope(.managed(by: signal.subject))
            })
        let reset: Runner.Step = { _ in signal.send() }
        let inject: Runner.Step = { _ in
            let managed: Managed = try DependencyGraph.inject()
            try managed.check("inject(byType: Managed.self)", tags: 1...1)
            // By its protocol: the instance itself, read as `managed` was and presented from
            // a template, which a reset may release at any moment.
            guard let service = try DependencyGraph.inject() as any Service as? Managed else {
                throw StressFailure("inject() as any Service is not the managed probe")
            }
            try service.check("inject() as any Service", tags: 1...1)
            for managed in try DependencyGraph.inject() as [Managed] { try managed.check("an element of [Managed]", tags: 1...1) }
        }
        return runThenRelease(runner, [("reset", reset), ("reset", reset), ("inject", inject), ("inject", inject)], census)
    }

    /// `releaseInstances()` in a loop while other threads inject every stored scope, and a
    /// container holding a named singleton is deactivated and activated again.
    static let releaseInstances = Scenario(
        name: "release-instances",
        summary: "releaseInstances() in a loop and a container swapped while 3 threads inject stored instances "
            + "and a transient by its protocol"
    ) { runner in
        let census = Census()
        let signal = ResetSignal()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Svc(tag: 1, census: census) }.scope(.singleton)
                Dependency { Managed(tag: 2, census: census) }.scope(.managed(by: signal.subject))
                Dependency(named: "shared") { Svc(tag: 3, census: census) }.scope(.shared)
                Dependency { (key: Int) in Keyed(tag: key, census: census) }.scope(.singleton)
                Dependency { Conforming(tag: 5, census: census) }.conforms(to: (any Service).self).scope(.instance)
            })
        let swapped = DependencyContainer {
            Dependency(named: "swapped") { Svc(tag: 4, census: census) }.scope(.singleton)
        }
        DependencyGraph.activate(swapped)
        let release: Runner.Step = { random in
            DependencyGraph.releaseInstances()
            if Int.random(in: 0..<4, using: &random) == 0 { DependencyGraph.deactivate(swapped) } else { DependencyGraph.activate(swapped) }
        }
        let inject: Runner.Step = { random in
            let singleton: Svc = try DependencyGraph.inject()
            try singleton.check("the singleton", tags: 1...1)
            let managed: Managed = try DependencyGraph.inject()
            try managed.check("the managed instance", tags: 2...2)
            let shared: Svc = try DependencyGraph.inject(byName: "shared")
            try shared.check("the shared instance", tags: 3...3)
            let key = Int.random(in: 0..<4, using: &random)
            let keyed: Keyed = try DependencyGraph.inject(byType: Keyed.self, key)
            try keyed.check("the singleton for \(key)", tags: key...key)
            // A transient by its protocol, written into the caller's existential.
            guard let conforming = try DependencyGraph.inject() as any Service as? Conforming else {
                throw StressFailure("inject() as any Service is not a new Conforming")
            }
            try conforming.check("the transient by its protocol", tags: 5...5)
            if let named: Svc = try? DependencyGraph.inject(byName: "swapped") {
                try named.check("the swapped named singleton", tags: 4...4)
            }
        }
        return runThenRelease(runner, [("release", release), ("inject", inject), ("inject", inject), ("inject", inject)], census)
    }

    /// A thread idle since before many `releaseInstances()` calls, on a small stack: its
    /// next injection must neither overflow it nor find the memory of every call kept.
    static let idleChain = Scenario(
        name: "idle-chain",
        summary: "one thread on a 512 KiB stack idle across 200,000 releaseInstances() calls, then injecting"
    ) { runner in
        let census = Census()
        DependencyGraph.activate(DependencyContainer { Dependency { Svc(tag: 1, census: census) }.scope(.singleton) })
        let calls = max(20_000, Int(runner.seconds * 20_000))
        let injected = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let failures = Protected<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let idle = Thread {
            do {
                let first: Svc = try DependencyGraph.inject()
                try first.check("the first injection", tags: 1...1)
                injected.signal()
                resume.wait()
                let again: Svc = try DependencyGraph.inject()
                try again.check("the injection after \(calls) releases", tags: 1...1)
            } catch {
                failures.withLock { $0.append("idle thread: \(error)") }
            }
            done.signal()
        }
        idle.stackSize = 512 << 10
        idle.start()
        injected.wait()
        let before = residentBytes()
        let entriesBefore = liveIndexEntryCount()
        let start = DispatchTime.now()
        for _ in 0..<calls { DependencyGraph.releaseInstances() }
        let grown = residentBytes() - before
        let entriesAfter = liveIndexEntryCount()
        resume.signal()
        done.wait()
        var outcome = Runner.Outcome(
            operations: calls, elapsed: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9,
            failures: failures.withLock { $0 })
        // Each call renews one entry: kept for the idle thread, 200,000 calls held 32 MB. A
        // checked build counts entries (its sanitizer keeps freed memory in quarantine, so
        // resident memory grows there whatever the engine keeps).
        if let entriesBefore, let entriesAfter {
            if entriesAfter > entriesBefore + 16 {
                outcome.failures.append("\(calls) releaseInstances() calls left \(entriesAfter - entriesBefore) more entries alive")
            }
        } else if grown > 16 << 20 {
            outcome.failures.append("\(calls) releaseInstances() calls grew resident memory by \(grown >> 20) MiB while a thread was idle")
        }
        return released(census, outcome)
    }

    /// Runs `workers`, then deactivates every container of the process-wide graph and checks
    /// that nothing the scenario made is still alive.
    static func runThenRelease(_ runner: Runner, _ workers: [(name: String, step: Runner.Step)], _ census: Census) -> Runner.Outcome {
        released(census, runner.run(workers))
    }

    /// `outcome` once every container of the process-wide graph is deactivated, with a
    /// failure if any probe outlived everything that held it.
    static func released(_ census: Census, _ outcome: Runner.Outcome) -> Runner.Outcome {
        DependencyGraph.deactivateAll()
        var outcome = outcome
        expectNothingAlive(census, &outcome)
        return outcome
    }

    /// Records a failure if any probe outlived everything that held it.
    static func expectNothingAlive(_ census: Census, _ outcome: inout Runner.Outcome) {
        let alive = census.alive
        if alive != 0 { outcome.failures.append("\(alive) instances alive after every container was deactivated") }
    }
}
