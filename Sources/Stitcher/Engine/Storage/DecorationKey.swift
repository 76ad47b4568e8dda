/// A `Decoration` as a container carries it: a record under a value locator of this type,
/// which no injection can name (the type is internal, and keys compare by identity).
/// `ActiveContainer` sets such records apart from its entries; the graph applies them when
/// it publishes its index (`GraphEngine+Decorations`).
final class DecorationKey: Hashable, @unchecked Sendable {
    /// The type decorated.
    let target: TypeKey
    /// The record of a registration answering `target` as `target`, built by `original`'s
    /// instance then decorated (`deriving(from:)`).
    private let derive: (IndexEntry) -> RegistrationRecord

    private init<T>(decorating _: T.Type, _ decorate: @escaping @Sendable (T) throws -> T) {
        target = TypeKey(T.self)
        derive = { original in Self.derivedRecord(decorating: original, with: decorate) }
    }

    /// The record a container carries for a decoration of `T` (it holds its key; the key
    /// does not hold it).
    static func record<T>(decorating type: T.Type, _ decorate: @escaping @Sendable (T) throws -> T) -> RegistrationRecord {
        RegistrationRecord(
            locator: .value(DecorationKey(decorating: type, decorate)), scope: .instance, eagerness: .lazy,
            producedType: TypeKey(DecorationKey.self), originCode: 0, originContext: 0, storesObjects: true,
            alwaysAware: false, extras: nil, make: { _ in throw InjectionError.unsupportedOperation })
    }

    static func == (lhs: DecorationKey, rhs: DecorationKey) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// The decoration a record carries, if it is one.
    static func of(_ record: RegistrationRecord) -> DecorationKey? {
        guard case .value(let value) = record.locator.kind else { return nil }
        return value.base as? DecorationKey
    }

    /// The registration that answers `target` in place of `original`: same scope and
    /// parameters, its instance made from `original`'s (so a singleton is built and
    /// decorated once, and injecting `original` by its own type stays undecorated).
    func deriving(from original: IndexEntry) -> RegistrationRecord { derive(original) }

    private static func derivedRecord<T>(
        decorating original: IndexEntry, with decorate: @escaping @Sendable (T) throws -> T
    ) -> RegistrationRecord {
        let record = original.record
        let storesObjects = T.self is AnyClass
        // The original's instance, as a T, decorated, in the stored form of a T.
        let decorated = { (instance: AnyObject) throws -> AnyObject in
            guard let value = record.cast(instance, to: T.self) else {
                throw InjectionError.mismatchedDependencyType(record.typeName(of: instance), expected: String(describing: T.self))
            }
            let result = try decorate(value)
            return storesObjects ? unsafeBitCast(result, to: AnyObject.self) : TypedBox(result)
        }
        let makeAsync: ((InjectionArguments) async throws -> AnyObject)? =
            record.isAsync || record.isMainActor
            ? { arguments in try decorated(await GraphContext.current.instanceFromAsyncCode(of: original, arguments)) } : nil
        let provider = DependencyFactory.Provider<T>(
            parameterTypes: record.parameterTypes, signature: record.signature, origin: .unknown, storesObjects: storesObjects,
            form: storesObjects ? nil : BoxedForm<T>.self, makeAsync: makeAsync
        ) { arguments in
            try decorated(GraphContext.current.instance(of: original, arguments, ThreadState.current))
        }
        // Produces exactly `T` only when the original does: a request for one `T` among
        // several registrations answering it picks the same one, decorated or not.
        let producedType = record.producedType == TypeKey(T.self) ? TypeKey(T.self) : TypeKey(DecoratedAlias<T>.self)
        return RegistrationRecord(
            locator: .type(T.self), scope: record.scope, eagerness: .lazy, producedType: producedType,
            originCode: provider.originCode, originContext: provider.originContext, storesObjects: provider.storesObjects,
            alwaysAware: provider.alwaysAware, extras: provider.extras, make: provider.callableMake)
    }
}

/// The type a decoration's entry is said to produce when what it decorates answers `T` as
/// an alias: never asked for, so that the decoration's entry is not mistaken for a
/// registration of exactly `T` (its instances are still stored as a `T`, and cast).
enum DecoratedAlias<T> {}
