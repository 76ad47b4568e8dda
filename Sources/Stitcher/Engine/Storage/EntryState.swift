/// What an entry keeps behind its lock: instances stored per parameter values, builds in
/// progress and asynchronous resolutions suspended until a build completes.
final class EntryState {
    var stored = KeyedSlots<IndexEntry.Stored>()
    var builders = KeyedSlots<EntryBuild>()
    var asyncWaiters: [CheckedContinuation<Void, Never>] = []

    var isEmpty: Bool { stored.isEmpty && builders.isEmpty && asyncWaiters.isEmpty }
}

/// One build of an entry's instance, which resolutions asking meanwhile wait for: they get
/// its instance even when the entry left the graph while it ran (it then stores nothing),
/// instead of each running the factory again. Read and written under the entry's lock.
final class EntryBuild {
    /// The resolution running the factory, for the waits' cycle detection.
    let chain: ResolutionChain
    /// Set when the build ends: the instance, or nil when the factory threw.
    var instance: AnyObject?
    var isDone = false

    init(chain: ResolutionChain) { self.chain = chain }
}

/// A weak reference to an instance of the shared scope.
///
/// Never changed once made, so that threads can read it concurrently.
final class WeakObject: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
