public import _StitcherShims

// The direct path's answers, as the injecting code calls them: an object, a value written in
// place or made by the caller's own code, a class-bound existential's reference and template.
// Not API: `@usableFromInline` for the inlined injections (`DependencyGraph+InjectionPaths.swift`).
extension DependencyGraph {
    /// `inject(byType:arguments:)` without parameters for a type that may be a value's (see
    /// `ValueLayout.mayHoldValues`): the direct path's answer written into the caller's
    /// memory when it can be (a transient value of exactly `D`, or presented as the protocol
    /// `D`), turned into a `D` otherwise (`directValue(_:as:)`); the general path when there
    /// is no direct answer. Not forced inline, so that `inject(byType:arguments:)` stays the
    /// size it has for a class, which its callers inline.
    @inlinable
    static func injectValue<D>(byType _: D.Type) throws -> D {
        // Every answer is returned from inside: an optional `D` carried out cost a copy of
        // the existential through its value witnesses.
        try withUnsafeTemporaryAllocation(of: D.self, capacity: 1) { buffer -> D in
            let value = buffer.baseAddress!
            guard let answer = try _directAnswer(ofType: ObjectIdentifier(D.self), .none, into: UnsafeMutableRawPointer(value))
            else { return try resolve(byType: D.self, arguments: .none) }
            if answer == UnsafeMutableRawPointer(value) { return value.move() }
            if Int(bitPattern: answer) & valueFactoryTag != 0 {
                return try makeValue(with: Unmanaged<ValueFactory<D>>.fromOpaque(answer - valueFactoryTag))
            }
            return directValue(Unmanaged<AnyObject>.fromOpaque(answer).takeRetainedValue(), as: D.self)
        }
    }

    /// `inject(byType:arguments:)` without parameters for a class-bound protocol `D`: a
    /// class's instance (a singleton's or a new one) is written into the existential from
    /// the template the engine found for its class, taking over the reference the engine
    /// counted, with no view between them; a new value of a registration of `D` itself
    /// (`Impl() as any P`) is made by its typed factory (`makeValue(with:)`), as
    /// `injectValue(byType:)` makes a value; any other answer is turned into a `D` as a
    /// class's is (`directValue(_:as:)`); the general path when there is no direct answer.
    @inlinable
    static func injectClassBound<D>(byType _: D.Type) throws -> D {
        guard let answer = try _directAnswer(ofClassBound: ObjectIdentifier(D.self)) else {
            return try resolve(byType: D.self, arguments: .none)
        }
        guard let template = answer.template else {
            return directValue(Unmanaged<AnyObject>.fromOpaque(answer.reference).takeRetainedValue(), as: D.self)
        }
        if template == ClassBoundAnswer.typedFactory {
            return try makeValue(with: Unmanaged<ValueFactory<D>>.fromOpaque(answer.reference))
        }
        return withUnsafeTemporaryAllocation(of: D.self, capacity: 1) { buffer in
            let existential = buffer.baseAddress!
            ExistentialTemplates.present(
                answer.reference, from: template, into: UnsafeMutableRawPointer(existential), size: MemoryLayout<D>.size)
            return existential.move()
        }
    }

    /// What `_directAnswer(ofType:_:into:)` adds to the address of a typed factory it answers
    /// with (an object's address, whose low bit is clear), to tell it from an object.
    @inlinable @inline(__always)
    static var valueFactoryTag: Int { 1 }

    /// Runs the typed factory `_directAnswer(ofType:_:into:)` (or
    /// `_directAnswer(ofClassBound:)`) answered with, whose build it started, and ends the
    /// build: a new value of `D`, made by the caller's own code. The factory is
    /// `ValueFactory<D>`: the engine answers with one only for a registration that produces
    /// exactly the type asked for (an existential's asks each value whether it is
    /// `PostInstantiationAware`). It comes unretained: the build's frame
    /// keeps it alive until the frame is popped, after it returns (see `ValueFactory`). Not
    /// inlined: inlined, it made `injectValue(byType:)` too large to be inlined for an
    /// existential `D`.
    ///
    /// The frame is popped here, in C (`stitcher_pop_frame`, as `ThreadState.popFrame()`
    /// pops every frame), with no call: only an outermost resolution that kept something
    /// calls into the engine to forget it. (A call to pop it cost the struct by its own
    /// type about 40 instructions of its 260.)
    @inlinable @inline(never)
    static func makeValue<D>(with factory: Unmanaged<ValueFactory<D>>) throws -> D {
        try runValueFactory(factory)
    }

    /// `makeValue(with:)`'s body. Apart, and forced inline: written in the outlined
    /// function itself, the factory's call was left in a closure of its own (a struct by its
    /// own type ran 13 instructions more).
    @inlinable @inline(__always)
    static func runValueFactory<D>(_ factory: Unmanaged<ValueFactory<D>>) throws -> D {
        let value: D
        do {
            value = try factory._withUnsafeGuaranteedRef { try $0.value() }
        } catch {
            throw endValueBuild(failing: error)
        }
        if stitcher_pop_frame() != 0 { forgetEndedResolution() }
        return value
    }

