/// The identities of the resolutions a thread runs (`ResolutionChain`) and the paths it
/// shares with child tasks, given again once nothing else holds them: a request scope's
/// builds would otherwise allocate one for each instance.
extension ThreadState {
    /// The chain of the current outermost resolution, made on first use.
    var currentChain: ResolutionChain { unretainedCurrentChain.takeUnretainedValue() }

    /// `currentChain` without counting a reference to it: the state holds it until the
    /// resolution ends (see `adopt(chain:)`).
    var unretainedCurrentChain: Unmanaged<ResolutionChain> {
        if usesSpareChain { return .passUnretained(spareChain) }
        if let heldChain { return .passUnretained(heldChain) }
        let chain = unretainedNewChain()
        usesSpareChain = true
        noteResolutionKeeps()
        return chain
    }

    /// Makes `chain` the identity of the outermost resolution starting on this thread (its
    /// first frame is about to be pushed), until the resolution ends (`popFrame()`).
    ///
    /// **Reclamation rule.** The state holds the chain of its resolution in progress for
    /// as long as it runs: its spare chain (`usesSpareChain`), which only
    /// `renewSpareChain()` replaces, after moving one in use to `heldChain`; or any other
    /// chain (inherited from a task) in `heldChain`. So a chain handed out unretained
    /// (`unretainedCurrentChain`, a scope slot's builder) outlives the resolution's frames.
    ///
    /// The caller has raised `noteResolutionKeeps()` before unwrapping `chain`: a C call
    /// between the unwrap and this test made the compiler count a reference to every
    /// chain, and release it, around the test (two atomic operations an outermost build).
    @inline(__always)
    func adopt(chain: ResolutionChain) {
        if chain === spareChain {
            usesSpareChain = true
        } else {
            heldChain = chain
        }
    }

    /// A path to share with child tasks for a new outermost build of `chain`, whose steps
    /// `fill` writes: the one the previous build used when no task kept it (as every
    /// request scope's builds find), or a new one.
    ///
    /// Unretained: the state holds it as its spare path until the next outermost build
    /// that finds it held by something else (the caller binds it for child tasks first).
    func newSharedPath(chain: ResolutionChain, _ fill: (inout [InheritedResolution.Step]) -> Void) -> Unmanaged<
        InheritedResolution
    > {
        if isKnownUniquelyReferenced(&spareSharedPath), let spare = spareSharedPath.map(Unmanaged.passUnretained) {
            spare._withUnsafeGuaranteedRef { $0.reuse(chain: chain, fill) }
            return spare
        }
        var steps: [InheritedResolution.Step] = []
        // Room for the stored instances the build's factory builds in turn.
        steps.reserveCapacity(8)
        fill(&steps)
        let path = InheritedResolution(steps: steps, chain: chain)
        spareSharedPath = path
        return Unmanaged.passUnretained(path)
    }

    /// An identity for a new outermost resolution. A chain only tells apart resolutions in
    /// progress at the same time: once no build, wait or path holds the previous one, it is
    /// given again instead of allocating one for every outermost build (as every request
    /// scope does for each of its instances).
    @inline(__always)
    func newChain() -> ResolutionChain { unretainedNewChain().takeUnretainedValue() }

    /// `newChain()` without counting a reference to it: the state holds it as its spare
    /// chain until an outermost resolution that starts on this thread after the caller's
    /// ends asks for one, and finds it held by something else.
    @inline(__always)
    func unretainedNewChain() -> Unmanaged<ResolutionChain> {
        if !isKnownUniquelyReferenced(&spareChain) { renewSpareChain() }
        return .passUnretained(spareChain)
    }

    /// Makes the spare chain one that nothing else holds: the previous one again when only
    /// the spare path still holds it (a path keeps the chain of its last build until it is
    /// reused), a new one otherwise.
    @inline(never)
    private func renewSpareChain() {
        // `holds`, not `path.chain ===`: a path that let go of its chain at an earlier
        // renewal has none, and the spare chain may be held elsewhere again since.
        if isKnownUniquelyReferenced(&spareSharedPath), let path = spareSharedPath, path.holds(spareChain) {
            path.releaseChain()
            if isKnownUniquelyReferenced(&spareChain) { return }
        }
        // A new outermost resolution starts only once the previous one ended, which forgets
        // its chain; were the spare one still in use, it stays held (see `adopt(chain:)`).
        assert(!usesSpareChain, "a new chain is made only between outermost resolutions")
        if usesSpareChain {
            heldChain = spareChain
            usesSpareChain = false
        }
        spareChain = ResolutionChain()
    }
}
