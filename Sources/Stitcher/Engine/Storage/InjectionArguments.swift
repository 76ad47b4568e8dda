/// The parameters passed at an injection site, borrowed for the length of the injection.
///
/// Two words and no reference count: the class `ArgumentPack<repeat each P>`, unique per
/// list of parameter types, and the address of a `(repeat each P)` tuple. Comparing class
/// identities (`signature`) matches the parameters a registration takes and lets its
/// factory read the values without a dynamic cast; the class's methods hash and copy them.
///
/// The values usually live on the injecting caller's stack, so an injection with
/// parameters allocates nothing. Anything that must keep them beyond the injection (a
/// stored instance per parameter values, an inherited resolution path, an error) copies
/// them out through `key`; an injection that runs later (`@Injected`, `injectAsync`) keeps
/// them in an `ArgumentPack` (see `StoredArguments`).
@usableFromInline
struct InjectionArguments: @unchecked Sendable {
    /// The pack class of the parameter types; nil without parameters.
    @usableFromInline let packType: AnyArgumentPack.Type?
    /// The address of the `(repeat each P)` tuple; nil without parameters.
    @usableFromInline let values: UnsafeRawPointer?

    /// The signature of an injection without parameters.
    @usableFromInline static let noParameters = ObjectIdentifier(AnyArgumentPack.self)

    /// No parameters.
    @inlinable
    static var none: InjectionArguments { InjectionArguments(packType: nil, values: nil) }

    @inlinable
    init(packType: AnyArgumentPack.Type?, values: UnsafeRawPointer?) {
        self.packType = packType
        self.values = values
    }

    /// Runs `body` with `parameters` borrowed from the stack (no allocation).
    @inlinable
    static func with<each P, R>(
        _ parameters: repeat each P, body: (InjectionArguments) throws -> R
    ) rethrows -> R {
        if isEmptyList(repeat (each P).self) { return try body(.none) }
        return try withUnsafePointer(to: (repeat each parameters)) { pointer in
            try body(InjectionArguments(packType: ArgumentPack<repeat each P>.self, values: UnsafeRawPointer(pointer)))
        }
    }

    /// Whether there are none: a constant where the injection is compiled.
    @inlinable @inline(__always)
    var isEmpty: Bool { packType == nil }

    /// Whether the list of parameter types is empty: an injection without parameters is
    /// passed as `none`, with no pack class, wherever it comes from.
    @inlinable
    static func isEmptyList<each P>(_ types: repeat (each P).Type) -> Bool {
        for _ in repeat (each P).self { return false }
        return true
    }

    /// Equal to the `signature` of the providers that accept these parameters.
    @inline(__always)
    var signature: ObjectIdentifier {
        guard let packType else { return Self.noParameters }
        return ObjectIdentifier(packType)
    }

    /// The values, typed; the caller has checked `signature`.
    @inlinable @inline(__always)
    func load<each P>(as type: (repeat each P).Type) -> (repeat each P) {
        values.unsafelyUnwrapped.assumingMemoryBound(to: (repeat each P).self).pointee
    }

    /// The static types of the parameters, in order.
    var types: [TypeKey] { packType?.types ?? [] }

    var typeNames: [String] { types.map(\.description) }

    /// A copy of the values, to keep one stored instance per distinct list of parameters.
    /// The key of stored instances for these arguments; nil when one of them is not
    /// `Hashable`.
    var key: ArgumentKey? {
        guard let packType, let values else { return .empty }
        return packType.key(of: values)
    }

    /// A hash of the values, computed without allocating; 0 without parameters.
    var hash: Int {
        guard let packType, let values else { return 0 }
        return packType.hash(of: values)
    }
}

/// Parameter values kept beyond one injection call: by `@Injected` until its first read,
/// and across the suspensions of `injectAsync`.
struct StoredArguments: @unchecked Sendable {
    private let pack: AnyArgumentPack?

    static let none = StoredArguments(pack: nil)

    private init(pack: AnyArgumentPack?) { self.pack = pack }

    init<each P>(_ parameters: repeat each P) {
        pack = InjectionArguments.isEmptyList(repeat (each P).self) ? nil : ArgumentPack(repeat each parameters)
    }

    /// A copy of borrowed `arguments`, kept after the injection that passed them returns
    /// (by a `Lazy` or `Provider` it injected).
    init(copying arguments: InjectionArguments) {
        guard let packType = arguments.packType, let values = arguments.values else {
            pack = nil
            return
        }
        pack = packType.copy(of: values)
    }

    /// Whether parameters are kept.
    var isEmpty: Bool { pack == nil }

