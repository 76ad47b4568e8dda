import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

// A transient value requested as its own type is written straight into the caller's memory,
// and one requested as a protocol it conforms to into an existential made from a template
// (`RegistrationRecord.writeValue(into:)`, `ExistentialTemplates.presentValue`): each must
// come out as the boxed path makes it, with every reference it holds retained exactly once,
// and everything that watches a build (observers, decorations, `didInstantiate()`, cycle
// detection, failures) must see it as it sees any other.

private struct Settings: Equatable, Sendable {
    var serial: Int
    var host = "api.example.com"
}
private protocol Client { var serial: Int { get } }
private protocol Described { var text: String { get } }
private final class Connection: @unchecked Sendable {}
/// Inline in an existential: two words.
private struct LiveClient: Client, Described, @unchecked Sendable {
    let serial: Int
    let connection: Connection
    var text: String { "client \(serial)" }
}
/// Too large for an existential's three-word buffer: the runtime boxes it.
private struct WideClient: Client, @unchecked Sendable {
    let serial: Int
    let connection: Connection
    var a = 1, b = 2, c = 3
}
private struct Empty: Described { var text: String { "empty" } }
private struct Notified: PostInstantiationAware, Sendable {
    let counter: Counter
    func didInstantiate() { counter.increment() }
}
private struct Upstream: Sendable { let downstream: [Downstream] }
private struct Downstream: Sendable { let upstream: [Upstream] }
private struct Failure: Error {}
private protocol Written { var tag: Int { get } }
/// Notified through its registration's existential, which is not `PostInstantiationAware`.
private struct WrittenValue: Written, PostInstantiationAware, @unchecked Sendable {
    let tag: Int
    let counter: Counter
    func didInstantiate() { counter.increment() }
}
private final class WrittenObject: Written, @unchecked Sendable {
    let tag: Int
    init(tag: Int) { self.tag = tag }
}

private final class Creations: DependencyGraphObserver, @unchecked Sendable {
    let count = Counter()
    func didCreate(_ event: DependencyGraphEvent.InstanceCreated) { count.increment() }
}

@Suite(.isolatedDependencyGraph)
struct ValueInjectionTests {
    @Test func aStructByItsOwnTypeIsMadeOnEveryInjection() throws {
        let serial = Counter()
        DependencyGraph.activate(DependencyContainer { Dependency { Settings(serial: serial.increment()) } })
        let made = try (0..<50).map { _ in try DependencyGraph.inject() as Settings }
        #expect(made == (1...50).map { Settings(serial: $0) })
    }

