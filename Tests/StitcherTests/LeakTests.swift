import Foundation
import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

private final class Held: @unchecked Sendable { init() {} }

/// Weak references to instances, collected from factories.
private final class WeakSet: @unchecked Sendable {
    private let lock = NSLock()
    private var references: [() -> AnyObject?] = []

    func track(_ object: AnyObject) {
        lock.lock()
        references.append { [weak object] in object }
        lock.unlock()
    }

    var alive: Int {
        lock.lock()
        defer { lock.unlock() }
        return references.filter { $0() != nil }.count
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return references.count
    }
}

@Suite(.isolatedDependencyGraph)
struct LeakTests {
    @Test func deactivationReleasesEveryInstanceAndTheContainer() throws {
        let instances = WeakSet()
        let scope = Unchecked(PassthroughSubject<Void, Never>())
        weak var weakContainer: DependencyContainer?
        do {
            let container = DependencyContainer {
                Dependency { () -> Held in
                    let held = Held()
                    instances.track(held)
                    return held
                }
                .named("singleton").scope(.singleton)
                Dependency { () -> Held in
                    let held = Held()
                    instances.track(held)
                    return held
                }
                .named("eager").scope(.singleton).eagerness(.eager)
                Dependency { () -> Held in
                    let held = Held()
                    instances.track(held)
                    return held
                }
                .named("managed").scope(.managed(by: scope.value))
                Dependency { (key: Int) -> Held in
                    let held = Held()
                    instances.track(held)
                    return held
                }
                .named("keyed").scope(.singleton)
            }
            .invalidated(tracking: scope.value)
            weakContainer = container
            DependencyGraph.activate(container)
            for name in ["singleton", "managed"] { _ = try DependencyGraph.inject(byName: name) as Held }
            for key in 0..<3 { _ = try DependencyGraph.inject(byName: "keyed", key) as Held }
            scope.value.send()
            _ = try DependencyGraph.inject(byName: "managed") as Held
            #expect(instances.alive >= 5, "stored while active")
            DependencyGraph.deactivate(container)
        }
        #expect(instances.count >= 7)
        #expect(instances.alive == 0)
        #expect(weakContainer == nil)
    }

    @Test func managedResetsReleaseThePreviousInstance() throws {
        let scope = Unchecked(PassthroughSubject<Void, Never>())
        DependencyGraph.activate(DependencyContainer { Dependency { Held() }.scope(.managed(by: scope.value)) })
        weak var first: Held?
        do { first = try DependencyGraph.inject(byType: Held.self) }
        #expect(first != nil)
        scope.value.send()
        _ = try DependencyGraph.inject(byType: Held.self) as Held
        #expect(first == nil)
    }

    #if os(Linux)
    /// Measured in a child process, so that tests running in parallel don't move the number.
    /// Not under sanitizers: AddressSanitizer's quarantine keeps freed memory resident.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["STITCHER_SANITIZER"] == nil))
    func transientInjectionsLeaveResidentMemoryFlat() async {
        await #expect(processExitsWith: .success) {
            final class Transient: @unchecked Sendable { let payload = [Int](repeating: 0, count: 8) }
            DependencyGraph.activate(DependencyContainer { Dependency { Transient() }.scope(.instance) })
            for _ in 0..<50_000 { _ = try DependencyGraph.inject(byType: Transient.self) as Transient }
            func resident() -> Int {
                guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
                    let pages = Int(text.split(separator: " ")[1])
                else { return 0 }
                return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
            }
            let before = resident()
            for _ in 0..<1_000_000 { _ = try DependencyGraph.inject(byType: Transient.self) as Transient }
            let growth = resident() - before
            if growth >= 4 << 20 {
                fatalError("resident memory grew by \(growth) bytes over 1,000,000 injections")
            }
        }
    }
    #endif
}
