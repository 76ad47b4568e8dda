import Atomics

/// One active registration: its record, the container it belongs to, and where the graph
/// keeps its instances and makes sure each is built exactly once.
///
/// An entry lives as long as its registration stays active: republishing the index keeps
/// it, with its instances; resetting a managed scope replaces it.
///
/// Instances of registrations without parameters are published in atomic words kept as the
/// entry's elements (a `ManagedBuffer`, so that they cost no allocation of their own and
/// their address is the API's, which readers hand to C):
/// - a singleton or managed instance, set once and read with a single load; such an entry
///   is never cleared: resetting a managed scope gives the registration a new entry;
/// - the weak reference of a shared instance, replaced when the instance was released and a
///   new one is built. Readers follow it without a lock, announcing it in their thread's
///   hazard cell so that a replaced reference is not released under them (`HazardDomain`).
///   A singleton or managed entry, which has no weak reference, keeps in this word instead
///   the view of its instance as the protocol it is injected as (`publishedView`), set
///   once.
///
/// What is kept behind the lock (instances per parameter values, builds in progress) lives
/// in a `EntryState` made when first needed and dropped when empty, in a third word: most
/// registrations never need one.
///
/// Readers follow the published instance, too, under a hazard announcement: an entry that
/// leaves the graph (its container deactivated, its managed scope reset, its graph ended)
/// is *retired*, which detaches its instances and retires them through the hazard domain,
/// although threads that cached an older index snapshot may keep the entry itself (one
/// snapshot per thread at most: a retired entry links to nothing, so nothing accumulates
/// behind it). A retired entry stores nothing more: a build that finishes after retirement
/// goes to its caller and the callers waiting for that build; a later request finds the
/// registration's current entry in the current index (`GraphEngine.storedInstance`).
///
/// **Reclamation rule.** The entry: held strongly by the snapshots that list it (and the
/// active container); freed when the last goes, when no reader can reach it. Its published
/// instance, view and weak box: read only through `HazardCell`, unpublished under the lock
/// and retired through `HazardDomain` (docs/Reclamation.md).
///
/// Creation is once-only per key (`IndexEntry+Building.swift`): the first resolution marks
/// the key as being built and runs the factory without holding any lock; others wait for it.
/// A factory that throws leaves nothing stored, and the waiters try again.
///
final class IndexEntry: ManagedBuffer<IndexEntry.Identity, EntryWord.Storage> {
    typealias Word = EntryWord

    /// What an entry is made with, kept as the buffer's header: never changed, so that any
    /// thread may read it without a count.
    struct Identity {
        /// The registration.
        let record: RegistrationRecord
        /// The active container the registration belongs to: with the registration's
        /// identity, what tells two registrations apart on a resolution path that crosses
        /// graphs.
        let owner: ObjectIdentifier
    }

    /// The registration. Read through the header's address: `header` is a stored `var`,
    /// whose every access the runtime would check for exclusivity.
    ///
    /// A reference read from a `var` is counted while it is used across a call, which a
    /// `let` of a final class is not; where that matters (every build), `withRecord(_:)`.
    @inline(__always)
    var record: RegistrationRecord { withUnsafeMutablePointerToHeader { $0.pointee.record } }

    /// Calls `body` with the registration, borrowed without counting a reference: the
    /// entry, which the caller holds, holds the record and never replaces it.
    @inline(__always)
    func withRecord<R>(_ body: (RegistrationRecord) throws -> R) rethrows -> R {
        try Unmanaged.passUnretained(record)._withUnsafeGuaranteedRef(body)
    }

    /// The active container the registration belongs to (see `Identity.owner`).
    @inline(__always)
    var owner: ObjectIdentifier { withUnsafeMutablePointerToHeader { $0.pointee.owner } }

    /// A new entry for `record`, of the active container `owner`, holding no instance.
    ///
    /// Its atomic words are the buffer's elements (`ManagedBuffer`, whose elements' address
    /// is the API's own, not a layout this code assumes): the three of every entry, and for a
    /// registration built in dependency scopes (`.scoped`) a fourth holding `serial`.
    static func make(record: RegistrationRecord, owner: ObjectIdentifier) -> IndexEntry {
        let numbered = record.lifetime.needsOpenScope
        let buffer = create(minimumCapacity: numbered ? 4 : 3) { _ in Identity(record: record, owner: owner) }
        let entry = unsafeDowncast(buffer, to: IndexEntry.self)
        entry.withUnsafeMutablePointerToElements { words in
            words.initialize(repeating: Word.Storage(nil), count: 3)
            if numbered {
                (words + serialWord).initialize(to: Word.Storage(UnsafeMutableRawPointer(bitPattern: ThreadState.nextEntrySerial())))
            }
        }
        #if DEBUG
        live.wrappingIncrement(ordering: .relaxed)
        #endif
        return entry
    }

