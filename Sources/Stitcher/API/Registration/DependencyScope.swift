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

    /// `.shared` for reference types and `.instance` for value types.
    @inlinable
    public static func automatic<T>(for type: T.Type) -> DependencyScope {
        isReferenceType(type) ? .shared : .instance
    }

    /// Whether instances of this scope are stored by the graph.
    var storesInstances: Bool {
        if case .instance = self { return false }
        return true
    }

    public var description: String {
        switch self {
        case .instance: "instance"
        case .shared: "shared"
        case .singleton: "singleton"
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
        case let (.managed(a), .managed(b)): a === b
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
