/// Wraps or adjusts every instance of a type that other containers register, while the
/// container that lists it is active: a test wraps the app's real `any APIClient` in a
/// recording spy without registering it again.
///
/// A decoration applies to every registration that answers `T` in the graph where its
/// container is active (`T` is the type it produces, or a protocol it `conforms(to:)`),
/// whichever container registers it and whichever registration wins after overriding.
/// Injected as `T`, such a registration hands out what `decorate` returned; injected as
/// its own type, it hands out the undecorated instance, so that code holding the concrete
/// type keeps working. `decorate` runs once per new instance of the registration (once for
/// a singleton), inside the same build; it may inject, and what it throws fails the
/// injection. Several decorations of one type apply in the order their containers were
/// activated. Deactivating the container removes the decoration.
///
/// ``DependencyGraph/activeRegistrations`` lists the containers that decorate a
/// registration (`decoratedBy`), ``DependencyGraph/export(_:_:)`` draws each decoration in
/// its container's cluster with an edge to what it decorates, and
/// ``DependencyGraph/verify(_:)`` notes a decoration that matches no registration.
///
/// ```swift
/// protocol APIClient: Sendable { func fetch() -> String }
/// final class LiveAPIClient: APIClient { func fetch() -> String { "live" } }
/// final class RecordingAPIClient: APIClient, @unchecked Sendable {
///     let wrapped: any APIClient
///     var calls = 0
///     init(wrapping wrapped: any APIClient) { self.wrapped = wrapped }
///     func fetch() -> String { calls += 1; return wrapped.fetch() }
/// }
///
/// let spy = DependencyContainer(name: "Spy") {
///     Decoration(of: (any APIClient).self) { client in RecordingAPIClient(wrapping: client) }
/// }
/// ```
///
/// To decorate one registration where it is declared, use ``Dependency/decorated(_:)``.
public struct Decoration<T>: Sendable {
    let record: RegistrationRecord

    /// A decoration of every registration answering `type`.
    ///
    /// - Parameters:
    ///   - type: the type or protocol decorated, such as `(any APIClient).self`.
    ///   - decorate: returns the instance to hand out in place of the one it is given.
    public init(of type: T.Type = T.self, _ decorate: @escaping @Sendable (T) throws -> T) {
        record = DecorationKey.record(decorating: type, decorate)
    }
}

extension DependencyRegistrarBuilder {
    /// Lists a ``Decoration`` in a container.
    public static func buildExpression<T>(_ decoration: Decoration<T>) -> DependencyRegistrar {
        DependencyRegistrar(decoration.record)
    }
}
