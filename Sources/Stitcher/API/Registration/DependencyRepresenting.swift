/// A value that describes one dependency registration: how it is located, its scope, its
/// eagerness and the factory that instantiates it.
///
/// ``Dependency`` is the usual representation; conform your own types to register
/// dependencies in a reusable, self-describing way. Only `dependencyProvider` is required.
///
/// ```swift
/// struct RepositoryDependency: DependencyRepresenting {
///     var locator: DependencyLocator { .name("repository") }
///     var scope: DependencyScope { .singleton }
///     var eagerness: DependencyEagerness { .eager }
///     var dependencyProvider: DependencyFactory.Provider<Repository> {
///         DependencyFactory.Provider { Repository() }
///     }
/// }
///
/// let container = DependencyContainer {
///     RepositoryDependency()
/// }
/// ```
public protocol DependencyRepresenting<T> {
    /// The type of the instantiated dependency.
    associatedtype T

    /// How the dependency is located. Defaults to its type.
    var locator: DependencyLocator { get }
    /// How long instances are kept. Defaults to ``DependencyScope/automatic(for:)``.
    var scope: DependencyScope { get }
    /// When the dependency is instantiated. Defaults to ``DependencyEagerness/lazy``.
    var eagerness: DependencyEagerness { get }
    /// The factory that instantiates the dependency.
    var dependencyProvider: DependencyFactory.Provider<T> { get }
}

extension DependencyRepresenting {
    /// The dependency's own type.
    public var locator: DependencyLocator { .type(T.self) }
    /// `.automatic`: `.shared` for a class, `.instance` for a value.
    public var scope: DependencyScope { .automatic(for: T.self) }
    /// `.lazy`: built when first injected.
    public var eagerness: DependencyEagerness { .lazy }
}
