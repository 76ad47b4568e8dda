import Dispatch
import Stitcher

// `Profile verify`: DependencyGraph.verify() of a graph of 10,110 autowired registrations,
// each declaring its dependencies: 9,000 transients `Node<A, B, C, D>` (A from 1 to 9)
// injecting a column, a plane and a clock; 1,000 singleton columns injecting a plane and a
// root; 100 planes and 10 roots. The types are made from ten digit types, so that the
// graph needs no generated source.

protocol Digit: SendableMetatype {}
enum D0: Digit {}
enum D1: Digit {}
enum D2: Digit {}
enum D3: Digit {}
enum D4: Digit {}
enum D5: Digit {}
enum D6: Digit {}
enum D7: Digit {}
enum D8: Digit {}
enum D9: Digit {}
let digits: [any Digit.Type] = [D0.self, D1.self, D2.self, D3.self, D4.self, D5.self, D6.self, D7.self, D8.self, D9.self]

final class VerifiedClock: @unchecked Sendable { init() {} }
final class GraphRoot<D: Digit>: @unchecked Sendable { init() {} }
final class GraphPlane<C: Digit, D: Digit>: @unchecked Sendable { init(root: GraphRoot<D>) {} }
final class GraphColumn<B: Digit, C: Digit, D: Digit>: @unchecked Sendable {
    init(plane: GraphPlane<C, D>, root: GraphRoot<D>) {}
}
final class GraphNode<A: Digit, B: Digit, C: Digit, D: Digit>: @unchecked Sendable {
    init(column: GraphColumn<B, C, D>, plane: GraphPlane<C, D>, clock: VerifiedClock) {}
}

// Each returns a registrar, which hides the generic type: an existential digit opened into
// a generic parameter cannot appear in the result.
typealias Builder = DependencyRegistrarBuilder

func root<D: Digit>(_: D.Type) -> DependencyRegistrar {
    Builder.buildExpression(Dependency(autowiring: GraphRoot<D>.init).scope(.singleton))
}
func plane<C: Digit, D: Digit>(_: C.Type, _: D.Type) -> DependencyRegistrar {
    Builder.buildExpression(Dependency(autowiring: GraphPlane<C, D>.init).scope(.singleton))
}
func column<B: Digit, C: Digit, D: Digit>(_: B.Type, _: C.Type, _: D.Type) -> DependencyRegistrar {
    Builder.buildExpression(Dependency(autowiring: GraphColumn<B, C, D>.init).scope(.singleton))
}
func node<A: Digit, B: Digit, C: Digit, D: Digit>(_: A.Type, _: B.Type, _: C.Type, _: D.Type) -> DependencyRegistrar {
    Builder.buildExpression(Dependency(autowiring: GraphNode<A, B, C, D>.init).scope(.instance))
}

/// The container of the verified graph.
func verifiedGraphContainer() -> DependencyContainer {
    DependencyContainer {
        Dependency { VerifiedClock() }.scope(.singleton)
        for d in digits {
            root(d)
            for c in digits {
                plane(c, d)
                for b in digits {
                    column(b, c, d)
                    for a in digits.dropFirst() { node(a, b, c, d) }
                }
            }
        }
    }
}

/// Times verify() of the graph (median of 15 runs), beside the graph's activation.
func profileVerification() throws {
    let graph = DependencyGraph.Context.isolated()
    let activationStart = DispatchTime.now().uptimeNanoseconds
    graph.activate(verifiedGraphContainer())
    let activation = Double(DispatchTime.now().uptimeNanoseconds - activationStart) / 1e6
    let report = graph.verificationReport()
    print("registrations: \(report.registrationCount), problems: \(report.problems.count), notes: \(report.notes.count)")
    var times: [Double] = []
    for _ in 0..<15 {
        let start = DispatchTime.now().uptimeNanoseconds
        try graph.verify()
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    print(String(format: "verify(): median %.1f ms (min %.1f, max %.1f); activation %.1f ms", times[7], times[0], times[14], activation))
    var exports: [Double] = []
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        _ = graph.export(.dot)
        exports.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    print(String(format: "export(.dot): median %.1f ms", exports.sorted()[2]))
}
