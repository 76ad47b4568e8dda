import Stitcher
import StitcherTesting
import Testing

private final class Alpha: Sendable {}
private final class Beta: Sendable {}
private final class Gamma: Sendable {}
private final class PaymentGateway: Sendable {}
private protocol Notifier {}
private struct Email: Notifier {}
private struct Sms: Notifier {}
private enum Region: Hashable { case europe, america }
private struct FactoryFailure: Error, CustomStringConvertible { var description: String { "disk full" } }

@Suite(.isolatedDependencyGraph)
struct ErrorMessageTests {
    @Test func missingDependency() {
        let error = InjectionError.missingDependency(.type("Int"))
        #expect(error.description == "No dependency could be found for Type[Int].")
        #expect(error.errorDescription == error.description)
        #expect(error.recoverySuggestion?.hasPrefix("To fix this, register Type[Int]") == true)
    }

    @Test func missingDependencyListsNearbyRegistrations() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { PaymentGateway() }.named("payments")
                Dependency { Alpha() }.named("paymentz")
            })
        do {
            let _: PaymentGateway = try DependencyGraph.inject()
            Issue.record("expected an error")
        } catch let error as InjectionError {
            #expect(error == .missingDependency(.type("PaymentGateway")))
            let reason = try #require(error.failureReason)
            #expect(reason.contains("Name[payments]"))
            #expect(reason.contains(#"inject(byName: "payments")"#))
        }
        do {
            let _: Alpha = try DependencyGraph.inject(byName: "payment")
            Issue.record("expected an error")
        } catch let error as InjectionError {
            #expect(error == .missingDependency(.name("payment")))
            let reason = try #require(error.failureReason)
            #expect(reason.contains("Name[payments]") && reason.contains("Name[paymentz]"))
        }
    }

    @Test func missingValueListsOtherValuesOfItsType() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Alpha() }.associated(with: Region.europe) })
        let error = #expect(throws: InjectionError.missingDependency(.value(Region.america))) {
            let _: Alpha = try DependencyGraph.inject(byValue: Region.america)
        }
        #expect(error?.failureReason?.contains("Value[europe]") == true)
        #expect(
            InjectionError.missingDependency(.value(Region.america)).failureReason
                == "No active container registers Value[america].", "an error written by hand has no diagnosis")
        #expect(
            InjectionError.missingDependency(.value(Region.america)).description
                == "No dependency could be found for Value[america].")
    }

    @Test func mismatchedType() {
        let error = InjectionError.mismatchedDependencyType("A", expected: "B")
        #expect(error.description == "Mismatched dependency type, expected 'B' instead of 'A'.")
        #expect(error.recoverySuggestion?.contains("To fix this") == true)
    }

    @Test func multipleDependencies() throws {
        #expect(InjectionError.multipleDependencies(.name("dupe")).description == "Multiple dependencies found for Name[dupe].")
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Email() }.conforms(to: Notifier.self)
                Dependency { Sms() }.conforms(to: Notifier.self)
            })
        do {
            let _: Notifier = try DependencyGraph.inject()
            Issue.record("expected an error")
        } catch let error as InjectionError {
            #expect(error.description == "Multiple dependencies found for Type[Notifier].")
            let reason = try #require(error.failureReason)
            #expect(reason.contains("Type[Email] as Notifier () -> Email") && reason.contains("Type[Sms] as Notifier"))
            #expect(error.recoverySuggestion?.contains("inject an Array") == true)
        }
    }

    @Test func cycle() {
        let error = InjectionError.cyclicDependencyReference(.init(entries: [.type("Root"), .type("Leaf"), .type("Root")]))
        #expect(error.description == "Dependency cycle detected, Type[Root] -> Type[Leaf] -> Type[Root].")
        #expect(error.recoverySuggestion?.contains("@Injected") == true)
    }

    @Test func invalidParameters() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { (id: Int, name: String) in Alpha() } })
        do {
            let _: Alpha = try DependencyGraph.inject(parameters: 1, 2)
            Issue.record("expected an error")
        } catch let error as InjectionError {
            #expect(
                error.description
                    == "Invalid parameters for Type[Alpha]: parameter 2 is 'Int', expected 'String'; injected with (Int, Int).")
            #expect(error.recoverySuggestion?.contains("Type[Alpha] (Int, String) -> Alpha") == true)
        }
        #expect(
            InjectionError.invalidDependencyParameters(.name("n"), .mismatchedCount(0, expected: 1), parameters: []).description
                == "Invalid parameters for Name[n]: 0 parameters given, 1 expected; injected with no parameters.")
    }

    @Test func aFactorysOwnErrorIsWrappedOnceAsUnknown() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Alpha in throw FactoryFailure() }
                Dependency { () throws -> Beta in
                    _ = try DependencyGraph.inject(byType: Alpha.self)
                    return Beta()
                }
                Dependency { () async throws -> Gamma in throw FactoryFailure() }
                Dependency { () throws -> Region in throw InjectionError.unsupportedOperation }
            })
        for attempt in [
            { _ = try DependencyGraph.inject(byType: Alpha.self) as Alpha },
            { _ = try DependencyGraph.inject(byType: Beta.self) as Beta },
        ] as [() throws -> Void] {
            do {
                try attempt()
                Issue.record("expected an error")
            } catch InjectionError.unknown(let underlying) {
                #expect(underlying is FactoryFailure, "wrapped once, not again by the outer factory")
            }
        }
        await #expect(throws: InjectionError.unknown(FactoryFailure())) {
            _ = try await DependencyGraph.injectAsync(byType: Gamma.self) as Gamma
        }
        #expect(throws: InjectionError.unsupportedOperation, "an injection error passes through") {
            _ = try DependencyGraph.inject(byType: Region.self) as Region
        }
        #expect(InjectionError.unknown(FactoryFailure()).description == "Dependency instantiation failed with error: disk full.")
        #expect(InjectionError.unsupportedOperation.description == "Unsupported operation.")
    }

    @Test func contextsPrintAsTheyAreWritten() {
        #expect(InjectionError.DependencyContext.name("x").description == "Name[x]")
        #expect(InjectionError.DependencyContext.type("Alpha").description == "Type[Alpha]")
        #expect(InjectionError.DependencyContext.value(Region.europe).description == "Value[europe]")
        let context: InjectionError.DependencyContext = .type("Alpha")
        switch InjectionError.missingDependency(context) {
        case .missingDependency(.type("Alpha")): break
        default: Issue.record("cases can be matched as in 1.x")
        }
    }
}
