import Stitcher
import StitcherTesting
import Testing

private final class Plain: Sendable { init() {} }
private final class Numbered: Sendable {
    let number: Int
    init(_ number: Int) { self.number = number }
}
private final class Labelled: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}
private struct Settings: Equatable { let retries: Int }

/// Names under which several registrations are found (the index keeps a list for them)
/// next to names with one registration (kept in one word).
@Suite(.isolatedDependencyGraph)
struct SharedNameTests {
    @Test func registrationsSharingANameAreToldApartByTheirParameters() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Plain() }.named("store").scope(.singleton)
                Dependency { (number: Int) in Numbered(number) }.named("store")
                Dependency { (label: String) in Labelled(label) }.named("store")
                Dependency { Plain() }.named("alone").scope(.singleton)
            })
        let plain: Plain = try DependencyGraph.inject(byName: "store")
        let again: Plain = try DependencyGraph.inject(byName: "store")
        let numbered: Numbered = try DependencyGraph.inject(byName: "store", parameters: 7)
        let labelled: Labelled = try DependencyGraph.inject(byName: "store", parameters: "seven")
        #expect(plain === again, "the singleton is found through the shared name's list")
        #expect(numbered.number == 7)
        #expect(labelled.label == "seven")
        let alone: Plain = try DependencyGraph.inject(byName: "alone")
        #expect(alone !== plain)
        #expect(throws: InjectionError.self) {
            let _: Numbered = try DependencyGraph.inject(byName: "store", parameters: 1.5)
        }
    }

    @Test func aLaterContainerReplacesOneRegistrationOfASharedName() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Plain() }.named("store")
                Dependency { (number: Int) in Numbered(number) }.named("store")
            })
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (number: Int) in Numbered(number * 10) }.named("store")
            })
        let numbered: Numbered = try DependencyGraph.inject(byName: "store", parameters: 2)
        #expect(numbered.number == 20, "the later container's registration wins")
        let _: Plain = try DependencyGraph.inject(byName: "store")
    }

    @Test func aNameRequestedAsAnotherTypeThrowsInsteadOfCasting() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Plain() }.named("plain").scope(.singleton)
                Dependency { Settings(retries: 3) }.named("settings")
            })
        #expect(throws: InjectionError.self) {
            let _: Numbered = try DependencyGraph.inject(byName: "plain")
        }
        let settings: Settings = try DependencyGraph.inject(byName: "settings")
        #expect(settings == Settings(retries: 3), "a value type is found by name, off the direct path")
        #expect(throws: InjectionError.self) {
            let _: Plain = try DependencyGraph.inject(byName: "settings")
        }
    }
}
