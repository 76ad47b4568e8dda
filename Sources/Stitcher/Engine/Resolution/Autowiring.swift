/// How an autowired initializer's parameters get their values: each injected from the
/// graph by its type, or taken from the injection's runtime parameters when its type is
/// listed in `parameters:` (see `Dependency.init(autowiring:parameters:)`).
@usableFromInline
struct Autowiring {
    /// The value of the parameter at `position` (incremented first, from 1) of an
    /// initializer of `dependency` taking `count` parameters, injected by its type `A`.
    ///
    /// - Throws: ``AutowiringError`` naming the parameter, when injecting it fails.
    @inlinable
    static func inject<A>(_: A.Type, at position: inout Int, of count: Int, in dependency: Any.Type) throws -> A {
        position += 1
        do {
            return try DependencyGraph.inject(byType: A.self)
        } catch {
            throw failure(A.self, error, position: position, of: count, in: dependency)
        }
    }

    /// The runtime parameters not yet given to a parameter of the initializer, in order.
    private var runtime: [(type: TypeKey, value: Any)]
    /// The position of the initializer's next parameter, from 1.
    private var position = 0
    private let parameterCount: Int
    private let dependency: Any.Type

    /// An autowiring of an initializer of `dependency` taking `parameterCount` parameters,
    /// given the injection's runtime parameters `runtime` (their static types and values).
    init(of dependency: Any.Type, parameterCount: Int, runtime: [(type: TypeKey, value: Any)] = []) {
        self.dependency = dependency
        self.parameterCount = parameterCount
        self.runtime = runtime
    }

    /// The value of the initializer's next parameter, of type `A`: the first runtime
    /// parameter of exactly that type not given yet, or else one injected by type.
    ///
    /// - Throws: ``AutowiringError`` naming the parameter, when injecting it fails.
    mutating func next<A>(_: A.Type) throws -> A {
        if let value = takeRuntime(A.self) { return value }
        return try Self.inject(A.self, at: &position, of: parameterCount, in: dependency)
    }

    /// `next(_:)`, awaiting an asynchronous factory of the parameter.
    mutating func nextAsync<A>(_: A.Type) async throws -> A {
        if let value = takeRuntime(A.self) { return value }
        position += 1
        do {
            return try await DependencyGraph.injectAsync(byType: A.self)
        } catch {
            throw Self.failure(A.self, error, position: position, of: parameterCount, in: dependency)
        }
    }

    /// The first runtime parameter of exactly the type `A` not given yet, counted as the
    /// next parameter; nil when there is none.
    private mutating func takeRuntime<A>(_: A.Type) -> A? {
        guard let index = runtime.firstIndex(where: { $0.type.id == ObjectIdentifier(A.self) }) else { return nil }
        position += 1
        return (runtime.remove(at: index).value as! A)
    }

    /// Checks that every runtime parameter was given to a parameter of the initializer.
    ///
    /// - Throws: ``AutowiringError`` naming the first one left.
    func finish() throws {
        guard let left = runtime.first else { return }
        throw AutowiringError(
            dependency: String(describing: dependency), parameterCount: parameterCount,
            failure: .unmatchedRuntimeParameter(type: String(describing: left.type.type)))
    }

    /// What failing to inject the parameter throws: the engine's own signals (a cycle, a
    /// factory that must be awaited) pass through, as the resolution that catches them
    /// expects them; anything else names the parameter.
    @usableFromInline
    static func failure<A>(_: A.Type, _ error: any Error, position: Int, of count: Int, in dependency: Any.Type) -> any Error {
        switch error {
        case InjectionError.cyclicDependencyReference, InjectionError.unsupportedOperation: error
        default:
            AutowiringError(
                dependency: String(describing: dependency), parameterCount: count,
                failure: .uninjectable(position: position, type: String(describing: A.self), underlying: error))
        }
    }

    /// The types of the parameters an initializer taking `Parameter` injects from the graph
    /// when the types `runtime` come from the injection: each runtime type takes the first
    /// parameter of that type not taken yet.
    static func declaredDependencies(of parameters: [TypeKey], runtime: [TypeKey]) -> [TypeKey] {
        var remaining = runtime
        return parameters.filter { parameter in
            guard let index = remaining.firstIndex(of: parameter) else { return true }
            remaining.remove(at: index)
            return false
        }
    }
}
