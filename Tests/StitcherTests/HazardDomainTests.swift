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

        #expect(reader.protect(object, publishedBy: source) == object, "still published: safe to follow")
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

    @Test func aReaderThatSeesAReplacementDoesNotFollowTheOldPointer() {
        let domain = HazardDomain()
        let reader = domain.makeCell()
        let first = UnsafeAtomic<Bool>.create(false)
        let second = UnsafeAtomic<Bool>.create(false)
        defer {
            first.destroy()
            second.destroy()
        }
        let old = retained(first)
        let new = retained(second)
        let source = UnsafeAtomic<UnsafeMutableRawPointer?>.create(new)
        defer { source.destroy() }
        #expect(reader.protect(old, publishedBy: source) == new, "the caller must retry with the new pointer")
        reader.clear()
        Unmanaged<AnyObject>.fromOpaque(new).release()
        Unmanaged<AnyObject>.fromOpaque(old).release()
    }

    @Test func cellsOfEndedThreadsAreReused() {
        let domain = HazardDomain()
        let cell = domain.makeCell()
        domain.recycle(cell)
        #expect(domain.makeCell() === cell)
        #expect(domain.makeCell() !== cell)
    }
}
