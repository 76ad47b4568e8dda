import Foundation
import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

// Random sequences of container definitions, activations, deactivations, invalidations and
// injections, run against Stitcher and against a small reference model of the documented
// semantics. Every case prints its seed when it fails; rerun one with STITCHER_MODEL_SEED.

private protocol Tagged: AnyObject { var tag: Int { get } }
private final class ModelA: Tagged, @unchecked Sendable {
    let tag: Int
    init(_ tag: Int) { self.tag = tag }
}
private final class ModelB: Tagged, @unchecked Sendable {
    let tag: Int
    init(_ tag: Int) { self.tag = tag }
}

/// One registration of the model.
private struct ModelRegistration {
    enum Locator: Hashable {
        case type
        case name(String)
        case value(Int)
    }
    let tag: Int
    let producesB: Bool
    let locator: Locator
    let aliased: Bool
    let takesParameter: Bool
    let singleton: Bool
    let conditional: Bool

    /// The identity rule: locator (own type for type locators) and parameter types.
    var identity: String {
        let primary: String
        switch locator {
        case .type: primary = producesB ? "type:B" : "type:A"
        case .name(let name): primary = "name:\(name)"
        case .value(let value): primary = "value:\(value)"
        }
        return primary + (takesParameter ? "(Int)" : "()")
    }
}

/// What an injection gave.
private enum Outcome: Equatable, CustomStringConvertible {
    case value(Int)
    case values([Int])
    case none
    case missing, multiple, parameters, mismatch
    case other(String)

    var description: String {
        switch self {
        case .value(let tag): "value(\(tag))"
        case .values(let tags): "values(\(tags))"
        case .none: "nil"
        case .missing: "missing"
        case .multiple: "multiple"
        case .parameters: "invalid parameters"
        case .mismatch: "mismatch"
        case .other(let text): text
        }
    }
}

private enum Request: CaseIterable { case typeA, typeB, tagged, taggedArray, optionalA, name0, name1, value0, value1 }

/// The reference model: active containers in activation order, each with its registrations.
private struct Model {
    var definitions: [[ModelRegistration]]
    var flags: [Bool]
    var active: [Int] = []

    func visible(_ container: Int) -> [ModelRegistration] {
        // Later lines win within a container and take their own position.
        var result: [ModelRegistration] = []
        for registration in definitions[container] where !registration.conditional || flags[container] {
            result.removeAll { $0.identity == registration.identity }
            result.append(registration)
        }
        return result
    }

    var index: [ModelRegistration] {
        var result: [ModelRegistration] = []
        for container in active {
            for registration in visible(container) {
                result.removeAll { $0.identity == registration.identity }
                result.append(registration)
            }
        }
        return result
    }

    func outcome(_ request: Request, parameter: Bool) -> Outcome {
        let all = index
        func matches(_ registration: ModelRegistration) -> Bool {
            switch request {
            case .typeA, .optionalA: registration.locator == .type && !registration.producesB
            case .typeB: registration.locator == .type && registration.producesB
            case .tagged, .taggedArray: registration.locator == .type && registration.aliased
            case .name0: registration.locator == .name("n0")
            case .name1: registration.locator == .name("n1")
            case .value0: registration.locator == .value(0)
            case .value1: registration.locator == .value(1)
            }
        }
        let candidates = all.filter(matches)
        let fitting = candidates.filter { $0.takesParameter == parameter }
        switch request {
        case .taggedArray:
            return .values(fitting.map(\.tag))
        case .optionalA:
            if candidates.isEmpty { return .none }
        default:
            break
        }
        if fitting.isEmpty { return candidates.isEmpty ? .missing : .parameters }
        if fitting.count > 1 { return .multiple }
        let registration = fitting[0]
        switch request {
        case .name0, .name1, .value0, .value1:
            // Requested as ModelA.
            return registration.producesB ? .mismatch : .value(registration.tag)
        default:
            return .value(registration.tag)
        }
    }
}

