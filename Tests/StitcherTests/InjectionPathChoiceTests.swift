import Stitcher
import StitcherTesting
import Testing

// Which code an injection runs is chosen where it is compiled (`DependencyGraph.inject`):
// a class takes the object path, which has no code for values or protocols; `AnyObject`,
// which the compiler's early test counts as a class, and a type known only at run time (an
// unspecialized generic function) take the general path out of line. Each test injects the
// same registrations through every one of those choices, on the direct path and the general
// one, and checks the answers are the same objects.

private class Vehicle: @unchecked Sendable { var wheels: Int { 4 } }
private final class Bicycle: Vehicle, @unchecked Sendable { override var wheels: Int { 2 } }
private final class Garage: @unchecked Sendable {
    let vehicle: Vehicle
    init(vehicle: Vehicle) { self.vehicle = vehicle }
}
private final class Token: @unchecked Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}
private protocol Parking: AnyObject {}
private final class Lot: Parking, @unchecked Sendable {}

/// Injects `D` from code the compiler cannot specialize for `D`: the choice is made at run
/// time there.
@_optimize(none)
private func injectUnspecialized<D>(_: D.Type) throws -> D {
    try DependencyGraph.inject(byType: D.self)
}

@_optimize(none)
private func injectUnspecialized<D>(_: D.Type, named name: String) throws -> D {
    try DependencyGraph.inject(byName: name)
}

@Suite(.isolatedDependencyGraph)
struct InjectionPathChoiceTests {
    private static func container() -> DependencyContainer {
        DependencyContainer {
            Dependency { Bicycle() as Vehicle }.scope(.singleton)
            Dependency { Garage(vehicle: try DependencyGraph.inject()) }.scope(.instance)
            Dependency { (value: Int) in Token(value) }.scope(.instance)
            Dependency(named: "spare") { Bicycle() as Vehicle }.scope(.singleton)
            Dependency { Lot() as AnyObject }.scope(.singleton)
            Dependency(named: "lot") { Lot() as AnyObject }.scope(.singleton)
        }
    }

    @Test func aClassIsTheSameObjectWhicheverWayItIsInjected() throws {
        try inBothPaths(Self.container) { path throws in
            // Several injections in one function (a caller the object path is inlined into).
            let vehicle: Vehicle = try DependencyGraph.inject()
            let again = try DependencyGraph.inject(byType: Vehicle.self) as Vehicle
            let optional: Vehicle? = try DependencyGraph.inject()
            let unspecialized = try injectUnspecialized(Vehicle.self)
            #expect(vehicle === again, "\(path)")
            #expect(vehicle === optional, "\(path)")
            #expect(vehicle === unspecialized, "\(path)")
            #expect(vehicle.wheels == 2, "\(path): the subclass the factory made")
            let garage: Garage = try DependencyGraph.inject()
            #expect(garage.vehicle === vehicle, "\(path): injected by the factory")
            #expect(try injectUnspecialized(Garage.self) !== garage, "\(path): a new instance each time")
        }
    }

    @Test func aClassWithParametersOrANameTakesTheSamePath() throws {
        try inBothPaths(Self.container) { path throws in
            #expect(try DependencyGraph.inject(byType: Token.self, 7).value == 7, "\(path)")
            #expect(try DependencyGraph.inject(byType: Token.self, parameters: 9).value == 9, "\(path)")
            let spare: Vehicle = try DependencyGraph.inject(byName: "spare")
            #expect(spare.wheels == 2, "\(path)")
            #expect(spare !== (try DependencyGraph.inject() as Vehicle), "\(path): a registration of its own")
            #expect(try injectUnspecialized(Vehicle.self, named: "spare") === spare, "\(path)")
        }
    }

    @Test func anyObjectIsNotTakenForAClass() throws {
        try inBothPaths(Self.container) { path throws in
            let object: AnyObject = try DependencyGraph.inject()
            #expect(object is Lot, "\(path)")
            #expect(try DependencyGraph.inject() as AnyObject === object, "\(path): a singleton")
            #expect(try injectUnspecialized(AnyObject.self) === object, "\(path)")
            let named: AnyObject = try DependencyGraph.inject(byName: "lot")
            #expect(named is Lot && named !== object, "\(path)")
            #expect(try injectUnspecialized(AnyObject.self, named: "lot") === named, "\(path)")
        }
    }

    @Test func aMissingClassFailsTheSameWayOnEveryPath() throws {
        try inBothPaths(Self.container) { path throws in
            #expect(throws: InjectionError.missingDependency(.type("Lot")), "\(path)") {
                try DependencyGraph.inject() as Lot
            }
            #expect(throws: InjectionError.missingDependency(.type("Lot")), "\(path)") {
                try injectUnspecialized(Lot.self)
            }
            #expect(throws: InjectionError.missingDependency(.type("Parking")), "\(path)") {
                try DependencyGraph.inject() as any Parking
            }
            #expect(throws: InjectionError.missingDependency(.name("nowhere")), "\(path)") {
                try DependencyGraph.inject(byName: "nowhere") as Vehicle
            }
        }
    }
}
