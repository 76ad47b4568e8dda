import StitcherTesting
import Testing

@testable import Stitcher

// A new instance requested as a protocol it conforms to is presented as the protocol from a
// template learnt from the first cast (`ExistentialTemplates`): every shape of existential
// must come out as the cast would make it, each instance retained exactly once.

private protocol Identified: AnyObject { var id: Int { get } }
private protocol Named { var name: String { get } }
private protocol Audited: AnyObject { func audit() -> String }
private final class Account: Identified, Named, Audited, @unchecked Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
    var name: String { "account \(id)" }
    func audit() -> String { "audited \(id)" }
}
private class Animal: Named, @unchecked Sendable {
    var name: String { sound() }
    func sound() -> String { "…" }
}
private final class Dog: Animal, @unchecked Sendable { override func sound() -> String { "woof" } }
private final class Cat: Animal, @unchecked Sendable { override func sound() -> String { "meow" } }
private final class Failure: Error, @unchecked Sendable {}
private protocol Listed: AnyObject { var id: Int { get } }
private protocol Verified: AnyObject {}
private protocol Refuted: AnyObject {}
private final class Template: Verified, Refuted, @unchecked Sendable {}
private final class FirstListed: Listed, @unchecked Sendable { let id = 1 }
private final class SecondListed: Listed, @unchecked Sendable { let id = 2 }

