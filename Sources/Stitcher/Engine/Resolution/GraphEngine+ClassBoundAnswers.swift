/// The direct path's answers to a request for a class-bound protocol (`any P` where
/// `P: AnyObject`): a class's instance with the template that presents it as the protocol
/// (`ClassBoundAnswer`), which the injecting code writes into the existential itself
/// (`DependencyGraph.injectClassBound(byType:)`).
extension GraphEngine {
    /// `directObject(ofType:_:_:)` for a caller asking for a class-bound protocol: a
    /// singleton's or a new instance, with the template that presents its class as the
    /// protocol when one is verified (see `ClassBoundAnswer`), so that the caller writes the
    /// existential itself; for a transient registration of the protocol itself
    /// (`Impl() as any P`), a new value's typed factory, with its build started, as
    /// `directAnswer(ofType:_:_:into:)` answers for a value; otherwise the object
    /// `directObject(ofType:_:_:)` gives.
    @inline(__always)
    func directAnswer(ofClassBound id: ObjectIdentifier, _ state: ThreadState) throws -> ClassBoundAnswer? {
        try withCurrentSnapshot(state) { snapshot -> ClassBoundAnswer? in
            let lookup = snapshot.directLookup(ofType: id)
            if let entry = lookup.entry {
                switch lookup.kind {
                case .publishedView:
                    if let answer = entry._withUnsafeGuaranteedRef({ presentedInstance(of: $0, state, as: id) }) { return answer }
                case .transientView:
                    return try entry._withUnsafeGuaranteedRef { try presentedTransient(of: $0, state, as: id) }
                case .transient:
                    if let factory = try entry._withUnsafeGuaranteedRef({ try startedValueBuild(of: $0, state, as: id) }) {
                        return ClassBoundAnswer(typedFactory: factory)
                    }
                default:
                    break
                }
            }
            return try object(for: lookup, as: id, .none, state).map { ClassBoundAnswer(retaining: $0, template: nil) }
        } ?? nil
    }

    /// `withDirectContext(_:)` for `directAnswer(ofClassBound:_:)`'s answer (the same code
    /// again: written generically, the three were not inlined, and a singleton's read went
    /// from 167 instructions to 205).
    @inline(__always)
    static func withDirectContext(_ body: (GraphEngine, ThreadState) throws -> ClassBoundAnswer?) rethrows -> ClassBoundAnswer? {
        guard let state = ThreadState.unretainedCurrent else { return nil }
        return try state._withUnsafeGuaranteedRef { state in
            if isolatedGraphCount == 0 {
                return try state.sharedGraph._withUnsafeGuaranteedRef { try body($0, state) }
            }
            return try body(GraphContext.current, state)
        }
    }

    /// The published instance of `entry`'s registration, requested as its protocol `id` (a
    /// `.publishedView`), with the template presenting its class as `id`; nil when there is
    /// no instance yet or no verified template, and the view answers. One reference counted
    /// (the instance's) instead of three (the view's, the instance's copied out of it, and
    /// the view's release).
    @inline(__always)
    private func presentedInstance(of entry: IndexEntry, _ state: ThreadState, as id: ObjectIdentifier) -> ClassBoundAnswer? {
        guard entry.record.storesObjects, let instance = entry.publishedInstance(state.hazard) else { return nil }
        guard let template = ExistentialTemplates.verifiedTemplate(presenting: instance, as: id) else { return nil }
        return ClassBoundAnswer(retaining: instance, template: template)
    }

    /// `startValueBuild` for a class-bound protocol's own registration (`Impl() as any P`,
    /// whose record writes values; a class's does not, and answers nil): outlined, so that
    /// the singletons' reads, inlined into every caller, stay small.
    ///
    /// `entry` is passed unretained from the lookup: the build's frame keeps the snapshot,
    /// and so the entry, alive until the caller pops it, as for any transient value.
    @inline(never)
    private func startedValueBuild(of entry: IndexEntry, _ state: ThreadState, as id: ObjectIdentifier) throws -> Unmanaged<AnyObject>? {
        try entry.withRecord { record in
            guard record.writesValues else { return nil }
            return try startValueBuild(of: entry, record, state, as: id)
        }
    }

    /// A new instance of `entry`'s registration, requested as its protocol `id` (a
    /// `.transientView`), with the template presenting its class as `id`; or, when no
    /// template is verified, the instance's view. The template is looked up once and the
    /// instance counted once; the caller writes the existential.
    ///
    /// `entry` is passed unretained from the lookup: the build's frame keeps the snapshot,
    /// and so the entry, alive while the factory runs, as for any transient.
    @inline(never)
    private func presentedTransient(of entry: IndexEntry, _ state: ThreadState, as id: ObjectIdentifier) throws -> ClassBoundAnswer {
        let instance = try makeTransient(entry, nil, state)
        return try entry.withRecord { record in
            if record.storesObjects, let template = ExistentialTemplates.verifiedTemplate(presenting: instance, as: id) {
                return ClassBoundAnswer(retaining: instance, template: template)
            }
            return ClassBoundAnswer(retaining: try view(of: instance, of: record, as: id), template: nil)
        }
    }
}
