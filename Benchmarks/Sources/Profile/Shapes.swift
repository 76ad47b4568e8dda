import OpaqueUse
import Stitcher

// `Profile shapes`: the injection shapes apps write most, each next to the hand-written code
// it replaces, measured like `Profile ratios` (`compare`): a protocol-typed singleton and
// transient, a value type behind a protocol, an optional request, an array of two, a type
// registered with and without a parameter. Uses only API that every Stitcher version since
// the first benchmarks has, so that one build can be compared with another.

protocol ShapeService: AnyObject {}
final class ShapeSingleton: ShapeService {}
protocol ShapeFactory: AnyObject {}
final class ShapeTransient: ShapeFactory {}
protocol ShapeValue { var tag: Int { get } }
struct ShapeValueImpl: ShapeValue { var tag = 1 }
protocol ShapeListed: AnyObject {}
final class ShapeFirst: ShapeListed {}
final class ShapeSecond: ShapeListed {}
final class ShapeOptional: Sendable {}
protocol ShapeMade: AnyObject {}
final class ShapeMadeImpl: ShapeMade {}
protocol ShapeMadeValue { var tag: Int { get } }
struct ShapeMadeValueImpl: ShapeMadeValue { var tag = 2 }
@inline(never)
private func consume(_ value: any ShapeMadeValue) -> AnyObject {
    consumed &+= value.tag
    return sentinel
}
/// A struct injected by its own type, as code written for swift-dependencies models its
/// clients and settings.
struct ShapeSettings {
    var retries = 3
    var timeout = 1.5
    var host = "api.example.com"
}
@inline(never)
private func consume(_ value: ShapeSettings) -> AnyObject {
    consumed &+= value.retries
    return sentinel
}
final class ShapeWidget: Sendable {
    let value: Int
    init(_ value: Int = 0) { self.value = value }
}

/// Keeps a value-type result observable (a side effect the optimizer must keep), returning a
/// fixed object for `compare`.
nonisolated(unsafe) private var consumed = 0
private let sentinel = ShapeOptional()
@inline(never)
private func consume(_ value: any ShapeValue) -> AnyObject {
    consumed &+= value.tag
    return sentinel
}
@inline(never)
private func consume(_ values: [any ShapeListed]) -> AnyObject {
    consumed &+= values.count
    return values[0]
}

/// Injects the transient by its protocol `count` times, for a profiler.
func profileTransientShape(_ count: Int) throws {
    activateShapes()
    for _ in 0..<count { use(try DependencyGraph.inject() as any ShapeFactory) }
}

/// Injects, with a parameter (or without, when `withParameter` is false), a type registered
/// with and without one, `count` times, for a profiler.
func profileParameterOverloadShape(_ count: Int, withParameter: Bool = true) throws {
    activateShapes()
    if withParameter {
        for _ in 0..<count { use(try DependencyGraph.inject(byType: ShapeWidget.self, 7)) }
    } else {
        for _ in 0..<count { use(try DependencyGraph.inject() as ShapeWidget) }
    }
}

/// Injects `count` times the shape `name` names (`struct`: a struct by its own type;
/// `value`: a value type behind a protocol; `made-value`: a value registered as its
/// protocol; `made`: a transient class registered as its protocol; `singleton`: a singleton by its protocol), for a profiler.
func profileShape(_ name: String, _ count: Int) throws {
    activateShapes()
    switch name {
    case "struct": for _ in 0..<count { _ = consume(try DependencyGraph.inject() as ShapeSettings) }
    case "struct-baseline": for _ in 0..<count { _ = consume(ShapeSettings()) }
    case "value": for _ in 0..<count { _ = consume(try DependencyGraph.inject() as any ShapeValue) }
    case "made-value": for _ in 0..<count { _ = consume(try DependencyGraph.inject() as any ShapeMadeValue) }
    case "made": for _ in 0..<count { use(try DependencyGraph.inject() as any ShapeMade) }
    default: for _ in 0..<count { use(try DependencyGraph.inject() as any ShapeService) }
    }
}

