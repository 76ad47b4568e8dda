import StitcherTesting
import Testing

@testable import Stitcher

private protocol Service: AnyObject, Sendable { var origin: String { get } }
private final class Box<T>: Service, @unchecked Sendable {
    let origin: String
    init(_ origin: String = "") { self.origin = origin }
}
private class Widget: Service, @unchecked Sendable {
    let origin: String
    init(_ origin: String) { self.origin = origin }
}
private final class FancyWidget: Widget, @unchecked Sendable {}
private enum Key: Hashable { case primary, secondary }

/// A container activated after the others has its registrations added to the current index
/// (`IndexSnapshot.adding`) instead of the index being built again: the index must be the
/// one built anew, lookup by lookup, and the graph must answer as it would have.
@Suite(.isolatedDependencyGraph)
struct IncrementalIndexTests {
    /// Registrations of many kinds: types with aliases, several registrations of a type
    /// (one without parameters, others with), names shared by several types, values.
    private func records(_ origin: String, types: [any TypeRegistration], names: [String]) -> [RegistrationRecord] {
        var records = types.map { $0.record(origin) }
        records += [
            RegistrationRecord(Dependency { Widget(origin) }.conforms(to: (any Service).self)),
            RegistrationRecord(Dependency { (size: Int) in Widget(origin) }),
            RegistrationRecord(Dependency { (size: Int, label: String) in FancyWidget(origin) }),
            RegistrationRecord(Dependency { Box<Key>(origin) }.associated(with: Key.primary)),
        ]
        records += names.map { name in RegistrationRecord(Dependency { Box<Widget>(origin) }.named(name)) }
        return records
    }

    /// What every lookup of `index` answers for the types, names and values of the
    /// registrations, as comparable text.
    private func answers(of index: IndexSnapshot, types: [ObjectIdentifier], names: [String]) -> [String] {
        func describe(_ list: EntryList?) -> String {
            list.map { $0.entries.map { "\(ObjectIdentifier($0))" }.joined(separator: ",") } ?? "none"
        }
        func describe(_ lookups: TypeTable.ElementLookups?) -> String {
            switch lookups {
            case nil, .none?: "none"
            case .one(let lookup)?: "\(lookup.bits)"
            case .many(let lookups)?: lookups.map { "\($0.bits)" }.joined(separator: ",")
            }
        }
        let signatures = [ObjectIdentifier(ArgumentPack<Int>.self), ObjectIdentifier(ArgumentPack<Int, String>.self)]
        var answers = types.map { type in
            "\(type): \(describe(index.entries(ofType: type))) direct \(index.directLookup(ofType: type).bits) "
                + "elements \(describe(index.elementLookups(ofType: type))) overloads "
                + signatures.map { "\(index.overload(ofType: type, accepting: $0).map { "\($0.toOpaque())" } ?? "none")" }
                .joined(separator: ",")
        }
        answers += names.map { name in
            "\(name): \(describe(index.entries(named: name))) direct "
                + "\(index.directLookup(named: name, as: ObjectIdentifier(Box<Widget>.self)).bits)"
        }
        answers += [Key.primary, Key.secondary].map { "\($0): \(describe(index.entries(for: AnyHashable($0))))" }
        return answers
    }

