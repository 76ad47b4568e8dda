#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// How long an instantiated dependency is kept and reused by the graph.
///
/// | Scope | Lifetime |
/// | - | - |
/// | `.instance` | A new instance for every injection. |
/// | `.shared` | Reused while something else holds a strong reference to it. |
/// | `.singleton` | Reused until its container is deactivated. |
/// | `.managed` | Reused until the managing scope is invalidated. |
/// | `.scoped` | Reused within one dependency scope, torn down when it ends. |
///
/// The default is ``automatic(for:)``: `.shared` for classes and `.instance` for value
/// types; `.shared` on a value type behaves as `.instance`.
///
/// ```swift
/// Dependency { Repository() }
///     .scope(.singleton)
///
/// Dependency { UserAccountManager() }
///     .scope(.managed(by: principalChangedPublisher))
/// ```
public enum DependencyScope: @unchecked Sendable, CustomStringConvertible {
    /// A new instance for every injection.
    case instance
    /// One instance, reused while it has strong references outside the graph.
    case shared
    /// One instance, kept until its container is deactivated.
    case singleton
    /// One instance, kept until the given scope reports that it was invalidated.
    ///
    /// (Boxed: the provider inline would make every scope, and every registration, 8 bytes
    /// larger.)
    indirect case managed(any ManagedDependencyScopeProviding)

    /// A managed scope that is invalidated every time `publisher` emits a value.
    public static func managed<P: Publisher>(by publisher: P) -> DependencyScope where P.Failure == Never {
        .managed(PublisherManagedScope(publisher))
    }

    /// A managed scope reset by `provider`, written like the publisher form.
    ///
    /// The same as `.managed(provider)`.
    ///
    /// ```swift
    /// Dependency { AccountRepository() }
    ///     .scope(.managed(by: principalDatasource))
    /// ```
    public static func managed(by provider: any ManagedDependencyScopeProviding) -> DependencyScope {
        .managed(provider)
    }

    /// One instance per dependency scope, released (and torn down, for instances that ask
    /// for it) when the scope ends.
    ///
    /// Open a scope per unit of work (an HTTP request, a job, a user session) with
    /// `DependencyGraph.withScope { … }`; injecting a `.scoped` dependency with no
    /// scope open throws ``DependencyScopeError``. So does a `.singleton`, `.managed` or
    /// `.shared` factory that injects one: it would keep the short-lived instance forever.
    ///
    /// (A static member rather than a case, so that code written for Stitcher 1.x that
    /// switches over every scope still compiles; `case .scoped:` matches it in a `switch`.)
    ///
    /// ```swift
    /// Dependency { RequestDatabaseSession() }.scope(.scoped)
    ///
    /// try await DependencyGraph.withScope {
    ///     let session: RequestDatabaseSession = try DependencyGraph.inject()
    /// }   // the session is torn down here
    /// ```
    public static var scoped: DependencyScope { .managed(ScopedLifetimeMarker.shared) }

    /// `.shared` for reference types and `.instance` for value types.
    @inlinable
    public static func automatic<T>(for type: T.Type) -> DependencyScope {
        isReferenceType(type) ? .shared : .instance
    }

    public var description: String {
        switch self {
        case .instance: "instance"
        case .shared: "shared"
        case .singleton: "singleton"
        case .managed(let provider) where provider is ScopedLifetimeMarker: "scoped"
        case .managed(let provider): "managed(\(type(of: provider)))"
        }
    }
}

extension DependencyScope: Equatable {
    /// Scopes are equal when they are the same case; managed scopes when their providers
    /// are the same object.
    public static func == (lhs: DependencyScope, rhs: DependencyScope) -> Bool {
        switch (lhs, rhs) {
        case (.instance, .instance), (.shared, .shared), (.singleton, .singleton): true
        case (.managed(let a), .managed(let b)): a === b
        default: false
        }
    }
}

/// An object that tells the graph when the instances of a managed scope must be dropped.
///
/// The graph registers a callback for every registration using the scope when its container
/// is activated, and cancels the receipt when the container is deactivated.
///
/// ```swift
/// final class SessionScope: ManagedDependencyScopeProviding {
///     private let subject = PassthroughSubject<Void, Never>()
///     func endSession() { subject.send() }
///     func onScopeInvalidated(perform action: @escaping @Sendable () -> Void)
///         -> any ManagedDependencyScopeReceipt {
///         subject.sink { action() }
///     }
/// }
/// ```
public protocol ManagedDependencyScopeProviding: AnyObject {
    /// Registers `action`, to be called every time the scope is invalidated.
    func onScopeInvalidated(perform action: @escaping @Sendable () -> Void) -> any ManagedDependencyScopeReceipt
}

/// A registration made with ``ManagedDependencyScopeProviding/onScopeInvalidated(perform:)``,
/// cancelled when it is no longer needed.
public protocol ManagedDependencyScopeReceipt {
    /// Stops calling the registered action.
    func cancel()
}

extension AnyCancellable: ManagedDependencyScopeReceipt {}

/// A managed scope invalidated by the values of a publisher.
final class PublisherManagedScope: ManagedDependencyScopeProviding, @unchecked Sendable {
    private let publisher: AnyPublisher<Void, Never>

    init<P: Publisher>(_ publisher: P) where P.Failure == Never {
        self.publisher = publisher.map { _ in () }.eraseToAnyPublisher()
    }

    func onScopeInvalidated(perform action: @escaping @Sendable () -> Void) -> any ManagedDependencyScopeReceipt {
        publisher.sink { action() }
    }
}

/// What `.scoped` is made of: a managed scope that the graph never asks to invalidate, since
/// dependency scopes, not the registration, decide how long its instances live.
final class ScopedLifetimeMarker: ManagedDependencyScopeProviding, Sendable {
    static let shared = ScopedLifetimeMarker()

    func onScopeInvalidated(perform action: @escaping @Sendable () -> Void) -> any ManagedDependencyScopeReceipt {
        NoReceipt()
    }

    private struct NoReceipt: ManagedDependencyScopeReceipt {
        func cancel() {}
    }
}
