extension DependencyGraph {
    /// What ``DependencyGraph/verify(_:)`` checks beyond the declarations.
    ///
    /// ```swift
    /// try DependencyGraph.verify(.instantiating)   // also builds every factory once, keeping nothing
    /// ```
    public struct VerificationOptions: Sendable {
        /// Whether to build every registration that takes no parameters once, in a throwaway
        /// dependency scope of a throwaway graph, and report each factory that throws.
        ///
        /// Nothing built is stored in the graph, and it is released when verification ends;
        /// singletons and shared instances the graph already holds are used as they are (so an
        /// eager dependency's side effects do not run again). `verify` builds synchronous
        /// factories (main-actor ones only on the main actor); `verifyAsync` builds them all.
        public var instantiatesFactories: Bool
        /// A recorder whose observed edges and unscoped injections are checked too; nil uses
        /// the graph's observer when it is a ``DependencyEdgeRecorder`` (or a group holding one).
        public var observations: DependencyEdgeRecorder?

        /// Options for a verification.
        public init(instantiatesFactories: Bool = false, observations: DependencyEdgeRecorder? = nil) {
            self.instantiatesFactories = instantiatesFactories
            self.observations = observations
        }

        /// Checks the declarations (and observed edges) only, building nothing.
        public static var declarationsOnly: Self { Self() }

        /// Also builds every registration without parameters once (see ``instantiatesFactories``).
        public static var instantiating: Self { Self(instantiatesFactories: true) }
    }

    /// Checks the current graph and throws every problem it finds at once.
    ///
    /// It finds declared dependencies (an autowired initializer's parameters, a
    /// `@Registerable` type's injected ones) with no registration, with several candidates
    /// for one value, with parameters the declaration cannot give, or asynchronous under a
    /// synchronous factory; cycles among declared and observed edges; captive dependencies
    /// (a singleton, shared or managed dependency depending on a `.scoped` one); `.scoped`
    /// dependencies reached outside any scope. A singleton holding a `.shared` dependency is
    /// a note, not a problem. By default nothing is built (see ``VerificationOptions``).
    ///
    /// - Throws: ``GraphVerificationReport`` listing every problem, each with what was asked
    ///   for, where it was declared and how to fix it.
    ///
    /// ```swift
    /// @Test func theAppGraphIsValid() throws {
    ///     DependencyGraph.activate(AppContainer.live)
    ///     try DependencyGraph.verify()
    /// }
    /// ```
    public static func verify(_ options: VerificationOptions = .declarationsOnly) throws {
        let report = GraphContext.current.verification(options)
        if !report.isValid { throw report }
    }

    /// ``verify(_:)``, awaiting asynchronous factories when ``VerificationOptions/instantiatesFactories``
    /// builds them (and running main-actor factories on the main actor).
    ///
    /// ```swift
    /// try await DependencyGraph.verifyAsync(.instantiating)
    /// ```
    public static func verifyAsync(_ options: VerificationOptions = .declarationsOnly) async throws {
        let report = await verificationReportAsync(options)
        if !report.isValid { throw report }
    }

    /// What ``verify(_:)`` finds, returned rather than thrown, notes included.
    ///
    /// ```swift
    /// let report = DependencyGraph.verificationReport()
    /// for note in report.notes { print(note) }
    /// ```
    public static func verificationReport(_ options: VerificationOptions = .declarationsOnly) -> GraphVerificationReport {
        GraphContext.current.verification(options)
    }

    /// What ``verifyAsync(_:)`` finds, returned rather than thrown, notes included.
    public static func verificationReportAsync(
        _ options: VerificationOptions = .declarationsOnly
    ) async -> GraphVerificationReport {
        await GraphContext.current.verificationAwaiting(options)
    }
}

extension DependencyGraph.Context {
    /// Checks this graph (see ``DependencyGraph/verify(_:)``).
    public func verify(_ options: DependencyGraph.VerificationOptions = .declarationsOnly) throws {
        try run { try DependencyGraph.verify(options) }
    }

    /// What ``verify(_:)`` finds in this graph, returned rather than thrown.
    public func verificationReport(
        _ options: DependencyGraph.VerificationOptions = .declarationsOnly
    ) -> GraphVerificationReport {
        run { DependencyGraph.verificationReport(options) }
    }
}
