import Atomics

/// Types known not to be `PostInstantiationAware`, so that a new instance of one skips the
/// conformance check.
///
/// An instance of another type than its registration's (a value behind a protocol, a
/// subclass) is checked when it is made: a conformance looked up for every instance, which a
/// failed lookup makes slow, costs several times the instance. A type that does not conform
/// never will, so the answer is kept, in a small table shared by every graph: a slot per type
/// chosen by its identity, overwritten on a collision (then checked again, never wrongly
/// skipped: a slot holds one identity or none).
enum UnawareTypes {
    private static let slots: [UnsafeAtomic<Int>] = (0..<128).map { _ in UnsafeAtomic<Int>.create(0) }

    @inline(__always)
    private static func slot(_ id: ObjectIdentifier) -> UnsafeAtomic<Int> {
        // The address itself: `hashValue` would run the hasher on every new instance.
        slots[Int(truncatingIfNeeded: UInt(bitPattern: id) >> 4) & (slots.count - 1)]
    }

    /// Whether `type` is known not to be `PostInstantiationAware` (a new value of it needs no check).
    static func isKnownUnaware(_ type: Any.Type) -> Bool {
        let id = ObjectIdentifier(type)
        return slot(id).load(ordering: .relaxed) == Int(bitPattern: id)
    }

    /// Calls `didInstantiate()` of `value` when it is `PostInstantiationAware`.
    static func notifyIfAware(_ value: Any) {
        let id = ObjectIdentifier(type(of: value))
        let slot = slot(id)
        if slot.load(ordering: .relaxed) == Int(bitPattern: id) { return }
        if let aware = value as? PostInstantiationAware {
            aware.didInstantiate()
        } else {
            slot.store(Int(bitPattern: id), ordering: .relaxed)
        }
    }
}
