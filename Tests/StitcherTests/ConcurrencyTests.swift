import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Expensive: @unchecked Sendable {
    static let built = Counter()
    init() {
        Self.built.increment()
        Thread.sleep(forTimeInterval: 0.01)
    }
}
private final class Database: Sendable { init() {} }
private final class Repository: Sendable {
    let database: Database
    init(_ database: Database) { self.database = database }
}
private final class Service: Sendable {
    let repository: Repository
    init(_ repository: Repository) { self.repository = repository }
}
private final class Stable: Sendable { init() {} }
private final class Churned: Sendable { init() {} }
private struct Flaky: Error {}

@Suite(.isolatedDependencyGraph)
struct ConcurrencyTests {
    @Test(arguments: [DependencyScope.singleton, .shared])
    func eightThreadsRacingBuildOneInstance(scope: DependencyScope) throws {
        let builds = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Expensive in
                    builds.increment()
                    return Expensive()
                }.scope(scope)
            })
        let instances = InstanceSet()
        let finished = onThreads(8) { _ in
            if let instance = try? DependencyGraph.inject(byType: Expensive.self) {
                instances.insert(instance)
            }
        }
        #expect(finished)
        #expect(builds.value == 1)
        #expect(instances.count == 1)
        #expect(instances.total == 8)
    }

    @Test func parameterizedSingletonsAreBuiltOncePerParameters() throws {
        let builds = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (key: Int) -> Expensive in
                    builds.increment()
                    return Expensive()
                }.scope(.singleton)
            })
        let instances = InstanceSet()
        onThreads(8) { index in
            if let instance = try? DependencyGraph.inject(byType: Expensive.self, index % 2) {
                instances.insert(instance)
            }
        }
        #expect(builds.value == 2)
        #expect(instances.count == 2)
    }

    @Test func reentrantFactoriesResolveTheirDependencies() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Database() }.scope(.singleton)
                Dependency { Repository(try DependencyGraph.inject()) }.scope(.singleton)
                Dependency { Service(try DependencyGraph.inject()) }
            })
        let services = Protected<[Service]>([])
        let finished = onThreads(8) { _ in
            for _ in 0..<100 {
                if let service = try? DependencyGraph.inject(byType: Service.self) {
                    services.withLock { $0.append(service) }
                }
            }
        }
        #expect(finished)
        let all = services.withLock { $0 }
        #expect(all.count == 800)
        #expect(Set(all.map { ObjectIdentifier($0.repository) }).count == 1)
        #expect(Set(all.map { ObjectIdentifier($0.repository.database) }).count == 1)
    }

    @Test func throwingSingletonFactoryIsRetried() throws {
        let attempts = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Database in
                    if attempts.increment() < 3 { throw Flaky() }
                    return Database()
                }.scope(.singleton)
            })
        #expect(throws: InjectionError.unknown(Flaky())) { try DependencyGraph.inject(byType: Database.self) as Database }
        #expect(throws: InjectionError.unknown(Flaky())) { try DependencyGraph.inject(byType: Database.self) as Database }
        let database = try DependencyGraph.inject(byType: Database.self)
        #expect(try DependencyGraph.inject(byType: Database.self) === database)
        #expect(attempts.value == 3)
    }

    @Test func waitersRetryAfterTheBuilderThrows() throws {
        let attempts = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Expensive in
                    let attempt = attempts.increment()
                    Thread.sleep(forTimeInterval: 0.01)
                    if attempt == 1 { throw Flaky() }
                    return Expensive()
                }.scope(.singleton)
            })
        let instances = InstanceSet()
        let failures = Counter()
        onThreads(6) { _ in
            do { instances.insert(try DependencyGraph.inject(byType: Expensive.self)) } catch { failures.increment() }
        }
        #expect(failures.value == 1)
        #expect(instances.count == 1)
        #expect(attempts.value == 2)
    }

    @Test func churnNeverDisturbsAStableContainer() throws {
        let stable = DependencyContainer { Dependency { Stable() }.scope(.singleton) }
        DependencyGraph.activate(stable)
        let failures = Counter()
        let resolutions = Counter()
        let stop = Flag(false)
        let finished = onThreads(4) { index in
            if index == 0 {
                for round in 0..<300 {
                    let churned = DependencyContainer {
                        Dependency { Churned() }
                        Dependency { Stable() }.named("shadow-\(round)")
                    }
                    DependencyGraph.activate(churned)
                    _ = try? DependencyGraph.inject(byType: Churned.self)
                    DependencyGraph.deactivate(churned)
                }
                stop.isOn = true
            } else {
                while !stop.isOn {
                    do {
                        _ = try DependencyGraph.inject(byType: Stable.self) as Stable
                        resolutions.increment()
                    } catch {
                        failures.increment()
                    }
                }
            }
        }
        #expect(finished)
        #expect(failures.value == 0)
        #expect(resolutions.value > 0)
        let churned: Churned? = try DependencyGraph.inject()
        #expect(churned == nil)
    }

    @Test func tasksShareTheIsolatedGraph() async throws {
        await DependencyGraph.activate(DependencyContainer { Dependency { Database() }.scope(.singleton) })
        let identifiers = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<16 {
                group.addTask { ObjectIdentifier(try DependencyGraph.inject(byType: Database.self)) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identifiers.count == 1)
    }
}

/// Collects instances from many threads, counting distinct ones.
final class InstanceSet: @unchecked Sendable {
    private let lock = NSLock()
    private var identifiers: [ObjectIdentifier] = []
    private var retained: [AnyObject] = []

    func insert(_ object: AnyObject) {
        lock.lock()
        identifiers.append(ObjectIdentifier(object))
        retained.append(object)
        lock.unlock()
    }

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return Set(identifiers).count
    }
    var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return identifiers.count
    }
}

/// A value guarded by a lock, for tests.
final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
