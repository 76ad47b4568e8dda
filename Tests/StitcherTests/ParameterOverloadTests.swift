import Stitcher
import StitcherTesting
import Testing

// A type registered several times with different parameters: an injection chooses by the
// parameters it passes. In an indexed graph, the registration taking them is found in the
// snapshot's overload table; in an unindexed one, by the general path. Each test runs in
// both (`inBothPaths`) and expects the same instances and the same errors.

private class Widget: @unchecked Sendable {
    let size: Int, label: String
    init(size: Int = 0, label: String = "plain") {
        self.size = size
        self.label = label
    }
}
private final class FancyWidget: Widget, @unchecked Sendable {}
private protocol Gadget { var label: String { get } }
private final class GadgetImpl: Gadget, @unchecked Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}
private struct Settings: Equatable, Sendable {
    var level = 0
    var name = "default"
}

/// The `Widget` an injection with `parameters` answers.
private func widget<each P>(_ parameters: repeat each P) throws -> Widget {
    try DependencyGraph.inject(byType: Widget.self, parameters: repeat each parameters)
}

/// The `Settings` an injection with `parameters` answers.
private func settings<each P>(_ parameters: repeat each P) throws -> Settings {
    try DependencyGraph.inject(byType: Settings.self, parameters: repeat each parameters)
}

/// The error `body` throws, described, so that both paths' can be compared.
private func failure(_ body: () throws -> Any) -> String? {
    do {
        _ = try body()
        return nil
    } catch {
        return String(describing: error)
    }
}

@Suite(.isolatedDependencyGraph)
struct ParameterOverloadTests {
    @Test func eachInjectionGetsTheRegistrationTakingItsParameters() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { Widget() }.scope(.singleton)
                Dependency { (size: Int) in Widget(size: size, label: "sized") }.scope(.instance)
                Dependency { (label: String) in Widget(label: label) }.scope(.instance)
                Dependency { (size: Int, label: String) in Widget(size: size, label: label) }.scope(.instance)
            }
        }) { path throws in
            let plain = try widget()
            #expect(plain.label == "plain", "\(path)")
            #expect(try widget() === plain, "\(path)")
            let sized = try widget(7)
            #expect(sized.size == 7 && sized.label == "sized", "\(path)")
            #expect(try widget(7) !== sized, "a new one each time (\(path))")
            #expect(try widget("named").label == "named", "\(path)")
            let both = try widget(3, "both")
            #expect(both.size == 3 && both.label == "both", "\(path)")
        }
    }

    @Test func parametersNoRegistrationTakesAreTheSameErrorOnBothPaths() throws {
        var messages: [String] = []
        try inBothPaths({
            DependencyContainer {
                Dependency { Widget() }
                Dependency { (size: Int) in Widget(size: size) }
            }
        }) { path throws in
            let message = failure { try widget(2.5) }
            #expect(message != nil, "\(path)")
            messages += message.map { [$0] } ?? []
        }
        #expect(messages.count == 2)
        #expect(Set(messages).count == 1, "\(messages)")
    }

    @Test func withoutARegistrationTakingNoneEachSignatureStillAnswers() throws {
        var messages: [String] = []
        try inBothPaths({
            DependencyContainer {
                Dependency { (size: Int) in Widget(size: size) }
                Dependency { (label: String) in Widget(label: label) }
            }
        }) { path throws in
            #expect(try widget(4).size == 4, "\(path)")
            #expect(try widget("tag").label == "tag", "\(path)")
            messages += failure { try widget() }.map { [$0] } ?? []
        }
        #expect(messages.count == 2, "an injection without parameters fails on both paths")
        #expect(Set(messages).count == 1, "\(messages)")
    }

    @Test func aLaterRegistrationTakingTheSameParametersReplacesTheEarlier() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { Widget() }
                Dependency { (size: Int) in Widget(size: size, label: "first") }
                Dependency { (size: Int) in Widget(size: size, label: "second") }
            }
        }) { path throws in
            #expect(try widget(1).label == "second", "\(path)")
            #expect(try widget().label == "plain", "\(path)")
        }
    }

    @Test func theTypesOwnRegistrationWinsOverASubclassTakingTheSameParameters() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { Widget() }
                Dependency { (size: Int) in FancyWidget(size: size, label: "fancy") }.conforms(to: Widget.self)
                Dependency { (size: Int) in Widget(size: size, label: "own") }
            }
        }) { path throws in
            #expect(try widget(1).label == "own", "\(path)")
            let fancy: FancyWidget = try DependencyGraph.inject(byType: FancyWidget.self, 2)
            #expect(fancy.label == "fancy", "\(path)")
        }
    }

    @Test func storedScopesKeepOneInstancePerParameterValues() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { Widget() }
                Dependency { (size: Int) in Widget(size: size) }.scope(.singleton)
            }
        }) { path throws in
            let one = try widget(1)
            #expect(try widget(1) === one, "\(path)")
            #expect(try widget(2) !== one, "\(path)")
            #expect(try widget() !== one, "\(path)")
        }
    }

    @Test func valuesAreChosenByTheirParametersToo() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { Settings() }
                Dependency { (level: Int) in Settings(level: level) }
                Dependency { (level: Int, name: String) in Settings(level: level, name: name) }
            }
        }) { path throws in
            #expect(try settings() == Settings(), "\(path)")
            #expect(try settings(3) == Settings(level: 3), "\(path)")
            #expect(try settings(4, "four") == Settings(level: 4, name: "four"), "\(path)")
        }
    }

    @Test func aSuperclassIsAnsweredByItsSubclassesRegistrationTakingTheParameters() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { Widget(label: "base") }
                Dependency { (size: Int) in FancyWidget(size: size, label: "fancy") }.conforms(to: Widget.self)
            }
        }) { path throws in
            let fancy = try widget(9)
            #expect(fancy is FancyWidget && fancy.size == 9, "\(path)")
            #expect(try widget().label == "base", "\(path)")
        }
    }

    @Test func aProtocolTakingParametersBesideOneTakingNoneIsChosenAsWell() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { GadgetImpl("plain") as any Gadget }
                Dependency { (label: String) in GadgetImpl(label) }.conforms(to: Gadget.self)
            }
        }) { path throws in
            #expect((try DependencyGraph.inject() as any Gadget).label == "plain", "\(path)")
            let made: any Gadget = try DependencyGraph.inject(byType: (any Gadget).self, "made")
            #expect(made.label == "made", "\(path)")
        }
    }

    @Test func aRegistrationAddedLaterIsChosenOnceActive() throws {
        try inBothPaths({
            DependencyContainer {
                Dependency { Widget() }
                Dependency { (size: Int) in Widget(size: size) }
            }
        }) { path throws in
            #expect(throws: InjectionError.self, "\(path)") { try widget("late") }
            DependencyGraph.activate(DependencyContainer { Dependency { (label: String) in Widget(label: label) } })
            #expect(try widget("late").label == "late", "\(path)")
            #expect(try widget(5).size == 5, "\(path)")
        }
    }
}
