import Testing

@testable import Stitcher

private final class Service: Sendable { init() {} }

@Suite struct IdentityTableTests {
    private func record(_ dependency: Dependency<Service>) -> RegistrationRecord {
        RegistrationRecord(dependency)
    }

    @Test func aSecondLineOfTheSameIdentityFindsTheFirst() {
        let records = [
            record(Dependency { Service() }.named("a")),
            record(Dependency { Service() }.named("b")),
            record(Dependency { Service() }.named("a")),
            record(Dependency { (value: Int) in Service() }.named("a")),
        ]
        var table = IdentityTable(capacity: records.count)
        let found = records.indices.map { position in
            table.insert(records[position], at: position) { records[$0] }
        }
        #expect(found == [nil, nil, 0, nil], "same name and parameters are one identity; other parameters are another")
        #expect(table.count == 3)
        #expect(table.position(of: records[2]) { records[$0] } == 0)
        #expect(table.position(of: records[3]) { records[$0] } == 3)
        #expect(table.position(of: record(Dependency { Service() }.named("c"))) { records[$0] } == nil)
    }

    @Test func thousandsOfIdentitiesAreEachFoundAtTheirPosition() {
        let records = (0..<3_000).map { record(Dependency { Service() }.named("service-\($0)")) }
        var table = IdentityTable(capacity: records.count)
        for position in records.indices {
            #expect(table.insert(records[position], at: position) { records[$0] } == nil)
        }
        for position in records.indices where table.position(of: records[position], recordAt: { records[$0] }) != position {
            Issue.record("service-\(position) not found at its position")
        }
    }

    /// A container's entries, one of each identity, are filed without comparing records
    /// (`init(distinct:)`): each is found at its position, and nothing else is found.
    @Test func theEntriesOfAContainerAreEachFoundAtTheirPosition() {
        let owner = ObjectIdentifier(Service.self)
        var records = (0..<2_000).map { record(Dependency { Service() }.named("service-\($0)")) }
        records.append(record(Dependency { Service() }))
        records.append(record(Dependency { (value: Int) in Service() }))
        records.append(record(Dependency { (value: Int, label: String) in Service() }.named("service-0")))
        let entries = records.map { IndexEntry.make(record: $0, owner: owner) }
        let table = IdentityTable(distinct: entries)
        #expect(table.count == entries.count)
        for position in entries.indices where table.position(of: records[position], recordAt: { entries[$0].record }) != position {
            Issue.record("\(records[position].locator) not found at its position")
        }
        let absent = [
            record(Dependency { Service() }.named("service-2000")),
            record(Dependency { (label: String) in Service() }),
            record(Dependency { (value: Int) in Service() }.named("service-1")),
        ]
        for record in absent {
            #expect(table.position(of: record) { entries[$0].record } == nil, "\(record.locator) is not in the table")
        }
    }

    @Test func typesAndTheirAliasesAreOneIdentity() {
        let byType = record(Dependency { Service() })
        let withAlias = record(Dependency(conformingTo: AnyObject.self) { Service() })
        let records = [byType, withAlias]
        var table = IdentityTable(capacity: 2)
        #expect(table.insert(byType, at: 0) { records[$0] } == nil)
        #expect(table.insert(withAlias, at: 1) { records[$0] } == 0, "the primary type identifies a registration")
    }
}
