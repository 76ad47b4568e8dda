import StitcherTesting
import Testing

@testable import Stitcher

// A registration made as its protocol (`Dependency { Impl() as any P }`) produces values of
// other types than the one it is registered as. Its transient values are made without a box,
// by the caller's own code through the registration's typed factory (a class-bound
// protocol's instances too), and each value whose type is `PostInstantiationAware` is told
// it was made. The type is read where the existential keeps
// it once that place is verified (`ExistentialDynamicTypes`): these tests hold every value
// to its answer before and after, for opaque and class-bound protocols, and the fallback a
// runtime that lays existentials out otherwise would take.

private protocol Gauge { var reading: Int { get } }
private protocol Sensor: AnyObject, Sendable { var reading: Int { get } }

private struct AwareGauge: Gauge, PostInstantiationAware {
    let calls: Counter
    var reading: Int { 1 }
    func didInstantiate() { calls.increment() }
}
private struct PlainGauge: Gauge { var reading: Int { 2 } }
/// Larger than an existential's inline buffer: kept in a box the existential points to.
private struct WideGauge: Gauge {
    var words: (Int, Int, Int, Int) = (3, 0, 0, 0)
    var reading: Int { words.0 }
}
private final class AwareSensor: Sensor, PostInstantiationAware, @unchecked Sendable {
    let calls: Counter
    init(_ calls: Counter) { self.calls = calls }
    var reading: Int { 1 }
    func didInstantiate() { calls.increment() }
}
private final class PlainSensor: Sensor {
    var reading: Int { 2 }
}
private struct Broken: Error {}

/// The protocols of the layout tests, each used by one test only (the table is shared by
/// every graph, and tests run in parallel).
private protocol Learnt {}
private protocol Refuted {}
private protocol LearntObject: AnyObject {}
private struct LearntValue: Learnt, Refuted {}
private final class LearntInstance: LearntObject {}

@Suite(.isolatedDependencyGraph)
struct ProtocolRegistrationTests {
    /// More values than the place takes to be verified, so that most are read from it.
    private let rounds = 60

