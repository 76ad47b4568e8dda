import Atomics
import Foundation

/// Runs workers on threads of their own until the time is up or one breaks an invariant.
///
/// Each worker gets a generator seeded from the run's seed and its index, so that a seed
/// printed with a failure replays the same choices (the interleaving is the machine's).
struct Runner {
    let seconds: Double
    let seed: UInt64

    /// One thread's loop body: one operation per call.
    typealias Step = @Sendable (inout SeededGenerator) throws -> Void

    struct Outcome {
        var operations = 0
        var elapsed = 0.0
        var failures: [String] = []
    }

    /// Runs `workers` for `seconds`; `stackSize` sets every worker thread's stack.
    func run(_ workers: [(name: String, step: Step)], stackSize: Int? = nil) -> Outcome {
        let stop = ManagedAtomic<Bool>(false)
        let operations = ManagedAtomic<Int>(0)
        let failures = Protected<[String]>([])
        let done = DispatchGroup()
        let start = DispatchTime.now()
        for (index, worker) in workers.enumerated() {
            done.enter()
            let thread = Thread {
                var random = SeededGenerator(seed: seed &+ UInt64(index) &* 0x1000_0001)
                var count = 0
                while !stop.load(ordering: .relaxed) {
                    do {
                        try worker.step(&random)
                    } catch {
                        failures.withLock { $0.append("\(worker.name): \(error)") }
                        stop.store(true, ordering: .relaxed)
                    }
                    count += 1
                }
                operations.wrappingIncrement(by: count, ordering: .relaxed)
                done.leave()
            }
            if let stackSize { thread.stackSize = stackSize }
            thread.start()
        }
        let deadline = start + .nanoseconds(Int(seconds * 1e9))
        while DispatchTime.now() < deadline, !stop.load(ordering: .relaxed) { usleep(20_000) }
        stop.store(true, ordering: .relaxed)
        done.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        return Outcome(operations: operations.load(ordering: .relaxed), elapsed: elapsed, failures: failures.withLock { $0 })
    }
}

/// A value behind a lock.
final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Resident memory of the process, in bytes (Linux; 0 elsewhere).
func residentBytes() -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
