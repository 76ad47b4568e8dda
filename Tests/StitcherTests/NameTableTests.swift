import Testing

@testable import Stitcher

/// A `NameTable` with the names of its rows kept beside it, as the index keeps them in its
/// registrations. Rows are 1, 2, 3… (or any other nonzero word a test picks).
private struct NamedTable {
    var table: NameTable
    var names: [UInt32: String] = [:]

    init(capacity: Int) { table = NameTable(capacity: capacity) }

    /// The row already given to `name`, or nil after giving it `row`.
    mutating func insert(_ name: String, row: UInt32) -> UInt32? {
        let names = self.names
        let existing = table.insert(row, named: name) { names[$0]! }
        if existing == nil { self.names[row] = name }
        return existing
    }

    func row(of name: String) -> UInt32? {
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
            #expect(table.insert(name, row: UInt32(index + 1)) == nil)
        }
        #expect(table.table.count == names.count)
        for (index, name) in names.enumerated() where table.row(of: name) != UInt32(index + 1) {
            Issue.record("\(name) found at \(String(describing: table.row(of: name))), not \(index + 1)")
        }
        #expect(table.row(of: "service-5000") == nil)
        #expect(table.insert("service-42", row: 9_999) == 43)
    }

    @Test func aReplacedRowIsFoundUnderItsName() {
        var table = NamedTable(capacity: 8)
        for index in 1...6 { _ = table.insert("name-\(index)", row: UInt32(index)) }
        let shared: UInt32 = 0b1000 | 7 << 4
        let names = table.names
        _ = table.table.insert(99, named: "name-3", nameOf: { names[$0]! }, replacing: { _ in shared })
        table.names[shared] = "name-3"
        #expect(table.row(of: "name-3") == shared)
        #expect(table.row(of: "name-4") == 4)
    }

    @Test func namesThatDifferOnlyInLengthOrCaseAreDistinct() {
        var table = NamedTable(capacity: 8)
        let names = ["Repository", "repository", "repository ", "répository", String(repeating: "r", count: 200)]
        for (index, name) in names.enumerated() { _ = table.insert(name, row: UInt32(index + 1)) }
        for (index, name) in names.enumerated() { #expect(table.row(of: name) == UInt32(index + 1)) }
    }

    @Test func onlyRowsWhoseTagMatchesAreCompared() {
        var table = NamedTable(capacity: 64)
        for index in 0..<40 { _ = table.insert("name-\(index)", row: UInt32(index + 1)) }
        var asked: [UInt32] = []
        let row = table.table.row(named: "name-17") { row in
            asked.append(row)
            return table.names[row] == "name-17"
        }
        #expect(row == 18)
        #expect(asked == [18], "a 16-bit tag rules out the other names without reading them")
    }

    @Test func aLargerRowShortensTheTagsAndKeepsEveryRow() {
        var table = NamedTable(capacity: 16)
        for index in 0..<10 { _ = table.insert("name-\(index)", row: UInt32(index + 1)) }
        #expect(table.table.rowBits == 16)
        let largeRow: UInt32 = 0x0123_4567
        #expect(table.insert("large", row: largeRow) == nil)
        #expect(table.table.rowBits == 25)
        #expect(table.row(of: "large") == largeRow)
        for index in 0..<10 { #expect(table.row(of: "name-\(index)") == UInt32(index + 1)) }
        #expect(table.insert("name-4", row: 99) == 5)
        #expect(table.row(of: "missing") == nil)
    }

    @Test func widenedRowsKeepTagsAsIfTheTableWereBuiltWithThem() {
        var widened = NamedTable(capacity: 64)
        var built = NameTable(capacity: 64, largestRow: 0x0123_4567)
        var names = (0..<40).map { "name-\($0)" }
        names.append("large")
        let rows = (0..<40).map { UInt32($0 + 1) } + [0x0123_4567]
        for (name, row) in zip(names, rows) {
            _ = widened.insert(name, row: row)
            let nameOf = widened.names
            _ = built.insert(row, named: name) { nameOf[$0]! }
        }
        #expect(widened.table.rowBits == built.rowBits)
        for name in names + ["missing"] {
            var askedWidened: [UInt32] = []
            var askedBuilt: [UInt32] = []
            let found = widened.table.row(named: name) {
                askedWidened.append($0)
                return widened.names[$0] == name
            }
            _ = built.row(named: name) {
                askedBuilt.append($0)
                return widened.names[$0] == name
            }
            #expect(askedWidened == askedBuilt, "the same buckets, tags included, as a table built with wide rows")
            #expect(found == zip(names, rows).first { $0.0 == name }?.1)
        }
    }

    @Test func rowsOfAllThirtyTwoBitsLeaveNoTagAndNamesAreComparedInstead() {
        var table = NamedTable(capacity: 16)
        for index in 0..<10 { _ = table.insert("name-\(index)", row: UInt32(index + 1)) }
        let fullRow: UInt32 = 0xFEDC_BA98
        #expect(table.insert("full", row: fullRow) == nil)
        #expect(table.table.rowBits == 32)
        #expect(table.row(of: "full") == fullRow)
        for index in 0..<10 { #expect(table.row(of: "name-\(index)") == UInt32(index + 1)) }
        #expect(table.row(of: "missing") == nil)
    }

    @Test func reservingForLargerRowsRebuildsOnceAndKeepsEveryRow() {
        var table = NamedTable(capacity: 4)
        for index in 0..<3 { _ = table.insert("name-\(index)", row: UInt32(index + 1)) }
        let names = table.names
        table.table.reserve(1_000, rowsUpTo: 1 << 20) { NameTable.hash(of: names[$0]!) }
        #expect(table.table.rowBits == 21)
        for index in 0..<3 { #expect(table.row(of: "name-\(index)") == UInt32(index + 1)) }
        for index in 3..<1_000 { #expect(table.insert("name-\(index)", row: UInt32(index + 1) << 10) == nil) }
        #expect(table.table.rowBits == 21, "nothing inserted needed more bits than reserved")
        #expect(table.row(of: "name-999") == 1_000 << 10)
    }

    @Test func renumberedRowsStayUnderTheirNames() {
        var table = NamedTable(capacity: 64)
        for index in 0..<40 { _ = table.insert("name-\(index)", row: UInt32(index + 1) * 2) }
        table.table.renumber { $0 / 2 }
        for index in 0..<40 {
            let row = table.table.row(named: "name-\(index)") { table.names[$0 * 2] == "name-\(index)" }
            #expect(row == UInt32(index + 1))
        }
    }

    @Test func rowsTellPositionsKindsAndSharedListsApart() {
        let only = NameRow(position: 0, kind: .none)
        #expect(only.rawValue != 0, "position 0 of kind .none is still a row")
        #expect(only.position == 0 && !only.isShared)
        let last = NameRow(position: NameRow.numberablePositions - 1, kind: .transientView)
        #expect(last.position == NameRow.numberablePositions - 1)
        #expect(last.rawValue <= NameRow.largest(numbering: NameRow.numberablePositions))
        let shared = NameRow(sharedList: 41)
        #expect(shared.isShared && shared.position == 41)
        #expect(shared.moved(to: 3) == NameRow(sharedList: 3))
        #expect(NameRow(position: 9, kind: .published).moved(to: 2) == NameRow(position: 2, kind: .published))
        #expect(NameRow.largest(numbering: 100_000) < 1 << 21, "100,000 registrations leave 11 bits of tag")
    }

    @Test func anEmptyTableFindsNothing() {
        #expect(NameTable.empty.row(named: "anything") { _ in true } == nil)
        #expect(NameTable(capacity: 0).count == 0)
    }
}
