/// Transient values built without a box: written into the caller's memory, or made by the
/// caller's own code between `enterValueBuild` and `DependencyGraph.endValueBuild()`
/// (`endValueBuild(failing:_:)` when it throws).
extension GraphEngine {
    /// Builds a new value of a registration in the `.instance` scope that takes no
    /// parameters, written into `destination` (see `RegistrationRecord.writeValue(into:)`)
    /// instead of boxed. Nothing observes it: the caller has checked that no graph has an
    /// observer (one added by another thread meanwhile sees the next build).
    @inline(__always)
    func writeTransient(_ entry: IndexEntry, _ state: ThreadState, into destination: UnsafeMutableRawPointer) throws {
        try enterTransientValue(entry, state)
        try withFrame(entry, nil, nil, state) { try $0.writeValue(into: destination) }
    }

    /// Starts the build of a new value of a registration in the `.instance` scope that takes
    /// no parameters and has a typed factory (`RegistrationRecord.valueFactory`), which the
    /// caller then runs itself: checks for a cycle as `writeTransient` does and pushes the
    /// registration's frame. The caller must end the build on this thread, whether the
    /// factory returns or throws (`DependencyGraph.makeValue(with:)` does). Nothing observes
    /// it, as for `writeTransient`.
    @inline(__always)
    func enterValueBuild(_ entry: IndexEntry, _ state: ThreadState) throws {
        try enterTransientValue(entry, state)
        state.frames.push(ResolutionFrame(entry: entry, arguments: nil, argumentHash: nil))
    }

    /// Ends a build `enterValueBuild` started whose factory threw, and returns the error to
    /// throw, as a build the engine runs itself reports it (see `withFrame`).
    static func endValueBuild(failing error: any Error, _ state: ThreadState) -> any Error {
        let failure = failure(error, of: state.frames.last!.entry.record, state)
        state.popFrame()
        return failure
    }

    /// What a transient value's build checks before its frame is pushed.
    @inline(__always)
    private func enterTransientValue(_ entry: IndexEntry, _ state: ThreadState) throws {
        // Outside any resolution (most): no cycle can lead here and there is nothing to
        // bind to the first frame, which is what `enterTransient` and `enterFrame` would find,
        // without reading the task's path.
        if !state.isOutsideAnyResolution { try enterNestedTransientValue(entry, state) }
    }

    /// `enterTransientValue` inside another resolution: the cycle check, and the inherited
    /// path, once bound to the thread (or already bound), held by the thread's state for the
    /// build. Outlined: the stack check takes a local's address, which made its callers
    /// guard their stack frames (a canary written and checked on every call).
    @inline(never)
    private func enterNestedTransientValue(_ entry: IndexEntry, _ state: ThreadState) throws {
        let inherited = try enterTransient(entry, nil, state)
        try enterFrame(entry, nil, state, inherited: inherited)
    }
}
