import Testing

@testable import Stitcher

/// A `NameTable` with the names of its rows kept beside it, as the index keeps them in its
/// registrations. Rows are 1, 2, 3… (or any other nonzero word a test picks).
private struct NamedTable {
    var table: NameTable
    var names: [UInt: String] = [:]

    init(capacity: Int) { table = NameTable(capacity: capacity) }

    /// The row already given to `name`, or nil after giving it `row`.
    mutating func insert(_ name: String, row: UInt) -> UInt? {
        let names = self.names
        let existing = table.insert(row, named: name) { names[$0]! }
        if existing == nil { self.names[row] = name }
        return existing
    }

    func row(of name: String) -> UInt? {
        table.row(named: name) { names[$0] == name }
    }
}

@Suite struct NameTableTests {
    @Test func namesKeepTheirRowsAndAreFoundAgain() {
        var table = NamedTable(capacity: 4)
        #expect(table.insert("a", row: 1) == nil)
        #expect(table.insert("b", row: 2) == nil)
        #expect(table.insert("a", row: 3) == 1, "a repeated name keeps its first row")
        #expect(table.table.count == 2)
        #expect(table.row(of: "a") == 1)
        #expect(table.row(of: "b") == 2)
        #expect(table.row(of: "c") == nil)
        #expect(table.row(of: "") == nil)
    }

    @Test func growingPastItsCapacityKeepsEveryRow() {
        var table = NamedTable(capacity: 2)
        let names = (0..<5_000).map { "service-\($0)" }
        for (index, name) in names.enumerated() {
            #expect(table.insert(name, row: UInt(index + 1)) == nil)
        }
        #expect(table.table.count == names.count)
        for (index, name) in names.enumerated() where table.row(of: name) != UInt(index + 1) {
            Issue.record("\(name) found at \(String(describing: table.row(of: name))), not \(index + 1)")
        }
        #expect(table.row(of: "service-5000") == nil)
        #expect(table.insert("service-42", row: 9_999) == 43)
    }

    @Test func aReplacedRowIsFoundUnderItsName() {
        var table = NamedTable(capacity: 8)
        for index in 1...6 { _ = table.insert("name-\(index)", row: UInt(index)) }
        let shared: UInt = 0b1000 | 7 << 4
        let names = table.names
        _ = table.table.insert(99, named: "name-3", nameOf: { names[$0]! }, replacing: { _ in shared })
        table.names[shared] = "name-3"
        #expect(table.row(of: "name-3") == shared)
        #expect(table.row(of: "name-4") == 4)
    }

    @Test func namesThatDifferOnlyInLengthOrCaseAreDistinct() {
        var table = NamedTable(capacity: 8)
        let names = ["Repository", "repository", "repository ", "répository", String(repeating: "r", count: 200)]
        for (index, name) in names.enumerated() { _ = table.insert(name, row: UInt(index + 1)) }
        for (index, name) in names.enumerated() { #expect(table.row(of: name) == UInt(index + 1)) }
    }

    @Test func onlyRowsWhoseTagMatchesAreCompared() {
        var table = NamedTable(capacity: 64)
        for index in 0..<40 { _ = table.insert("name-\(index)", row: UInt(index + 1)) }
        var asked: [UInt] = []
        let row = table.table.row(named: "name-17") { row in
            asked.append(row)
            return table.names[row] == "name-17"
        }
        #expect(row == 18)
        #expect(asked == [18], "a 16-bit tag rules out the other names without reading them")
    }

    @Test func aRowUsingTheTagBitsMakesTheTableCompareNamesInstead() {
        var table = NamedTable(capacity: 16)
        for index in 0..<10 { _ = table.insert("name-\(index)", row: UInt(index + 1)) }
        #expect(table.table.isTagged)
        let highRow: UInt = 0xABCD_0000_0000_0010
        #expect(table.insert("tagged-pointer", row: highRow) == nil)
        #expect(!table.table.isTagged)
        #expect(table.row(of: "tagged-pointer") == highRow)
        for index in 0..<10 { #expect(table.row(of: "name-\(index)") == UInt(index + 1)) }
        #expect(table.insert("name-4", row: 99) == 5)
        #expect(table.row(of: "missing") == nil)
    }

    @Test func anEmptyTableFindsNothing() {
        #expect(NameTable.empty.row(named: "anything") { _ in true } == nil)
        #expect(NameTable(capacity: 0).count == 0)
    }
}
