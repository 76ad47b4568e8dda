import Testing

@testable import Stitcher

private class Widget: @unchecked Sendable {}
private final class FancyWidget: Widget, @unchecked Sendable {}

/// The index marks a type whose registrations differ by their parameters, and finds the
/// one taking an injection's parameters in one probe of its overload table.
@Suite struct OverloadTableTests {
    private func snapshot(_ records: [RegistrationRecord]) -> (IndexSnapshot, [IndexEntry]) {
        let entries = records.map { IndexEntry.make(record: $0, owner: ObjectIdentifier($0)) }
        return (IndexSnapshot(generation: 1, entries: entries, indexed: true, capacity: entries.count), entries)
    }

    /// The signature of an injection with parameters of `types`.
    private func signature<each P>(_ types: repeat (each P).Type) -> ObjectIdentifier {
        ObjectIdentifier(ArgumentPack<repeat each P>.self)
    }

    @Test func eachSignatureFindsItsRegistration() {
        let (index, entries) = snapshot([
            RegistrationRecord(Dependency { Widget() }),
            RegistrationRecord(Dependency { (size: Int) in Widget() }),
            RegistrationRecord(Dependency { (label: String) in Widget() }),
            RegistrationRecord(Dependency { (size: Int, label: String) in Widget() }),
        ])
        let widget = ObjectIdentifier(Widget.self)
        #expect(index.directLookup(ofType: widget).hasOverloads)
        #expect(index.directLookup(ofType: widget).entry?.takeUnretainedValue() === entries[0], "without parameters, as before")
        #expect(index.overload(ofType: widget, accepting: signature(Int.self))?.takeUnretainedValue() === entries[1])
        #expect(index.overload(ofType: widget, accepting: signature(String.self))?.takeUnretainedValue() === entries[2])
        #expect(index.overload(ofType: widget, accepting: signature(Int.self, String.self))?.takeUnretainedValue() === entries[3])
        #expect(index.overload(ofType: widget, accepting: signature(Double.self)) == nil)
        #expect(index.overload(ofType: ObjectIdentifier(FancyWidget.self), accepting: signature(Int.self)) == nil)
    }

    @Test func aTypeRegisteredOnceOrWithoutParametersHasNoOverloads() {
        let (index, _) = snapshot([
            RegistrationRecord(Dependency { (size: Int) in Widget() }),
            RegistrationRecord(Dependency { FancyWidget() }.named("a")),
            RegistrationRecord(Dependency { FancyWidget() }.named("b")),
        ])
        #expect(!index.directLookup(ofType: ObjectIdentifier(Widget.self)).hasOverloads)
        #expect(index.directLookup(ofType: ObjectIdentifier(Widget.self)).kind == .parameterized)
        #expect(!index.directLookup(ofType: ObjectIdentifier(FancyWidget.self)).hasOverloads)
    }

    @Test func twoRegistrationsAnsweringTheSameParametersLeaveTheChoiceToTheGeneralPath() {
        let (index, _) = snapshot([
            RegistrationRecord(Dependency { Widget() }),
            RegistrationRecord(Dependency { (size: Int) in Widget() }),
            RegistrationRecord(Dependency { (size: Int) in FancyWidget() }.conforms(to: Widget.self)),
        ])
        let widget = ObjectIdentifier(Widget.self)
        #expect(!index.directLookup(ofType: widget).hasOverloads, "the exact type winning over an alias is the general path's rule")
        #expect(index.overload(ofType: widget, accepting: signature(Int.self)) == nil)
    }

    @Test func anUnindexedGraphHasNoOverloadTable() {
        let records = [RegistrationRecord(Dependency { Widget() }), RegistrationRecord(Dependency { (size: Int) in Widget() })]
        let entries = records.map { IndexEntry.make(record: $0, owner: ObjectIdentifier($0)) }
        let index = IndexSnapshot(generation: 1, entries: entries, indexed: false, capacity: entries.count)
        #expect(index.overload(ofType: ObjectIdentifier(Widget.self), accepting: signature(Int.self)) == nil)
    }
}
