import StitcherMacros
import StitcherTesting
import Testing

// Every StitcherMacros 1.1 form that ../shared/reference/stitcher-1x-api.md lists, written as
// a 1.1 user writes it: a missing or differently shaped macro, argument or member fails the
// build. (`StitcherMacros` re-exports `Stitcher`: nothing else is imported for it.)

private final class LegacySession: Sendable { let host = "legacy.example" }

private final class ClassParentUploader {
    let session: LegacySession
    @InjectedParameters(parent: .classParent, strategy: .stitcherByType)
    init(session: LegacySession) { self.session = session }
}

private struct StructParentUploader {
    let session: LegacySession
    @InjectedParameters(parent: .structParent)
    init(session: LegacySession) { self.session = session }

    @InjectedParameters(parent: .structParent, ignoring: "file")
    func upload(file: String, session: LegacySession) -> String { "\(file)@\(session.host)" }
}

private actor ActorParentUploader {
    let session: LegacySession
    @InjectedParameters(parent: .actorParent)
    init(session: LegacySession) { self.session = session }
}

private enum EnumParentUploader {
    @InjectedParameters(parent: .enumParent, strategy: .stitcherByName)
    static func host(legacyHost: String) -> String { legacyHost }
}

@Registerable(by: .name("legacy-mailer"), scope: .singleton, eagerness: .lazy)
private final class LegacyMailer: Sendable {
    let port: Int
    @PreferredInitializer
    init() { port = 25 }
    init(port: Int) { self.port = port }
}

@Registerable(by: .value(Region.legacy), scope: .instance, eagerness: .lazy)
private struct LegacyPricing: Sendable {
    init() {}
}

@Registerable
private struct LegacyClock: Sendable {
    let offset: Int
    init(offset: Int) { self.offset = offset }
}

private enum Region: Hashable { case legacy }

@Suite(.isolatedDependencyGraph)
struct MacroSourceCompatibilityTests {
    @Test func everyMacroFormCompilesAndWorksAsIn1_1() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { LegacySession() }
                Dependency { "legacy.example" }.named("legacyHost")
                LegacyMailer.dependencyRegistration
                LegacyPricing.dependencyRegistration
                LegacyClock.dependencyRegistration
            })
        #expect(ClassParentUploader().session.host == "legacy.example")
        #expect(StructParentUploader().upload(file: "a") == "a@legacy.example")
        #expect(ActorParentUploader().session.host == "legacy.example", "a let of an actor")
        #expect(EnumParentUploader.host() == "legacy.example")

        let name: String = LegacyMailer.dependencyName
        let mailer: LegacyMailer = try DependencyGraph.inject(byName: name)
        #expect(mailer.port == 25)
        let value: AnyHashable = LegacyPricing.dependencyValue
        let _: LegacyPricing = try DependencyGraph.inject(byValue: value)
        let clock: LegacyClock = try DependencyGraph.inject(parameters: 3)
        #expect(clock.offset == 3)

        let registerable: [any RegisterableDependency.Type] = [LegacyMailer.self, LegacyPricing.self, LegacyClock.self]
        let autoregisterable: [any AutoregisterableDependency.Type] = [LegacyMailer.self, LegacyPricing.self, LegacyClock.self]
        #expect(registerable.count == autoregisterable.count)
    }
}