    @Test func aFailingStructFactoryFailsAsAnyFactoryDoesAndLeavesNoFrame() throws {
        let serial = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Settings in
                    let next = serial.increment()
                    if next == 2 { throw Failure() }
                    return Settings(serial: next)
                }
            })
        #expect(try (DependencyGraph.inject() as Settings).serial == 1)
        #expect(throws: InjectionError.self) { try DependencyGraph.inject() as Settings }
        #expect(try (DependencyGraph.inject() as Settings).serial == 3, "no frame left behind: not a cycle")
    }

    @Test func aCycleThroughStructsIsReportedWithItsPath() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Upstream(downstream: [try DependencyGraph.inject() as Downstream]) }
                Dependency { Downstream(upstream: [try DependencyGraph.inject() as Upstream]) }
            })
        let expected = InjectionError.cyclicDependencyReference(
            .init(entries: [.type("Upstream"), .type("Downstream"), .type("Upstream")]))
        #expect(throws: expected) { try DependencyGraph.inject() as Upstream }
    }

    @Test func aPostInstantiationAwareStructIsNotifiedOfEachInstance() throws {
        let counter = Counter()
        DependencyGraph.activate(DependencyContainer { Dependency { Notified(counter: counter) } })
        for _ in 0..<5 { _ = try DependencyGraph.inject() as Notified }
        #expect(counter.value == 5)
    }

    @Test func decorationsApplyToStructs() throws {
        let serial = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Settings(serial: serial.increment()) }.decorated { settings in
                    Settings(serial: settings.serial * 10, host: settings.host)
                }
            })
        #expect(try (0..<3).map { _ in (try DependencyGraph.inject() as Settings).serial } == [10, 20, 30])
        DependencyGraph.activate(
            DependencyContainer(name: "Hosts") {
                Decoration(of: Settings.self) { Settings(serial: $0.serial, host: "staging") }
            })
        let decorated: Settings = try DependencyGraph.inject()
        #expect(decorated == Settings(serial: 40, host: "staging"))
    }

    @Test func anObserverIsToldOfEveryStruct() throws {
        let creations = Creations()
        DependencyGraph.observer = creations
        defer { DependencyGraph.observer = nil }
        DependencyGraph.activate(DependencyContainer { Dependency { Settings(serial: 1) } })
        for _ in 0..<3 { _ = try DependencyGraph.inject() as Settings }
        #expect(creations.count.value == 3)
    }

    @Test func aStructBehindAProtocolIsPresentedAsTheCastWouldPresentIt() throws {
        let census = WeakCensus()
        let serial = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { LiveClient(serial: serial.increment(), connection: census.track(Connection())) }
                    .conforms(to: Client.self)
            })
        do {
            // The first two are cast (a template is learnt, then verified), the rest presented.
            var clients: [any Client] = []
            for _ in 0..<20 { clients.append(try DependencyGraph.inject() as any Client) }
            #expect(clients.map(\.serial) == Array(1...20))
            #expect(clients.allSatisfy { $0 is LiveClient })
            #expect(census.alive == 20)
            let last = try #require(clients.last as? LiveClient)
            #expect(last.serial == 20)
            #expect(ValueLayout.isStoredInline(LiveClient.self, size: 16, stride: 16, alignment: 8))
            // The template the later ones were presented from.
            let scratch = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<any Client>.size, alignment: 16)
            defer { scratch.deallocate() }
            #expect(
                ExistentialTemplates.presentValue(
                    of: ObjectIdentifier(LiveClient.self), as: ObjectIdentifier((any Client).self), into: scratch))
        }
        #expect(census.alive == 0, "each connection released with the last copy of its client")
    }

    @Test func aCompositionOfProtocolsCarriesEveryWitnessTable() throws {
        let serial = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { LiveClient(serial: serial.increment(), connection: Connection()) }
                    .conforms(to: (any Client & Described).self)
            })
        for expected in 1...6 {
            let client: any Client & Described = try DependencyGraph.inject()
            #expect(client.serial == expected)
            #expect(client.text == "client \(expected)")
        }
    }

    @Test func aStructTheRuntimeBoxesIsCastEveryTime() throws {
        let census = WeakCensus()
        let serial = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { WideClient(serial: serial.increment(), connection: census.track(Connection())) }
                    .conforms(to: Client.self)
            })
        do {
            let clients = try (0..<10).map { _ in try DependencyGraph.inject() as any Client }
            #expect(clients.map(\.serial) == Array(1...10))
            #expect((clients.last as? WideClient)?.c == 3)
        }
        #expect(census.alive == 0)
        #expect(!ValueLayout.isStoredInline(WideClient.self, size: 40, stride: 40, alignment: 8))
    }

    @Test func anEmptyStructBehindAProtocolIsPresented() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Empty() }.conforms(to: Described.self) })
        for _ in 0..<5 { #expect((try DependencyGraph.inject() as any Described).text == "empty") }
    }

    @Test func aValueRegisteredAsItsProtocolIsWrittenAndItsValueNotified() throws {
        let counter = Counter()
        DependencyGraph.activate(
            DependencyContainer { Dependency { WrittenValue(tag: counter.value + 1, counter: counter) as any Written } })
        for expected in 1...5 { #expect((try DependencyGraph.inject() as any Written).tag == expected) }
        #expect(counter.value == 5, "didInstantiate() of each value, found behind the existential")
    }

    @Test func anObjectRegisteredAsAnOpaqueProtocolIsRetainedOnce() throws {
        let serial = Counter()
        let census = WeakCensus()
        DependencyGraph.activate(
            DependencyContainer { Dependency { census.track(WrittenObject(tag: serial.increment())) as any Written } })
        do {
            let all = try (0..<5).map { _ in try DependencyGraph.inject() as any Written }
            #expect(all.map(\.tag) == [1, 2, 3, 4, 5])
            #expect(census.alive == 5)
        }
        #expect(census.alive == 0)
    }

    @Test func theRuntimeLayoutIsReadOnlyWhenItIsTheOneCompiled() {
        #expect(ValueLayout.isStoredInline(Int.self, size: 8, stride: 8, alignment: 8))
        #expect(!ValueLayout.isStoredInline(Int.self, size: 16, stride: 16, alignment: 8), "a layout that disagrees")
        #expect(!ValueLayout.isStoredInline((Int, Int, Int, Int).self, size: 32, stride: 32, alignment: 8))
        #expect(!ValueLayout.isStoredInline(Connection.self, size: 8, stride: 8, alignment: 8), "not a value type")
    }
}
