import Stitcher
import StitcherTesting
import Testing

private final class RegService {
    let id: Int
    init(id: Int = 0) { self.id = id }
}
private struct RegValue: Equatable { let text: String }
private protocol RegProtocol: AnyObject {}
private class RegBase {}
private final class RegDerived: RegBase, RegProtocol {}
private final class RegOther: RegBase, RegProtocol {}
private enum RegName: String { case primary, secondary }
private struct RegDescribed: CustomStringConvertible { var description: String { "described" } }
private enum RegMode { case a, b, c }
private final class RegManualScope: ManagedDependencyScopeProviding, @unchecked Sendable {
    func onScopeInvalidated(perform action: @escaping @Sendable () -> Void) -> any ManagedDependencyScopeReceipt {
        Receipt()
    }
    struct Receipt: ManagedDependencyScopeReceipt { func cancel() {} }
}

private final class AutoclosureProbe: @unchecked Sendable {
    static let built = Counter()
    init() { Self.built.increment() }
}

@Suite(.isolatedDependencyGraph)
struct RegistrationTests {
    @Test func factoriesOfEveryArityAreRegisteredByType() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { RegService() }
                Dependency { (id: Int) in RegService(id: id) }
                Dependency { (text: String, count: Int) in RegValue(text: String(repeating: text, count: count)) }
                Dependency { (a: String, b: String, c: String, d: Int) in RegValue(text: a + b + c + "\(d)") }
            })
        #expect(try DependencyGraph.inject(byType: RegService.self).id == 0)
        #expect(try DependencyGraph.inject(byType: RegService.self, 7).id == 7)
        #expect(try DependencyGraph.inject(byType: RegValue.self, "ab", 2) == RegValue(text: "abab"))
        #expect(try DependencyGraph.inject(byType: RegValue.self, parameters: "x", "y", "z", 1) == RegValue(text: "xyz1"))
    }

    @Test func everyScopeReadsBackAsDeclared() throws {
        // Records keep a scope as its lifetime and only a `.managed(by:)` provider beside it.
        let manual = RegManualScope()
        let captured = 7
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { RegService(id: captured) }.named("instance").scope(.instance)
                Dependency { RegService() }.named("shared").scope(.shared)
                Dependency { RegService() }.named("singleton").scope(.singleton)
                Dependency { RegService() }.named("managed").scope(.managed(by: manual))
                Dependency { RegService() }.named("scoped").scope(.scoped)
            })
        func scope(of name: String) -> DependencyScope? {
            DependencyGraph.activeRegistrations.first { $0.isLocatedBy(name: name) }?.scope
        }
        #expect(scope(of: "instance")?.description == "instance")
        #expect(scope(of: "shared")?.description == "shared")
        #expect(scope(of: "singleton")?.description == "singleton")
        #expect(scope(of: "scoped")?.description == "scoped")
        guard case .managed(let provider) = scope(of: "managed") else {
            Issue.record("a managed registration reads back as \(String(describing: scope(of: "managed")))")
            return
        }
        #expect(provider as? RegManualScope === manual)
    }

    @Test func bareExpressionsAreEvaluatedAtInstantiationNotAtBuild() throws {
        let before = AutoclosureProbe.built.value
        let container = DependencyContainer {
            AutoclosureProbe()
        }
        DependencyGraph.activate(container)
        #expect(AutoclosureProbe.built.value == before)
        let _: AutoclosureProbe = try DependencyGraph.inject()
        #expect(AutoclosureProbe.built.value == before + 1)
    }

    @Test func namesFromStringsRawValuesAndDescriptions() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(named: "plain") { RegService(id: 1) }
                Dependency(named: RegName.primary) { RegService(id: 2) }
                Dependency(named: RegDescribed()) { RegService(id: 3) }
                Dependency { RegService(id: 4) }.named("modified")
                Dependency { RegService(id: 5) }.named(RegName.secondary)
                Dependency { (id: Int) in RegService(id: id) }.named(RegDescribed()).named("renamed")
            })
        let plain: RegService = try DependencyGraph.inject(byName: "plain")
        let primary: RegService = try DependencyGraph.inject(byName: RegName.primary)
        let described: RegService = try DependencyGraph.inject(byName: "described")
        let modified: RegService = try DependencyGraph.inject(byName: "modified")
        let secondary: RegService = try DependencyGraph.inject(byName: "secondary")
        let renamed: RegService = try DependencyGraph.inject(byName: "renamed", 6)
        #expect([plain.id, primary.id, described.id, modified.id, secondary.id, renamed.id] == [1, 2, 3, 4, 5, 6])
    }

    @Test func aliasesFromInitializersAndModifiers() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(conformingTo: RegProtocol.self) { RegDerived() }.named("proto")
                Dependency(inheritingFrom: RegBase.self) { RegDerived() }
                Dependency { RegOther() }.conforms(to: RegProtocol.self).inherits(from: RegBase.self)
            })
        // The named registration is located by its name only.
        let protocols: [RegProtocol] = try DependencyGraph.inject()
        let bases: [RegBase] = try DependencyGraph.inject()
        #expect(protocols.count == 1 && protocols[0] is RegOther)
        #expect(bases.count == 2 && bases[0] is RegDerived && bases[1] is RegOther)
        #expect(throws: InjectionError.multipleDependencies(.type("RegBase"))) {
            try DependencyGraph.inject(byType: RegBase.self)
        }
        let named: RegProtocol = try DependencyGraph.inject(byName: "proto")
        #expect(named is RegDerived)
    }

    @Test func associatedValuesLocateDependencies() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(for: RegMode.a) { RegService(id: 1) }
                Dependency { RegService(id: 2) }.associated(with: RegMode.b)
                Dependency { RegService(id: 3) }.associated(with: "b")
            })
        #expect(try (DependencyGraph.inject(byValue: RegMode.a) as RegService).id == 1)
        #expect(try (DependencyGraph.inject(byValue: RegMode.b) as RegService).id == 2)
        // Equal hash inputs of different types are different values.
        #expect(try (DependencyGraph.inject(byValue: "b") as RegService).id == 3)
    }

    @Test func defaultScopeIsSharedForClassesAndInstanceForValues() {
        #expect(Dependency { RegService() }.scope == .shared)
        #expect(Dependency { RegValue(text: "") }.scope == .instance)
        #expect(DependencyScope.automatic(for: RegService.self) == .shared)
        #expect(DependencyScope.automatic(for: Int.self) == .instance)
        #expect(Dependency { RegService() }.eagerness == .lazy)
        #expect(Dependency { RegService() }.scope(.singleton).eagerness(.eager).scope == .singleton)
        #expect(Dependency { RegService() }.eagerness(.eager).eagerness == .eager)
    }

    @Test func locatorsDescribeThemselves() {
        #expect(Dependency { RegService() }.locator == .type(RegService.self))
        #expect(Dependency { RegDerived() }.conforms(to: RegProtocol.self).locator == .type(RegDerived.self, RegProtocol.self))
        #expect(Dependency(named: "n") { RegService() }.locator == .name("n"))
        #expect(Dependency(for: RegMode.c) { RegService() }.locator == .value(RegMode.c))
        let locator = DependencyLocator.type(RegDerived.self, RegProtocol.self, RegBase.self)
        #expect(locator.isLocatedBy(type: RegBase.self))
        #expect(!locator.isLocatedBy(type: RegService.self))
        #expect(DependencyLocator.name(RegName.primary).isLocatedBy(name: "primary"))
        #expect(DependencyLocator.value(RegMode.a).isLocatedBy(value: RegMode.a))
        #expect(!DependencyLocator.value(RegMode.a).isLocatedBy(value: RegMode.b))
    }

    @Test(arguments: [true, false])
    func conditionalsLoopsSwitchesAndAvailability(enabled: Bool) throws {
        let optionalName: String? = enabled ? "optional" : nil
        let mode = enabled ? RegMode.a : RegMode.b
        DependencyGraph.activate(
            DependencyContainer {
                if enabled {
                    Dependency { RegService(id: 1) }.named("if")
                } else {
                    Dependency { RegService(id: 2) }.named("else")
                }
                if let optionalName {
                    Dependency { RegService(id: 3) }.named(optionalName)
                }
                switch mode {
                case .a: Dependency { RegService(id: 4) }.named("a")
                case .b: Dependency { RegService(id: 5) }.named("b")
                case .c: Dependency { RegService(id: 6) }.named("c")
                }
                for index in 0..<3 {
                    Dependency { RegService(id: 10 + index) }.associated(with: index)
                }
                if #available(macOS 14, iOS 17, *) {
                    Dependency { RegService(id: 20) }.named("available")
                }
                DependencyGroup {
                    Dependency { RegService(id: 30) }.named("group")
                }
                .enabled(enabled)
            })
        let ifBranch: RegService? = try DependencyGraph.inject(byName: "if")
        let elseBranch: RegService? = try DependencyGraph.inject(byName: "else")
        let optional: RegService? = try DependencyGraph.inject(byName: "optional")
        let switched: RegService = try DependencyGraph.inject(byName: enabled ? "a" : "b")
        let looped: [RegService] = try (0..<3).map { try DependencyGraph.inject(byValue: $0) }
        let available: RegService = try DependencyGraph.inject(byName: "available")
        let grouped: RegService? = try DependencyGraph.inject(byName: "group")
        #expect((ifBranch != nil) == enabled)
        #expect((elseBranch == nil) == enabled)
        #expect((optional != nil) == enabled)
        #expect(switched.id == (enabled ? 4 : 5))
        #expect(looped.map(\.id) == [10, 11, 12])
        #expect(available.id == 20)
        #expect((grouped != nil) == enabled)
    }

    @Test func statementsInTheBuilderRegisterNothing() throws {
        let counter = Counter()
        let container = DependencyContainer {
            _ = counter.increment()
            Dependency { RegService() }
        }
        DependencyGraph.activate(container)
        #expect(counter.value == 1)
        let all: [RegService] = try DependencyGraph.inject()
        #expect(all.count == 1)
    }

    @Test func customRepresentationsUseTheirLocatorScopeAndEagerness() throws {
        struct Representation: DependencyRepresenting {
            var locator: DependencyLocator { .name("custom") }
            var scope: DependencyScope { .singleton }
            var eagerness: DependencyEagerness { .eager }
            var dependencyProvider: DependencyFactory.Provider<RegService> {
                DependencyFactory.Provider { RegService(id: 42) }
            }
        }
        struct Defaulted: DependencyRepresenting {
            var dependencyProvider: DependencyFactory.Provider<RegService> {
                DependencyFactory.Provider { (id: Int) in RegService(id: id) }
            }
        }
        #expect(Defaulted().locator == .type(RegService.self))
        #expect(Defaulted().scope == .shared)
        #expect(Defaulted().eagerness == .lazy)
        DependencyGraph.activate(
            DependencyContainer {
                Representation()
                Defaulted()
            })
        let first: RegService = try DependencyGraph.inject(byName: "custom")
        let second: RegService = try DependencyGraph.inject(byName: "custom")
        #expect(first === second && first.id == 42)
        #expect(try DependencyGraph.inject(byType: RegService.self, 9).id == 9)
    }

    @available(*, deprecated, message: "Exercises the deprecated 1.x label on purpose.")
    @Test func misspeltReleasedLabelStillWorks() throws {
        DependencyGraph.activate(RegistrationTests.misspeltRegistration())
        #expect(try DependencyGraph.inject(byType: RegService.self).id == 8)
    }

    @available(*, deprecated, message: "Exercises the deprecated 1.x label on purpose.")
    static func misspeltRegistration() -> DependencyContainer {
        DependencyContainer { Dependency(dependecy: { RegService(id: 8) }) }
    }
}
