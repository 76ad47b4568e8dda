/// What an entry keeps behind its lock: instances stored per parameter values, builds in
/// progress and asynchronous resolutions suspended until a build completes.
final class EntryState {
    var stored = KeyedSlots<IndexEntry.Stored>()
    var builders = KeyedSlots<ResolutionChain>()
    var asyncWaiters: [CheckedContinuation<Void, Never>] = []
    /// The entry a renewal put in this one's place (see `IndexEntry.renewed()`).
    var successor: IndexEntry?

    var isEmpty: Bool { stored.isEmpty && builders.isEmpty && asyncWaiters.isEmpty && successor == nil }
}

/// A weak reference to an instance of the shared scope.
///
/// Never changed once made, so that threads can read it concurrently.
final class WeakObject: @unchecked Sendable {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
