import Atomics

/// Where the graph keeps the instances of one registration, and how it makes sure each is
/// built exactly once.
///
/// Instances of registrations without parameters are published in two atomic words stored
/// inline (the slot is a `ManagedBuffer`, so they cost no allocation of their own):
/// - a singleton or managed instance, set once and read with a single load; such a slot is
///   never cleared: resetting a managed scope gives the registration a new slot;
/// - the weak reference of a shared instance, replaced when the instance was released and a
///   new one is built. Readers follow it without a lock, announcing it in their thread's
///   hazard cell so that a replaced reference is not released under them (`HazardDomain`).
///
/// Instances stored per parameter values live in a small dictionary behind the slot's lock.
///
/// Creation is once-only per key: the first resolution marks the key as being built and runs
/// the factory without holding any lock; others wait for it. A factory that throws leaves
/// nothing stored, and the waiters try again.
///
/// Not `Sendable` as a type (`ManagedBuffer` cannot be); the entries and graph state that
/// hold slots are, and share them between threads.
final class InstanceSlot: ManagedBuffer<InstanceSlot.Header, UnsafeAtomic<UnsafeMutableRawPointer?>.Storage> {
    struct Header {
        var stored: [ArgumentKey: Stored] = [:]
        var builders: [ArgumentKey: ResolutionChain] = [:]
        /// Asynchronous resolutions suspended until a build in progress completes.
        var asyncWaiters: [CheckedContinuation<Void, Never>] = []
    }

    enum Stored {
        case strong(AnyObject)
        case weak(WeakObject)
    }

    private static let publishedWord = 0
    private static let sharedWord = 1

    static func make() -> InstanceSlot {
        let buffer = create(minimumCapacity: 2) { _ in Header() }
        buffer.withUnsafeMutablePointerToElements { words in
            (words + publishedWord).initialize(to: .init(nil))
            (words + sharedWord).initialize(to: .init(nil))
        }
        return unsafeDowncast(buffer, to: InstanceSlot.self)
    }

    deinit {
        if let instance = published.load(ordering: .acquiring) { Unmanaged<AnyObject>.fromOpaque(instance).release() }
        if let box = shared.load(ordering: .acquiring) { Unmanaged<WeakObject>.fromOpaque(box).release() }
    }

    /// Shared with other slots: waiters are woken by any slot's broadcast and re-check.
    private var lock: Lock { runtime.stripedLock(for: self) }

    /// The retained singleton or managed instance, set once.
    @inline(__always)
    private var published: UnsafeAtomic<UnsafeMutableRawPointer?> {
        UnsafeAtomic(at: withUnsafeMutablePointerToElements { $0 + Self.publishedWord })
    }

    /// The retained `WeakObject` of the shared instance.
    @inline(__always)
    private var shared: UnsafeAtomic<UnsafeMutableRawPointer?> {
        UnsafeAtomic(at: withUnsafeMutablePointerToElements { $0 + Self.sharedWord })
    }

    /// The singleton or managed instance (in stored form), read without a lock, if any.
    @inline(__always)
    var publishedInstance: AnyObject? {
        published.load(ordering: .acquiring).map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The object a shared registration without parameters holds, if it is still alive,
    /// read without a lock. `hazard` is the calling thread's cell.
    @inline(__always)
    func sharedObject(_ hazard: HazardCell) -> AnyObject? {
        let source = shared
        guard var box = source.load(ordering: .acquiring) else { return nil }
        while true {
            guard let confirmed = hazard.protect(box, publishedBy: source) else {
                hazard.clear()
                return nil
            }
            if confirmed == box {
                let object = Unmanaged<WeakObject>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.object }
                hazard.clear()
                return object
            }
            box = confirmed
        }
    }

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
        let lock = self.lock
        lock.lock()
        while true {
            if let existing = storedInstance(for: key, strongly: strongly, record) {
                lock.unlock()
                return existing
            }
            guard let builder = header.builders[key] else { break }
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
        header.builders[key] = chain
        lock.unlock()

        let instance: AnyObject
        do {
            instance = try make()
        } catch {
            complete(key, with: nil, strongly: strongly, record)
            throw error
        }
        complete(key, with: instance, strongly: strongly, record)
        return instance
    }

