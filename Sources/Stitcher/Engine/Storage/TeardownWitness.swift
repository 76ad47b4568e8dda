/// How to tear down an instance whose type is exactly a registration's `T`, found once when
/// the record is made: a conformance looked up for every instance costs more than building
/// the instance.
///
/// Its closures capture nothing but `T`'s conformance, so that any thread may call them. A
/// class: a scope keeps one reference per instance to tear down, where two closures would
/// cost a reference count each.
final class TeardownWitness: @unchecked Sendable {
    typealias Synchronous = (AnyObject) throws -> Void
    typealias Asynchronous = (AnyObject) async throws -> Void

    /// Calls `tearDown()` of an instance in stored form, if its type is `TeardownAware`
    /// (`hasSynchronous`); does nothing otherwise. Not optional, and called in place
    /// (`tearDownSynchronously(_:)`): copied out of an optional, the closure's context was
    /// retained and released around every teardown, two atomic operations a request's
    /// scope paid for each instance it tore down.
    private let synchronousTeardown: Synchronous
    /// Whether the type is `TeardownAware`.
    let hasSynchronous: Bool
    /// Calls `tearDown()` of an instance in stored form, if its type is `AsyncTeardownAware`.
    let asynchronous: Asynchronous?
    /// Whether the type is `AsyncTeardownAware` (`asynchronous != nil`), asked by every
    /// asynchronous scope's end without copying the closure (and counting its context).
    let hasAsynchronous: Bool

    private init(synchronous: Synchronous?, asynchronous: Asynchronous?) {
        // Not `??`, which is generic: the closure would be stored behind a thunk.
        if let synchronous { synchronousTeardown = synchronous } else { synchronousTeardown = Self.noTeardown }
        hasSynchronous = synchronous != nil
        self.asynchronous = asynchronous
        hasAsynchronous = asynchronous != nil
    }

    private static func noTeardown(_: AnyObject) {}

    /// Runs the synchronous teardown of `instance` (in stored form), borrowing the closure's
    /// context; does nothing when the type is not `TeardownAware` (`hasSynchronous`).
    @inline(__always)
    func tearDownSynchronously(_ instance: AnyObject) throws {
        try synchronousTeardown(instance)
    }

    /// The witness of `type`; nil when it conforms to neither protocol.
    static func of(_ type: Any.Type) -> TeardownWitness? {
        var synchronous: Synchronous?
        var asynchronous: Asynchronous?
        if let conforming = type as? any TeardownAware.Type { synchronous = synchronousTeardown(of: conforming) }
        if let conforming = type as? any AsyncTeardownAware.Type { asynchronous = asynchronousTeardown(of: conforming) }
        if synchronous == nil, asynchronous == nil { return nil }
        return TeardownWitness(synchronous: synchronous, asynchronous: asynchronous)
    }

    /// The witness of one value whose type is not known ahead (its conformances are looked
    /// up now); nil when it asks for no teardown.
    static func checking(_ value: Any) -> TeardownWitness? {
        var synchronous: Synchronous?
        var asynchronous: Asynchronous?
        if let conforming = value as? any TeardownAware { synchronous = { _ in try conforming.tearDown() } }
        if let conforming = value as? any AsyncTeardownAware { asynchronous = { _ in try await conforming.tearDown() } }
        if synchronous == nil, asynchronous == nil { return nil }
        return TeardownWitness(synchronous: synchronous, asynchronous: asynchronous)
    }

    // Each witness is generic code that no caller specializes: reading an instance as a `U`
    // value copied it through `U`'s value witnesses (a retain and a release) and asked the
    // runtime whether `U` is a class, for every teardown. So a class is told apart once,
    // here, and its instances are reached as references, uncounted.

    private static func synchronousTeardown<U: TeardownAware>(of type: U.Type) -> Synchronous {
        if let conforming = type as? any (AnyObject & TeardownAware).Type { return synchronousTeardown(ofClass: conforming) }
        return { instance in try unsafeDowncast(instance, to: TypedBox<U>.self).value.tearDown() }
    }

    private static func synchronousTeardown<C: AnyObject & TeardownAware>(ofClass _: C.Type) -> Synchronous {
        { instance in try unsafeDowncast(instance, to: C.self).tearDown() }
    }

    private static func asynchronousTeardown<U: AsyncTeardownAware>(of type: U.Type) -> Asynchronous {
        if let conforming = type as? any (AnyObject & AsyncTeardownAware).Type { return asynchronousTeardown(ofClass: conforming) }
        return { instance in try await unsafeDowncast(instance, to: TypedBox<U>.self).value.tearDown() }
    }

    private static func asynchronousTeardown<C: AnyObject & AsyncTeardownAware>(ofClass _: C.Type) -> Asynchronous {
        { instance in try await unsafeDowncast(instance, to: C.self).tearDown() }
    }
}