/// Injects the array of the protocol `count` times, for a profiler; or, for `baseline`,
/// makes the array the shapes table compares it with (a new array of two stored singletons).
func profileArrayShape(_ count: Int, baseline: Bool = false) throws {
    activateShapes()
    if baseline {
        let first = ShapeFirst()
        let second = ShapeSecond()
        let listClosure: () -> [any ShapeListed] = { [first, second] }
        for _ in 0..<count { _ = consume(listClosure()) }
        return
    }
    for _ in 0..<count { _ = consume(try DependencyGraph.inject() as [any ShapeListed]) }
}

private func activateShapes() {
    DependencyGraph.activate(
        DependencyContainer {
            Dependency { ShapeSingleton() }.conforms(to: ShapeService.self).scope(.singleton)
            Dependency { ShapeTransient() }.conforms(to: ShapeFactory.self).scope(.instance)
            Dependency { ShapeValueImpl() }.conforms(to: ShapeValue.self)
            Dependency { ShapeSettings() }
            Dependency { ShapeOptional() }.scope(.singleton)
            Dependency { ShapeFirst() }.conforms(to: ShapeListed.self).scope(.singleton)
            Dependency { ShapeSecond() }.conforms(to: ShapeListed.self).scope(.singleton)
            Dependency { ShapeMadeImpl() as any ShapeMade }.scope(.instance)
            Dependency { ShapeMadeValueImpl() as any ShapeMadeValue }
            Dependency { ShapeWidget() }.scope(.instance)
            Dependency { (value: Int) in ShapeWidget(value) }.scope(.instance)
        })
}

/// Prints a Markdown table of the shapes.
func printShapes() throws {
    activateShapes()
    let service: any ShapeService = ShapeSingleton()
    let serviceClosure: () -> any ShapeService = { service }
    let valueClosure: () -> any ShapeValue = { ShapeValueImpl() }
    let madeValueClosure: () -> any ShapeMadeValue = { ShapeMadeValueImpl() }
    let optional = ShapeOptional()
    let optionalClosure: () -> ShapeOptional? = { optional }
    // What hand-written code does for `[any P]`: a new array of the same two singletons.
    let first = ShapeFirst()
    let second = ShapeSecond()
    let listClosure: () -> [any ShapeListed] = { [first, second] }
    print("| shape | baseline | Stitcher | Stitcher ÷ baseline | | |")
    print("| - | - | - | - | - | - |")
    try compare(
        "singleton by its protocol (stored closure)", burst: 20_000,
        baseline: { serviceClosure() }, stitcher: { try DependencyGraph.inject() as any ShapeService })
    try compare(
        "transient by its protocol (initializer)", burst: 20_000,
        baseline: { ShapeTransient() as any ShapeFactory }, stitcher: { try DependencyGraph.inject() as any ShapeFactory })
    try compare(
        "struct by its own type (initializer)", burst: 20_000,
        baseline: { consume(ShapeSettings()) }, stitcher: { consume(try DependencyGraph.inject() as ShapeSettings) })
    try compare(
        "value type behind a protocol (closure)", burst: 20_000,
        baseline: { consume(valueClosure()) }, stitcher: { consume(try DependencyGraph.inject() as any ShapeValue) })
    try compare(
        "transient registered as its protocol, `Impl() as any P` (initializer)", burst: 20_000,
        baseline: { ShapeMadeImpl() as any ShapeMade }, stitcher: { try DependencyGraph.inject() as any ShapeMade })
    try compare(
        "value registered as its protocol, `Impl() as any P` (closure)", burst: 20_000,
        baseline: { consume(madeValueClosure()) }, stitcher: { consume(try DependencyGraph.inject() as any ShapeMadeValue) })
    try compare(
        "optional request of a singleton (stored closure)", burst: 20_000,
        baseline: { optionalClosure() ?? sentinel }, stitcher: { try DependencyGraph.inject() as ShapeOptional? ?? sentinel })
    try compare(
        "with and without a parameter, injected without (initializer)", burst: 20_000,
        baseline: { ShapeWidget() }, stitcher: { try DependencyGraph.inject() as ShapeWidget })
    try compare(
        "with and without a parameter, injected with one (initializer)", burst: 20_000,
        baseline: { ShapeWidget(7) }, stitcher: { try DependencyGraph.inject(byType: ShapeWidget.self, 7) })
    try compare(
        "[P] of two singletons (a new array of the stored singletons)", burst: 20_000,
        baseline: { consume(listClosure()) }, stitcher: { consume(try DependencyGraph.inject() as [any ShapeListed]) })
}
