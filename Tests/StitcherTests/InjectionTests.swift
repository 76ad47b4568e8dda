import Stitcher
import StitcherTesting
import Testing

private protocol Uploading: AnyObject { var target: String { get } }
private final class Uploader: Uploading, Hashable {
    let target: String
    init(_ target: String) { self.target = target }
    static func == (lhs: Uploader, rhs: Uploader) -> Bool { lhs.target == rhs.target }
    func hash(into hasher: inout Hasher) { hasher.combine(target) }
}
private enum Location: Hashable { case avatar, banner }
private enum Names: String { case primary }
private struct Entity<T>: Hashable { init(of: T.Type) {} }
private struct User {}
private struct Order {}

@Suite(.isolatedDependencyGraph)
struct InjectionTests {
    @Test func byTypeWithInferredAndExplicitTypes() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Uploader("typed") } })
        let inferred: Uploader = try DependencyGraph.inject()
        let explicit = try DependencyGraph.inject(byType: Uploader.self)
        #expect(inferred.target == "typed" && explicit === inferred)
    }

    @Test func optionalsAreNilWhenMissingAndValuesWhenPresent() throws {
        let missing: Uploader? = try DependencyGraph.inject()
        let missingByName: Uploader? = try DependencyGraph.inject(byName: "nothing")
        let missingByValue: Uploader? = try DependencyGraph.inject(byValue: Location.banner)
        #expect(missing == nil && missingByName == nil && missingByValue == nil)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Uploader("present") }
                Dependency { Uploader("avatar") }.associated(with: Location.avatar)
            })
        let present: Uploader? = try DependencyGraph.inject()
        let byValue: Uploader? = try DependencyGraph.inject(byValue: Location.avatar)
        #expect(present?.target == "present" && byValue?.target == "avatar")
        let nested: Uploader?? = try DependencyGraph.inject()
        #expect(nested??.target == "present")
    }

    @Test func arraysAndSetsGiveEveryMatchOrNone() throws {
        let none: [Uploading] = try DependencyGraph.inject()
        let noneSet: Set<Uploader> = try DependencyGraph.inject()
        #expect(none.isEmpty && noneSet.isEmpty)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Uploader("one") }.conforms(to: Uploading.self)
                Dependency(conformingTo: Uploading.self) { (target: String) in Uploader(target) }
                Dependency { Uploader("other") }.named("other")
            })
        let all: [Uploading] = try DependencyGraph.inject()
        #expect(all.map(\.target) == ["one"], "only registrations taking the given parameters")
        let withParameter: [Uploading] = try DependencyGraph.inject(parameters: "two")
        #expect(withParameter.map(\.target) == ["two"])
        let set: Set<Uploader> = try DependencyGraph.inject()
        #expect(set.map(\.target) == ["one"])
        let optionalArray: [Uploading]? = try DependencyGraph.inject()
        #expect(optionalArray?.count == 1)
        let emptyOptionalArray: [Order]? = try DependencyGraph.inject()
        #expect(emptyOptionalArray == nil)
        let byName: [Uploader] = try DependencyGraph.inject(byName: "other")
        #expect(byName.map(\.target) == ["other"])
    }

    @Test func byNameWithEveryNameKind() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Uploader("raw") }.named(Names.primary)
                Dependency { (suffix: String) in Uploader("named-" + suffix) }.named("parameterized")
            })
        let raw: Uploader = try DependencyGraph.inject(byName: Names.primary)
        let string: Uploader = try DependencyGraph.inject(byName: "primary")
        let labelled: Uploader = try DependencyGraph.inject(byName: "parameterized", parameters: "a")
        let unlabelled: Uploader = try DependencyGraph.inject(byName: "parameterized", "b")
        #expect(raw === string)
        #expect(labelled.target == "named-a" && unlabelled.target == "named-b")
    }

    @Test func byValueComparesByEquality() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Uploader("avatar") }.associated(with: Location.avatar)
                Dependency { Uploader("banner") }.associated(with: Location.banner)
                Dependency { (id: Int) in Uploader("user-\(id)") }.associated(with: Entity(of: User.self))
            })
        let avatar: Uploading = try DependencyGraph.inject(byValue: Location.avatar)
        let banner: Uploading = try DependencyGraph.inject(byValue: Location.banner)
        let user: Uploader = try DependencyGraph.inject(byValue: Entity(of: User.self), 3)
        #expect(avatar.target == "avatar" && banner.target == "banner" && user.target == "user-3")
        #expect(throws: InjectionError.missingDependency(.value(AnyHashable(Entity(of: Order.self))))) {
            let _: Uploader = try DependencyGraph.inject(byValue: Entity(of: Order.self), 3)
        }
    }

    @Test func aliasInjectionOfAnUnrelatedTypeIsAMismatch() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Order() }.conforms(to: Uploading.self)
            })
        #expect(throws: InjectionError.mismatchedDependencyType("Order", expected: "Uploading")) {
            let _: Uploading = try DependencyGraph.inject()
        }
        #expect(throws: InjectionError.mismatchedDependencyType("Order", expected: "Uploading")) {
            let _: [Uploading] = try DependencyGraph.inject()
        }
    }

    @Test func wrongTypeByNameIsAMismatch() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Uploader("x") }.named("uploader") })
        #expect(throws: InjectionError.mismatchedDependencyType("Uploader", expected: "Order")) {
            let _: Order = try DependencyGraph.inject(byName: "uploader")
        }
    }
}
