import Atomics
import Testing

@testable import Stitcher

/// Tells whether it was released.
private final class Tracked {
    let released: UnsafeAtomic<Bool>
    init(_ released: UnsafeAtomic<Bool>) { self.released = released }
    deinit { released.store(true, ordering: .relaxed) }
}

/// Reads a flag outside `#expect`, whose expansion cannot pass atomic orderings along.
private func isSet(_ flag: UnsafeAtomic<Bool>) -> Bool { flag.load(ordering: .relaxed) }

/// The reclamation scheme behind lock-free reads of shared instances, on its own domain.
struct HazardDomainTests {
    private func retained(_ flag: UnsafeAtomic<Bool>) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(Tracked(flag) as AnyObject).toOpaque()
    }

    @Test func anUnannouncedObjectIsReleasedWhenRetired() {
        let domain = HazardDomain()
        let released = UnsafeAtomic<Bool>.create(false)
        defer { released.destroy() }
        _ = domain.makeCell()
        domain.retire(Unmanaged.fromOpaque(retained(released)))
        #expect(isSet(released))
        #expect(domain.heldBackCount == 0)
    }

    @Test func anAnnouncedObjectIsHeldUntilItsReaderIsDone() {
        let domain = HazardDomain()
        let reader = domain.makeCell()
        let released = UnsafeAtomic<Bool>.create(false)
        let other = UnsafeAtomic<Bool>.create(false)
        defer {
            released.destroy()
            other.destroy()
        }
        let object = retained(released)
        let source = UnsafeAtomic<UnsafeMutableRawPointer?>.create(object)
        defer { source.destroy() }

        reader.announce(object)
        // A writer replaces it while the reader follows it.
        source.store(nil, ordering: .sequentiallyConsistent)
        domain.retire(Unmanaged.fromOpaque(object))
        #expect(!isSet(released), "a reader announced it")
        #expect(domain.heldBackCount == 1)

        reader.clear()
        domain.retire(Unmanaged.fromOpaque(retained(other)))
        #expect(isSet(released), "released at the next retirement once nobody announces it")
        #expect(isSet(other))
        #expect(domain.heldBackCount == 0)
    }

    /// A graph's last change may retire nothing (no instance was built since the one
    /// before): what an earlier retirement held back is still released.
    @Test func aRetirementOfNothingReleasesWhatWasHeldBack() {
        let domain = HazardDomain()
        let reader = domain.makeCell()
        let released = UnsafeAtomic<Bool>.create(false)
        defer { released.destroy() }
        let object = retained(released)
        reader.announce(object)
        domain.retire(Unmanaged.fromOpaque(object))
        #expect(domain.heldBackCount == 1)

        reader.clear()
        domain.retire([])
        #expect(isSet(released), "released by the next retirement, of nothing")
        #expect(domain.heldBackCount == 0)
    }

    @Test func aReaderTakesTheObjectStillPublishedAndEndsItsAnnouncement() {
        let domain = HazardDomain()
        let reader = domain.makeCell()
        let released = UnsafeAtomic<Bool>.create(false)
        defer { released.destroy() }
        let storage = UnsafeMutablePointer<UnsafeAtomic<UnsafeMutableRawPointer?>.Storage>.allocate(capacity: 1)
        storage.initialize(to: .init(retained(released)))
        defer { storage.deallocate() }
        let source = UnsafeAtomic<UnsafeMutableRawPointer?>(at: storage)

        var taken = reader.retain(publishedIn: UnsafeMutableRawPointer(storage))
        #expect(taken != nil)
        #expect(reader.announced == nil, "the announcement ends before the call returns")
        // Unpublished and retired while the reader holds its own reference: still alive.
        domain.retire(Unmanaged.fromOpaque(source.exchange(nil, ordering: .sequentiallyConsistent)!))
        #expect(!isSet(released))
        taken = nil
        #expect(isSet(released), "the reader's reference was the last")
        #expect(reader.retain(publishedIn: UnsafeMutableRawPointer(storage)) == nil, "nothing published: nothing taken")
        withExtendedLifetime(taken) {}
    }

    @Test func aWeakBoxGivesItsObjectWhileItLives() {
        let domain = HazardDomain()
        let reader = domain.makeCell()
        final class Object {}
        var object: Object? = Object()
        let box = Unmanaged.passRetained(WeakObject(object!)).toOpaque()
        let storage = UnsafeMutablePointer<UnsafeAtomic<UnsafeMutableRawPointer?>.Storage>.allocate(capacity: 1)
        storage.initialize(to: .init(box))
        defer {
            Unmanaged<WeakObject>.fromOpaque(box).release()
            storage.deallocate()
        }
        #expect(reader.strongObject(inBoxPublishedIn: UnsafeMutableRawPointer(storage)) === object)
        object = nil
        #expect(reader.strongObject(inBoxPublishedIn: UnsafeMutableRawPointer(storage)) == nil)
    }

    @Test func cellsOfEndedThreadsAreReused() {
        let domain = HazardDomain()
        let cell = domain.makeCell()
        domain.recycle(cell)
        #expect(domain.makeCell() === cell)
        #expect(domain.makeCell() !== cell)
    }
}