    @Test func everyAwareValueOfAnOpaqueProtocolIsToldItWasMade() throws {
        let calls = Counter()
        let made = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> any Gauge in
                    // Aware, plain and boxed values in turn, from one registration.
                    switch made.increment() % 3 {
                    case 0: AwareGauge(calls: calls)
                    case 1: PlainGauge()
                    default: WideGauge()
                    }
                }
            })
        var readings: [Int] = []
        for _ in 0..<rounds { readings.append((try DependencyGraph.inject() as any Gauge).reading) }
        #expect(made.value == rounds)
        #expect(calls.value == rounds / 3)
        #expect(readings == (1...rounds).map { [1, 2, 3][$0 % 3] })
        // The values were read from the verified place.
        #expect(try placeIsVerified(PlainGauge(), as: (any Gauge).self) { try DependencyGraph.inject() })
    }

    @Test func everyAwareInstanceOfAClassBoundProtocolIsToldItWasMade() throws {
        let calls = Counter()
        let made = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> any Sensor in
                    made.increment().isMultiple(of: 2) ? AwareSensor(calls) : PlainSensor()
                }
            })
        var instances: [any Sensor] = []
        for _ in 0..<rounds { instances.append(try DependencyGraph.inject() as any Sensor) }
        #expect(made.value == rounds)
        #expect(calls.value == rounds / 2)
        #expect(instances.map(\.reading) == (1...rounds).map { $0.isMultiple(of: 2) ? 1 : 2 })
        // A new instance every time, held by the caller only: released with the array.
        #expect(Set(instances.map { ObjectIdentifier($0) }).count == rounds)
        let released = instances.map { instance in { [weak instance] in instance == nil } }
        instances.removeAll()
        #expect(released.allSatisfy { $0() })
        #expect(try placeIsVerified(PlainSensor(), as: (any Sensor).self) { try DependencyGraph.inject() })
    }

    @Test func anObservedGraphIsToldAboutEveryValue() throws {
        // An observer is told about each instance: the engine builds it the boxed way.
        let calls = Counter()
        let observed = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { AwareSensor(calls) as any Sensor }
                Dependency { AwareGauge(calls: calls) as any Gauge }
            })
        DependencyGraph.observer = CountingObserver(count: observed)
        defer { DependencyGraph.observer = nil }
        for _ in 0..<10 {
            _ = try DependencyGraph.inject() as any Sensor
            _ = try DependencyGraph.inject() as any Gauge
        }
        #expect(calls.value == 20)
        #expect(observed.value == 20)
    }

    @Test func aFailingFactoryThrowsAndLeavesThePathAsItWas() throws {
        // Each factory fails every other time, from its first.
        let sensors = Counter()
        let gauges = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> any Sensor in
                    if !sensors.increment().isMultiple(of: 2) { throw Broken() }
                    return PlainSensor()
                }
                Dependency { () throws -> any Gauge in
                    if !gauges.increment().isMultiple(of: 2) { throw Broken() }
                    return PlainGauge()
                }
            })
        for _ in 0..<10 {
            #expect(throws: (any Error).self) { try DependencyGraph.inject() as any Sensor }
            #expect(ThreadState.current.frames.isEmpty)
            #expect(try DependencyGraph.inject() as any Sensor is PlainSensor)
            #expect(throws: (any Error).self) { try DependencyGraph.inject() as any Gauge }
            #expect(try DependencyGraph.inject() as any Gauge is PlainGauge)
            #expect(ThreadState.current.frames.isEmpty)
        }
    }

    @Test func aDecoratorStillSeesEveryValue() throws {
        // A decorator replaces the factory: the registration loses its typed factory and its
        // writer, and every value goes through the decorator.
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { PlainGauge() as any Gauge }.decorated { _ in WideGauge() }
                Dependency { PlainSensor() as any Sensor }.decorated { _ in AwareSensor(Counter()) }
            })
        for _ in 0..<10 {
            #expect((try DependencyGraph.inject() as any Gauge).reading == 3)
            #expect((try DependencyGraph.inject() as any Sensor).reading == 1)
        }
    }

    @Test func aProtocolsOwnRegistrationHasATypedFactoryThatAsks() throws {
        let container = DependencyContainer {
            Dependency { PlainGauge() as any Gauge }
            Dependency { PlainSensor() as any Sensor }
        }
        for registration in container.registrations() {
            #expect(registration.writesValues)
            #expect(registration.valueFactory != nil)
        }
    }

    @Test func anOpaqueExistentialsPlaceIsUsedOnlyOnceTwoAnswersAgree() {
        var value: any Learnt = LearntValue()
        UnawareTypes.notifyIfAware(LearntValue())
        let known = { bytes(of: &value, as: (any Learnt).self) { ExistentialDynamicTypes.isKnownUnaware($0, as: (any Learnt).self) } }
        let learn = {
            bytes(of: &value, as: (any Learnt).self) { ExistentialDynamicTypes.learn($0, from: LearntValue(), as: (any Learnt).self) }
        }
        #expect(!known())
        learn()
        #expect(!known())
        // Two agreements verify it (learnt again while another type's collision overwrites
        // the shared slot, which can only make the answer "not known").
        var verified = false
        for _ in 0..<100 where !verified {
            learn()
            learn()
            UnawareTypes.notifyIfAware(LearntValue())
            verified = known()
        }
        #expect(verified)
    }

    @Test func aClassBoundExistentialsPlaceIsItsReference() {
        let instance = LearntInstance()
        var object: any LearntObject = instance
        UnawareTypes.notifyIfAware(LearntInstance())
        let learn = {
            bytes(of: &object, as: (any LearntObject).self) {
                ExistentialDynamicTypes.learn($0, from: instance, as: (any LearntObject).self)
            }
        }
        var verified = false
        for _ in 0..<100 where !verified {
            learn()
            learn()
            UnawareTypes.notifyIfAware(LearntInstance())
            verified = bytes(of: &object, as: (any LearntObject).self) {
                ExistentialDynamicTypes.isKnownUnaware($0, as: (any LearntObject).self)
            }
        }
        #expect(verified)
    }

    @Test func aPlaceTheRuntimeContradictsIsNeverUsed() {
        // As on a runtime laying existentials out otherwise: the bytes hold no type where
        // the layout says, so nothing is verified and every value is asked about.
        var value: any Refuted = LearntValue()
        UnawareTypes.notifyIfAware(LearntValue())
        let other = [UInt](repeating: 0x5A5A, count: MemoryLayout<any Refuted>.size / MemoryLayout<UInt>.size)
        for _ in 0..<10 {
            other.withUnsafeBytes { ExistentialDynamicTypes.learn($0, from: LearntValue(), as: (any Refuted).self) }
            #expect(!other.withUnsafeBytes { ExistentialDynamicTypes.isKnownUnaware($0, as: (any Refuted).self) })
            #expect(!bytes(of: &value, as: (any Refuted).self) { ExistentialDynamicTypes.isKnownUnaware($0, as: (any Refuted).self) })
        }
        // One contradiction forgets what agreed before.
        bytes(of: &value, as: (any Refuted).self) { ExistentialDynamicTypes.learn($0, from: LearntValue(), as: (any Refuted).self) }
        bytes(of: &value, as: (any Refuted).self) { ExistentialDynamicTypes.learn($0, from: LearntValue(), as: (any Refuted).self) }
        other.withUnsafeBytes { ExistentialDynamicTypes.learn($0, from: LearntValue(), as: (any Refuted).self) }
        #expect(!bytes(of: &value, as: (any Refuted).self) { ExistentialDynamicTypes.isKnownUnaware($0, as: (any Refuted).self) })
    }

    @Test func aNonExistentialTypeHasNoPlace() {
        var value = LearntValue()
        for _ in 0..<3 { withUnsafeBytes(of: &value) { ExistentialDynamicTypes.learn($0, from: LearntValue(), as: LearntValue.self) } }
        #expect(!withUnsafeBytes(of: &value) { ExistentialDynamicTypes.isKnownUnaware($0, as: LearntValue.self) })
    }
}

/// Calls `body` with the bytes of `value` as the existential `E` it is declared as (a generic
/// call taking it alone would open it, and see its value's bytes instead: SE-0352).
private func bytes<E, R>(of value: inout E, as _: E.Type, _ body: (UnsafeRawBufferPointer) -> R) -> R {
    withUnsafeMutablePointer(to: &value) { body(UnsafeRawBufferPointer(start: $0, count: MemoryLayout<E>.size)) }
}

/// Whether `sample`, an unaware value, is known unaware from its existential's verified
/// place: asked again after each new value `inject` makes, up to 100 (another existential's
/// collision in the shared table may overwrite the place meanwhile).
private func placeIsVerified<E>(_ sample: E, as _: E.Type, _ inject: () throws -> E) rethrows -> Bool {
    var sample = sample
    for _ in 0..<100 {
        if bytes(of: &sample, as: E.self, { ExistentialDynamicTypes.isKnownUnaware($0, as: E.self) }) { return true }
        _ = try inject()
    }
    return false
}

/// Counts the instances it is told were created.
private final class CountingObserver: DependencyGraphObserver {
    let count: Counter
    init(count: Counter) { self.count = count }
    func didCreate(_ event: DependencyGraphEvent.InstanceCreated) { count.increment() }
}
