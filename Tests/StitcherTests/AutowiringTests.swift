import StitcherTesting
import Testing

@testable import Stitcher

// `Dependency(autowiring: Type.init)`: every parameter injected by type, runtime parameters
// taken by type and order, asynchronous initializers, declared dependencies, and errors
// that name the parameter.

private final class Database: @unchecked Sendable {}
private final class Clock: @unchecked Sendable {}
private final class Logger: @unchecked Sendable {}
private protocol Tracking: AnyObject {}
private final class Analytics: Tracking, @unchecked Sendable {}
private final class Metrics: Tracking, @unchecked Sendable {}
private final class Missing: @unchecked Sendable {}
private struct UserID: Hashable, Sendable { let value: Int }

private final class Empty: @unchecked Sendable { init() {} }
private final class One: @unchecked Sendable {
    let database: Database
    init(database: Database) { self.database = database }
}
private final class Five: @unchecked Sendable {
    let parts: [AnyObject]
    init(a: Database, b: Clock, c: Logger, d: Database, e: Clock) { parts = [a, b, c, d, e] }
}
private final class Twelve: @unchecked Sendable {
    let parts: [AnyObject]
    init(
        _ a: Database, _ b: Clock, _ c: Logger, _ d: Database, _ e: Clock, _ f: Logger,
        _ g: Database, _ h: Clock, _ i: Logger, _ j: Database, _ k: Clock, _ l: Logger
    ) {
        parts = [a, b, c, d, e, f, g, h, i, j, k, l]
    }
}
private final class Wrapped: @unchecked Sendable {
    let missing: Missing?, present: Clock?, trackers: [any Tracking]
    init(missing: Missing?, present: Clock?, trackers: [any Tracking]) {
        self.missing = missing
        self.present = present
        self.trackers = trackers
    }
}
private final class Positioned: @unchecked Sendable {
    let id: UserID, database: Database, label: String
    init(id: UserID, database: Database, label: String) {
        self.id = id
        self.database = database
        self.label = label
    }
    init(database: Database, id: UserID, clock: Clock) {
        self.id = id
        self.database = database
        label = "middle"
    }
}
private final class Pair: @unchecked Sendable {
    let first: String, database: Database, second: String
    init(first: String, database: Database, second: String) {
        self.first = first
        self.database = database
        self.second = second
    }
}
private final class Labelled: @unchecked Sendable {
    let database: Database, label: String
    init(database: Database, label: String) {
        self.database = database
        self.label = label
    }
}
private final class Sized: @unchecked Sendable {
    let size: Int
    init(size: Int) { self.size = size }
}
private final class NeedsMissing: @unchecked Sendable { init(clock: Clock, missing: Missing) {} }
private final class NeedsNeedsMissing: @unchecked Sendable { init(inner: NeedsMissing) {} }
private final class Pool: @unchecked Sendable {
    let database: Database
    init(database: Database) async throws {
        await Task.yield()
        self.database = database
    }
}

