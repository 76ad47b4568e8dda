/// The factory of a value type `T` registered without parameters, typed: what an injection
/// of exactly `T` calls itself, in its own module, once the engine has found the
/// registration and pushed its frame (see `DependencyGraph.injectValue(byType:)`), so that
/// the value is returned as the caller's code returns any `T`, with no writer closure and no
/// buffer between the factory and the caller.
///
/// Made only for a `T` whose values are all of exactly `T` (a struct, an enum, a tuple):
/// there the engine's check that the registration produces the type asked for proves the
/// caller's `ValueFactory<D>` is this class, and a value needs no `PostInstantiationAware`
/// check of another dynamic type.
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

    @inlinable
    init(_ make: @escaping () throws -> T) {
        self.make = make
    }
}
