/// What a registration is identified by: its primary locator and its parameter types.
///
/// Registering the same identity again replaces the earlier registration; registrations
/// that only share an alias type are distinct.
struct RegistrationIdentity: Hashable, Sendable {
    let primary: LookupKey
    let parameters: [TypeKey]

    init(locator: DependencyLocator, parameters: [TypeKey]) {
        switch locator.kind {
        case .name(let name): primary = .name(name)
        case .value(let value): primary = .value(value)
        case .type(let types): primary = .type(types.head)
        }
        self.parameters = parameters
    }
}

/// A registration's identity as a dictionary key: hashed by the precomputed identity hash,
/// so building an index copies a reference instead of the identity's payload.
struct IdentityKey: Hashable, @unchecked Sendable {
    let record: RegistrationRecord

    init(_ record: RegistrationRecord) { self.record = record }

    func hash(into hasher: inout Hasher) { hasher.combine(record.identityHash) }

    static func == (lhs: IdentityKey, rhs: IdentityKey) -> Bool {
        lhs.record === rhs.record
            || (lhs.record.identityHash == rhs.record.identityHash && lhs.record.identity == rhs.record.identity)
    }
}

/// One key under which the index finds registrations.
enum LookupKey: Hashable, @unchecked Sendable {
    case name(String)
    case type(TypeKey)
    case value(AnyHashable)

    var context: InjectionError.DependencyContext {
        switch self {
        case .name(let name): .name(name)
        case .type(let type): .type(type.description)
        case .value(let value): .value(value)
        }
    }
}