@Suite(.isolatedDependencyGraph)
struct AutowiringTests {
    private func activateParts() {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Database() }.scope(.singleton)
                Dependency { Clock() }.scope(.singleton)
                Dependency { Logger() }.scope(.singleton)
            })
    }

    @Test func initializersOfZeroOneFiveAndTwelveParameters() throws {
        activateParts()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(autowiring: Empty.init)
                Dependency(autowiring: One.init)
                Dependency(autowiring: Five.init)
                Dependency(autowiring: Twelve.init)
            })
        let database: Database = try DependencyGraph.inject()
        let clock: Clock = try DependencyGraph.inject()
        let logger: Logger = try DependencyGraph.inject()
        _ = try DependencyGraph.inject() as Empty
        #expect(try DependencyGraph.inject(byType: One.self).database === database)
        #expect(
            try DependencyGraph.inject(byType: Five.self).parts.map(ObjectIdentifier.init)
                == [database, clock, logger, database, clock].map(ObjectIdentifier.init))
        let twelve: Twelve = try DependencyGraph.inject()
        #expect(
            twelve.parts.map(ObjectIdentifier.init)
                == Array(repeating: [database as AnyObject, clock, logger], count: 4).flatMap { $0 }.map(ObjectIdentifier.init))
    }

    @Test func optionalAndArrayParametersTakeWhatIsRegistered() throws {
        activateParts()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Analytics() }.conforms(to: Tracking.self).scope(.singleton)
                Dependency { Metrics() }.conforms(to: Tracking.self).scope(.singleton)
                Dependency(autowiring: Wrapped.init)
            })
        let wrapped: Wrapped = try DependencyGraph.inject()
        #expect(wrapped.missing == nil)
        #expect(wrapped.present === (try DependencyGraph.inject() as Clock))
        #expect(wrapped.trackers.count == 2)
        #expect(wrapped.trackers.first is Analytics && wrapped.trackers.last is Metrics)
    }

    @Test func modifiersApplyToAutowiredDependencies() throws {
        activateParts()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(autowiring: One.init).named("one").scope(.singleton)
                Dependency(autowiring: Analytics.init).conforms(to: Tracking.self).scope(.instance)
            })
        let one: One = try DependencyGraph.inject(byName: "one")
        #expect(try DependencyGraph.inject(byName: "one") as One === one)
        let first: any Tracking = try DependencyGraph.inject()
        let second: any Tracking = try DependencyGraph.inject()
        #expect(first !== second)
    }

    @Test func aRuntimeParameterFirstMiddleOrLast() throws {
        activateParts()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(autowiring: Positioned.init(id:database:label:), parameters: UserID.self, String.self)
                    .named("first")
                Dependency(autowiring: Positioned.init(database:id:clock:), parameters: UserID.self).named("middle")
                Dependency(autowiring: Labelled.init, parameters: String.self).named("last")
            })
        let first: Positioned = try DependencyGraph.inject(byName: "first", UserID(value: 1), "label")
        #expect(first.id == UserID(value: 1) && first.label == "label")
        let middle: Positioned = try DependencyGraph.inject(byName: "middle", UserID(value: 2))
        #expect(middle.id == UserID(value: 2) && middle.label == "middle")
        #expect(middle.database === (try DependencyGraph.inject() as Database))
        let last: Labelled = try DependencyGraph.inject(byName: "last", "label")
        #expect(last.label == "label" && last.database === middle.database)
    }

    @Test func twoRuntimeParametersOfOneTypeGoInOrder() throws {
        activateParts()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(autowiring: Pair.init, parameters: String.self, String.self)
            })
        let pair: Pair = try DependencyGraph.inject("a", "b")
        #expect(pair.first == "a" && pair.second == "b")
    }

    @Test func anAsyncThrowingInitializerIsAwaited() async throws {
        await DependencyGraph.activate(DependencyContainer { Dependency { Database() }.scope(.singleton) })
        await DependencyGraph.activate(DependencyContainer { Dependency(autowiring: Pool.init).scope(.singleton) })
        let pool: Pool = try await DependencyGraph.injectAsync()
        #expect(pool.database === (try DependencyGraph.inject() as Database))
        #expect(try await DependencyGraph.injectAsync() as Pool === pool)
    }

    @Test func aParameterThatCannotBeInjectedIsNamed() throws {
        activateParts()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(autowiring: NeedsMissing.init)
                Dependency(autowiring: NeedsNeedsMissing.init)
            })
        let error = try #require(throws: AutowiringError.self) { try DependencyGraph.inject() as NeedsMissing }
        guard case .uninjectable(let position, let type, let underlying) = error.failure else {
            Issue.record("unexpected failure \(error.failure)")
            return
        }
        #expect(position == 2 && type == "Missing" && error.parameterCount == 2)
        #expect(underlying as? InjectionError == .missingDependency(.type("Missing")))
        #expect(error.description.contains("parameter 2 of 2"))
        #expect(error.description.contains("To fix this"))
        #expect(
            error.description.hasSuffix(
                "To fix this, register a Missing in an active container, list Missing.self in "
                    + "`parameters:` to pass it when injecting, or make the parameter Optional so that it can be nil."))
        let nested = try #require(throws: AutowiringError.self) { try DependencyGraph.inject() as NeedsNeedsMissing }
        #expect(nested.description.contains("NeedsNeedsMissing") && nested.description.contains("of type Missing"))
    }

    @Test func aParameterThatFailsOtherwiseSaysHowToFixThat() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Database() }.scope(.scoped)
                Dependency(autowiring: One.init).scope(.instance)
            })
        let error = try #require(throws: AutowiringError.self) { try DependencyGraph.inject() as One }
        // The scope error's own fix, not advice to register what is registered.
        #expect(error.description.contains("To fix this, inject it inside `DependencyGraph.withScope { … }`"))
        #expect(!error.description.contains("register a Database"))
    }

    @Test func aListedParameterTheInitializerDoesNotTakeIsAnError() throws {
        activateParts()
        DependencyGraph.activate(DependencyContainer { Dependency(autowiring: One.init, parameters: UserID.self) })
        let error = try #require(throws: AutowiringError.self) { try DependencyGraph.inject(UserID(value: 1)) as One }
        guard case .unmatchedRuntimeParameter(let type) = error.failure else {
            Issue.record("unexpected failure \(error.failure)")
            return
        }
        #expect(type == "UserID")
    }

    @Test func declaredDependenciesAreTheInjectedParameters() throws {
        let plain = RegistrationRecord(Dependency(autowiring: Five.init))
        #expect(plain.declaredDependencies.map(\.type.description) == ["Database", "Clock", "Logger", "Database", "Clock"])
        let withRuntime = RegistrationRecord(Dependency(autowiring: Pair.init, parameters: String.self, String.self))
        #expect(withRuntime.declaredDependencies.map(\.type.description) == ["Database"])
        #expect(withRuntime.parameterTypes.map(\.description) == ["String", "String"])
        #expect(RegistrationRecord(Dependency { Empty() }).declaredDependencies.isEmpty)
    }

    @Test func activeRegistrationsShowTheDeclaredDependencies() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(autowiring: Positioned.init(database:id:clock:), parameters: UserID.self)
                Dependency(autowiring: Twelve.init)
                Dependency { Empty() }
            })
        func declared(_ type: Any.Type) -> [String]? {
            DependencyGraph.activeRegistrations.first { $0.typeName == String(describing: type) }?.declaredDependencyTypeNames
        }
        #expect(declared(Positioned.self) == ["Database", "Clock"])
        #expect(declared(Twelve.self) == Array(repeating: ["Database", "Clock", "Logger"], count: 4).flatMap { $0 })
        #expect(declared(Empty.self) == [])
    }

    @Test func aTrailingClosureStillRegistersThePlainForm() throws {
        activateParts()
        let made = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Empty in
                    made.increment()
                    return Empty()
                }
                Dependency { (size: Int) in Sized(size: size) }
            })
        _ = try DependencyGraph.inject() as Empty
        #expect(made.value == 1)
        #expect(try DependencyGraph.inject(byType: Sized.self, 3).size == 3, "a parameter, not autowired")
    }
}
