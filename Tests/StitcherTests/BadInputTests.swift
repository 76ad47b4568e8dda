import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Thing: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}
private protocol Unrelated {}
private class UnrelatedBase {}

/// Equal only to itself, but every value hashes the same.
private struct Colliding: Hashable {
    let id: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

/// A reference-type parameter whose hash follows a property the caller can change.
private final class MutableKey: Hashable, @unchecked Sendable {
    var id: Int
    init(_ id: Int) { self.id = id }
    static func == (lhs: MutableKey, rhs: MutableKey) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A chain of `depth` levels, each level resolving the next.
private final class Level: Sendable {
    let depth: Int
    init(depth: Int) { self.depth = depth }
}

@Suite(.isolatedDependencyGraph)
struct BadInputTests {
    @Test func duplicateNamesAndValuesKeepTheLastRegistration() throws {
        DependencyGraph.activate(
            DependencyContainer {
                for index in 0..<3 {
                    Dependency { Thing("name-\(index)") }.named("dupe")
                    Dependency { Thing("value-\(index)") }.associated(with: 7)
                }
            })
        #expect(try (DependencyGraph.inject(byName: "dupe") as Thing).label == "name-2")
        #expect(try (DependencyGraph.inject(byValue: 7) as Thing).label == "value-2")
        #expect(DependencyGraph.activeRegistrations.count == 2)
    }

