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
    /// The object's address, retained once for the caller; or a new value's answer
    /// (`init(value:)`).
    @usableFromInline let reference: UnsafeMutableRawPointer
    /// The verified template presenting the object's class as the protocol asked for; nil
    /// when `reference` is a view or another answer.
    @usableFromInline let template: UnsafeRawPointer?

    /// The answer for a new value (`GraphEngine.directAnswer(ofClassBound:_:into:)`): the
    /// caller's memory, where it was written, or a typed factory tagged with
    /// `DependencyGraph.valueFactoryTag`, as `_directAnswer(ofType:_:into:)` answers.
    @inline(__always)
    init(value: UnsafeMutableRawPointer) {
        reference = value
        template = nil
    }

    @inline(__always)
    init(retaining object: AnyObject, template: UnsafeRawPointer?) {
        reference = Unmanaged.passRetained(object).toOpaque()
        self.template = template
    }
}
