/// The factory of a value type `T` registered without parameters, typed: what an injection
/// of exactly `T` calls itself, in its own module, once the engine has found the
/// registration and pushed its frame (see `DependencyGraph.injectValue(byType:)`), so that
/// the value is returned as the caller's code returns any `T`, with no writer closure and no
/// buffer between the factory and the caller.
///
/// The engine's check that the registration produces exactly the type asked for proves the
/// caller's `ValueFactory<D>` is this class. A `T` whose values may be of another type (an
/// existential: `Impl() as any P`) gets a factory that asks whether each value's type is
/// `PostInstantiationAware` (`init(notifying:)`).
///
/// **Reclamation rule.** Held by its registration's `ValueWriter`, so by the record, the
/// entry and the index snapshots listing it. The engine hands it out unretained, with the
/// registration's frame pushed on the calling thread's resolution path: while a frame is
/// on it, the thread's state keeps every snapshot it has read (`ThreadState.snapshot`), so
/// the factory outlives the call; the caller pops the frame only after the factory returns.
@usableFromInline
final class ValueFactory<T>: @unchecked Sendable {
    @usableFromInline
    let make: () throws -> T
    /// Whether a value may be of another type than `T`, to be told it was made when its type
    /// is `PostInstantiationAware` (`ValueWriter.notifyIfAware`): an existential's.
    @usableFromInline
    let notifies: Bool

    @inlinable
    init(_ make: @escaping () throws -> T) {
        self.make = make
        notifies = false
    }

    /// A factory whose values, of another type than `T`, are told they were made when
    /// their type is `PostInstantiationAware`.
    @inlinable
    init(notifying make: @escaping () throws -> T) {
        self.make = make
        notifies = true
    }

    /// A new value, told it was made when it asks to be (see `notifies`).
    @inlinable @inline(__always)
    func value() throws -> T {
        var value = try make()
        if notifies { ValueWriter.notifyIfAware(&value) }
        return value
    }
}
