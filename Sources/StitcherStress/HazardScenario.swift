import Atomics
import Stitcher

extension Scenarios {
    /// The reclamation primitive alone: readers follow a word a writer keeps replacing and
    /// retiring; every object poisons itself when freed, so a late reader sees it at once
    /// (under AddressSanitizer the read itself traps).
    static let hazard = Scenario(
        name: "hazard",
        summary: "3 threads follow a published word through hazard cells while 1 replaces and retires its object"
    ) { runner in
        let census = Census()
        let domain = HazardDomain()
        typealias Storage = UnsafeAtomic<UnsafeMutableRawPointer?>.Storage
        let storage = UnsafeMutablePointer<Storage>.allocate(capacity: 1)
        storage.initialize(to: Storage(Unmanaged.passRetained(Svc(tag: 0, census: census) as AnyObject).toOpaque()))
        let address = UnsafeSendablePointer(UnsafeMutableRawPointer(storage))
        let replace: Runner.Step = { random in
            let word = UnsafeAtomic<UnsafeMutableRawPointer?>(at: address.pointer.assumingMemoryBound(to: Storage.self))
            let tag = Int.random(in: 1...1000, using: &random)
            let next = Unmanaged.passRetained(Svc(tag: tag, census: census) as AnyObject).toOpaque()
            if let old = word.exchange(next, ordering: .sequentiallyConsistent) {
                domain.retire(Unmanaged<AnyObject>.fromOpaque(old))
            }
        }
        func reader(_ cell: HazardCell) -> Runner.Step {
            { _ in
                for _ in 0..<64 {
                    guard let object = cell.retain(publishedIn: address.pointer) else { throw StressFailure("the word was empty") }
                    try (object as! Svc).check("a followed object", tags: 0...1000)
                }
            }
        }
        var outcome = runner.run([
            ("replace", replace), ("read", reader(domain.makeCell())), ("read", reader(domain.makeCell())),
            ("read", reader(domain.makeCell())),
        ])
        let word = UnsafeAtomic<UnsafeMutableRawPointer?>(at: storage)
        if let last = word.exchange(nil, ordering: .sequentiallyConsistent) { domain.retire(Unmanaged<AnyObject>.fromOpaque(last)) }
        storage.deallocate()
        domain.releaseHeldBack()
        expectNothingAlive(census, &outcome)
        return outcome
    }
}

/// A raw pointer shared with worker threads (the word it points to is atomic).
struct UnsafeSendablePointer: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}
