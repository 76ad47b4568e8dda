/// A `.scoped` dependency that wants to release what it holds when its dependency scope ends.
///
/// When the scope ends (its body returned, threw, or its task was cancelled), the graph calls
/// `tearDown()` once on each instance the scope built that conforms, newest first, so that
/// an instance is torn down before the instances it depends on. A teardown that throws does
/// not stop the others; the failures are reported as a ``ScopeTeardownError``.
///
/// ```swift
/// final class RequestTransaction: TeardownAware {
///     func tearDown() throws { try connection.rollbackIfOpen() }
/// }
/// ```
public protocol TeardownAware {
    /// Releases what the instance holds; called once, when its dependency scope ends.
    func tearDown() throws
}

/// A `.scoped` dependency whose teardown is asynchronous (closing a connection, flushing a
/// buffer).
///
/// Awaited when a scope opened with `await DependencyGraph.withScope { … }` ends, newest
/// instance first, like ``TeardownAware``. A synchronous scope cannot await it: it starts the
/// teardown in a task of its own and reports a ``ScopeTeardownError`` that says so.
///
/// ```swift
/// final class RequestConnection: AsyncTeardownAware {
///     func tearDown() async throws { try await connection.close() }
/// }
/// ```
public protocol AsyncTeardownAware {
    /// Releases what the instance holds; called once, when its dependency scope ends.
    func tearDown() async throws
}
