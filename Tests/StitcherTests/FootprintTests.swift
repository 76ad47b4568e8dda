import Testing

@testable import Stitcher

#if canImport(Darwin)
import Darwin
#endif

private final class Counted: Sendable {
    let value: Int
    init(value: Int) { self.value = value }
}

/// The bytes an object's allocation asked for, rounded up by the allocator (its chunk less
/// the allocator's own word on glibc): what a registration costs, object by object.
private func usableSize(of object: AnyObject) -> Int {
    let address = UnsafeMutableRawPointer(Unmanaged.passUnretained(object).toOpaque())
    #if canImport(Darwin)
    return malloc_size(address)
    #else
    return mallocUsableSize(address)
    #endif
}

#if !canImport(Darwin)
/// glibc's and musl's `malloc_usable_size`, which their module maps leave out.
@_silgen_name("malloc_usable_size") private func mallocUsableSize(_ address: UnsafeMutableRawPointer) -> Int
#endif

/// What one registration keeps on the heap, per object, and what each object's words hold:
/// the sizes that `Profile memory` adds up (docs/performance-notes.md), checked where a
/// change that grows one would otherwise only show in the next benchmark run.
struct FootprintTests {
    /// An entry keeps its atomic words in its own allocation (a `ManagedBuffer`'s
    /// elements): three after the record and the owner, 56 bytes with the object header,
    /// and a fourth, its serial, for a registration built in dependency scopes.
    @Test func anEntryIsOneSmallAllocation() {
        let value = 7
        let record = RegistrationRecord(Dependency { Counted(value: value) })
        let entry = IndexEntry.make(record: record, owner: ObjectIdentifier(record))
        #expect(usableSize(of: entry) <= 56 + 8, "56 bytes asked for: a 64-byte chunk on glibc")
        let scoped = RegistrationRecord(Dependency { Counted(value: value) }.scope(.scoped))
        let numbered = IndexEntry.make(record: scoped, owner: ObjectIdentifier(scoped))
        #expect(usableSize(of: numbered) >= 64, "room for the serial")
        #expect(numbered.record === scoped && numbered.owner == ObjectIdentifier(scoped))
    }

    /// A class's factory without parameters is kept in its record, which then needs no
    /// extras: 72 bytes with the object header. Any other factory is kept in the extras,
    /// with its identity, so that a builder's re-run still tells it apart.
    @Test func aClassRegistrationIsOneSmallRecord() {
        let value = 7
        let capturing = RegistrationRecord(Dependency { Counted(value: value) })
        let plain = RegistrationRecord(Dependency { Counted(value: 1) })
        #expect(usableSize(of: capturing) <= 72 + 8, "72 bytes asked for: an 80-byte chunk on glibc")
        #expect(usableSize(of: plain) <= 72 + 8)
        #expect(capturing.callsClassFactory && plain.callsClassFactory)
        let parameterized = RegistrationRecord(Dependency { (value: Int) in Counted(value: value) })
        #expect(!parameterized.callsClassFactory && parameterized.origin.isKnown)
        #expect(parameterized.origin == parameterized.origin)
    }

    /// Each entry of a `.scoped` registration has a serial no other entry has, its renewal
    /// included: what a scope's slots name their entries by.
    @Test func scopedEntriesAreNumberedApart() {
        let record = RegistrationRecord(Dependency { Counted(value: 1) }.scope(.scoped))
        let first = IndexEntry.make(record: record, owner: ObjectIdentifier(record))
        let renewed = first.renewed()
        let other = IndexEntry.make(record: record, owner: ObjectIdentifier(record))
        #expect(Set([first.serial, renewed.serial, other.serial]).count == 3)
    }

    /// An entry's words outlive every read of them and are released with it: a singleton
    /// published in one is the same instance on every read, and goes when the entry goes.
    @Test func anEntrysWordsKeepWhatItPublishesUntilItGoes() throws {
        weak var released: Counted?
        try DependencyGraph.withIsolatedGraph {
            let container = DependencyContainer { Dependency { Counted(value: 3) }.scope(.singleton) }
            DependencyGraph.activate(container)
            let first: Counted = try DependencyGraph.inject()
            let second: Counted = try DependencyGraph.inject()
            #expect(first === second)
            released = first
            DependencyGraph.deactivate(container)
        }
        #expect(released == nil, "the retired entry released its published instance")
    }

    /// A name costs its index about five bytes: a four-byte row (the entry's position, not
    /// its address) in a table filled to between 3/8 and 7/8.
    @Test func aNameCostsTheIndexAFourByteRow() {
        let entries = (0..<100_000).map { index in
            IndexEntry.make(
                record: RegistrationRecord(Dependency { Counted(value: index) }.named("name-\(index)")),
                owner: ObjectIdentifier(Counted.self))
        }
        let index = IndexSnapshot(generation: 1, entries: entries, indexed: true, capacity: entries.count)
        #expect(index.nameTableBytes == 131_072 * 4, "5.2 bytes a name at 100,000 names")
        #expect(index.entries(named: "name-99999")?.single === entries[99_999])
        #expect(index.directLookup(named: "name-5", as: ObjectIdentifier(Counted.self)).entry?.takeUnretainedValue() === entries[5])
    }
}