    @Test(arguments: [0, 2, 1_000])
    func addingAContainersRegistrationsGivesTheIndexBuiltAnew(capacity: Int) throws {
        let earlyTypes: [any TypeRegistration] = [Of<Int>(), Of<Int8>(), Of<Int16>(), Of<Int32>()]
        let lateTypes: [any TypeRegistration] = [Of<UInt>(), Of<UInt8>(), Of<UInt16>(), Of<UInt32>(), Of<Double>(), Of<Float>()]
        let earlyNames = (0..<40).map { "early-\($0)" } + ["shared"]
        let lateNames = (0..<60).map { "late-\($0)" }
        let early = records("early", types: earlyTypes, names: earlyNames).map {
            IndexEntry.make(record: $0, owner: ObjectIdentifier(Key.self))
        }
        // The second container: registrations of its own, others under the types, names and
        // value of the first's with an identity of their own (a type's overload of another
        // signature), and five with the identity of one of the first's, which replace it.
        var lateRecords = records("late", types: lateTypes, names: lateNames)
        lateRecords += [
            RegistrationRecord(Dependency { Box<Int>("late") }.named("shared")),
            RegistrationRecord(Dependency { (label: String) in Widget("late") }),
            RegistrationRecord(Dependency { Box<Int>("late") }.conforms(to: (any Service).self).named("late-int")),
            RegistrationRecord(Dependency { Box<String>("late") }.associated(with: Key.secondary)),
            RegistrationRecord(Dependency { (level: Int) in Box<Int8>("late") }.named("early-3")),
        ]
        let late = lateRecords.map { IndexEntry.make(record: $0, owner: ObjectIdentifier(Widget.self)) }
        let replaced = early.filter { entry in late.contains { $0.record.identity == entry.record.identity } }
        #expect(replaced.count == 5, "`Widget`, its two overloads, the value `.primary` and the name \"shared\"")

        let before = IndexSnapshot(generation: 1, entries: early, indexed: true, capacity: capacity)
        let added = try #require(before.adding(late, generation: 2))
        let kept = early.filter { entry in !replaced.contains { $0 === entry } }
        let anew = IndexSnapshot(generation: 2, entries: kept + late, indexed: true, capacity: capacity)
        let types =
            (earlyTypes + lateTypes).map(\.id) + [
                ObjectIdentifier(Widget.self), ObjectIdentifier(FancyWidget.self), ObjectIdentifier((any Service).self),
                ObjectIdentifier(Box<Int>.self), ObjectIdentifier(Box<String>.self), ObjectIdentifier(Box<Key>.self),
            ]
        let names = earlyNames + lateNames + ["late-int", "missing"]
        #expect(added.entries.map(ObjectIdentifier.init) == anew.entries.map(ObjectIdentifier.init))
        #expect(answers(of: added, types: types, names: names) == answers(of: anew, types: types, names: names))
        #expect(
            answers(of: before, types: types, names: names)
                == answers(of: IndexSnapshot(generation: 1, entries: early, indexed: true, capacity: capacity), types: types, names: names),
            "the index added to is left as it was")
        #expect(added.directLookup(ofType: ObjectIdentifier(Widget.self)).hasOverloads)
        #expect(added.entries(named: "early-3")?.count == 2, "a name's registrations with different parameters are listed")
    }

    /// 4,090 registrations number their name rows in 16 bits; 100 more need 17, so the
    /// extended index's name table widens its rows (shortening its tags) while it replaces
    /// five names and moves every later row up.
    @Test func addingPastWhatTheNameRowsNumberedGivesTheIndexBuiltAnew() throws {
        let earlyNames = (0..<4_090).map { "early-\($0)" }
        let lateNames = (0..<95).map { "late-\($0)" } + (100..<105).map { "early-\($0)" }
        let early = earlyNames.map { name in
            IndexEntry.make(record: RegistrationRecord(Dependency { Box<Widget>("early") }.named(name)), owner: ObjectIdentifier(Key.self))
        }
        let late = lateNames.map { name in
            IndexEntry.make(
                record: RegistrationRecord(Dependency { Box<Widget>("late") }.named(name)), owner: ObjectIdentifier(Widget.self))
        }
        let before = IndexSnapshot(generation: 1, entries: early, indexed: true, capacity: early.count)
        let added = try #require(before.adding(late, generation: 2))
        let kept = early.filter { entry in !late.contains { $0.record.identity == entry.record.identity } }
        #expect(kept.count == early.count - 5)
        let anew = IndexSnapshot(generation: 2, entries: kept + late, indexed: true, capacity: kept.count + late.count)
        let names = earlyNames + lateNames + ["missing"]
        #expect(added.entries.map(ObjectIdentifier.init) == anew.entries.map(ObjectIdentifier.init))
        #expect(answers(of: added, types: [], names: names) == answers(of: anew, types: [], names: names))
        #expect(added.entries(named: "early-102")?.single === late[97], "a replaced name answers with the added registration")
        #expect(added.entries(named: "early-4089")?.single === early[4_089], "a row that moved up")
    }

    @Test func aTypeWhoseEveryRegistrationIsReplacedLeavesTheTable() throws {
        let early = [RegistrationRecord(Dependency { Box<Int>("early") }.conforms(to: (any Service).self))]
            .map { IndexEntry.make(record: $0, owner: ObjectIdentifier(Key.self)) }
        let late = [RegistrationRecord(Dependency { Box<Int>("late") })]
            .map { IndexEntry.make(record: $0, owner: ObjectIdentifier(Widget.self)) }
        let added = try #require(IndexSnapshot(generation: 1, entries: early, indexed: true, capacity: 0).adding(late, generation: 2))
        #expect(added.entries(ofType: ObjectIdentifier((any Service).self)) == nil, "the replaced registration's alias")
        #expect(added.directLookup(ofType: ObjectIdentifier((any Service).self)).kind == .none)
        #expect(added.entries(ofType: ObjectIdentifier(Box<Int>.self))?.single === late[0])
    }

    @Test func anUnindexedIndexIsNotAddedTo() {
        let entry = IndexEntry.make(record: RegistrationRecord(Dependency { Box<Int>() }), owner: ObjectIdentifier(Key.self))
        let unindexed = IndexSnapshot(generation: 1, entries: [], indexed: false, capacity: 0)
        #expect(unindexed.adding([entry], generation: 2) == nil)
    }

    @Test func aContainerActivatedBesideOthersIsAnsweredAsTheLastActivated() throws {
        let app = DependencyContainer(name: "App") {
            Dependency { Widget("app") }.conforms(to: (any Service).self).scope(.singleton)
            Dependency { Box<Int>("app") }.named("shared")
            for index in 0..<50 { Dependency { Box<Int8>("app \(index)") }.named("app-\(index)") }
        }
        let feature = DependencyContainer(name: "Feature") {
            Dependency { (size: Int) in Widget("feature \(size)") }
            Dependency { Box<String>("feature") }.named("shared")
            Dependency { Box<Double>("feature") }.conforms(to: (any Service).self)
            Dependency { Box<Key>("feature") }.associated(with: Key.primary)
            for index in 0..<50 { Dependency { Box<Int16>("feature \(index)") }.named("feature-\(index)") }
        }
        DependencyGraph.activate(app)
        let singleton: Widget = try DependencyGraph.inject()
        DependencyGraph.activate(feature)

        #expect(try DependencyGraph.inject() as Widget === singleton, "the app's singleton is kept")
        #expect(try DependencyGraph.inject(byType: Widget.self, 7).origin == "feature 7", "an overload in another container")
        #expect(try (DependencyGraph.inject(byName: "shared") as Box<String>).origin == "feature", "a name is an identity")
        #expect(try (DependencyGraph.inject(byName: "app-49") as Box<Int8>).origin == "app 49")
        #expect(try (DependencyGraph.inject(byName: "feature-49") as Box<Int16>).origin == "feature 49")
        #expect(try (DependencyGraph.inject(byValue: Key.primary) as Box<Key>).origin == "feature")
        let services: [any Service] = try DependencyGraph.inject()
        #expect(services.map(\.origin) == ["app", "feature"], "in activation order")

        // Deactivated (the index built anew), the app's registrations answer alone.
        DependencyGraph.deactivate(feature)
        #expect(throws: (any Error).self) { try DependencyGraph.inject(byType: Widget.self, 7) }
        #expect(try DependencyGraph.inject() as Widget === singleton)
        #expect(try (DependencyGraph.inject(byName: "shared") as Box<Int>).origin == "app")
        #expect(throws: (any Error).self) { try DependencyGraph.inject(byName: "feature-1") as Box<Int16> }
    }

    @Test func aContainerOverridingAnEarlierOneStillWins() throws {
        let singletonBuilds = Counter()
        DependencyGraph.activate(
            DependencyContainer(name: "App") {
                Dependency { () -> Widget in
                    singletonBuilds.increment()
                    return Widget("app")
                }
                .scope(.singleton)
                Dependency { Box<Int>("app") }.named("shared")
            })
        DependencyGraph.activate(
            DependencyContainer(name: "Test") {
                Dependency { Widget("test") }
                Dependency { Box<Int>("test") }.named("shared")
            })
        #expect(try DependencyGraph.inject(byType: Widget.self).origin == "test")
        #expect(try (DependencyGraph.inject(byName: "shared") as Box<Int>).origin == "test")
        #expect(singletonBuilds.value == 0)
    }

    @Test func aDecorationInAnEarlierContainerDecoratesTheAddedRegistrations() throws {
        DependencyGraph.activate(
            DependencyContainer(name: "Decorating") {
                Decoration(of: Widget.self) { widget in Widget("decorated " + widget.origin) }
            })
        DependencyGraph.activate(DependencyContainer(name: "Feature") { Dependency { Widget("feature") } })
        #expect(try DependencyGraph.inject(byType: Widget.self).origin == "decorated feature")
    }
}

/// A registration of `Box<T>` made for a type chosen by a test.
private protocol TypeRegistration {
    var id: ObjectIdentifier { get }
    func record(_ origin: String) -> RegistrationRecord
}
private struct Of<T>: TypeRegistration {
    var id: ObjectIdentifier { ObjectIdentifier(Box<T>.self) }
    func record(_ origin: String) -> RegistrationRecord { RegistrationRecord(Dependency { Box<T>(origin) }) }
}
