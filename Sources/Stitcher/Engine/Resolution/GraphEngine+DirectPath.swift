extension GraphEngine {
    /// Resolves a direct lookup of the type with identity `id` (see `DirectLookup`); nil
    /// when the lookup is not direct, its parameters do not match, or the thread's snapshot
    /// is not current, which sends the caller the general way.
    ///
    /// Cached instances are returned with no lock, no allocation and no reference count
    /// touched but the returned instance's; new ones are built with the resolution path
    /// tracked as usual.
    @inline(__always)
    func directObject(ofType id: ObjectIdentifier, _ arguments: InjectionArguments, _ state: ThreadState) throws -> AnyObject? {
        try withCurrentSnapshot(state) { snapshot in
            try object(for: snapshot.directLookup(ofType: id), as: id, arguments, state)
        }
    }

    /// `directObject(ofType:_:_:)` for an injection with parameters: when the type has
    /// registrations that differ by their parameters (see `DirectLookup.overloadsFlag`),
    /// the one taking `arguments`, found in one probe of the snapshot's `OverloadTable`;
    /// nil when none does (the general path reports it). Apart from
    /// `directObject(ofType:_:_:)`, which injections without parameters run: a fallback
    /// there cost a singleton read 5 to 12 instructions.
    @inline(__always)
    func directObject(
        ofType id: ObjectIdentifier, parameters arguments: InjectionArguments, _ state: ThreadState
    ) throws -> AnyObject? {
        try withCurrentSnapshot(state) { snapshot -> AnyObject? in
            let lookup = snapshot.directLookup(ofType: id)
            guard lookup.hasOverloads, let parameters = arguments.packType else {
                return try object(for: lookup, as: id, arguments, state)
            }
            guard let unretained = snapshot.overload(ofType: id, accepting: ObjectIdentifier(parameters)) else { return nil }
            // As for a direct `.parameterized` lookup: the lifetime's rules hold the entry if
            // they use it after the factory returns.
            return try unretained._withUnsafeGuaranteedRef { entry in
                try entry.withRecord(\.lifetime).rules.instance(of: unretained, in: self, arguments, state)
            }
        } ?? nil
    }

    /// `directObject(ofType:_:_:)` for a caller asking for a type that is not a class, which
    /// gives uninitialized memory for one: a transient value of exactly that type is written
    /// there, unboxed (see `RegistrationExtras.writeValue`), and `destination` is returned;
    /// any other answer is the object `directObject(ofType:_:_:)` gives, retained, as a
    /// pointer (one word compared by the caller, where an enum cost an outlined copy).
    @inline(__always)
    func directAnswer(
        ofType id: ObjectIdentifier, _ arguments: InjectionArguments, _ state: ThreadState,
        into destination: UnsafeMutableRawPointer
    ) throws -> UnsafeMutableRawPointer? {
        try withCurrentSnapshot(state) { snapshot -> UnsafeMutableRawPointer? in
            let lookup = snapshot.directLookup(ofType: id)
            if lookup.isTransient, arguments.isEmpty, let entry = lookup.entry,
                let answer = try entry._withUnsafeGuaranteedRef({ try transientValue(of: $0, state, as: id, into: destination) })
            {
                return answer
            }
            return try object(for: lookup, as: id, arguments, state).map { Unmanaged.passRetained($0).toOpaque() }
        } ?? nil
    }

    /// A new value of `entry`'s transient registration without parameters, when its record
    /// writes values, for a caller asking for the type `id` that gave `destination`
    /// (uninitialized memory for one): its typed factory, tagged with `valueFactoryTag`
    /// (`startValueBuild`); otherwise `destination`, the value written there
    /// (`writeTransientValue`). Nil, before anything is built, when neither can answer. The
    /// record's flag is read here, so that a class's transient pays no call.
    @inline(__always)
    private func transientValue(
        of entry: IndexEntry, _ state: ThreadState, as id: ObjectIdentifier, into destination: UnsafeMutableRawPointer
    ) throws -> UnsafeMutableRawPointer? {
        try entry.withRecord { record -> UnsafeMutableRawPointer? in
            guard record.writesValues else { return nil }
            if let factory = try startValueBuild(of: entry, record, state, as: id) {
                return factory.toOpaque() + DependencyGraph.valueFactoryTag
            }
            return try writeTransientValue(entry, state, into: destination, as: id) ? destination : nil
        }
    }

    /// The typed factory of `entry`'s registration (`record`, which writes values), with its
    /// build started, when it produces exactly the type `id` asked for and no graph has an
    /// observer (which is told about an instance: the boxed build tells it); nil, before
    /// anything is built, otherwise.
    ///
    /// The caller runs the factory (`DependencyGraph.makeValue(with:)`), the frame keeping
    /// the snapshot, and so the factory, alive until the caller pops it (see `ValueFactory`).
    @inline(__always)
    func startValueBuild(
        of entry: IndexEntry, _ record: RegistrationRecord, _ state: ThreadState, as id: ObjectIdentifier
    ) throws -> Unmanaged<AnyObject>? {
        guard record.producedType.id == id, let factory = record.valueFactory, !mayBeObserved else { return nil }
        try enterValueBuild(entry, state)
        return factory
    }

    /// `directObject(ofType:_:_:)` for a registration located by name, requested as the type `id`.
    @inline(__always)
    func directObject(
        named name: String, as id: ObjectIdentifier, _ arguments: InjectionArguments, _ state: ThreadState
    ) throws -> AnyObject? {
        try withCurrentSnapshot(state) { snapshot in
            try object(for: snapshot.directLookup(named: name, as: id), as: id, arguments, state)
        }
    }

    /// Runs `body` with the graph of the current context and the calling thread's state,
    /// neither retained; nil when the thread has no state yet (its first lookup goes the
    /// general way, which makes it). Not generic over the answer: a generic version was not
    /// inlined into the singleton's lookup (204 instructions instead of 166).
    @inline(__always)
    static func withDirectContext(_ body: (GraphEngine, ThreadState) throws -> AnyObject?) rethrows -> AnyObject? {
        guard let state = ThreadState.unretainedCurrent else { return nil }
        return try state._withUnsafeGuaranteedRef { state in
            if isolatedGraphCount == 0 {
                return try state.sharedGraph._withUnsafeGuaranteedRef { try body($0, state) }
            }
            return try body(GraphContext.current, state)
        }
    }

    /// `withDirectContext(_:)` for `directAnswer(ofType:_:_:into:)`'s answer (the same code
    /// for another result type: written generically, neither was inlined).
    @inline(__always)
    static func withDirectContext(
        _ body: (GraphEngine, ThreadState) throws -> UnsafeMutableRawPointer?
    ) rethrows -> UnsafeMutableRawPointer? {
        guard let state = ThreadState.unretainedCurrent else { return nil }
        return try state._withUnsafeGuaranteedRef { state in
            if isolatedGraphCount == 0 {
                return try state.sharedGraph._withUnsafeGuaranteedRef { try body($0, state) }
            }
            return try body(GraphContext.current, state)
        }
    }

    /// Passes `body` the instances answering a request for an array of the type with
    /// identity `id`, each in the form the direct path answers a request for `id` with (see
    /// `DirectLookup`), in registration order, after telling `reserve` how many there are at
    /// most; false when one of them can only be cast, or the thread's snapshot is not
    /// current, which sends the caller the general way (before anything is built).
    func directObjects(
        ofElement id: ObjectIdentifier, _ state: ThreadState, reserve: (Int) -> Void, _ body: (AnyObject) -> Void,
        keeping answered: () -> AnyObject
    ) throws -> Bool {
        try withCurrentSnapshot(state) { unretained -> Bool? in
            // Held: a factory that changes the graph may replace the thread's snapshot, whose
            // entries the lookups hold unretained.
            let snapshot = unretained
            // Whether every answer is a published instance, which the array can be kept for.
            var published = true
            var answers = 0
            func answer(_ lookup: DirectLookup) throws {
                // Registrations taking parameters answer injections with parameters only.
                guard lookup.kind != .parameterized else { return }
                guard let object = try object(for: lookup, as: id, .none, state) else {
                    preconditionFailure("a direct lookup without parameters always answers")
                }
                published = published && lookup.kind.isPublished
                answers += 1
                body(object)
            }
            switch snapshot.elementLookups(ofType: id) {
            case nil: return false
            case .none?: return true
            case .one(let lookup)?:
                guard lookup.kind != .none else { return false }
                reserve(1)
                try withExtendedLifetime(snapshot) { try answer(lookup) }
            case .many(let lookups)?:
                guard !lookups.contains(where: { $0.kind == .none }) else { return false }
                reserve(lookups.count)
                try withExtendedLifetime(snapshot) { try lookups.forEach(answer) }
            }
            if published, answers > 0 { keep(answered(), ofElement: id, in: snapshot) }
            return true
        } ?? false
    }

    /// The array of singletons a request for elements of the type `id` answered last from
    /// the current index, retained, when it keeps one (see `ElementArrays`).
    @inline(__always)
    func keptElements(ofElement id: ObjectIdentifier, _ state: ThreadState) -> AnyObject? {
        withCurrentSnapshot(state) { _ in keptArray(ofElement: id, state.hazard) }
    }

    /// Runs `body` with the thread's cached snapshot when it is current, without touching
    /// reference counts; nil when it is not current.
    @inline(__always)
    func withCurrentSnapshot<R>(_ state: ThreadState, _ body: (IndexSnapshot) throws -> R?) rethrows -> R? {
        guard state.generation == publishedGeneration.load(ordering: .acquiring),
            let snapshot = state.unretainedSnapshot
        else { return nil }
        return try snapshot._withUnsafeGuaranteedRef(body)
    }

    @inline(__always)
    func object(
        for lookup: DirectLookup, as id: ObjectIdentifier, _ arguments: InjectionArguments, _ state: ThreadState
    ) throws -> AnyObject? {
        guard let unretained = lookup.entry else { return nil }
        return try unretained._withUnsafeGuaranteedRef { entry in
            switch lookup.kind {
            case .published where arguments.isEmpty:
                if let instance = entry.publishedInstance(state.hazard) { return instance }
            case .shared where arguments.isEmpty:
                if let instance = entry.sharedObject(state.hazard) { return instance }
            case .transient where arguments.isEmpty:
                // The frame pushed before the factory runs keeps the snapshot, and so the
                // entry, alive however the factory changes the graph.
                return try transientObject(entry, state)
            case .scoped where arguments.isEmpty:
                return try scopedObject(unretained, state)
            case .parameterized where entry.withRecord({ $0.accepts(arguments) }):
                break
            case .publishedView where arguments.isEmpty:
                // Read inline, as a published instance is; made (once) out of line.
                if let view = entry.publishedView(state.hazard) { return view }
                return try view(for: lookup, as: id, state)
            case .transientView where arguments.isEmpty:
                let instance = try transientObject(entry, state)
                return try entry.withRecord { try presentable(instance, of: $0, as: id) }
            default:
                return nil
            }
            // A first creation, or an instance per parameter values: as the lifetime's rules
            // say (which hold the entry if they use it after the factory returns).
            return try entry.withRecord(\.lifetime).rules.instance(of: unretained, in: self, arguments, state)
        }
    }

    /// A new instance of a transient registration without parameters. Outlined: inlined,
    /// the build (its frame, cycle check and failure paths) made the direct path's frame,
    /// which every cached read pays for, larger (12 more instructions a singleton read).
    @inline(never)
    private func transientObject(_ entry: IndexEntry, _ state: ThreadState) throws -> AnyObject {
        try makeTransient(entry, nil, state)
    }

    /// Writes a new value of a transient registration without parameters, whose record
    /// writes values (`RegistrationRecord.writesValues`, which the caller checked), into
    /// `destination` when no graph has an observer (which is told about an instance; the
    /// boxed build tells it); false otherwise, before anything is built.
    ///
    /// The value is written as is when the registration produces exactly the type `id` asked
    /// for (so `destination` has its size) and has no typed factory; asked for as a protocol
    /// it is presented as (a `.transientView`), into an existential made from a verified
    /// template, when the runtime keeps the value in the existential's buffer (so the
    /// template's size is `destination`'s: it was learnt from a cast to the type `id`).
    ///
    /// `entry` is passed unretained from the lookup (the caller's snapshot holds it).
    /// Inlined into `transientValue(of:_:as:into:)`, its one caller (a value's path only):
    /// the call cost a value presented as its protocol more (callgrind `shape-value` 401 →
    /// 376) than the larger function costs a struct injected as its own type (236 → 241).
    @inline(__always)
    private func writeTransientValue(
        _ entry: IndexEntry, _ state: ThreadState, into destination: UnsafeMutableRawPointer, as id: ObjectIdentifier
    ) throws -> Bool {
        guard !mayBeObserved else { return false }
        let (produced, writesInline) = entry.withRecord { ($0.producedType.id, $0.writesInlineValues) }
        if produced != id {
            guard writesInline, ExistentialTemplates.presentValue(of: produced, as: id, into: destination)
            else { return false }
        }
        // As for a boxed transient, the frame keeps the snapshot, and so the entry, alive.
        try writeTransient(entry, state, into: destination)
        return true
    }

    /// The instance of a `.scoped` registration without parameters in the innermost scope
    /// (see `scopedInstance`). Outlined, as the other rare paths are: the direct path is
    /// inlined into every lookup.
    @inline(never)
    private func scopedObject(_ unretained: Unmanaged<IndexEntry>, _ state: ThreadState) throws -> AnyObject {
        try scopedInstance(of: unretained, takesParameters: false, .none, state)
    }

    /// Builds (once) the view of `entry`'s instance as the protocol `id`, the first time it
    /// is requested as one.
    @inline(never)
    private func presentedView(of entry: IndexEntry, as id: ObjectIdentifier, _ state: ThreadState) throws -> AnyObject {
        let record = entry.record
        let instance = try instance(of: entry, .none, state)
        let view = try view(of: instance, of: record, as: id)
        // A second cast verifies the template the first learnt (`ExistentialTemplates`), so
        // that later requests present the instance itself (`presentedInstance`): a view is
        // made once, where a transient's repeated casts verify its template.
        if record.storesObjects, ExistentialTemplates.verifiedTemplate(presenting: instance, as: id) == nil {
            _ = try self.view(of: instance, of: record, as: id)
        }
        return entry.publish(view: view)
    }

    /// The answer of a lookup of a view kind: the singleton's view, made the first time, or
    /// a new instance presented as the protocol `id`. Outlined, as the other rare paths
    /// are: the direct path is inlined into every lookup, and its size matters there.
    @inline(never)
    func view(for lookup: DirectLookup, as id: ObjectIdentifier, _ state: ThreadState) throws -> AnyObject {
        let entry = lookup.entry!.takeUnretainedValue()
        if lookup.kind == .transientView {
            let instance = try makeTransient(entry, nil, state)
            return try entry.withRecord { try view(of: instance, of: $0, as: id) }
        }
        if let view = entry.publishedView(state.hazard) { return view }
        return try presentedView(of: entry, as: id, state)
    }

    /// A new instance of `record` to present as its alias `id`: the instance itself when
    /// the caller can present it from a template (see `ExistentialTemplates`), which
    /// `DependencyGraph.directValue(_:as:)` tells by its class; its view otherwise.
    @inline(never)
    private func presentable(_ instance: AnyObject, of record: RegistrationRecord, as id: ObjectIdentifier) throws -> AnyObject {
        if record.storesObjects, ExistentialTemplates.presents(instance, as: id) { return instance }
        return try view(of: instance, of: record, as: id)
    }

    /// `instance` of `record` presented as its alias `id`.
    ///
    /// - Throws: ``InjectionError/mismatchedDependencyType(_:expected:)`` when it does not
    ///   conform, as the general path would.
    func view(of instance: AnyObject, of record: RegistrationRecord, as id: ObjectIdentifier) throws -> AnyObject {
        guard case .type(let types) = record.locator.kind, let alias = types.alias(id), let make = alias.view else {
            preconditionFailure("a view kind is given only to an alias with a view")
        }
        if let view = make(record.value(of: instance)) { return view }
        throw InjectionError.mismatchedDependencyType(record.typeName(of: instance), expected: alias.type.description)
    }
}
