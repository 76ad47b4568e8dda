import Atomics

/// A dependency injected now and resolved when first read: inject `Lazy<T>` wherever `T`
/// can be injected, and read ``value`` when you need it.
///
/// Nothing is built when the `Lazy` is injected. The first read of ``value`` resolves `T`
/// (exactly as injecting `T` would, with the parameters given to the injection), and every
/// later read returns that same value. Reads from several threads at once resolve once: the
/// others wait for the first (a read made inside a factory does not wait, which could
/// deadlock: it resolves on its own and stores nothing). A read that throws stores nothing,
/// and the next one tries again.
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
    /// Set (releasing) once `_resolvedValue` is written, never cleared: a read after the
    /// first is an acquiring load and a copy, with no lock, inlined into the reader.
    @usableFromInline let _isResolved = ManagedAtomic<Bool>(false)
    /// Written once, under the lock, before `_isResolved`; read after `_isResolved` reads true.
    @exclusivity(unchecked) @usableFromInline var _resolvedValue: Value?
    /// The resolution in progress, if any: the thread running it (nil: asynchronous code)
    /// and the asynchronous readers waiting for it. Read and written under the lock.
    @exclusivity(unchecked) private var resolution: (thread: ObjectIdentifier?, waiters: [CheckedContinuation<Void, Never>])?

    /// A lock shared with other objects (nothing is resolved while it is held).
    private var lock: ProcessLifetimeLock { runtime.stripedLock(for: self) }

    init(request: DeferredRequest) { self.request = request }

    /// The dependency: resolved on the first read, the same value afterwards.
    ///
    /// - Throws: what injecting it throws (nothing registered, a failing factory…), or
    ///   ``DeferredInjectionError`` once its graph or scope has ended.
    @inlinable
    public var value: Value {
        get throws {
            if _isResolved.load(ordering: .acquiring) { return _resolvedValue.unsafelyUnwrapped }
            return try _resolveOnce()
        }
    }

    /// The first read, or a read that raced with it.
    @usableFromInline @inline(never)
    func _resolveOnce() throws -> Value {
        let thread = ObjectIdentifier(ThreadState.current)
        switch lock.withLock({ claim(thread: thread) }) {
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
            // Read again by the resolution this thread runs (the engine reports the cycle,
            // or returns the stored instance), or inside a build while another thread
            // resolves it: resolved without storing.
            return try request.resolve()
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
            if _isResolved.load(ordering: .acquiring) { return _resolvedValue.unsafelyUnwrapped }
            switch lock.withLock({ claim(thread: nil) }) {
            case .resolved(let value):
                return value
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
                        guard resolution != nil else { return false }
                        resolution!.waiters.append(continuation)
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

    /// Under the lock, for a reader on `thread` (nil: asynchronous code): the value if there
    /// is one; otherwise the resolution, claimed. With one in progress, a synchronous reader
    /// of another thread waits for it to end and looks again; an asynchronous reader, or the
    /// thread running it, is told to `.wait`.
    private func claim(thread: ObjectIdentifier?) -> Claim {
        while true {
            if _isResolved.load(ordering: .relaxed) { return .resolved(_resolvedValue.unsafelyUnwrapped) }
            guard let resolution else {
                self.resolution = (thread, [])
                return .resolve
            }
            // Asynchronous readers, and the thread running the resolution, do not block; nor
            // does a read made inside a build, whose waiting could close a cycle between
            // threads that no one would see (it resolves on its own, storing nothing).
            if thread == nil || resolution.thread == thread || !ThreadState.current.frames.isEmpty { return .wait }
            lock.wait()
        }
    }

    /// Stores a resolved value (nil after a failure: nothing, for the next reader to try
    /// again) and wakes every waiter.
    private func publish(_ value: Value?) {
        let waiters: [CheckedContinuation<Void, Never>] = lock.withLock {
            defer { lock.broadcast() }
            let waiters = resolution?.waiters ?? []
            resolution = nil
            if let value {
                _resolvedValue = value
                _isResolved.store(true, ordering: .releasing)
            }
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
