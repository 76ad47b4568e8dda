/// A lookup the direct path can answer, precomputed when the index is built.
///
/// A lookup qualifies when exactly one registration answers it and its stored form is the
/// answer, with no cast: the registration produces the requested type (an object, or a
/// value in a `TypedBox` of the type), or a subclass of the requested class. A singleton or
/// managed registration also answers the first protocol it is injected as through a view,
/// a `TypedBox` of the existential made once per instance. (The caller turns the answer into
/// its type by the same rule: `DependencyGraph.directValue(_:as:)`.) For a registration
/// without parameters, the kind also tells where its instance is kept, so that a cached one
/// is returned without reading the record. The entry is held
/// unretained: it lives as long as the snapshot that holds this lookup, which the calling
/// thread keeps alive (see `ThreadState.snapshot`).
struct DirectLookup: @unchecked Sendable {
    enum Kind: UInt8 {
        /// Not a direct lookup: take the general path.
        case none
        /// A singleton or managed instance, published once built.
        case published
        /// A weakly held instance.
        case shared
        /// A new instance on every lookup.
        case transient
        /// An instance kept by the innermost open dependency scope.
        case scoped
        /// A registration taking parameters, in any scope: the injection's arguments must
        /// match its signature.
        case parameterized
        /// A singleton or managed instance requested as the protocol it is presented as
        /// (see `IndexEntry.publishedView`).
        case publishedView
        /// A new instance on every lookup, requested as a protocol: presented as one
        /// through a view made for it.
        case transientView

        /// Whether the answer, once built, stays the same while the entry is in the current
        /// index (a published instance, or its view), so that an array of such answers can
        /// be kept (`ElementArrays`).
        var isPublished: Bool { self == .published || self == .publishedView }
    }

    /// Whether the kind is `.transient` or `.transientView` (one test: their raw values are
    /// the only ones whose two low bits are set).
    var isTransient: Bool { bits & 0b11 == 0b11 }

    /// The entry's address with the kind in its low three bits and `overloadsFlag` in the
    /// fourth (entries are 16-byte aligned): one word, so that tables of lookups stay small.
    let bits: UInt

    static let none = DirectLookup(bits: 0)

    init(bits: UInt) {
        assert(Kind(rawValue: UInt8(truncatingIfNeeded: bits & Self.kindMask)) != nil, "a valid kind")
        self.bits = bits
    }

    /// The lookup of `entry` of kind `kind`.
    init(_ entry: IndexEntry, _ kind: Kind) {
        bits = Self.address(of: entry) | UInt(kind.rawValue)
    }

    /// The direct lookup of `list` for a request of the type with identity `requestedType`.
    ///
    /// Among registrations that differ by their parameters, the one taking none is the
    /// direct answer to injections without parameters (its kind is never `.parameterized`,
    /// so that injections with parameters take the general path, which chooses by them).
    init(_ list: EntryList, requestedType: ObjectIdentifier) {
        guard let entry = list.answeringWithoutParameters(as: requestedType), case let kind = Self.kind(of: entry, as: requestedType),
            kind != .none
        else {
            self = .none
            return
        }
        bits = Self.address(of: entry) | UInt(kind.rawValue)
    }

    /// How the direct path answers a request of the type with identity `requestedType`
    /// when `entry` is the only registration found.
    static func kind(of entry: IndexEntry, as requestedType: ObjectIdentifier) -> Kind {
        let record = entry.record
        return record.producedType.id == requestedType ? producedKind(of: record) : aliasKind(of: record, as: requestedType)
    }

    /// The kind of a request for the type `record` produces, as its lifetime's rules say.
    private static func producedKind(of record: RegistrationRecord) -> Kind {
        record.takesParameters ? .parameterized : record.lifetime.rules.directKind(of: record)
    }

    /// The kind of a request for one of `record`'s aliases: a superclass answers as the
    /// produced type does; a protocol through a view, as the lifetime's rules say.
    private static func aliasKind(of record: RegistrationRecord, as requestedType: ObjectIdentifier) -> Kind {
        guard case .type(let types) = record.locator.kind, let alias = types.alias(requestedType) else { return .none }
        if alias.view == nil {
            guard record.storesObjects, let produced = record.producedType.type as? AnyClass,
                let requested = alias.type.type as? AnyClass, isSubclass(produced, of: requested)
            else { return .none }
            return producedKind(of: record)
        }
        guard !record.takesParameters else { return .none }
        return record.lifetime.rules.viewKind(isViewedAlias: types.viewedAlias?.type.id == requestedType)
    }

    private static func isSubclass(_ type: AnyClass, of ancestor: AnyClass) -> Bool {
        var current: AnyClass? = type
        while let candidate = current {
            if candidate == ancestor { return true }
            current = _getSuperclass(candidate)
        }
        return false
    }

    /// The address of an entry, whose low four bits are zero.
    static func address(of entry: IndexEntry) -> UInt {
        UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque())
    }

    static let kindMask: UInt = 0b111

    /// Set in a type's lookup when each of its registrations taking parameters has its own
    /// signature and is itself a `.parameterized` lookup of the type: an injection with
    /// parameters then finds the one taking them in the snapshot's `OverloadTable`,
    /// whatever the lookup's own kind.
    static let overloadsFlag: UInt = 0b1000

    /// Whether `overloadsFlag` is set.
    @inline(__always)
    var hasOverloads: Bool { bits & Self.overloadsFlag != 0 }

    /// This lookup with `overloadsFlag` set.
    var withOverloads: DirectLookup { DirectLookup(bits: bits | Self.overloadsFlag) }

    /// Read without a range check: `bits` is only ever made from a `Kind`'s raw value.
    @inline(__always)
    var kind: Kind { unsafeBitCast(UInt8(truncatingIfNeeded: bits & Self.kindMask), to: Kind.self) }

    /// The entry, unretained; nil for `.none`.
    @inline(__always)
    var entry: Unmanaged<IndexEntry>? {
        UnsafeRawPointer(bitPattern: bits & ~0b1111).map { Unmanaged.fromOpaque($0) }
    }
}
