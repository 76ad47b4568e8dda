/// A property whose value is injected from the dependency graph the first time it is read.
///
/// The value is resolved once, on first read, and then kept; ``reload()``,
/// ``loadIfNeeded()`` and ``autoreload()`` refresh it. If it cannot be injected, the first
/// read stops the program with a precondition failure naming the property's file, line
/// and the error; use `DependencyGraph.inject` to handle errors instead. `Optional`, `Array`
/// and `Set` properties give nil or an empty collection when nothing is registered.
///
/// The property can be assigned, for example to put a fake in place in a test: the
/// assignment changes this property only (not the graph, nor other properties injecting
/// the same dependency), until ``reload()`` injects the graph's value again.
///
/// ```swift
/// final class ProfileViewModel {
///     @Injected var authentication: AuthenticationService
///     @Injected(name: Services.repository, ManagedObjectContexts.main) var repository: Repository
///     @Injected(value: UploadLocation.avatar) var avatarUploads: UploadServiceProtocol
///     @Injected var trackers: [EventTracking]
/// }
/// ```
@propertyWrapper
public struct Injected<Value>: @unchecked Sendable {
    @usableFromInline let storage: InjectedStorage<Value>
    /// `storage`, for reads that need not retain it: `storage` keeps it alive.
    @usableFromInline let unretainedStorage: Unmanaged<InjectedStorage<Value>>

    /// The dependency, injected on first read and kept (or the value assigned since).
    @inlinable
    public var wrappedValue: Value {
        get { unretainedStorage._withUnsafeGuaranteedRef { $0.wrappedValue } }
        nonmutating set { storage.assign(newValue) }
    }

    /// The wrapper itself, so that `$property.reload()` works as `_property.reload()` does.
    public var projectedValue: Injected<Value> { self }

    init(key: LookupKey, arguments: StoredArguments, in context: DependencyGraph.Context? = nil, file: StaticString, line: UInt) {
        storage = InjectedStorage(file: file, line: line, context: context) {
            try arguments.withArguments { try GraphContext.current.resolve(key, $0) }
        }
        unretainedStorage = Unmanaged.passUnretained(storage)
    }

    /// Injects the property by its type.
    public init(file: StaticString = #fileID, line: UInt = #line) {
        self.init(key: .type(TypeKey(Value.self)), arguments: .none, file: file, line: line)
    }

    /// Injects the property by its type, instantiating it with the given parameters.
    ///
    /// ```swift
    /// @Injected(ImageUploadLocation.profileAvatar) var avatarUploadService: ImageUploadService
    /// ```
    public init<First, each P>(
        _ first: First, _ parameters: repeat each P, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .type(TypeKey(Value.self)), arguments: StoredArguments(first, repeat each parameters), file: file, line: line)
    }

    /// Injects the property by name.
    public init<each P>(
        name: String, _ parameters: repeat each P, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .name(name), arguments: StoredArguments(repeat each parameters), file: file, line: line)
    }

    /// Injects the property by name, with its parameters labelled.
    public init<First, each P>(
        name: String, parameters first: First, _ parameters: repeat each P,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .name(name), arguments: StoredArguments(first, repeat each parameters), file: file, line: line)
    }

    /// Injects the property by the raw value of a string-backed name.
    public init<Name: RawRepresentable, each P>(
        name: Name, _ parameters: repeat each P, file: StaticString = #fileID, line: UInt = #line
    ) where Name.RawValue == String {
        self.init(key: .name(name.rawValue), arguments: StoredArguments(repeat each parameters), file: file, line: line)
    }

    /// Injects the property by the raw value of a string-backed name, with its parameters labelled.
    public init<Name: RawRepresentable, First, each P>(
        name: Name, parameters first: First, _ parameters: repeat each P,
        file: StaticString = #fileID, line: UInt = #line
    ) where Name.RawValue == String {
        self.init(key: .name(name.rawValue), arguments: StoredArguments(first, repeat each parameters), file: file, line: line)
    }

    /// Injects the property by the description of a name.
    public init<Name: CustomStringConvertible, each P>(
        name: Name, _ parameters: repeat each P, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .name(name.description), arguments: StoredArguments(repeat each parameters), file: file, line: line)
    }

    /// Injects the property by the description of a name, with its parameters labelled.
    public init<Name: CustomStringConvertible, First, each P>(
        name: Name, parameters first: First, _ parameters: repeat each P,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .name(name.description), arguments: StoredArguments(first, repeat each parameters), file: file, line: line)
    }

    /// Injects the property by an associated value.
    public init<V: Hashable, each P>(
        value: V, _ parameters: repeat each P, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .value(AnyHashable(value)), arguments: StoredArguments(repeat each parameters), file: file, line: line)
    }

    /// Injects the property by an associated value, with its parameters labelled.
    public init<V: Hashable, First, each P>(
        value: V, parameters first: First, _ parameters: repeat each P,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .value(AnyHashable(value)), arguments: StoredArguments(first, repeat each parameters), file: file, line: line)
    }

    /// Injects the property by its type, spelled out.
    public init<each P>(
        type: Value.Type, _ parameters: repeat each P, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .type(TypeKey(Value.self)), arguments: StoredArguments(repeat each parameters), file: file, line: line)
    }

    /// Injects the property by its type, spelled out, with its parameters labelled.
    public init<First, each P>(
        type: Value.Type, parameters first: First, _ parameters: repeat each P,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(key: .type(TypeKey(Value.self)), arguments: StoredArguments(first, repeat each parameters), file: file, line: line)
    }

    /// Resolves the value if none is kept yet, or if the kept one is nil or an empty collection.
    public func loadIfNeeded() throws { try storage.loadIfNeeded() }

    /// Resolves the value again and keeps the new one (replacing an assigned value too).
    ///
    /// ```swift
    /// try _repository.reload()
    /// ```
    public func reload() throws { try storage.reload() }

    /// Reloads the value after every change of the dependency graph, for as long as the
    /// property exists; the subscription holds the property weakly.
    public func autoreload() { storage.autoreload() }
}