    /// A number no other entry of the process has, ever: what a dependency scope's slot
    /// names its entry by without holding it (an address can be reused once an entry is
    /// released; a count written by every build would be a line every core fights for).
    /// Only a `.scoped` registration's entry has one: no other is kept in a scope's slots
    /// (checked in debug builds; read on every scoped lookup, so not in release ones).
    @inline(__always)
    var serial: Int {
        assert(withRecord(\.lifetime.needsOpenScope), "only an entry built in dependency scopes is numbered")
        return Int(bitPattern: word(Self.serialWord).load(ordering: .relaxed))
    }

    enum Stored {
        case strong(AnyObject)
        case weak(WeakObject)
    }

    private static let publishedWord = 0
    private static let sharedWord = 1
    private static let stateWord = 2
    private static let serialWord = 3

    #if DEBUG
    private static let live = ManagedAtomic<Int>(0)
    #endif

    /// How many entries are alive in the process, in checked builds (nil otherwise): what
    /// the stress stage checks stays bounded however many entries are renewed.
    static var liveCount: Int? {
        #if DEBUG
        live.load(ordering: .relaxed)
        #else
        nil
        #endif
    }

    deinit {
        // No snapshot lists the entry any more: no reader can reach its words. They hold
        // addresses and numbers only: nothing to deinitialize but what they retain.
        #if DEBUG
        Self.live.wrappingDecrement(ordering: .relaxed)
        #endif
        if let instance = published.load(ordering: .acquiring) { Unmanaged<AnyObject>.fromOpaque(instance).release() }
        if let box = shared.load(ordering: .acquiring) { Unmanaged<AnyObject>.fromOpaque(box).release() }
        if let state = Self.state(inBits: stateBits) { state.release() }
    }

    /// Where a published word is, for `HazardCell` (which reads it in C).
    @inline(__always)
    private func address(ofWord index: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(element(index))
    }

    /// Where word `index` is: the elements live as long as the entry, which the caller holds.
    @inline(__always)
    private func element(_ index: Int) -> UnsafeMutablePointer<Word.Storage> {
        withUnsafeMutablePointerToElements { $0 + index }
    }

    /// Whether this entry and `other` stand for the same registration of the same container.
    @inline(__always)
    func isSameRegistration(as other: IndexEntry) -> Bool {
        self === other
            || (record.identityHash == other.record.identityHash && owner == other.owner
                && record.identity == other.record.identity)
    }

    /// A fresh entry for the same registration, holding no instance. The two are not
    /// linked: a thread that reaches this one once it is retired looks the registration up
    /// in the current index instead (see `GraphEngine.storedInstance`), so that renewals,
    /// however many, leave no chain behind.
    func renewed() -> IndexEntry {
        IndexEntry.make(record: record, owner: owner)
    }

    /// Shared with other entries: waiters are woken by any entry's broadcast and re-check.
    var lock: ProcessLifetimeLock { runtime.stripedLock(for: self) }

    @inline(__always)
    private func word(_ index: Int) -> Word {
        Word(at: element(index))
    }

    /// The retained singleton or managed instance, set once. (The words are internal for
    /// `IndexEntry+Storing.swift`; nothing else touches them.)
    @inline(__always)
    var published: UnsafeAtomic<UnsafeMutableRawPointer?> { word(Self.publishedWord) }

    /// The retained `WeakObject` of the shared instance; for a singleton or managed entry,
    /// the retained view of its instance (see `publishedView`).
    @inline(__always)
    var shared: UnsafeAtomic<UnsafeMutableRawPointer?> { word(Self.sharedWord) }

    /// The state word: the `EntryState`'s address, with `retiredTag` set once the entry is
    /// retired. Changed only under the lock.
    var stateBits: UInt {
        UInt(bitPattern: word(Self.stateWord).load(ordering: .relaxed))
    }

