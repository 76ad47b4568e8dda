import Atomics
import Stitcher

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// How many probes were made and how many are alive, from any thread.
final class Census: Sendable {
    private let live = ManagedAtomic<Int>(0)
    private let made = ManagedAtomic<Int>(0)

    func born() {
        live.wrappingIncrement(ordering: .relaxed)
        made.wrappingIncrement(ordering: .relaxed)
    }
    func died() { live.wrappingDecrement(ordering: .relaxed) }
    var alive: Int { live.load(ordering: .sequentiallyConsistent) }
    var total: Int { made.load(ordering: .relaxed) }
}

/// An instance the stress stage injects and checks: a freed one is told by its poisoned
/// word (its deinitializer writes it; reused memory holds anything else).
class Probe: @unchecked Sendable {
    static let living: UInt64 = 0x5717_C4E5_A11_7E
    static let poisoned: UInt64 = 0xDEAD_DEAD_DEAD_DEAD
    /// `living` while the probe is alive.
    private(set) var magic: UInt64 = Probe.living
    let tag: Int
    let census: Census

    init(tag: Int, census: Census) {
        self.tag = tag
        self.census = census
        census.born()
    }

    deinit {
        magic = Probe.poisoned
        census.died()
    }

    /// Throws unless the probe is alive and carries one of `tags`.
    func check(_ what: @autoclosure () -> String, tags: ClosedRange<Int>) throws {
        let magic = self.magic
        guard magic == Probe.living else {
            throw StressFailure("\(what()) returned a freed object (its word reads \(hex(magic)))")
        }
        guard tags.contains(tag) else {
            throw StressFailure("\(what()) returned tag \(tag), registered tags are \(tags)")
        }
    }
}

final class Svc: Probe, @unchecked Sendable {}
final class Managed: Probe, Service, @unchecked Sendable {}
final class Keyed: Probe, @unchecked Sendable {}
final class Counted: Probe, @unchecked Sendable {}
final class Overloaded: Probe, @unchecked Sendable {}
protocol Service: AnyObject, Sendable { var tag: Int { get } }
/// A transient struct injected as its own type, whose factory the injecting code runs
/// (`ValueFactory`): it holds a probe it made and one its factory injected.
struct Carrier: Sendable {
    let tag: Int
    let made: Svc
    let injected: Svc
}
final class Conforming: Probe, Service, @unchecked Sendable {}
/// A class-bound protocol registered as itself (`Reader(…) as any Reading`): its transient
/// instances are made by the injecting code's typed factory, unboxed.
protocol Reading: AnyObject, Sendable {}
final class Reader: Probe, Reading, @unchecked Sendable {}
/// An opaque protocol registered as itself (`Holding(…) as any Gauge`), whose values hold a
/// probe their factory made.
protocol Gauge: Sendable { var probe: Svc { get } }
struct Holding: Gauge { let probe: Svc }

/// What breaks an invariant.
struct StressFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }

/// A small, fast, seedable generator (SplitMix64), so that a seed replays a thread's choices.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A managed scope's publisher, sent from any thread (subjects lock internally).
final class ResetSignal: @unchecked Sendable {
    let subject = PassthroughSubject<Void, Never>()
    func send() { subject.send(()) }
}