    /// Runs `body` with the values borrowed from this storage.
    func withArguments<R>(_ body: (InjectionArguments) throws -> R) rethrows -> R {
        guard let pack else { return try body(.none) }
        return try withExtendedLifetime(pack) { try body(pack.arguments) }
    }

    /// `withArguments(_:)` for an asynchronous body.
    func withArguments<R>(_ body: (InjectionArguments) async throws -> R) async rethrows -> R {
        guard let pack else { return try await body(.none) }
        defer { withExtendedLifetime(pack) {} }
        return try await body(pack.arguments)
    }
}

/// The parameter types of an injection (see `ArgumentPack`), and the owner of values kept
/// on the heap.
@usableFromInline
class AnyArgumentPack: @unchecked Sendable {
    init() {}
    var arguments: InjectionArguments { .none }
    class var types: [TypeKey] { [] }
    class func key(of values: UnsafeRawPointer) -> ArgumentKey? { .empty }
    /// A pack holding a copy of the values at `values`.
    class func copy(of values: UnsafeRawPointer) -> AnyArgumentPack { AnyArgumentPack() }
    /// A hash of the values at `values`, for telling resolution steps apart: their key's;
    /// values that cannot be compared (not `Hashable`) are told apart by where this
    /// injection keeps them, never taken for the same parameters as another injection's.
    /// Outlined: with no override left, the optimizer would inline it (a key and a hasher)
    /// into every instantiation, whose frame then grows for the rare nested one with
    /// parameters.
    @inline(never)
    class func hash(of values: UnsafeRawPointer) -> Int {
        key(of: values)?.hashValue ?? Int(bitPattern: values)
    }
}

/// Parameters of the types `repeat each P`: the class names the list of types, and an
/// instance holds values of them.
@usableFromInline
final class ArgumentPack<each P>: AnyArgumentPack, @unchecked Sendable {
    private let storage: UnsafeMutablePointer<(repeat each P)>

    init(_ values: repeat each P) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: (repeat each values))
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    override var arguments: InjectionArguments {
        InjectionArguments(packType: ArgumentPack<repeat each P>.self, values: UnsafeRawPointer(storage))
    }

    override class func copy(of values: UnsafeRawPointer) -> AnyArgumentPack {
        let values = values.assumingMemoryBound(to: (repeat each P).self).pointee
        return ArgumentPack(repeat each values)
    }

    override class var types: [TypeKey] {
        var types: [TypeKey] = []
        repeat types.append(TypeKey((each P).self))
        return types
    }

    override class func key(of values: UnsafeRawPointer) -> ArgumentKey? {
        let values = values.assumingMemoryBound(to: (repeat each P).self).pointee
        var keys: [AnyHashable] = []
        var hashable = true
        repeat Self.append(each values, to: &keys, hashable: &hashable)
        return hashable ? ArgumentKey(values: keys) : nil
    }

    /// Appends `value` as a key, or clears `hashable` when its type is not `Hashable`
    /// (found at run time: parameters need not be `Hashable`, unless instances are stored
    /// by their values).
    private static func append<V>(_ value: V, to keys: inout [AnyHashable], hashable: inout Bool) {
        if let key = value as? AnyHashable { keys.append(key) } else { hashable = false }
    }
}

/// The parameter values of an injection, used to keep one stored instance per distinct
/// set of parameters.
///
/// The hash is taken once, when the key is made, and keys with different hashes are never
/// equal: a reference-type parameter mutated after it keyed a stored instance (which breaks
/// `Hashable`'s contract) then keys nothing new, instead of corrupting the dictionary that
/// stores instances and crashing a later, unrelated injection. Injecting with the mutated
/// value finds no stored instance and builds one.
struct ArgumentKey: Hashable, @unchecked Sendable {
    let values: [AnyHashable]
    private let hash: Int

    init(values: [AnyHashable]) {
        self.values = values
        hash = values.hashValue
    }

    static let empty = ArgumentKey(values: [])

    /// A key equal to no other: for parameters that cannot be compared (not `Hashable`),
    /// on a path where only a cycle check reads it.
    static func distinct() -> ArgumentKey { ArgumentKey(values: [AnyHashable(Distinct())]) }

    /// Equal only to itself; kept in the key, so that its address is not reused meanwhile.
    private final class Distinct: Hashable, @unchecked Sendable {
        static func == (lhs: Distinct, rhs: Distinct) -> Bool { lhs === rhs }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    static func == (lhs: ArgumentKey, rhs: ArgumentKey) -> Bool {
        lhs.hash == rhs.hash && lhs.values == rhs.values
    }
}
