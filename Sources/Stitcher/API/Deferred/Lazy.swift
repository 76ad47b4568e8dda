/// A dependency injected now and resolved when first read: inject `Lazy<T>` wherever `T`
/// can be injected, and read ``value`` when you need it.
///
/// Nothing is built when the `Lazy` is injected. The first read of ``value`` resolves `T`
/// (exactly as injecting `T` would, with the parameters given to the injection), and every
/// later read returns that same value. Reads from several threads at once resolve once: the
/// others wait for the first. A read that throws stores nothing, and the next one tries
/// again.
///
/// A `Lazy` remembers the graph and the dependency scope it was injected from, and resolves
/// there wherever it is read: from another thread, task or scope. Read after that graph or
/// scope has ended, it throws ``DeferredInjectionError``.
///
/// Use it to defer an expensive build to first use, or to break a cycle between two objects
/// that only need each other later: `A` takes a `Lazy<B>`, `B` takes `A`, and both resolve.
/// `verify()` treats such an edge as deferred (no cycle), and `export` draws it apart.
///
/// ```swift
/// final class ReportScreen {
///     private let builder: Lazy<ReportBuilder>
///     init(builder: Lazy<ReportBuilder>) { self.builder = builder }
///
///     func export() throws -> Report { try builder.value.build() }
/// }
///
/// let container = DependencyContainer {
///     Dependency { ReportBuilder() }
///     Dependency(ReportScreen.init)
/// }
/// ```
///
/// `Lazy` composes with the other wrappers: `Lazy<[any Plugin]>` resolves every plugin on
/// first read, `Lazy<Service?>` resolves nil when nothing is registered.
public final class Lazy<Value>: @unchecked Sendable {
    private let request: DeferredRequest
    private let lock = Lock()
    private var state = State.unresolved

    private enum State {
        case unresolved
        /// Resolving on the thread whose state is `thread` (nil: by asynchronous code), with
        /// the asynchronous readers waiting for it.
        case resolving(thread: ObjectIdentifier?, waiters: [CheckedContinuation<Void, Never>])
        case resolved(Value)
    }

    init(request: DeferredRequest) { self.request = request }

    /// The dependency: resolved on the first read, the same value afterwards.
    ///
    /// - Throws: what injecting it throws (nothing registered, a failing factory…), or
    ///   ``DeferredInjectionError`` once its graph or scope has ended.
    public var value: Value {
        get throws {
            switch lock.withLock({ claim(thread: ObjectIdentifier(ThreadState.current)) }) {
            case .resolved(let value):
                return value
            case .resolve:
                let value: Value
                do {
                    value = try request.resolve()
                } catch {
                    publish(nil)
                    throw error
                }
                publish(value)
                return value
            case .wait:
                // Read again by the resolution this thread runs: resolved without storing,
                // so that the engine reports the cycle (or returns the stored instance).
                return try request.resolve()
            }
        }
    }

    /// The dependency, awaiting its factory if it is asynchronous: resolved on the first
    /// read, the same value afterwards.
    ///
    /// ```swift
    /// let database = try await lazyDatabase.valueAsync()
    /// ```
    public func valueAsync(isolation: isolated (any Actor)? = #isolation) async throws -> Value {
        while true {
            let claim: Claim = lock.withLock {
                switch state {
                case .resolved(let value): return .resolved(value)
                case .resolving: return .wait
                case .unresolved:
                    state = .resolving(thread: nil, waiters: [])
                    return .resolve
                }
            }
            switch claim {
            case .resolved(let value): return value
            case .resolve:
                let value: Value
                do {
                    value = try await request.resolveAsync(isolation: isolation)
                } catch {
                    publish(nil)
                    throw error
                }
                publish(value)
                return value
            case .wait:
                await withCheckedContinuation { continuation in
                    let waiting = lock.withLock {
                        guard case .resolving(let thread, var waiters) = state else { return false }
                        waiters.append(continuation)
                        state = .resolving(thread: thread, waiters: waiters)
                        return true
                    }
                    if !waiting { continuation.resume() }
                }
            }
        }
    }

    private enum Claim {
        case resolved(Value)
        /// The caller resolves it, then publishes the outcome.
        case resolve
        /// Another reader resolves it (for a synchronous reader: this very thread).
        case wait
    }

    /// Under the lock, for a synchronous reader on `thread`: the value if there is one;
    /// otherwise waits for another thread's resolution, or claims it.
    private func claim(thread: ObjectIdentifier) -> Claim {
        while true {
            switch state {
            case .resolved(let value): return .resolved(value)
            case .unresolved:
                state = .resolving(thread: thread, waiters: [])
                return .resolve
            case .resolving(let owner, _):
                if owner == thread { return .wait }
                lock.wait()
            }
        }
    }

    /// Stores a resolved value (nil after a failure: nothing, for the next reader to try
    /// again) and wakes every waiter.
    private func publish(_ value: Value?) {
        let waiters: [CheckedContinuation<Void, Never>] = lock.withLock {
            defer { lock.broadcast() }
            guard case .resolving(_, let waiters) = state else { return [] }
            state = value.map { .resolved($0) } ?? .unresolved
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
