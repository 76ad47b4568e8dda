import Atomics

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The shared, thread-safe state behind an ``Injected`` property.
///
/// The first read resolves the value exactly once, even when many threads read at the same
/// time. The first value is then published in one atomic word, so reads take no lock and,
/// being inlined into the caller, cost a load and a copy of the value; once the value has
/// been reloaded, reads go through the lock.
@usableFromInline
final class InjectedStorage<Value>: @unchecked Sendable {
    private let resolver: @Sendable () throws -> Value
    /// The graph the property was declared to inject from; nil for the current graph.
    private let context: DependencyGraph.Context?
    private let file: StaticString
    private let line: UInt
    /// The address of the first value's retained `ValueBox` (0 until loaded), with the low
    /// bit set once the value was reloaded.
    @usableFromInline let published = UnsafeAtomic<UInt>.create(0)
    /// Shared with other storages and index entries; held only for a few instructions.
    private var lock: ProcessLifetimeLock {
        runtime.stripedLock(for: self)
    }
    private var value: Value?
    private var loadingThread: pthread_t?
    private var subscription: AnyCancellable?

    init(
        file: StaticString, line: UInt, context: DependencyGraph.Context?,
        resolver: @escaping @Sendable () throws -> Value
    ) {
        if let context {
            self.resolver = { try context.run(resolver) }
        } else {
            self.resolver = resolver
        }
        self.context = context
        self.file = file
        self.line = line
    }

    deinit {
        subscription?.cancel()
        if let box = UnsafeRawPointer(bitPattern: published.load(ordering: .acquiring) & ~1) {
            Unmanaged<ValueBox<Value>>.fromOpaque(box).release()
        }
        published.destroy()
    }

    /// The kept value, resolving it on first use; a failure stops the program naming the
    /// property's declaration.
    @inlinable
    var wrappedValue: Value {
        let bits = published.load(ordering: .acquiring)
        if bits & 1 == 0, let box = UnsafeRawPointer(bitPattern: bits) {
            return Unmanaged<ValueBox<Value>>.fromOpaque(box)._withUnsafeGuaranteedRef { $0.value }
        }
        return loadedValue()
    }

    /// The kept value after a reload, or the value loaded now.
    @usableFromInline
    func loadedValue() -> Value {
        do {
            return try load(forcingReload: false)
        } catch {
            preconditionFailure("@Injected property failed to inject: \(error)", file: file, line: line)
        }
    }

    /// Resolves and keeps the value if none is kept, or if the kept one is nil or empty.
    func loadIfNeeded() throws {
        let isLoaded = lock.withLock { value.map { !isEmptyValue($0) } ?? false }
        if !isLoaded { _ = try load(forcingReload: true) }
    }

    /// Resolves the value again and keeps the result.
    func reload() throws {
        _ = try load(forcingReload: true)
    }

    /// Keeps `newValue` in place of the injected one, for this property only. A load in
    /// progress on another thread still completes, and its value then wins, as a reload
    /// would.
    @usableFromInline
    func assign(_ newValue: Value) {
        lock.withLock {
            // Reads go through the lock from now on (see `wrappedValue`): the published box,
            // set once, no longer holds the current value.
            _ = published.loadThenBitwiseOr(with: 1, ordering: .releasing)
            value = newValue
        }
    }

    /// Reloads after every change of the graph, until the owner of the property is released.
    func autoreload() {
        let context = self.context ?? DependencyGraph.currentContext
        let cancellable = context.graph.changes.sink { [weak self] _ in
            context.run { _ = try? self?.reload() }
        }
        lock.withLock { subscription = cancellable }
    }

    private func load(forcingReload: Bool) throws -> Value {
        let current = pthread_self()
        lock.lock()
        while true {
            if !forcingReload, let value {
                lock.unlock()
                return value
            }
            guard let loader = loadingThread else { break }
            if pthread_equal(loader, current) != 0 {
                lock.unlock()
                throw InjectionError.cyclicDependencyReference(.init(entries: [.type(String(describing: Value.self))]))
            }
            lock.wait()
            if forcingReload, let value {
                // Another thread reloaded while this one waited: its value is as fresh.
                lock.unlock()
                return value
            }
        }
        loadingThread = current
        lock.unlock()
        do {
            let resolved = try resolver()
            lock.withLock {
                if value != nil {
                    _ = published.loadThenBitwiseOr(with: 1, ordering: .releasing)
                } else {
                    let box = UInt(bitPattern: Unmanaged.passRetained(ValueBox(resolved)).toOpaque())
                    if !published.compareExchange(expected: 0, desired: box, ordering: .releasing).exchanged {
                        Unmanaged<ValueBox<Value>>.fromOpaque(UnsafeRawPointer(bitPattern: box)!).release()
                    }
                }
                value = resolved
                loadingThread = nil
                lock.broadcast()
            }
            return resolved
        } catch {
            lock.withLock {
                loadingThread = nil
                lock.broadcast()
            }
            throw error
        }
    }

    private func isEmptyValue(_ value: Value) -> Bool {
        (value as? any InjectableWrapper)?.isEmptyInjection ?? false
    }
}

/// A resolved value behind a class reference, for atomic publication.
@usableFromInline
final class ValueBox<Value>: @unchecked Sendable {
    @usableFromInline let value: Value
    init(_ value: Value) { self.value = value }
}
