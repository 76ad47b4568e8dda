// Factories without parameters are by far the most common. These overloads take them
// without a parameter pack, so instantiating them builds no pack metadata at run time.

extension Dependency {
    /// A dependency located by its type.
    @inlinable
    public init(_ factory: @escaping @Sendable () throws -> T) {
        self.init(locator: .type(T.self), provider: .init(factory))
    }

    /// A dependency located by name.
    @inlinable
    public init(named name: String, _ factory: @escaping @Sendable () throws -> T) {
        self.init(locator: .name(name), provider: .init(factory))
    }

    /// A dependency located by the raw value of a string-backed name, such as an enum case.
    public init<Name: RawRepresentable>(named name: Name, _ factory: @escaping @Sendable () throws -> T)
    where Name.RawValue == String {
        self.init(locator: .name(name), provider: .init(factory))
    }

    /// A dependency located by the description of a value.
    public init<Name: CustomStringConvertible>(named name: Name, _ factory: @escaping @Sendable () throws -> T) {
        self.init(locator: .name(name), provider: .init(factory))
    }

    /// A dependency located by its type and by a protocol it conforms to.
    public init<Protocol>(conformingTo type: Protocol.Type, _ factory: @escaping @Sendable () throws -> T) {
        self.init(locator: .type(T.self, type), provider: .init(factory))
    }

    /// A dependency located by its type and by a superclass it inherits from.
    public init<Superclass>(inheritingFrom type: Superclass.Type, _ factory: @escaping @Sendable () throws -> T) {
        self.init(locator: .type(T.self, type), provider: .init(factory))
    }

    /// A dependency located by an associated `Hashable` value.
    public init<Value: Hashable>(for value: Value, _ factory: @escaping @Sendable () throws -> T) {
        self.init(locator: .value(value), provider: .init(factory))
    }
}
