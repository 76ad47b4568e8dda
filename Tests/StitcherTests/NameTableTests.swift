import Testing
@testable import Stitcher

@Suite struct NameTableTests {
    @Test func namesGetConsecutivePositionsAndAreFoundAgain() {
        var table = NameTable(capacity: 4)
        #expect(table.insert("a") == (0, true))
        #expect(table.insert("b") == (1, true))
        #expect(table.insert("a") == (0, false), "a repeated name keeps its first position")
        #expect(table.count == 2)
        #expect(table.position(of: "a") == 0)
        #expect(table.position(of: "b") == 1)
        #expect(table.position(of: "c") == nil)
        #expect(table.position(of: "") == nil)
    }

    @Test func growingPastItsCapacityKeepsEveryPosition() {
        var table = NameTable(capacity: 2)
        let names = (0..<5_000).map { "service-\($0)" }
        for (index, name) in names.enumerated() {
            #expect(table.insert(name) == (index, true))
        }
        #expect(table.count == names.count)
        for (index, name) in names.enumerated() where table.position(of: name) != index {
            Issue.record("\(name) found at \(String(describing: table.position(of: name))), not \(index)")
        }
        #expect(table.position(of: "service-5000") == nil)
        #expect(table.insert("service-42") == (42, false))
    }

    @Test func namesThatDifferOnlyInLengthOrCaseAreDistinct() {
        var table = NameTable(capacity: 8)
        let names = ["Repository", "repository", "repository ", "répository", String(repeating: "r", count: 200)]
        for name in names { _ = table.insert(name) }
        for (index, name) in names.enumerated() { #expect(table.position(of: name) == index) }
    }

    @Test func anEmptyTableFindsNothing() {
        #expect(NameTable.empty.position(of: "anything") == nil)
        #expect(NameTable(capacity: 0).count == 0)
    }
}
