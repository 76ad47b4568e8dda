/// Memory for values that every lookup reads, kept alone on their cache line.
///
/// A small heap block shares its line with whatever the allocator puts next to it, possibly
/// an instance whose reference count threads keep changing: every read of the value would
/// then wait for that line to move between cores. 128 bytes: some processors fetch lines
/// in pairs.
enum CacheLine {
    private static let size = 128

    /// A pointer to `value`, alone on its cache line; release it with `deallocate(_:)`.
    static func allocate<T>(_ value: T) -> UnsafeMutablePointer<T> {
        precondition(MemoryLayout<T>.stride <= size && MemoryLayout<T>.alignment <= size)
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: size).bindMemory(to: T.self, capacity: 1)
        pointer.initialize(to: value)
        return pointer
    }

    static func deallocate<T>(_ pointer: UnsafeMutablePointer<T>) {
        pointer.deinitialize(count: 1)
        UnsafeMutableRawPointer(pointer).deallocate()
    }
}