    /// `instance(for:…)` for asynchronous factories: waits for a build in progress by
    /// suspending instead of blocking the thread.
    func instance(
        for key: ArgumentKey,
        strongly: Bool,
        record: RegistrationRecord,
        chain: ResolutionChain,
        cycle: () -> InjectionError,
        make: () async throws -> AnyObject
    ) async throws -> AnyObject {
        let lock = self.lock
        while true {
            let (existing, builder): (AnyObject?, ResolutionChain?) = lock.withLock {
                if let existing = storedInstance(for: key, strongly: strongly, record) { return (existing, nil) }
                if let builder = header.builders[key] { return (nil, builder) }
                header.builders[key] = chain
                return (nil, nil)
            }
            if let existing { return existing }
            guard let builder else { break }
            if builder !== chain, !WaitRegistry.beginWaiting(chain, for: builder) { throw cycle() }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let stillBuilding = lock.withLock {
                    guard header.builders[key] != nil else { return false }
                    header.asyncWaiters.append(continuation)
                    return true
                }
                if !stillBuilding { continuation.resume() }
            }
            if builder !== chain { WaitRegistry.endWaiting(chain) }
        }
        let instance: AnyObject
        do {
            instance = try await make()
        } catch {
            complete(key, with: nil, strongly: strongly, record)
            throw error
        }
        complete(key, with: instance, strongly: strongly, record)
        return instance
    }

    /// Stores a built instance (none when the factory threw), releases the claim on `key`
    /// and wakes every waiter, blocked or suspended.
    private func complete(_ key: ArgumentKey, with instance: AnyObject?, strongly: Bool, _ record: RegistrationRecord) {
        let lock = self.lock
        let (replaced, waiters): (Unmanaged<AnyObject>?, [CheckedContinuation<Void, Never>]) = lock.withLock {
            let replaced = instance.flatMap { store($0, for: key, strongly: strongly, record) }
            header.builders[key] = nil
            lock.broadcast()
            defer { header.asyncWaiters.removeAll() }
            return (replaced, header.asyncWaiters)
        }
        if let replaced { runtime.hazards.retire(replaced) }
        for waiter in waiters { waiter.resume() }
    }

    /// Drops weak references whose instances were released.
    func pruneReleasedInstances() {
        let replaced: Unmanaged<AnyObject>? = lock.withLock {
            header.stored = header.stored.filter { entry in
                if case .weak(let reference) = entry.value { return reference.object != nil }
                return true
            }
            guard let box = shared.load(ordering: .acquiring),
                Unmanaged<WeakObject>.fromOpaque(box).takeUnretainedValue().object == nil
            else { return nil }
            return shared.exchange(nil, ordering: .sequentiallyConsistent).map { Unmanaged.fromOpaque($0) }
        }
        if let replaced { runtime.hazards.retire(replaced) }
    }

    /// The instance stored for `key`; the caller holds the lock.
    private func storedInstance(for key: ArgumentKey, strongly: Bool, _ record: RegistrationRecord) -> AnyObject? {
        if key.values.isEmpty {
            if strongly { return publishedInstance }
            // Under the lock no one replaces the reference: no need to announce it.
            return shared.load(ordering: .acquiring)
                .flatMap { Unmanaged<WeakObject>.fromOpaque($0).takeUnretainedValue().object }
                .flatMap(record.maker.restore)
        }
        switch header.stored[key] {
        case .strong(let instance): return instance
        case .weak(let reference): return reference.object.flatMap(record.maker.restore)
        case nil: return nil
        }
    }

    /// Stores a new instance for `key` and returns the weak reference it replaces, which the
    /// caller retires; the caller holds the lock.
    private func store(_ instance: AnyObject, for key: ArgumentKey, strongly: Bool, _ record: RegistrationRecord) -> Unmanaged<AnyObject>? {
        switch (key.values.isEmpty, strongly) {
        case (true, true):
            let retained = Unmanaged.passRetained(instance).toOpaque()
            if !published.compareExchange(expected: nil, desired: retained, ordering: .acquiringAndReleasing).exchanged {
                Unmanaged<AnyObject>.fromOpaque(retained).release()
            }
        case (true, false):
            guard let object = record.maker.weakTarget(instance) else { return nil }
            let box = Unmanaged.passRetained(WeakObject(object)).toOpaque()
            return shared.exchange(box, ordering: .sequentiallyConsistent).map { Unmanaged.fromOpaque($0) }
        case (false, true):
            header.stored[key] = .strong(instance)
        case (false, false):
            if let object = record.maker.weakTarget(instance) { header.stored[key] = .weak(WeakObject(object)) }
        }
        return nil
    }
}

/// A weak reference to an instance of the shared scope.
///
/// Never changed once made, so that threads can read it concurrently.
final class WeakObject: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
