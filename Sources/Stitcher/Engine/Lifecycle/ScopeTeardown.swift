/// One instance of a scope that asked to be torn down, and how.
struct ScopeTeardown: @unchecked Sendable {
    let record: RegistrationRecord
    let instance: AnyObject
    let witness: TeardownWitness

    init(_ instance: AnyObject, of record: RegistrationRecord, by witness: TeardownWitness) {
        self.record = record
        self.instance = instance
        self.witness = witness
    }

    /// The teardown of `instance` (in stored form) of `record`, or nil when it asks for none.
    init?(_ instance: AnyObject, of record: RegistrationRecord) {
        guard let witness = record.teardown(of: instance) else { return nil }
        self.init(instance, of: record, by: witness)
    }

    /// The dependency torn down, named only when reported.
    var dependency: InjectionError.DependencyContext { record.locator.context }

    /// Runs the teardowns of `closed` (newest first), whatever each does; returns the
    /// failures in the order they happened. Each is run where its slot holds it (see
    /// `ClosedScope.forEachTeardown`).
    static func runSynchronously(_ closed: ClosedScope, in scope: ScopeStore) -> [ScopeTeardownError.Failure] {
        var failures: [ScopeTeardownError.Failure] = []
        closed.forEachTeardown { teardown in
            let failure = teardown.instance._withUnsafeGuaranteedRef { instance in
                teardown.record._withUnsafeGuaranteedRef { record in
                    teardown.witness._withUnsafeGuaranteedRef { runSynchronously(instance, of: record, by: $0, in: scope) }
                }
            }
            if let failure { failures.append(failure) }
        }
        return failures
    }

    /// Runs this teardown synchronously; its failure, if any, goes to the observer.
    func runSynchronously(in scope: ScopeStore) {
        _ = Self.runSynchronously(instance, of: record, by: witness, in: scope)
    }

    /// Runs the teardown of `instance` of `record` by `witness`, whatever it does, and returns
    /// its failure, if any. An asynchronous-only teardown is started in a task of its own (a
    /// synchronous scope cannot await it) and reported as a failure that says so.
    private static func runSynchronously(
        _ instance: AnyObject, of record: RegistrationRecord, by witness: TeardownWitness, in scope: ScopeStore
    ) -> ScopeTeardownError.Failure? {
        if witness.hasSynchronous {
            do {
                try witness.tearDownSynchronously(instance)
                scope.report(.tornDown(record.locator.context, scope: scope.id, error: nil))
                return nil
            } catch {
                return failure(error, of: record, in: scope)
            }
        }
        guard let asynchronous = witness.asynchronous else { return nil }
        let sendable = UncheckedSendable(instance)
        let graph = scope.graph
        let (dependency, id) = (record.locator.context, scope.id)
        Task {
            do {
                try await asynchronous(sendable.value)
                graph.report(.tornDown(dependency, scope: id, error: nil))
            } catch {
                graph.report(.tornDown(dependency, scope: id, error: error))
            }
        }
        return failure(AsynchronousTeardownInSynchronousScope(dependency: dependency), of: record, in: scope)
    }

    /// Runs every teardown in the order given (newest first), awaiting asynchronous ones,
    /// whatever each does; returns the failures in the order they happened.
    static func run(_ teardowns: some Sequence<ScopeTeardown>, in scope: ScopeStore) async -> [ScopeTeardownError.Failure] {
        var failures: [ScopeTeardownError.Failure] = []
        for teardown in teardowns {
            do {
                if let asynchronous = teardown.witness.asynchronous {
                    try await asynchronous(teardown.instance)
                } else {
                    try teardown.witness.tearDownSynchronously(teardown.instance)
                }
                scope.report(.tornDown(teardown.dependency, scope: scope.id, error: nil))
            } catch {
                failures.append(failure(error, of: teardown.record, in: scope))
            }
        }
        return failures
    }

    private static func failure(_ error: any Error, of record: RegistrationRecord, in scope: ScopeStore) -> ScopeTeardownError.Failure {
        let dependency = record.locator.context
        scope.report(.tornDown(dependency, scope: scope.id, error: error))
        return ScopeTeardownError.Failure(dependency: dependency, error: error)
    }
}

/// The failure reported for an instance whose only teardown is asynchronous, in a scope
/// opened synchronously.
struct AsynchronousTeardownInSynchronousScope: Error, CustomStringConvertible {
    let dependency: InjectionError.DependencyContext

    var description: String {
        "\(dependency) has an asynchronous teardown, which a synchronous scope cannot await: it was started "
            + "in a task of its own. To fix this, open the scope with `try await DependencyGraph.withScope { … }`."
    }
}
