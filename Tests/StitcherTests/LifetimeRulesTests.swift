import Testing

@testable import Stitcher

private final class Kept: Presented, Described, @unchecked Sendable {}
private final class KeptAsync: @unchecked Sendable {}
private protocol Presented: Sendable {}
private protocol Described: Sendable {}

/// A managed scope nothing resets, whose identity the declared scope keeps.
private final class NeverReset: ManagedDependencyScopeProviding, @unchecked Sendable {
    static let shared = NeverReset()
    func onScopeInvalidated(perform action: @escaping @Sendable () -> Void) -> any ManagedDependencyScopeReceipt {
        Receipt()
    }
    struct Receipt: ManagedDependencyScopeReceipt { func cancel() {} }
}

/// What each lifetime's rules (`LifetimeRules`, one type per lifetime) say, and that every
/// lookup path (the direct one, the general one, the asynchronous one) follows them. A new
/// lifetime adds its row here (see CONTRIBUTING.md, "Adding a lifetime").
struct LifetimeRulesTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        let scope: DependencyScope
        let entryKeeps: EntryKeeping?
        let needsOpenScope: Bool
        let outlivesScopes: Bool
        let storesInstances: Bool
        /// The direct path's kind for the produced type, for its first protocol (presented
        /// through a view) and for its second.
        let direct: DirectLookup.Kind
        let firstProtocol: DirectLookup.Kind
        let secondProtocol: DirectLookup.Kind
        var testDescription: String { "\(scope)" }
    }

    static let expectations: [Expected] = [
        Expected(
            scope: .instance, entryKeeps: nil, needsOpenScope: false, outlivesScopes: false, storesInstances: false,
            direct: .transient, firstProtocol: .transientView, secondProtocol: .transientView),
        Expected(
            scope: .shared, entryKeeps: .weakly, needsOpenScope: false, outlivesScopes: true, storesInstances: true,
            direct: .shared, firstProtocol: .none, secondProtocol: .none),
        Expected(
            scope: .singleton, entryKeeps: .strongly, needsOpenScope: false, outlivesScopes: true, storesInstances: true,
            direct: .published, firstProtocol: .publishedView, secondProtocol: .none),
        Expected(
            scope: .managed(NeverReset.shared), entryKeeps: .strongly, needsOpenScope: false, outlivesScopes: true,
            storesInstances: true, direct: .published, firstProtocol: .publishedView, secondProtocol: .none),
        Expected(
            scope: .scoped, entryKeeps: nil, needsOpenScope: true, outlivesScopes: false, storesInstances: true,
            direct: .scoped, firstProtocol: .none, secondProtocol: .none),
    ]

    @Test(arguments: expectations)
    func eachLifetimesRulesSayWhatItsScopeMeans(_ expected: Expected) {
        let record = RegistrationRecord(
            Dependency { Kept() }.conforms(to: (any Presented).self).conforms(to: (any Described).self).scope(expected.scope))
        let lifetime = record.lifetime
        #expect(record.scope == expected.scope, "the declared scope comes back from the rules")
        #expect(lifetime.entryKeeps == expected.entryKeeps)
        #expect(lifetime.needsOpenScope == expected.needsOpenScope)
        #expect(lifetime.outlivesScopes == expected.outlivesScopes)
        #expect(lifetime.storesInstances == expected.storesInstances)
        let entry = IndexEntry.make(record: record, owner: ObjectIdentifier(record))
        #expect(DirectLookup.kind(of: entry, as: ObjectIdentifier(Kept.self)) == expected.direct)
        #expect(DirectLookup.kind(of: entry, as: ObjectIdentifier((any Presented).self)) == expected.firstProtocol)
        #expect(DirectLookup.kind(of: entry, as: ObjectIdentifier((any Described).self)) == expected.secondProtocol)
    }

    /// With parameters, every lifetime takes the direct path's parameterized kind, which
    /// checks the arguments; a value, kept as a box, answers as its lifetime says, except
    /// a weakly kept one (a weak reference holds the box, not the value).
    @Test(arguments: expectations)
    func parametersAndValuesAreDecidedWithTheLifetime(_ expected: Expected) {
        let scope = expected.scope
        let parameterized = RegistrationRecord(Dependency { (_: Int) in Kept() }.scope(scope))
        let entry = IndexEntry.make(record: parameterized, owner: ObjectIdentifier(parameterized))
        #expect(DirectLookup.kind(of: entry, as: ObjectIdentifier(Kept.self)) == .parameterized)
        let value = RegistrationRecord(Dependency { 7 }.scope(scope))
        let valueEntry = IndexEntry.make(record: value, owner: ObjectIdentifier(value))
        let kind = DirectLookup.kind(of: valueEntry, as: ObjectIdentifier(Int.self))
        #expect(kind == (expected.entryKeeps == .weakly ? .none : expected.direct))
    }

    /// The direct path (a request by type), the general path (an optional request) and the
    /// asynchronous path (an async factory) of one graph agree with the lifetime: one
    /// instance for every request while it is kept, a new one for every request otherwise.
    @Test(arguments: expectations)
    func everyPathFollowsTheSameRules(_ expected: Expected) async throws {
        let context = DependencyGraph.Context.isolated()
        await context.activate(
            DependencyContainer {
                Dependency { Kept() }.scope(expected.scope)
                Dependency { () async in KeptAsync() }.scope(expected.scope)
            })
        try await context.withScope { () async throws in
            let direct: Kept = try DependencyGraph.inject()
            let again: Kept = try DependencyGraph.inject()
            let general: Kept? = try DependencyGraph.inject()
            let built: KeptAsync = try await DependencyGraph.injectAsync()
            let rebuilt: KeptAsync = try await DependencyGraph.injectAsync()
            let isKept = expected.storesInstances
            #expect((direct === again) == isKept)
            #expect((direct === general) == isKept)
            #expect((built === rebuilt) == isKept)
        }
    }
}
