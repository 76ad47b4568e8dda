extension DependencyGraph {
    /// Injects the dependency registered for `type`.
    ///
    /// Besides registered types, `Optional` gives nil when nothing is registered, and `Array`
    /// or `Set` give every match (empty when none).
    ///
    /// ```swift
    /// let service: Service = try DependencyGraph.inject()
    /// let trackers = try DependencyGraph.inject(byType: [EventTracking].self)
    /// ```
    ///
    /// As in Stitcher 1.x, the result type chooses the overload: give the result a
    /// non-optional type (`let service: Service = …`), because without one
    /// `try DependencyGraph.inject(byType: Service.self)` is the optional form, which returns
    /// nil when nothing is registered.
    @inlinable
    @_disfavoredOverload
    public static func inject<D>(byType type: D.Type = D.self) throws -> D {
        try inject(byType: D.self, arguments: .none)
    }

    /// Injects the dependency registered under `name`.
    @inlinable
    public static func inject<D>(byName name: String) throws -> D {
        try inject(byName: name, arguments: .none)
    }

    /// The instance for a direct lookup of the type `id` in the current graph (see
    /// `DirectLookup`), or nil when the lookup must take the general path.
    @usableFromInline
    static func directObject(ofType id: ObjectIdentifier, _ arguments: InjectionArguments) throws -> AnyObject? {
        try GraphEngine.withDirectContext { try $0.directObject(ofType: id, arguments, $1) }
    }

    /// `directObject(ofType:_:)` for an injection with parameters, which may choose among
    /// registrations of the type that differ by their parameters (see
    /// `GraphEngine.directObject(ofType:parameters:_:)`).
    @usableFromInline
    static func directObject(ofType id: ObjectIdentifier, parameters arguments: InjectionArguments) throws -> AnyObject? {
        try GraphEngine.withDirectContext { try $0.directObject(ofType: id, parameters: arguments, $1) }
    }

    /// `directObject(ofType:_:)` for a type that is not a class: for a transient value of
    /// exactly that type, its typed factory with its build started, tagged with
    /// `valueFactoryTag` (for `makeValue(with:)`), or the value written into `destination`
    /// (uninitialized memory for one) and `destination` returned, instead of being boxed;
    /// otherwise the answer is the direct path's object, retained (see
    /// `GraphEngine.directAnswer(ofType:_:_:into:)`), or nil for the general path.
    @usableFromInline
    static func directAnswer(
        ofType id: ObjectIdentifier, _ arguments: InjectionArguments, into destination: UnsafeMutableRawPointer
    ) throws -> UnsafeMutableRawPointer? {
        try GraphEngine.withDirectContext { try $0.directAnswer(ofType: id, arguments, $1, into: destination) }
    }

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
            guard let answer = try directAnswer(ofType: ObjectIdentifier(D.self), .none, into: UnsafeMutableRawPointer(value))
            else { return try resolve(byType: D.self, arguments: .none) }
            if answer == UnsafeMutableRawPointer(value) { return value.move() }
            if Int(bitPattern: answer) & valueFactoryTag != 0 {
                return try makeValue(with: Unmanaged<ValueFactory<D>>.fromOpaque(answer - valueFactoryTag))
            }
            return directValue(Unmanaged<AnyObject>.fromOpaque(answer).takeRetainedValue(), as: D.self)
        }
    }

    /// `directObject(ofType:_:)` for a class-bound protocol: the answer with, when the
    /// instance's class has one, the template presenting it as the protocol (see
    /// `GraphEngine.directAnswer(ofClassBound:_:)`).
    @usableFromInline
    static func directAnswer(ofClassBound id: ObjectIdentifier) throws -> ClassBoundAnswer? {
        try GraphEngine.withDirectContext { try $0.directAnswer(ofClassBound: id, $1) }
    }

    /// `inject(byType:arguments:)` without parameters for a class-bound protocol `D`: a
    /// class's instance (a singleton's or a new one) is written into the existential from
    /// the template the engine found for its class, taking over the reference the engine
    /// counted, with no view between them; any other answer is turned into a `D` as a
    /// class's is (`directValue(_:as:)`); the general path when there is no direct answer.
    @inlinable
    static func injectClassBound<D>(byType _: D.Type) throws -> D {
        guard let answer = try directAnswer(ofClassBound: ObjectIdentifier(D.self)) else {
            return try resolve(byType: D.self, arguments: .none)
        }
        guard let template = answer.template else {
            return directValue(Unmanaged<AnyObject>.fromOpaque(answer.reference).takeRetainedValue(), as: D.self)
        }
        return withUnsafeTemporaryAllocation(of: D.self, capacity: 1) { buffer in
            let existential = buffer.baseAddress!
            ExistentialTemplates.present(
                answer.reference, from: template, into: UnsafeMutableRawPointer(existential), size: MemoryLayout<D>.size)
            return existential.move()
        }
    }

    /// What `directAnswer(ofType:_:into:)` adds to the address of a typed factory it answers
    /// with (an object's address, whose low bit is clear), to tell it from an object.
    @inlinable @inline(__always)
    static var valueFactoryTag: Int { 1 }

    /// Runs the typed factory `directAnswer(ofType:_:into:)` answered with, whose build it
    /// started, and ends the build: a new value of exactly `D`, made by the caller's own
    /// code. The factory is `ValueFactory<D>`: the engine answers with one only for a
    /// registration that produces exactly the type asked for, and makes one only for types
    /// whose values are all of exactly that type. It comes unretained: the build's frame
    /// keeps it alive until `endValueBuild()` (see `ValueFactory`). Not inlined: inlined,
    /// it made `injectValue(byType:)` too large to be inlined for an existential `D`.
    @inlinable @inline(never)
    static func makeValue<D>(with factory: Unmanaged<ValueFactory<D>>) throws -> D {
        let value: D
        do {
            value = try factory._withUnsafeGuaranteedRef { try $0.make() }
        } catch {
            throw endValueBuild(failing: error)
        }
        endValueBuild()
        return value
    }

    /// Ends the build of a value whose typed factory returned (see `makeValue(with:)`).
    @usableFromInline
    static func endValueBuild() {
        ThreadState.unretainedCurrent.unsafelyUnwrapped._withUnsafeGuaranteedRef { $0.popFrame() }
    }

    /// Ends the build of a value whose typed factory threw, and returns the error to throw
    /// (see `makeValue(with:)`).
    @usableFromInline
    static func endValueBuild(failing error: any Error) -> any Error {
        ThreadState.unretainedCurrent.unsafelyUnwrapped._withUnsafeGuaranteedRef {
            GraphEngine.endValueBuild(failing: error, $0)
        }
    }

    /// `directObject(ofType:_:)` without parameters for a caller that must not resolve in
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

    /// `directObject(ofType:_:)` for a registration located by name, requested as the type `id`.
    @usableFromInline
    static func directObject(named name: String, as id: ObjectIdentifier, _ arguments: InjectionArguments) throws -> AnyObject? {
        try GraphEngine.withDirectContext { try $0.directObject(named: name, as: id, arguments, $1) }
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

    /// The `D` a direct lookup answered with: for a class, the instance itself; for any other
    /// type (a value, an existential), a `TypedBox<D>` (see `DirectLookup`). Decided when the
    /// caller is compiled: `D.self is AnyClass` folds to a constant once `D` is known.
    @inlinable @inline(__always)
    static func directValue<D>(_ object: AnyObject, as _: D.Type) -> D {
        if D.self is AnyClass { return unsafeBitCast(object, to: D.self) }
        if ObjectIdentifier(type(of: object)) == ObjectIdentifier(TypedBox<D>.self) {
            return unsafeDowncast(object, to: TypedBox<D>.self).value
        }
        // A class instance to present as the existential `D` (a transient by its protocol).
        return withUnsafeTemporaryAllocation(of: D.self, capacity: 1) { buffer in
            let existential = UnsafeMutableRawPointer(buffer.baseAddress!)
            ExistentialTemplates.present(object, as: ObjectIdentifier(D.self), into: existential, size: MemoryLayout<D>.size)
            return buffer.baseAddress!.move()
        }
    }

    /// Resolves by type with `arguments`, trying the direct path first. Inlined, so that
    /// the cast is specialized away in the caller's module: for a class, the tests for a
    /// value or a protocol fold away; for a protocol, one metadata read chooses between the
    /// value path and the class-bound one.
    @inlinable
    static func inject<D>(byType type: D.Type, arguments: InjectionArguments) throws -> D {
        // A value with parameters is answered boxed, as a class is: only one without is written in place.
        if arguments.isEmpty, !(D.self is AnyClass) {
            return try ValueLayout.mayHoldValues(D.self) ? injectValue(byType: D.self) : injectClassBound(byType: D.self)
        }
        // One call: `isEmpty` is a constant where this is inlined.
        let id = ObjectIdentifier(D.self)
        if let object = try arguments.isEmpty ? directObject(ofType: id, arguments) : directObject(ofType: id, parameters: arguments) {
            return directValue(object, as: D.self)
        }
        return try resolve(byType: D.self, arguments: arguments)
    }

    /// Resolves by name with `arguments`, trying the direct path first.
    @inlinable
    static func inject<D>(byName name: String, arguments: InjectionArguments) throws -> D {
        if let object = try directObject(named: name, as: ObjectIdentifier(D.self), arguments) {
            return directValue(object, as: D.self)
        }
        return try resolve(byName: name, arguments: arguments)
    }

    @usableFromInline
    static func resolve<D>(byType type: D.Type, arguments: InjectionArguments) throws -> D {
        try GraphContext.resolve(type: TypeKey(D.self), arguments)
    }

    @usableFromInline
    static func resolve<D>(byName name: String, arguments: InjectionArguments) throws -> D {
        try GraphContext.resolve(.name(name), arguments)
    }

    @usableFromInline
    static func resolve<D>(byValue value: AnyHashable, arguments: InjectionArguments) throws -> D {
        try GraphContext.resolve(.value(value), arguments)
    }

    /// Injects the dependency associated with a `Hashable` value.
    @inlinable
    public static func inject<D, Value: Hashable>(byValue value: Value) throws -> D {
        try resolve(byValue: AnyHashable(value), arguments: .none)
    }

    /// Injects the dependency registered for `type`, instantiating it with `parameters`.
    ///
    /// Besides registered types, `Optional` gives nil when nothing is registered, and `Array`
    /// or `Set` give every match (empty when none). Parameters are matched by their static
    /// types.
    ///
    /// ```swift
    /// let repository: UserRepository = try DependencyGraph.inject(byType: UserRepository.self, parameters: context)
    /// let trackers: [EventTracking] = try DependencyGraph.inject()
    /// ```
    @inlinable
    @_disfavoredOverload
    public static func inject<D, each P>(
        byType type: D.Type = D.self,
        parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(repeat each parameters) { try inject(byType: D.self, arguments: $0) }
    }

    /// Injects the dependency registered for `type`, with parameters given without a label.
    ///
    /// ```swift
    /// let userRepository: UserRepository = try DependencyGraph.inject(byType: UserRepository.self, context)
    /// ```
    @inlinable
    @_disfavoredOverload
    public static func inject<D, First, each P>(
        byType type: D.Type = D.self,
        _ first: First, _ parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(first, repeat each parameters) { try inject(byType: D.self, arguments: $0) }
    }

    /// Injects the dependency registered under `name`.
    ///
    /// ```swift
    /// let accountService: AccountService = try DependencyGraph.inject(byName: "account-service")
    /// ```
    @inlinable
    public static func inject<D, each P>(byName name: String, parameters: repeat each P) throws -> D {
        try InjectionArguments.with(repeat each parameters) { try inject(byName: name, arguments: $0) }
    }

    /// Injects the dependency registered under `name`, with unlabelled parameters.
    @inlinable
    public static func inject<D, First, each P>(
        byName name: String, _ first: First, _ parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(first, repeat each parameters) { try inject(byName: name, arguments: $0) }
    }

    /// Injects the dependency registered under the raw value of a string-backed name.
    @inlinable
    public static func inject<D, Name: RawRepresentable, each P>(
        byName name: Name, parameters: repeat each P
    ) throws -> D where Name.RawValue == String {
        try InjectionArguments.with(repeat each parameters) { try inject(byName: name.rawValue, arguments: $0) }
    }

    /// Injects the dependency registered under the raw value of a string-backed name, with
    /// unlabelled parameters.
    @inlinable
    public static func inject<D, Name: RawRepresentable, First, each P>(
        byName name: Name, _ first: First, _ parameters: repeat each P
    ) throws -> D where Name.RawValue == String {
        try InjectionArguments.with(first, repeat each parameters) { try inject(byName: name.rawValue, arguments: $0) }
    }

    /// Injects the dependency registered under the description of `name`.
    @inlinable
    public static func inject<D, Name: CustomStringConvertible, each P>(
        byName name: Name, parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(repeat each parameters) { try inject(byName: name.description, arguments: $0) }
    }

    /// Injects the dependency registered under the description of `name`, with unlabelled
    /// parameters.
    @inlinable
    public static func inject<D, Name: CustomStringConvertible, First, each P>(
        byName name: Name, _ first: First, _ parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(first, repeat each parameters) { try inject(byName: name.description, arguments: $0) }
    }

    /// Injects the dependency associated with a `Hashable` value.
    ///
    /// ```swift
    /// let uploads: ImageUploadService = try DependencyGraph.inject(byValue: UploadServices.images)
    /// ```
    @inlinable
    public static func inject<D, Value: Hashable, each P>(
        byValue value: Value, parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(repeat each parameters) { try resolve(byValue: AnyHashable(value), arguments: $0) }
    }

    /// Injects the dependency associated with a `Hashable` value, with unlabelled parameters.
    @inlinable
    public static func inject<D, Value: Hashable, First, each P>(
        byValue value: Value, _ first: First, _ parameters: repeat each P
    ) throws -> D {
        try InjectionArguments.with(first, repeat each parameters) { try resolve(byValue: AnyHashable(value), arguments: $0) }
    }
}