@Suite(.isolatedDependencyGraph)
struct ExistentialTemplateTests {
    @Test func aClassBoundProtocolPresentsEachNewInstanceOnceRetained() throws {
        let census = WeakCensus()
        let serial = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { census.track(Account(serial.increment())) }.conforms(to: Identified.self).scope(.instance)
            })
        do {
            var ids: [Int] = []
            for _ in 0..<5 { ids.append((try DependencyGraph.inject() as any Identified).id) }
            #expect(ids == [1, 2, 3, 4, 5])
            let kept: any Identified = try DependencyGraph.inject()
            #expect(ExistentialTemplates.presents(kept, as: ObjectIdentifier((any Identified).self)))
            #expect(census.alive == 1, "only the instance still held")
        }
        #expect(census.alive == 0)
    }

    @Test func aSingletonByItsProtocolIsItsInstanceOnceRetained() throws {
        let census = WeakCensus()
        let built = Counter()
        let container = DependencyContainer {
            Dependency { () -> Account in
                built.increment()
                return census.track(Account(7))
            }
            .conforms(to: Named.self).conforms(to: Identified.self).conforms(to: (any Identified & Audited).self)
            .scope(.singleton)
        }
        DependencyGraph.activate(container)
        do {
            let account: Account = try DependencyGraph.inject()
            // The first request of each protocol makes its view; later ones read it.
            for _ in 0..<4 {
                #expect((try DependencyGraph.inject() as any Identified) === account)
                #expect(((try DependencyGraph.inject() as any Named) as? Account) === account)
                let composed: any Identified & Audited = try DependencyGraph.inject()
                #expect(composed === account)
                #expect(composed.audit() == "audited 7")
            }
        }
        #expect(built.value == 1)
        #expect(census.alive == 1, "the graph keeps its singleton")
        DependencyGraph.deactivate(container)
        #expect(census.alive == 0, "and nothing else holds it once it lets it go")
    }

    @Test func aSingletonOfASubclassByItsProtocolIsPresentedAsItsOwnClass() throws {
        // Registered as `Animal`, made as `Dog`: the template learnt (and verified when the
        // view is made) is `Dog`'s, looked up by the instance's class, not the registered one.
        DependencyGraph.activate(
            DependencyContainer { Dependency { () -> Animal in Dog() }.conforms(to: Named.self).scope(.singleton) })
        let first: any Named = try DependencyGraph.inject()
        for _ in 0..<3 {
            let again: any Named = try DependencyGraph.inject()
            #expect(again.name == "woof")
            #expect((again as? Dog) === (first as? Dog))
        }
    }

    @Test func anOpaqueProtocolKeepsTheInstanceInItsBuffer() throws {
        let serial = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Account(serial.increment()) }.conforms(to: Named.self).scope(.instance)
            })
        let names = try (0..<3).map { _ in (try DependencyGraph.inject() as any Named).name }
        #expect(names == ["account 1", "account 2", "account 3"])
        let named: any Named = try DependencyGraph.inject()
        #expect((named as? Account)?.id == 4, "the existential holds the instance itself")
    }

    @Test func aCompositionCarriesEveryWitnessTable() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Account(7) }.conforms(to: (any Identified & Audited).self).scope(.instance)
            })
        for _ in 0..<3 {
            let account: any Identified & Audited = try DependencyGraph.inject()
            #expect(account.id == 7)
            #expect(account.audit() == "audited 7")
        }
    }

    @Test func eachClassAFactoryReturnsHasItsOwnTemplate() throws {
        let serial = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Animal in serial.increment().isMultiple(of: 2) ? Dog() : Cat() }
                    .conforms(to: Named.self).scope(.instance)
            })
        let sounds = try (0..<6).map { _ in (try DependencyGraph.inject() as any Named).name }
        #expect(sounds == ["meow", "woof", "meow", "woof", "meow", "woof"])
    }

    @Test func anErrorExistentialIsCastEveryTime() throws {
        // `any Error` boxes a class instance: no template is kept, each instance is cast.
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Failure() }.conforms(to: (any Error).self).scope(.instance)
            })
        let first: any Error = try DependencyGraph.inject()
        let second: any Error = try DependencyGraph.inject()
        let firstFailure = try #require(first as? Failure)
        let secondFailure = try #require(second as? Failure)
        #expect(firstFailure !== secondFailure)
        #expect(!ExistentialTemplates.presents(Failure(), as: ObjectIdentifier((any Error).self)))
    }

    @Test func anArrayOfTransientsPresentsEachElement() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { FirstListed() }.conforms(to: Listed.self).scope(.instance)
                Dependency { SecondListed() }.conforms(to: Listed.self).scope(.instance)
            })
        for _ in 0..<3 {
            let all: [any Listed] = try DependencyGraph.inject()
            #expect(all.map(\.id) == [1, 2])
        }
    }

    /// Learns a template for `object` as `P` from made-up bytes: its reference, then `word`.
    private func learn<P>(_ object: AnyObject, as _: P.Type, word: UInt) {
        var bytes = (UInt(bitPattern: ObjectIdentifier(object)), word)
        withUnsafeBytes(of: &bytes) { buffer in
            ExistentialTemplates.learn(
                buffer, as: ObjectIdentifier(P.self), kind: unsafeBitCast(P.self as Any.Type, to: UnsafeRawPointer.self),
                from: object)
        }
    }

    @Test func aTemplateIsUsedOnlyOnceASecondCastAgrees() {
        let object = Template()
        let id = ObjectIdentifier((any Verified).self)
        learn(object, as: (any Verified).self, word: 0xA11CE)
        #expect(!ExistentialTemplates.presents(object, as: id), "learnt from one cast: not used yet")
        learn(object, as: (any Verified).self, word: 0xA11CE)
        #expect(ExistentialTemplates.presents(object, as: id), "a second cast agreed")
    }

    @Test func aTemplateASecondCastContradictsIsNeverUsed() {
        let object = Template()
        let id = ObjectIdentifier((any Refuted).self)
        learn(object, as: (any Refuted).self, word: 0xA11CE)
        learn(object, as: (any Refuted).self, word: 0xB0B)
        #expect(!ExistentialTemplates.presents(object, as: id))
        learn(object, as: (any Refuted).self, word: 0xA11CE)
        #expect(!ExistentialTemplates.presents(object, as: id), "refuted for good")
    }
}
