/// A way to get a dependency on demand: inject `Provider<T>` wherever `T` can be injected,
/// and call it each time you need a `T`.
///
/// Every call resolves `T` anew, as injecting `T` would: a new instance for an `.instance`
/// registration, the stored one for a singleton or a scoped one. Parameters go in the call
/// (`try makeUpload(photo)`); a call without parameters uses those given to the injection,
/// if any. ``callAsync(_:isolation:)`` awaits an asynchronous factory.
///
/// A `Provider` remembers the graph and the dependency scope it was injected from, and
/// resolves there wherever it is called: from another thread, task or scope. Called after
/// that graph or scope has ended, it throws ``DeferredInjectionError``.
///
/// ```swift
/// final class UploadQueue {
///     private let makeUpload: Provider<Upload>
///     init(makeUpload: Provider<Upload>) { self.makeUpload = makeUpload }
///
///     func enqueue(_ photo: Photo) throws -> Upload { try makeUpload(photo) }
/// }
///
/// let container = DependencyContainer {
///     Dependency { (photo: Photo) in Upload(photo: photo) }
///     Dependency(UploadQueue.init)
/// }
/// ```
///
/// Like ``Lazy``, a `Provider` edge is deferred: it breaks no cycle in `verify()`, and
/// composes with the other wrappers (`Provider<Service?>`, `Provider<[any Plugin]>`).
public struct Provider<Value>: Sendable {
    @usableFromInline let request: DeferredRequest

    init(request: DeferredRequest) { self.request = request }

    /// Resolves the dependency now, with `parameters` (or, when none are given, those of the
    /// injection).
    ///
    /// - Throws: what injecting it throws, or ``DeferredInjectionError`` once its graph or
    ///   scope has ended.
    @inlinable
    public func callAsFunction<each P>(_ parameters: repeat each P) throws -> Value {
        // Called where it was injected (the usual case): an injection by type, specialized
        // here, as `DependencyGraph.inject()` is.
        if InjectionArguments.isEmptyList(repeat (each P).self), request._injectsByType {
            if request._injectsFromProcessWideGraph,
                let object = try DependencyGraph.directObjectOutsideScopes(ofType: ObjectIdentifier(Value.self))
            {
                return DependencyGraph.directValue(object, as: Value.self)
            }
            if request._isInPlace() { return try DependencyGraph.inject(byType: Value.self, arguments: .none) }
        }
        return try _call(repeat each parameters)
    }

    /// `callAsFunction(_:)` anywhere else: in the graph and scope of the injection, bound.
    @usableFromInline
    func _call<each P>(_ parameters: repeat each P) throws -> Value {
        try request.resolve(StoredArguments(repeat each parameters))
    }

    /// Resolves the dependency now, awaiting its factory if it is asynchronous.
    ///
    /// ```swift
    /// let connection = try await makeConnection.callAsync(region)
    /// ```
    public func callAsync<each P>(
        _ parameters: repeat each P, isolation: isolated (any Actor)? = #isolation
    ) async throws -> Value {
        try await request.resolveAsync(StoredArguments(repeat each parameters), isolation: isolation)
    }
}