private func inject(_ request: Request, parameter: Bool) -> Outcome {
    func run(_ body: () throws -> Outcome) -> Outcome {
        do { return try body() } catch let error as InjectionError {
            switch error {
            case .missingDependency: return .missing
            case .multipleDependencies: return .multiple
            case .invalidDependencyParameters: return .parameters
            case .mismatchedDependencyType: return .mismatch
            default: return .other("\(error)")
            }
        } catch { return .other("\(error)") }
    }
    return run {
        switch (request, parameter) {
        case (.typeA, false): .value(try DependencyGraph.inject(byType: ModelA.self).tag)
        case (.typeA, true): .value(try DependencyGraph.inject(byType: ModelA.self, 5).tag)
        case (.typeB, false): .value(try DependencyGraph.inject(byType: ModelB.self).tag)
        case (.typeB, true): .value(try DependencyGraph.inject(byType: ModelB.self, 5).tag)
        case (.tagged, false): .value(try DependencyGraph.inject(byType: Tagged.self).tag)
        case (.tagged, true): .value(try DependencyGraph.inject(byType: Tagged.self, 5).tag)
        case (.taggedArray, false): .values(try DependencyGraph.inject(byType: [Tagged].self).map(\.tag))
        case (.taggedArray, true): .values(try DependencyGraph.inject(byType: [Tagged].self, 5).map(\.tag))
        case (.optionalA, false): (try DependencyGraph.inject(byType: ModelA?.self)).map { .value($0.tag) } ?? .none
        case (.optionalA, true): (try DependencyGraph.inject(byType: ModelA?.self, 5)).map { .value($0.tag) } ?? .none
        case (.name0, false): .value((try DependencyGraph.inject(byName: "n0") as ModelA).tag)
        case (.name0, true): .value((try DependencyGraph.inject(byName: "n0", 5) as ModelA).tag)
        case (.name1, false): .value((try DependencyGraph.inject(byName: "n1") as ModelA).tag)
        case (.name1, true): .value((try DependencyGraph.inject(byName: "n1", 5) as ModelA).tag)
        case (.value0, false): .value((try DependencyGraph.inject(byValue: 0) as ModelA).tag)
        case (.value0, true): .value((try DependencyGraph.inject(byValue: 0, 5) as ModelA).tag)
        case (.value1, false): .value((try DependencyGraph.inject(byValue: 1) as ModelA).tag)
        case (.value1, true): .value((try DependencyGraph.inject(byValue: 1, 5) as ModelA).tag)
        }
    }
}

private func makeRegistration(_ registration: ModelRegistration) -> DependencyRegistrar {
    let tag = registration.tag
    @DependencyRegistrarBuilder
    func build() -> DependencyRegistrar {
        if registration.producesB {
            finish(
                registration,
                registration.takesParameter
                    ? Dependency { (_: Int) in ModelB(tag) } : Dependency { ModelB(tag) })
        } else {
            finish(
                registration,
                registration.takesParameter
                    ? Dependency { (_: Int) in ModelA(tag) } : Dependency { ModelA(tag) })
        }
    }
    return build()
}

private func finish<T>(_ registration: ModelRegistration, _ dependency: Dependency<T>) -> Dependency<T> {
    var dependency = dependency.scope(registration.singleton ? .singleton : .instance)
    switch registration.locator {
    case .type: if registration.aliased { dependency = dependency.conforms(to: Tagged.self) }
    case .name(let name): dependency = dependency.named(name)
    case .value(let value): dependency = dependency.associated(with: value)
    }
    return dependency
}

@Suite(.isolatedDependencyGraph)
struct ModelTests {
    @Test func randomSequencesAgreeWithTheModel() throws {
        let cases = ProcessInfo.processInfo.environment["STITCHER_MODEL_SEED"] == nil ? scaled(3_000) : 1
        let firstSeed = ProcessInfo.processInfo.environment["STITCHER_MODEL_SEED"].flatMap(UInt64.init) ?? 20_261_122
        var disagreements = 0
        for offset in 0..<UInt64(cases) where disagreements < 5 {
            let seed = firstSeed &+ offset
            if let problem = try DependencyGraph.withIsolatedGraph({ try runCase(seed: seed) }) {
                disagreements += 1
                Issue.record("seed \(seed): \(problem)")
            }
        }
        #expect(disagreements == 0)
    }

