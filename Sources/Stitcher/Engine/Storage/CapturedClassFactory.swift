#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A class's factory without parameters, kept by its registration as it is, without a
/// closure made around it: the record calls the factory where it would have called that
/// closure.
///
/// A provider keeps what makes instances in a closure of one type, `Make`. Made around a
/// factory that captures values (`Dependency { Client(baseURL: url) }`), that closure needs
/// a context of its own: 48 bytes on the heap for every such registration; and a record
/// that keeps a `Make` needs its factory's identity besides (`RegistrationRecord.origin`).
/// A class's factory without parameters (most registrations) is instead carried in that
/// closure's place, its two words unchanged (`disguise(_:)`), and the record keeps it as what
/// it is, a `ClassFactory<AnyObject>` (`factory(disguisedAs:)`), in a `let` it calls borrowed
/// (no reference counted on the factory's context, which every thread building the
/// registration shares), and which is its identity too. Other factories' `Make`s and
/// identities are kept in the record's extras.
///
/// **Why the call is right for every class `T`.** The factory is made as a `ClassFactory<T>`,
/// whose closure the language stores at its most general abstraction (the result written
/// through a pointer), the same for every `T`; called as a `ClassFactory<AnyObject>`, the
/// convention is the same, and the result is written as one reference, which is what any
/// class instance is and what `AnyObject` holds. Under every type it passes through the two
/// words are a Swift closure's code and context, and copying any of them counts a reference
/// to the same context. The casts are between structs: a cast to a function type would give
/// the closure at the most general abstraction and then wrap it in a closure converting to
/// `Make`'s (an allocation, the one this saves). Trusted only after `isReliable` checked it
/// once, on this runtime, with a factory made in generic code and one made where `T` is
/// known; otherwise providers wrap the factory in a closure, as they do for other factories.
///
/// **Lifetime.** Nothing new is shared: the factory's context is owned by the provider's
/// `make`, then by the record's `classFactory`, as the closure around it was, and released
/// with the record.
@usableFromInline
enum CapturedClassFactory {
    /// How a provider and a record keep the code that makes an instance.
    @usableFromInline
    typealias Make = (InjectionArguments) throws -> AnyObject

    /// Whether a class factory carried as a `Make` can be called as a `ClassFactory<AnyObject>`
    /// on this runtime, checked once. Tests force the fallback with
    /// `STITCHER_FORCE_CLOSURES_AROUND_FACTORIES=1`.
    @usableFromInline
    static let isReliable: Bool = {
        if getenv("STITCHER_FORCE_CLOSURES_AROUND_FACTORIES").map({ String(cString: $0) == "1" }) ?? false { return false }
        return probe(Probe.self) && probeSpecialized()
    }()

    /// `factory`, of a class `T`, carried as a `Make` that only `factory(disguisedAs:)` may
    /// read (never called as a `Make`).
    @usableFromInline
    static func disguise<T>(_ factory: ClassFactory<T>) -> Make {
        unsafeBitCast(factory, to: MakeHolder.self).make
    }

    /// The class factory `disguise(_:)` carried as `make`.
    static func factory(disguisedAs make: @escaping Make) -> ClassFactory<AnyObject> {
        unsafeBitCast(MakeHolder(make: make), to: ClassFactory<AnyObject>.self)
    }

    /// A record's `Make` when it calls its class factory instead: never called.
    static func neverCalled(_: InjectionArguments) throws -> AnyObject {
        preconditionFailure("a record that calls its class factory has no other closure")
    }

    /// The class factory of a record that does not keep one: a function, never called.
    static var notKept: ClassFactory<AnyObject> { ClassFactory(call: neverCalledFactory) }

    @Sendable private static func neverCalledFactory() throws -> AnyObject {
        preconditionFailure("a record that does not keep a class factory calls its extras' closure")
    }

    /// The two words of `factory` (its code and context), read without counting a reference.
    @inline(__always)
    static func words(of factory: ClassFactory<AnyObject>) -> ClosureIdentity {
        let (code, context) = unsafeBitCast(factory, to: (UInt, UInt).self)
        return ClosureIdentity(code: code, context: context)
    }

    /// A `Make` as a struct's field, laid out as `Make` is: what the casts go through.
    private struct MakeHolder {
        let make: Make
    }

    private final class Probe: Sendable {}

    /// Whether a factory of `T` made in generic code (never specialized), carried as a
    /// `Make`, is called as itself.
    @inline(never) @_semantics("optimize.sil.specialize.generic.never")
    private static func probe<T: AnyObject & Sendable>(_ type: T.Type) -> Bool {
        guard MemoryLayout<ClassFactory<T>>.size == MemoryLayout<Make>.size,
            MemoryLayout<ClassFactory<AnyObject>>.size == 2 * MemoryLayout<UInt>.size,
            MemoryLayout<Make>.size == 2 * MemoryLayout<UInt>.size,
            let expected = Probe() as? T
        else { return false }
        return (try? factory(disguisedAs: disguise(ClassFactory<T> { expected })).call()) === expected
    }

    /// The same check with the factory made where `T` is known.
    @inline(never)
    private static func probeSpecialized() -> Bool {
        let expected = Probe()
        return (try? factory(disguisedAs: disguise(ClassFactory<Probe> { expected })).call()) === expected
    }
}

/// Whether this process keeps class factories as they are (`CapturedClassFactory`), for the
/// stress stage's log.
package var keepsCapturingClassFactories: Bool { CapturedClassFactory.isReliable }

/// A factory without parameters, held at the abstraction a generic `T` gives it (see
/// `CapturedClassFactory`).
@usableFromInline
struct ClassFactory<T> {
    @usableFromInline let call: @Sendable () throws -> T
    @inlinable init(call: @escaping @Sendable () throws -> T) { self.call = call }
}
