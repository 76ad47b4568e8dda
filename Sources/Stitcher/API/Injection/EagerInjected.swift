/// A property injected from the dependency graph when its owner is initialized.
///
/// Where ``Injected`` waits for the first read, `@EagerInjected` resolves while the
/// enclosing instance is created, so a missing registration shows up at once, and every
/// read afterwards is a plain stored-property read. The property is mutable: assigning
/// replaces the injected value (a test can swap in a fake) without touching the graph.
/// If the value cannot be injected, initialization stops the program with a precondition
/// failure naming the property's file, line and the error; use `DependencyGraph.inject` to
/// handle errors instead. `Optional`, `Array` and `Set` properties give nil or an empty
/// collection when nothing is registered.
///
/// ```swift
/// final class CheckoutViewModel {
///     @EagerInjected var payments: PaymentService
///     @EagerInjected(name: "audit") var audit: AuditLog
///     @EagerInjected(value: Region.europe) var taxes: TaxTable
/// }
/// ```
@propertyWrapper
public struct EagerInjected<Value> {
    /// The dependency, injected when the owner was made (or the value assigned since).
    public var wrappedValue: Value

    init(key: LookupKey, arguments: StoredArguments, in context: DependencyGraph.Context? = nil, file: StaticString, line: UInt) {
        do {
            let resolve = { try arguments.withArguments { try GraphContext.current.resolve(key, $0) as Value } }
            wrappedValue = try context.map { try $0.run(resolve) } ?? resolve()
        } catch {
            preconditionFailure("@EagerInjected property failed to inject: \(error)", file: file, line: line)
        }
    }

    /// Injects the property by its type.
    ///
    /// ```swift
    /// @EagerInjected var payments: PaymentService
    /// ```
    public init(file: StaticString = #fileID, line: UInt = #line) {
        self.init(key: .type(TypeKey(Value.self)), arguments: .none, file: file, line: line)
    }

    /// Injects the property by its type, instantiating it with the given parameters.
    ///
    /// ```swift
    /// @EagerInjected(UserID(42)) var profile: ProfileService
    /// ```
    public init<First, each P>(
        _ first: First, _ parameters: repeat each P, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(
            key: .type(TypeKey(Value.self)), arguments: StoredArguments(first, repeat each parameters),
            file: file, line: line)
    }

    /// Injects the property by name (a `String`, a string-backed `RawRepresentable` or any
    /// `CustomStringConvertible`), with optional parameters.
    ///
    /// ```swift
    /// @EagerInjected(name: "audit") var audit: AuditLog
    /// ```
    public init<Name: CustomStringConvertible, each P>(
        name: Name, _ parameters: repeat each P, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(
            key: .name(name.description), arguments: StoredArguments(repeat each parameters),
            file: file, line: line)
    }

    /// Injects the property by the raw value of a string-backed name, with optional parameters.
    ///
    /// ```swift
    /// @EagerInjected(name: Services.audit, 7) var audit: AuditLog
    /// ```
    public init<Name: RawRepresentable, each P>(
        name: Name, _ parameters: repeat each P, file: StaticString = #fileID, line: UInt = #line
    ) where Name.RawValue == String {
        self.init(key: .name(name.rawValue), arguments: StoredArguments(repeat each parameters), file: file, line: line)
    }

    /// Injects the property by an associated value, with optional parameters.
    ///
    /// ```swift
    /// @EagerInjected(value: Region.europe) var taxes: TaxTable
    /// ```
    public init<V: Hashable, each P>(
        value: V, _ parameters: repeat each P, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .value(AnyHashable(value)), arguments: StoredArguments(repeat each parameters), file: file, line: line)
    }
}

extension EagerInjected: Sendable where Value: Sendable {}