    /// Runs one random sequence; returns a description of the first disagreement, if any.
    private func runCase(seed: UInt64) throws -> String? {
        var random = SeededGenerator(state: seed)
        var nextTag = 0
        let containerCount = Int.random(in: 1...3, using: &random)
        var definitions: [[ModelRegistration]] = []
        for _ in 0..<containerCount {
            definitions.append(
                (0..<Int.random(in: 0...5, using: &random)).map { _ in
                    nextTag += 1
                    let locator: ModelRegistration.Locator =
                        switch Int.random(in: 0..<4, using: &random) {
                        case 0, 1: .type
                        case 2: .name("n\(Int.random(in: 0...1, using: &random))")
                        default: .value(Int.random(in: 0...1, using: &random))
                        }
                    return ModelRegistration(
                        tag: nextTag, producesB: Bool.random(using: &random), locator: locator,
                        aliased: Bool.random(using: &random), takesParameter: Int.random(in: 0..<4, using: &random) == 0,
                        singleton: Bool.random(using: &random), conditional: Bool.random(using: &random))
                })
        }
        var model = Model(definitions: definitions, flags: Array(repeating: false, count: containerCount))
        let flags = (0..<containerCount).map { _ in Flag(false) }
        let subjects = (0..<containerCount).map { _ in PassthroughSubject<Void, Never>() }
        let containers = (0..<containerCount).map { index in
            DependencyContainer {
                for registration in definitions[index] where !registration.conditional || flags[index].isOn {
                    makeRegistration(registration)
                }
            }
            .invalidated(tracking: subjects[index])
        }
        var singletons: [Int: ObjectIdentifier] = [:]
        var trace: [String] = []
        for _ in 0..<25 {
            let container = Int.random(in: 0..<containerCount, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:
                DependencyGraph.activate(containers[container])
                model.active.removeAll { $0 == container }
                model.active.append(container)
                trace.append("activate \(container)")
            case 2:
                DependencyGraph.deactivate(containers[container])
                model.active.removeAll { $0 == container }
                for registration in definitions[container] { singletons[registration.tag] = nil }
                trace.append("deactivate \(container)")
            case 3:
                flags[container].isOn.toggle()
                model.flags[container] = flags[container].isOn
                subjects[container].send()
                // Factories here capture their tag, so a rebuilt builder declares them anew:
                // their stored instances are not kept across the invalidation.
                for registration in definitions[container] { singletons[registration.tag] = nil }
                trace.append("invalidate \(container) -> \(flags[container].isOn)")
            default:
                let request = Request.allCases.randomElement(using: &random)!
                let parameter = Int.random(in: 0..<4, using: &random) == 0
                let expected = model.outcome(request, parameter: parameter)
                let actual = inject(request, parameter: parameter)
                trace.append("inject \(request)\(parameter ? "(5)" : "") -> \(actual)")
                guard actual == expected else {
                    return "expected \(expected), got \(actual) after \(trace.joined(separator: "; ")); containers: \(definitions)"
                }
                if case .value(let tag) = actual, let registration = definitions.joined().first(where: { $0.tag == tag }),
                    registration.singleton, !registration.takesParameter, request == .typeA || request == .typeB
                {
                    let object: AnyObject =
                        registration.producesB
                        ? try DependencyGraph.inject(byType: ModelB.self) : try DependencyGraph.inject(byType: ModelA.self)
                    if let known = singletons[tag], known != ObjectIdentifier(object) {
                        return "singleton \(tag) was rebuilt while active after \(trace.joined(separator: "; "))"
                    }
                    singletons[tag] = ObjectIdentifier(object)
                }
            }
        }
        return nil
    }
}
