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

    /// Runs every teardown in the order given (newest first), whatever each does; returns
    /// the failures in the order they happened. An asynchronous-only teardown is started in
    /// a task of its own (a synchronous scope cannot await it) and reported as a failure that
    /// says so.
    static func runSynchronously(_ teardowns: some Sequence<ScopeTeardown>, in scope: ScopeStore) -> [ScopeTeardownError.Failure] {
        var failures: [ScopeTeardownError.Failure] = []
        for teardown in teardowns {
            if let synchronous = teardown.witness.synchronous {
                do {
                    try synchronous(teardown.instance)
                    scope.report(.tornDown(teardown.dependency, scope: scope.id, error: nil))
                } catch {
                    failures.append(teardown.failure(error, in: scope))
                }
            } else if let asynchronous = teardown.witness.asynchronous {
                let instance = UncheckedSendable(teardown.instance)
                let graph = scope.graph
                let (dependency, id) = (teardown.dependency, scope.id)
                Task {
                    do {
                        try await asynchronous(instance.value)
                        graph.report(.tornDown(dependency, scope: id, error: nil))
                    } catch {
                        graph.report(.tornDown(dependency, scope: id, error: error))
                    }
                }
                failures.append(teardown.failure(AsynchronousTeardownInSynchronousScope(dependency: dependency), in: scope))
            }
        }
        return failures
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
                    try teardown.witness.synchronous?(teardown.instance)
                }
                scope.report(.tornDown(teardown.dependency, scope: scope.id, error: nil))
            } catch {
                failures.append(teardown.failure(error, in: scope))
            }
        }
        return failures
    }

    private func failure(_ error: any Error, in scope: ScopeStore) -> ScopeTeardownError.Failure {
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
