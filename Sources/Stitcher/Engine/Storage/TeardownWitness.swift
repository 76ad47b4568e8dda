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

    private static func synchronousTeardown<U: TeardownAware>(of _: U.Type) -> Synchronous {
        { instance in try value(of: instance, as: U.self).tearDown() }
    }

    private static func asynchronousTeardown<U: AsyncTeardownAware>(of _: U.Type) -> Asynchronous {
        { instance in try await value(of: instance, as: U.self).tearDown() }
    }

    /// An instance in stored form as the `U` it is (the caller checked its type).
    @inline(__always)
    private static func value<U>(of instance: AnyObject, as _: U.Type) -> U {
        U.self is AnyClass ? unsafeBitCast(instance, to: U.self) : unsafeDowncast(instance, to: TypedBox<U>.self).value
    }
}
