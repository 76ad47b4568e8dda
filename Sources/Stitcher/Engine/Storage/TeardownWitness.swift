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

    /// Calls `tearDown()` of an instance in stored form, if its type is `TeardownAware`.
    let synchronous: Synchronous?
    /// Calls `tearDown()` of an instance in stored form, if its type is `AsyncTeardownAware`.
    let asynchronous: Asynchronous?

    private init(synchronous: Synchronous?, asynchronous: Asynchronous?) {
        self.synchronous = synchronous
        self.asynchronous = asynchronous
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

    // Whether `U` is a class is asked once, here, not at every teardown: these closures run
    // unspecialized (`U` is opened from a metatype), where the question is a runtime call.
    // An instance in stored form is then the `U` itself, or a box of one (the caller checked
    // its type).

    private static func synchronousTeardown<U: TeardownAware>(of _: U.Type) -> Synchronous {
        if U.self is AnyClass { return { instance in try unsafeBitCast(instance, to: U.self).tearDown() } }
        return { instance in try unsafeDowncast(instance, to: TypedBox<U>.self).value.tearDown() }
    }

    private static func asynchronousTeardown<U: AsyncTeardownAware>(of _: U.Type) -> Asynchronous {
        if U.self is AnyClass { return { instance in try await unsafeBitCast(instance, to: U.self).tearDown() } }
        return { instance in try await unsafeDowncast(instance, to: TypedBox<U>.self).value.tearDown() }
    }
}
