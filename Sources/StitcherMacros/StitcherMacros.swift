@_exported import Stitcher

/// The kind of type that declares an `@InjectedParameters` initializer: a class's overload
/// is a `convenience` initializer.
public enum InjectedParametersParent: Sendable {
    case classParent, structParent, actorParent, enumParent
}

/// How `@InjectedParameters` locates each injected parameter.
public enum InjectedParametersStrategy: Sendable {
    /// By the parameter's type.
    case stitcherByType
    /// By the parameter's name (its internal name).
    case stitcherByName
}

/// Adds an overload of an initializer or function without its injected parameters, which
/// it resolves from the dependency graph when called.
///
/// Parameters named in `ignoring` stay in the overload and are forwarded. The overload keeps
/// the access level, `static`, `mutating`, `async` and `throws`; a throwing declaration
/// propagates injection errors, one that cannot throw stops the program with the error.
///
/// ```swift
/// final class UploadViewModel {
///     @InjectedParameters
///     init(session: NetworkingSession) { … }
///     // adds: convenience init() { self.init(session: try! DependencyGraph.inject(byType: NetworkingSession.self)) }
///
///     @InjectedParameters(ignoring: "file")
///     func upload(file: URL, session: NetworkingSession) throws { … }
///     // adds: func upload(file: URL) throws { return try upload(file: file, session: try DependencyGraph.inject(byType: NetworkingSession.self)) }
/// }
/// ```
@attached(peer, names: overloaded)
public macro InjectedParameters(
    parent: InjectedParametersParent = .classParent,
    strategy: InjectedParametersStrategy = .stitcherByType,
    ignoring: String...
) = #externalMacro(module: "StitcherMacrosPlugin", type: "InjectedParametersMacro")

/// Marks the initializer that `@Registerable` registers, when a type has several.
///
/// When several are marked, the one with the fewest parameters is used. The initializer that
/// `@InjectedParameters` generates counts as marked, so a type whose initializer injects its
/// dependencies registers through the generated one (no instantiation parameters).
///
/// ```swift
/// @Registerable
/// struct Greeter {
///     @PreferredInitializer init(language: String) { … }
///     init() { … }
/// }
/// ```
@attached(peer)
public macro PreferredInitializer() = #externalMacro(module: "StitcherMacrosPlugin", type: "PreferredInitializerMacro")

/// Adds `static var dependencyRegistration`, a `Dependency` built from the type's preferred
/// or only initializer, whose parameters become instantiation parameters, and conformances
/// to ``RegisterableDependency`` and ``AutoregisterableDependency``.
///
/// Located by name or value, the type also gets `dependencyName` or `dependencyValue`. An
/// `async` initializer makes an asynchronous factory: inject the type with
/// `try await DependencyGraph.injectAsync(…)`.
///
/// ```swift
/// @Registerable(by: .name("repository"), scope: .singleton)
/// final class Repository {
///     init(cache: Int) { … }
/// }
///
/// DependencyContainer { Repository.dependencyRegistration }
/// let repository: Repository = try DependencyGraph.inject(byName: Repository.dependencyName, 64)
/// ```
@attached(member, names: named(dependencyRegistration), named(dependencyName), named(dependencyValue))
@attached(extension, conformances: RegisterableDependency, AutoregisterableDependency)
public macro Registerable(
    by locator: DependencyLocator? = nil,
    scope: DependencyScope? = nil,
    eagerness: DependencyEagerness? = nil
) = #externalMacro(module: "StitcherMacrosPlugin", type: "RegisterableMacro")

/// A group of the registrations of the given `@Registerable` types.
///
/// ```swift
/// let container = DependencyContainer {
///     #registrations(Repository.self, UploadService.self, Clock.self)
/// }
/// ```
@freestanding(expression)
public macro registrations(_ types: Any.Type...) -> DependencyGroup =
    #externalMacro(module: "StitcherMacrosPlugin", type: "RegistrationsMacro")

/// A type that `@Registerable` gave a `dependencyRegistration`.
public protocol RegisterableDependency {
    associatedtype RegisteredDependency
    /// The registration built from the type's preferred initializer.
    static var dependencyRegistration: Dependency<RegisteredDependency> { get }
}

/// A type that `@Registerable` gave a `dependencyRegistration`, under StitcherMacros 1.1's
/// second name: every `@Registerable` type conforms to both protocols.
public protocol AutoregisterableDependency: RegisterableDependency {}
