import Foundation
import Stitcher

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    @discardableResult
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// A flag settable from any thread, for conditional registrations.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var state: Bool

    init(_ state: Bool) { self.state = state }

    var isOn: Bool {
        get { lock.lock(); defer { lock.unlock() }; return state }
        set { lock.lock(); state = newValue; lock.unlock() }
    }
}

/// Runs `body` on `count` threads at once and waits for all of them.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            start.wait()
            body(index)
            group.leave()
        }
    }
    for _ in 0..<count { start.signal() }
    group.wait()
}