    /// Forgets what the outermost resolution whose last frame `makeValue(with:)` popped kept.
    @usableFromInline @inline(never)
    static func forgetEndedResolution() {
        ThreadState.forgetEndedResolution()
    }

    /// Ends the build of a value whose typed factory threw, and returns the error to throw
    /// (see `makeValue(with:)`).
    @usableFromInline
    static func endValueBuild(failing error: any Error) -> any Error {
        ThreadState.unretainedCurrent.unsafelyUnwrapped._withUnsafeGuaranteedRef {
            GraphEngine.endValueBuild(failing: error, $0)
        }
    }

    /// `_directObject(ofType:_:)` without parameters for a caller that must not resolve in
    /// an isolated graph or a dependency scope (a `Provider` injected from the process-wide
    /// graph outside scopes): nil when the calling code has either bound.
    @usableFromInline
    static func directObjectOutsideScopes(ofType id: ObjectIdentifier) throws -> AnyObject? {
        guard let state = ThreadState.unretainedCurrent else { return nil }
        return try state._withUnsafeGuaranteedRef { state in
            guard isolatedGraphCount == 0, GraphContext.unretainedScope(on: state) == nil else { return nil }
            return try state.sharedGraph._withUnsafeGuaranteedRef { try $0.directObject(ofType: id, .none, state) }
        }
    }

    /// Passes `body` the instances of a direct request for an array of the type `id` (see
    /// `GraphEngine.directObjects(ofElement:_:reserve:_:keeping:)`), and keeps the array
    /// `answered` returns when its elements are all singletons; false for the general path.
    @usableFromInline
    static func directObjects(
        ofElement id: ObjectIdentifier, reserve: (Int) -> Void, _ body: (AnyObject) -> Void, keeping answered: () -> AnyObject
    ) throws -> Bool {
        // Not through `withDirectContext`, which is kept for the single lookups it is inlined into.
        guard let state = ThreadState.unretainedCurrent else { return false }
        return try state._withUnsafeGuaranteedRef { state in
            try GraphContext.current.directObjects(ofElement: id, state, reserve: reserve, body, keeping: answered)
        }
    }

    /// The array of singletons kept for a request of elements of the type `id`, retained
    /// (an `ElementArrayBox`), or nil (see `ElementArrays`).
    @usableFromInline
    static func keptElements(ofElement id: ObjectIdentifier) -> AnyObject? {
        GraphEngine.withDirectContext { graph, state in graph.keptElements(ofElement: id, state) }
    }
}

// The entry points the inlined injections call, free functions rather than static methods
// of `DependencyGraph`: a static method's unused metatype made the optimizer compile each
// as a call to a copy without it, one more call on every direct injection.

/// The instance for a direct lookup of the type `id` in the current graph (see
/// `DirectLookup`), or nil when the lookup must take the general path.
@usableFromInline
func _directObject(ofType id: ObjectIdentifier, _ arguments: InjectionArguments) throws -> AnyObject? {
    try GraphEngine.withDirectContext { try $0.directObject(ofType: id, arguments, $1) }
}

/// `_directObject(ofType:_:)` for an injection with parameters, which may choose among
/// registrations of the type that differ by their parameters (see
/// `GraphEngine.directObject(ofType:parameters:_:)`).
@usableFromInline
func _directObject(ofType id: ObjectIdentifier, parameters arguments: InjectionArguments) throws -> AnyObject? {
    try GraphEngine.withDirectContext { try $0.directObject(ofType: id, parameters: arguments, $1) }
}

/// `_directObject(ofType:_:)` for a type that is not a class: for a transient value of
/// exactly that type, its typed factory with its build started, tagged with
/// `valueFactoryTag` (for `makeValue(with:)`), or the value written into `destination`
/// (uninitialized memory for one) and `destination` returned, instead of being boxed;
/// otherwise the answer is the direct path's object, retained (see
/// `GraphEngine.directAnswer(ofType:_:_:into:)`), or nil for the general path.
@usableFromInline
func _directAnswer(
    ofType id: ObjectIdentifier, _ arguments: InjectionArguments, into destination: UnsafeMutableRawPointer
) throws -> UnsafeMutableRawPointer? {
    try GraphEngine.withDirectContext { try $0.directAnswer(ofType: id, arguments, $1, into: destination) }
}

/// `_directObject(ofType:_:)` for a class-bound protocol: the answer with, when the
/// instance's class has one, the template presenting it as the protocol, or a new value's
/// typed factory (see `GraphEngine.directAnswer(ofClassBound:_:)`).
@usableFromInline
func _directAnswer(ofClassBound id: ObjectIdentifier) throws -> ClassBoundAnswer? {
    try GraphEngine.withDirectContext { try $0.directAnswer(ofClassBound: id, $1) }
}

/// `_directObject(ofType:_:)` for a registration located by name, requested as the type `id`.
@usableFromInline
func _directObject(named name: String, as id: ObjectIdentifier, _ arguments: InjectionArguments) throws -> AnyObject? {
    try GraphEngine.withDirectContext { try $0.directObject(named: name, as: id, arguments, $1) }
}
