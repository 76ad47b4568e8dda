import Testing
@testable import Stitcher

/// A `NameTable` with the names it indexes kept beside it, as the index keeps them in its
/// registrations.
private struct NamedTable {
    var table: NameTable
    var names: [String] = []

    init(capacity: Int) { table = NameTable(capacity: capacity) }

    mutating func insert(_ name: String) -> (position: Int, inserted: Bool) {
        let names = self.names
        let result = table.insert(name) { names[$0] }
        if result.inserted { self.names.append(name) }
        return result
    }

    func position(of name: String) -> Int? {
        table.position(of: name) { names[$0] == name }
    }
}

@Suite struct NameTableTests {
    @Test func namesGetConsecutivePositionsAndAreFoundAgain() {
        var table = NamedTable(capacity: 4)
        #expect(table.insert("a") == (0, true))
        #expect(table.insert("b") == (1, true))
        #expect(table.insert("a") == (0, false), "a repeated name keeps its first position")
        #expect(table.table.count == 2)
        #expect(table.position(of: "a") == 0)
        #expect(table.position(of: "b") == 1)
        #expect(table.position(of: "c") == nil)
        #expect(table.position(of: "") == nil)
    }

    @Test func growingPastItsCapacityKeepsEveryPosition() {
        var table = NamedTable(capacity: 2)
        let names = (0..<5_000).map { "service-\($0)" }
        for (index, name) in names.enumerated() {
            #expect(table.insert(name) == (index, true))
        }
        #expect(table.table.count == names.count)
        for (index, name) in names.enumerated() where table.position(of: name) != index {
            Issue.record("\(name) found at \(String(describing: table.position(of: name))), not \(index)")
        }
        #expect(table.position(of: "service-5000") == nil)
        #expect(table.insert("service-42") == (42, false))
    }

    @Test func namesThatDifferOnlyInLengthOrCaseAreDistinct() {
        var table = NamedTable(capacity: 8)
        let names = ["Repository", "repository", "repository ", "répository", String(repeating: "r", count: 200)]
        for name in names { _ = table.insert(name) }
        for (index, name) in names.enumerated() { #expect(table.position(of: name) == index) }
    }

    @Test func onlyPositionsWhoseTagMatchesAreCompared() {
        var table = NamedTable(capacity: 64)
        for index in 0..<40 { _ = table.insert("name-\(index)") }
        var asked: [Int] = []
        let position = table.table.position(of: "name-17") { position in
            asked.append(position)
            return table.names[position] == "name-17"
        }
        #expect(position == 17)
        #expect(asked == [17], "a 32-bit tag rules out the other names without reading them")
    }

    @Test func anEmptyTableFindsNothing() {
        #expect(NameTable.empty.position(of: "anything") { _ in true } == nil)
        #expect(NameTable(capacity: 0).count == 0)
    }
}
