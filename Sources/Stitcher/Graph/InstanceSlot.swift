import Atomics

/// Where the graph keeps the instances of one registration, and how it makes sure each is
/// built exactly once.
///
/// A singleton or managed registration without parameters publishes its instance through a
/// set-once atomic reference: once it exists, reading it takes no lock. Such a slot is never
/// cleared; resetting a managed scope gives the registration a new slot instead. Shared
/// (weakly held) instances and instances stored per parameter values live in a small
/// dictionary behind the slot's own lock.
///
/// Creation is once-only per key: the first resolution marks the key as being built and runs
/// the factory without holding any lock; others wait for it. A factory that throws leaves
/// nothing stored, and the waiters try again.
final class InstanceSlot: @unchecked Sendable {
    private let published = UnsafeAtomicLazyReference<AnyObject>.create()
    /// Shared with other slots: waiters are woken by any slot's broadcast and re-check.
    private var lock: Lock {
        runtime.stripedLock(for: self)
    }
    private var stored: [ArgumentKey: Stored] = [:]
    private var builders: [ArgumentKey: ResolutionChain] = [:]

    private enum Stored {
        case strong(AnyObject)
        case weak(WeakObject)
    }

    deinit { published.destroy() }

    /// The instance (in stored form) published without a lock, if any.
    @inline(__always)
    var publishedInstance: AnyObject? { published.load() }

    /// Returns the stored instance for `key`, or builds, stores and returns one.
    ///
    /// - Parameters:
    ///   - strongly: whether the instance is kept strongly (singleton, managed) or weakly (shared).
    ///   - chain: the resolution asking, to detect waits that would deadlock.
    ///   - cycle: the error to throw when waiting would deadlock.
    func instance(
        for key: ArgumentKey,
        strongly: Bool,
        record: RegistrationRecord,
        chain: ResolutionChain,
        cycle: () -> InjectionError,
        make: () throws -> AnyObject
    ) throws -> AnyObject {
        let usesPublished = strongly && key.values.isEmpty
        lock.lock()
        while true {
            if let existing = usesPublished ? published.load() : storedInstance(for: key, record) {
                lock.unlock()
                return existing
            }
            guard let builder = builders[key] else { break }
            if builder !== chain {
                guard WaitRegistry.beginWaiting(chain, for: builder) else {
                    lock.unlock()
                    throw cycle()
                }
                lock.wait()
                WaitRegistry.endWaiting(chain)
            } else {
                // A sibling task of the same resolution is building it: wait for it.
                lock.wait()
            }
        }
        builders[key] = chain
        lock.unlock()

        let instance: AnyObject
        do {
            instance = try make()
        } catch {
            lock.withLock {
                builders[key] = nil
                lock.broadcast()
            }
            throw error
        }

        lock.withLock {
            if usesPublished {
                _ = published.storeIfNilThenLoad(instance)
            } else if strongly {
                stored[key] = .strong(instance)
            } else if let object = record.weakTarget(instance) {
                stored[key] = .weak(WeakObject(object))
            }
            builders[key] = nil
            lock.broadcast()
        }
        return instance
    }

    /// Drops weakly held entries whose instances were released.
    func pruneReleasedInstances() {
        lock.withLock {
            stored = stored.filter { entry in
                if case .weak(let reference) = entry.value { return reference.object != nil }
                return true
            }
        }
    }

    private func storedInstance(for key: ArgumentKey, _ record: RegistrationRecord) -> AnyObject? {
        switch stored[key] {
        case .strong(let instance): return instance
        case .weak(let reference): return reference.object.flatMap(record.restore)
        case nil: return nil
        }
    }
}

/// A weak reference to an instance of the shared scope.
final class WeakObject: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}

