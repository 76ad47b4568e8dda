/// Delivers graph changes to every `AsyncStream` created by ``DependencyGraph/graphChanges``.
final class GraphChangeBroadcast: @unchecked Sendable {
    private let continuations = Protected<[Int: AsyncStream<Void>.Continuation]>([:])
    private let nextID = Protected(0)

    func stream() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .unbounded)
        let id = nextID.withLock { id in
            id += 1
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.continuations.withLock { $0.removeValue(forKey: id) }
        }
        continuations.withLock { $0[id] = continuation }
        return stream
    }

    func yield() {
        for continuation in continuations.current.values { continuation.yield() }
    }
}
