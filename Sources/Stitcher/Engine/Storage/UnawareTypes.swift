internal import _StitcherShims

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
    /// The slot of the type whose metadata lies at `address`: the address itself (`hashValue`
    /// would run the hasher on every new instance), in `stitcher_unaware_types`.
    @inline(__always)
    private static func slot(_ address: UInt) -> UInt { address >> 4 }

    /// Whether `type` is known not to be `PostInstantiationAware` (a new value of it needs no check).
    static func isKnownUnaware(_ type: Any.Type) -> Bool {
        isKnownUnaware(address: UInt(bitPattern: ObjectIdentifier(type)))
    }

    /// Whether the type whose metadata lies at `address` is known not to be
    /// `PostInstantiationAware`; the address is compared, never read (it may come from
    /// memory `ExistentialDynamicTypes` reads).
    @inline(__always)
    static func isKnownUnaware(address: UInt) -> Bool {
        address != 0 && stitcher_unaware_type(slot(address)) == address
    }

    /// Calls `didInstantiate()` of `value` when it is `PostInstantiationAware`.
    static func notifyIfAware(_ value: Any) {
        let address = UInt(bitPattern: ObjectIdentifier(type(of: value)))
        if isKnownUnaware(address: address) { return }
        if let aware = value as? PostInstantiationAware {
            aware.didInstantiate()
        } else {
            stitcher_set_unaware_type(slot(address), address)
        }
    }
}