    private func setStateBits(_ bits: UInt) {
        word(Self.stateWord).store(UnsafeMutableRawPointer(bitPattern: bits), ordering: .relaxed)
    }

    private static let retiredTag: UInt = 1

    private static func state(inBits bits: UInt) -> Unmanaged<EntryState>? {
        UnsafeRawPointer(bitPattern: bits & ~retiredTag).map { Unmanaged<EntryState>.fromOpaque($0) }
    }

    /// Whether the entry left the graph; the caller holds the lock.
    var isRetired: Bool { stateBits & Self.retiredTag != 0 }

    /// The state kept behind the lock, made if `creating`; the caller holds the lock.
    func state(creating: Bool) -> EntryState? {
        let bits = stateBits
        if let state = Self.state(inBits: bits) { return state.takeUnretainedValue() }
        guard creating else { return nil }
        let state = EntryState()
        setStateBits(UInt(bitPattern: Unmanaged.passRetained(state).toOpaque()) | (bits & Self.retiredTag))
        return state
    }

    /// Frees the state once it keeps nothing; the caller holds the lock.
    func dropStateIfEmpty() {
        let bits = stateBits
        guard let state = Self.state(inBits: bits), state._withUnsafeGuaranteedRef(\.isEmpty) else { return }
        setStateBits(bits & Self.retiredTag)
        state.release()
    }

    /// Marks the entry as having left the graph and detaches every instance it keeps: the
    /// published one and the shared one's weak box go to `unpublished`, for the caller to
    /// retire through the hazard domain (readers may be following them); instances kept per
    /// parameter values, read only under the lock, go to `released`. Builds in progress go on
    /// and hand their instance to their caller, storing nothing.
    func retire(unpublished: inout [Unmanaged<AnyObject>], released: inout [Any]) {
        lock.withLock {
            setStateBits(stateBits | Self.retiredTag)
            if let state = state(creating: false), !state.stored.isEmpty {
                released.append(state.stored)
                state.stored.removeAll()
                dropStateIfEmpty()
            }
            if let instance = published.exchange(nil, ordering: .acquiringAndReleasing) {
                unpublished.append(Unmanaged.fromOpaque(instance))
            }
            if let box = shared.exchange(nil, ordering: .acquiringAndReleasing) {
                unpublished.append(Unmanaged.fromOpaque(box))
            }
        }
    }

    /// The singleton or managed instance (in stored form), read without a lock, if any.
    /// `hazard` is the calling thread's cell: retirement may unpublish the instance at any
    /// moment, so it is announced, confirmed and retained before the announcement ends.
    @inline(__always)
    func publishedInstance(_ hazard: HazardCell) -> AnyObject? {
        hazard.retain(publishedIn: address(ofWord: Self.publishedWord))
    }

    /// The singleton or managed instance presented as the protocol it is injected as (a
    /// `TypedBox` of the existential), read without a lock as `publishedInstance` is.
    @inline(__always)
    func publishedView(_ hazard: HazardCell) -> AnyObject? {
        hazard.retain(publishedIn: address(ofWord: Self.sharedWord))
    }

    /// Keeps `view` as the published instance's view, unless one is kept already or the
    /// entry left the graph; returns the view kept (or `view`, for its caller only).
    func publish(view: AnyObject) -> AnyObject {
        lock.withLock {
            if isRetired { return view }
            if let kept = shared.load(ordering: .acquiring) { return Unmanaged<AnyObject>.fromOpaque(kept).takeUnretainedValue() }
            let retained = Unmanaged.passRetained(view).toOpaque()
            RetiredAddresses.republished(retained)
            shared.store(retained, ordering: .releasing)
            return view
        }
    }

    /// The object a shared registration without parameters holds, if it is still alive,
    /// read without a lock. `hazard` is the calling thread's cell.
    @inline(__always)
    func sharedObject(_ hazard: HazardCell) -> AnyObject? {
        hazard.strongObject(inBoxPublishedIn: address(ofWord: Self.sharedWord))
    }
}

/// An entry's atomic word (see `IndexEntry`).
typealias EntryWord = UnsafeAtomic<UnsafeMutableRawPointer?>

/// `IndexEntry.liveCount`, for the stress stage.
package func liveIndexEntryCount() -> Int? { IndexEntry.liveCount }
