import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

// A scope's slots name their instances, teardown registrations, witnesses and keys without
// the compiler counting them (`ScopeSlots`): the slots retain each when it is written and
// release each once, when they are removed or freed. These tests hold weak references to
// what the slots name and check when it goes.

private final class Probe {}

private final class Torn: TeardownAware, @unchecked Sendable {
    let name: String
    let log: Log
    init(_ name: String, _ log: Log) {
        self.name = name
        self.log = log
    }
    func tearDown() { log.add(name) }
}

private final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

/// Weak references to the probes some slots keep.
private struct Kept {
    private var references: [() -> AnyObject?] = []
    mutating func add(_ object: AnyObject) { references.append { [weak object] in object } }
    var alive: Int { references.filter { $0() != nil }.count }
}

/// Appends `count` slots that keep a new probe each (as `ScopeStore.complete` keeps a built
/// instance) and, for odd positions, a key.
private func fill(_ slots: ScopeSlots, _ count: Int, _ kept: inout Kept) {
    let chain = ResolutionChain()
    for number in 0..<count {
        let key = number.isMultiple(of: 2) ? nil : ArgumentKey(values: [AnyHashable(number)])
        let index = slots.append(ScopeSlot(entry: number, key: key, builder: .passUnretained(chain)))
        let probe = Probe()
        kept.add(probe)
        slots.withSlot(index) { slot in
            slot.builder = nil
            slot.instance = Unmanaged<AnyObject>.passUnretained(probe).retain()
        }
    }
}

@Suite(.isolatedDependencyGraph)
struct ScopeSlotsTests {
    @Test func removingTheSlotsReleasesWhatTheyKeptOnceAndKeepsTheirRoom() {
        let slots = ScopeSlots.make(capacity: 8)
        var kept = Kept()
        fill(slots, 5, &kept)
        #expect(slots.count == 5)
        #expect(kept.alive == 5)
        #expect(slots.position(of: 3, ArgumentKey(values: [AnyHashable(3)])) == 3)
        #expect(slots.position(of: 3, nil) == nil)
        #expect(slots.position(of: 2, nil) == 2)
        slots.removeAll()
        #expect(kept.alive == 0)
        #expect(slots.count == 0)
        #expect(slots.room == 8)
        #expect(slots.position(of: 2, nil) == nil)
        // Removed slots are past the count: the walk of the teardowns finds none of them.
        #expect(slots.teardown(after: 4) { _ in Issue.record("a removed slot was walked") } == -1)
        // Removing again releases nothing twice.
        slots.removeAll()
        #expect(kept.alive == 0)
    }

    @Test func freedSlotsReleaseWhatTheyStillKeep() {
        var kept = Kept()
        do {
            let slots = ScopeSlots.make(capacity: 4)
            fill(slots, 3, &kept)
            #expect(kept.alive == 3)
        }
        #expect(kept.alive == 0)
    }

    @Test func grownSlotsKeepEverySlotAndTheOldReleaseNothing() {
        var kept = Kept()
        let slots = ScopeSlots.make(capacity: 2)
        fill(slots, 2, &kept)
        #expect(slots.isFull)
        var larger: ScopeSlots? = slots.grown()
        // The old buffer is empty: freeing it lets nothing go.
        #expect(slots.count == 0)
        #expect(kept.alive == 2)
        #expect(larger?.room == 8)
        #expect(larger?.count == 2)
        #expect(larger?.position(of: 1, ArgumentKey(values: [AnyHashable(1)])) == 1)
        larger = nil
        #expect(kept.alive == 0)
    }

    @Test func aClosedScopeACopyStillNamesGivesItsSlotsToNoOtherScope() {
        var kept = Kept()
        let slots = ScopeSlots.make(capacity: 8)
        fill(slots, 3, &kept)
        var closed = ClosedScope(slots: slots, newestTeardown: -1, instanceCount: 3)
        let copy = closed
        ThreadState.current.spareScopeSlots = nil
        closed.recycle()
        // Released all the same, but not kept for the thread's next scope.
        #expect(kept.alive == 0)
        #expect(ThreadState.current.spareScopeSlots == nil)
        withExtendedLifetime(copy) {}

        // Named by the closed scope alone, they are.
        var (only, identity) = closedScope(&kept)
        only.recycle()
        #expect(kept.alive == 0)
        #expect(ThreadState.current.spareScopeSlots.map(ObjectIdentifier.init) == identity)
        #expect(ThreadState.current.spareScopeSlots?.count == 0)
    }

    /// A closed scope that alone names its slots (one kept probe), and the slots' identity.
    private func closedScope(_ kept: inout Kept) -> (ClosedScope, ObjectIdentifier) {
        let slots = ScopeSlots.make(capacity: 8)
        fill(slots, 1, &kept)
        return (ClosedScope(slots: slots, newestTeardown: -1, instanceCount: 1), ObjectIdentifier(slots))
    }

    @Test func aScopeOfManyRegistrationsAndParameterValuesBuildsEachOnceAndReleasesEveryOne() throws {
        let log = Log()
        DependencyGraph.activate(
            DependencyContainer {
                for number in 0..<20 {
                    Dependency { Torn("named \(number)", log) }.named("n\(number)").scope(.scoped)
                }
                Dependency { (id: Int) in Torn("keyed \(id)", log) }.named("keyed").scope(.scoped)
            })
        var kept = Kept()
        try DependencyGraph.withScope {
            // Past 8 slots (the first room) and 16 (when the scope indexes its slots).
            for number in 0..<20 {
                let first: Torn = try DependencyGraph.inject(byName: "n\(number)")
                kept.add(first)
                let keyed: Torn = try DependencyGraph.inject(byName: "keyed", parameters: number % 5)
                if number < 5 { kept.add(keyed) }
            }
            for number in 0..<20 {
                let again: Torn = try DependencyGraph.inject(byName: "n\(number)")
                #expect(again.name == "named \(number)")
                #expect((try DependencyGraph.inject(byName: "keyed", parameters: number % 5) as Torn).name == "keyed \(number % 5)")
            }
            #expect(kept.alive == 25)
            #expect(log.all.isEmpty)
        }
        #expect(kept.alive == 0)
        // Each built once, torn down newest first.
        var expected: [String] = []
        for number in 0..<20 {
            expected.append("named \(number)")
            if number < 5 { expected.append("keyed \(number)") }
        }
        #expect(log.all == expected.reversed())
    }
}
