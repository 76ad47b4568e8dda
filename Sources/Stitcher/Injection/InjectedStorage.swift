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

import Atomics

/// The shared, thread-safe state behind an ``Injected`` property.
///
/// The first read resolves the value exactly once, even when many threads read at the same
/// time. The first value is then published through a set-once atomic reference, so reads
/// take no lock; once the value has been reloaded, reads go through the lock.
final class InjectedStorage<Value>: @unchecked Sendable {
    private let resolver: @Sendable () throws -> Value
    private let file: StaticString
    private let line: UInt
    private let firstValue = UnsafeAtomicLazyReference<ValueBox<Value>>.create()
    private let isReloaded = UnsafeAtomic<Bool>.create(false)
    /// Shared with other storages and slots; held only for a few instructions.
    private var lock: Lock {
        runtime.stripedLock(for: self)
    }
    private var value: Value?
    private var loadingThread: pthread_t?
    private var subscription: AnyCancellable?

    init(file: StaticString, line: UInt, resolver: @escaping @Sendable () throws -> Value) {
        self.resolver = resolver
        self.file = file
        self.line = line
    }

    deinit {
        subscription?.cancel()
        firstValue.destroy()
        isReloaded.destroy()
    }

    /// The kept value, resolving it on first use; a failure stops the program naming the
    /// property's declaration.
    var wrappedValue: Value {
        if !isReloaded.load(ordering: .acquiring), let box = firstValue.load() {
            return box.value
        }
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

    /// Reloads after every change of the graph, until the owner of the property is released.
    func autoreload() {
        let context = DependencyGraph.currentContext
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
                    isReloaded.store(true, ordering: .releasing)
                } else {
                    _ = firstValue.storeIfNilThenLoad(ValueBox(resolved))
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
final class ValueBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
