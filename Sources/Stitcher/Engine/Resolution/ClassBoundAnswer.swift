/// The direct path's answer to a request for a class-bound protocol (`any P` where
/// `P: AnyObject`; see `GraphEngine.directAnswer(ofClassBound:_:)`): an object, retained,
/// and, when it is a class's instance presented as the protocol, the template that does it.
///
/// Two words, returned in registers: the caller writes the existential from the template
/// (`ExistentialTemplates.present(_:from:into:size:)`), taking over the reference, or turns
/// the object into the protocol as any direct answer (`DependencyGraph.directValue(_:as:)`).
/// Templates are never freed (see `ExistentialTemplates`), so the caller may read one after
/// the engine returns.
@usableFromInline
struct ClassBoundAnswer {
    /// The object's address, retained once for the caller; or a new value's typed factory
    /// (`init(typedFactory:)`).
    @usableFromInline let reference: UnsafeMutableRawPointer
    /// The verified template presenting the object's class as the protocol asked for;
    /// `typedFactory` for a typed factory; nil when `reference` is a view or another answer.
    @usableFromInline let template: UnsafeRawPointer?

    /// The `template` that says `reference` is a new value's typed factory (a
    /// `ValueFactory` of the protocol, whose build the engine started: see
    /// `DependencyGraph.makeValue(with:)`), not an object: an address no template has.
    @inlinable @inline(__always)
    static var typedFactory: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 1)! }

    /// The answer for a new value's typed factory (`typedFactory`), unretained.
    @inline(__always)
    init(typedFactory factory: Unmanaged<AnyObject>) {
        reference = factory.toOpaque()
        template = Self.typedFactory
    }

    @inline(__always)
    init(retaining object: AnyObject, template: UnsafeRawPointer?) {
        reference = Unmanaged.passRetained(object).toOpaque()
        self.template = template
    }
}