    @Test func emptyNamesAreOrdinaryNames() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Thing("empty") }.named("") })
        #expect(try (DependencyGraph.inject(byName: "") as Thing).label == "empty")
        #expect(throws: InjectionError.missingDependency(.name(" "))) { try DependencyGraph.inject(byName: " ") as Thing }
    }

    @Test func hashCollidingValuesAreToldApartByEquality() throws {
        DependencyGraph.activate(
            DependencyContainer {
                for id in 0..<50 { Dependency { Thing("\(id)") }.associated(with: Colliding(id: id)) }
            })
        for id in 0..<50 {
            #expect(try (DependencyGraph.inject(byValue: Colliding(id: id)) as Thing).label == "\(id)")
        }
        #expect(throws: InjectionError.missingDependency(.value(Colliding(id: 50)))) {
            try DependencyGraph.inject(byValue: Colliding(id: 50)) as Thing
        }
    }

    @Test func unrelatedAliasesAreReportedWhenInjected() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Thing("a") }.conforms(to: Unrelated.self).inherits(from: UnrelatedBase.self)
            })
        #expect(throws: InjectionError.mismatchedDependencyType("Thing", expected: "Unrelated")) {
            try DependencyGraph.inject(byType: Unrelated.self)
        }
        #expect(throws: InjectionError.mismatchedDependencyType("Thing", expected: "UnrelatedBase")) {
            try DependencyGraph.inject(byType: UnrelatedBase.self)
        }
        #expect(try DependencyGraph.inject(byType: Thing.self).label == "a", "the dependency itself still works")
    }

    @Test func wrongParameterCountsAndTypesAreTypedErrors() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { (a: Int, b: String) in Thing("\(a)\(b)") } })
        for attempt: () throws -> Thing in [
            { try DependencyGraph.inject() },
            { try DependencyGraph.inject(parameters: 1) },
            { try DependencyGraph.inject(parameters: "b", 1) },
            { try DependencyGraph.inject(parameters: 1, "b", 2) },
        ] {
            do {
                _ = try attempt()
                Issue.record("expected an error")
            } catch InjectionError.invalidDependencyParameters(.type("Thing"), _, _) {
            }
        }
    }

    @Test func aParameterMutatedAfterItKeyedAnInstanceBreaksNothingElse() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (key: MutableKey) in Thing("\(key.id)") }.scope(.singleton)
            })
        let first = MutableKey(1)
        let second = MutableKey(2)
        let forFirst = try DependencyGraph.inject(byType: Thing.self, first)
        let forSecond = try DependencyGraph.inject(byType: Thing.self, second)
        // Breaks Hashable's contract: the stored key now equals another one.
        first.id = 2
        // Enough other keys that the stored instances are rehashed several times.
        for id in 3..<200 { _ = try DependencyGraph.inject(byType: Thing.self, MutableKey(id)) as Thing }
        #expect(try DependencyGraph.inject(byType: Thing.self, MutableKey(2)) === forSecond)
        #expect(try DependencyGraph.inject(byType: Thing.self, second) === forSecond)
        let rebuilt = try DependencyGraph.inject(byType: Thing.self, MutableKey(1))
        #expect(rebuilt !== forFirst, "the mutated key no longer finds what it stored")
        #expect(try DependencyGraph.inject(byType: Thing.self, MutableKey(1)) === rebuilt)
    }

    @Test func optionalOfOptionalAndNestedCollections() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Thing("x") } })
        let twice: Thing?? = try DependencyGraph.inject()
        #expect(twice??.label == "x")
        let missingTwice: Colliding?? = try DependencyGraph.inject()
        #expect(missingTwice == nil)
        let nested: [[Thing]] = try DependencyGraph.inject()
        #expect(nested.isEmpty, "an array of arrays is looked up by its element type [Thing], which nothing registers")
        let optionalArray: [Thing]? = try DependencyGraph.inject()
        #expect(optionalArray?.count == 1)
        let setOfOptionals: [Thing?] = try DependencyGraph.inject()
        #expect(setOfOptionals.isEmpty)
    }

    @Test func aVeryDeepGraphResolvesOnALargeStack() throws {
        // 10,000 levels (fewer under sanitizers); a debug build uses about 6 KB of stack per
        // level, so the thread gets 16 KB per level (24 KB under AddressSanitizer, whose
        // redzones make each frame larger, and more so while another test's graph has an
        // observer, which takes the observed path). ThreadSanitizer keeps its own call
        // stack of 65,536 entries per thread and writes past it, unchecked, when a thread
        // goes deeper; a level is about 26 calls in a debug build, so it gets 1,000 levels.
        let threadSanitized = ProcessInfo.processInfo.environment["STITCHER_SANITIZER"] == "thread"
        let depth = threadSanitized ? 1_000 : scaled(10_000)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (level: Int) throws -> Level in
                    level == depth ? Level(depth: level) : try DependencyGraph.inject(byType: Level.self, level + 1)
                }
            })
        let context = DependencyGraph.currentContext
        let result = Protected<Result<Int, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            context.run {
                let outcome = Result { try DependencyGraph.inject(byType: Level.self, 0).depth }
                result.withLock { $0 = outcome }
            }
            done.signal()
        }
        let addressSanitized = ProcessInfo.processInfo.environment["STITCHER_SANITIZER"] == "address"
        thread.stackSize = depth * (addressSanitized ? 24 : 16) << 10
        thread.start()
        done.wait()
        #expect(try result.withLock { $0 }?.get() == depth)
    }

    @Test func aDeeperGraphThanTheStackAllowsIsATypedError() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (level: Int) throws -> Level in try DependencyGraph.inject(byType: Level.self, level + 1) }
            })
        let context = DependencyGraph.currentContext
        let result = Protected<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            context.run {
                do { _ = try DependencyGraph.inject(byType: Level.self, 0) as Level } catch {
                    result.withLock { $0 = error }
                }
            }
            done.signal()
        }
        thread.stackSize = 4 << 20
        thread.start()
        done.wait()
        // Thrown as itself, not as `.unknown`: the advice is about the chain, not a factory.
        let error = try #require(result.withLock { $0 } as? ResolutionTooDeep, "got \(String(describing: result.withLock { $0 }))")
        #expect(error.depth > 100, "reached \(error.depth)")
        #expect(error.description.contains("Type[Level] -> Type[Level]"))
        #expect(error.recoverySuggestion?.hasPrefix("To fix this, break up the chain") == true)
        #expect(error.localizedDescription == error.description)
    }

    @Test func aVeryWideContainer() throws {
        let count = scaled(100_000)
        DependencyGraph.activate(
            DependencyContainer {
                for index in 0..<count { Dependency { Thing("\(index)") }.named("wide-\(index)") }
            })
        for index in stride(from: 0, to: count, by: max(1, count / 1_000)) {
            #expect(try (DependencyGraph.inject(byName: "wide-\(index)") as Thing).label == "\(index)")
        }
        #expect(throws: InjectionError.missingDependency(.name("wide-\(count)"))) {
            try DependencyGraph.inject(byName: "wide-\(count)") as Thing
        }
    }
}
