import Foundation
import Stitcher
import StitcherTesting
import Testing

// The code of the DocC catalog's articles (`Sources/Stitcher/Stitcher.docc`), run with
// assertions (Scripts/check-snippets.sh compiles the Markdown itself as written).

// MARK: Stitcher.md (the landing page)

private final class Clock: Sendable { init() {} }
private final class Greeter: Sendable {
    let clock: Clock
    init(clock: Clock) { self.clock = clock }
}

// MARK: GettingStarted.md

private protocol Weather: Sendable {
    func forecast() -> String
}

private final class SunnyWeather: Weather {
    func forecast() -> String { "sunny" }
}

private final class Briefing: Sendable {
    let weather: any Weather
    init(weather: any Weather) { self.weather = weather }
    var text: String { "Today: \(weather.forecast())." }
}

private final class MorningScreen {
    @Injected var briefing: Briefing
}

// MARK: Servers.md

private final class RequestLog: TeardownAware, @unchecked Sendable {
    private(set) var lines: [String] = []
    func add(_ line: String) { lines.append(line) }
    func tearDown() { /* flush the lines */  }
}

private func handle(_ path: String) async throws -> String {
    try await DependencyGraph.withScope {
        let log: RequestLog = try DependencyGraph.inject()
        log.add("GET \(path)")
        return try await respond(to: path)
    }  // the log is torn down here
}

private func respond(to path: String) async throws -> String {
    // The same scope: the same log.
    let log: RequestLog = try DependencyGraph.inject()
    log.add("answered")
    return "ok"
}

// MARK: MigratingFromSwinject.md

private protocol APIClient: Sendable {}
private final class URLSessionAPIClient: APIClient {}
private final class UserRepository: Sendable {
    let api: any APIClient
    init(api: any APIClient) { self.api = api }
}
private final class ProfileModel: Sendable {
    let userID: String
    let users: UserRepository
    init(userID: String, users: UserRepository) {
        self.userID = userID
        self.users = users
    }
}

// MARK: MigratingFromFactory.md

private protocol Analytics: Sendable {}
private final class ConsoleAnalytics: Analytics {}
private final class RecordingAnalytics: Analytics {}
private final class CheckoutModel: Sendable {
    let analytics: any Analytics
    init(analytics: any Analytics) { self.analytics = analytics }
}

private let appDependencies = DependencyContainer {
    Dependency { ConsoleAnalytics() as any Analytics }.scope(.singleton)
    Dependency(autowiring: CheckoutModel.init)
}

private final class CheckoutScreen {
    @Injected var model: CheckoutModel
}

// In a test: the graph is the test's own, and the later container wins.
@Suite(.isolatedDependencyGraph)
struct CheckoutTests {
    @Test func recordsThePurchase() throws {
        DependencyGraph.activate(appDependencies)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { RecordingAnalytics() as any Analytics }.scope(.singleton)
            })
        let model: CheckoutModel = try DependencyGraph.inject()
        #expect(model.analytics is RecordingAnalytics)
    }

    @Test func theAppAloneUsesItsOwn() throws {
        DependencyGraph.activate(appDependencies)
        #expect(CheckoutScreen().model.analytics is ConsoleAnalytics)
    }
}

// MARK: MigratingFromSwiftDependencies.md

private struct NumberFact: Sendable {
    var fetch: @Sendable (Int) async throws -> String
}

private let numberFactDependencies = DependencyContainer {
    Dependency { NumberFact { n in "\(n) is a number." } }.scope(.singleton)
}

private final class CounterModel {
    @Injected var numberFact: NumberFact
    func fact(for n: Int) async throws -> String { try await numberFact.fetch(n) }
}

// In a test, in a graph of its own:
@Suite(.isolatedDependencyGraph)
struct CounterModelTests {
    @Test func fetchesAFact() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { NumberFact { "\($0) is a good number." } }
            })
        #expect(try await CounterModel().fact(for: 3) == "3 is a good number.")
    }

    @Test func theAppsFact() async throws {
        await DependencyGraph.activate(numberFactDependencies)
        #expect(try await CounterModel().fact(for: 3) == "3 is a number.")
    }
}

private final class EagerCounterModel {
    @EagerInjected var numberFact: NumberFact
}

// MARK: MigratingFromServiceLocators.md

private protocol Routing: Sendable {}
private final class Navigator: Routing {}
private final class Feed: Sendable {
    let routing: any Routing
    init(routing: any Routing) { self.routing = routing }
}
private final class FeedScreen { @Injected var feed: Feed }

private protocol Store: Sendable {}
private final class InMemoryStore: Store {}
private final class Session: Sendable {
    let store: any Store
    let user: String
    init(store: any Store, user: String) {
        self.store = store
        self.user = user
    }
}

// MARK: MigratingFromStitcher1.md

private final class HTTPTransport: Sendable { init() {} }
private final class AccountService: Sendable {
    let transport: HTTPTransport
    init(transport: HTTPTransport) { self.transport = transport }
}

// MARK: Testing.md

private protocol PaymentGateway: Sendable {}
private final class FakeGateway: PaymentGateway {}

@Suite(.isolatedDependencyGraph)
struct PaymentTests {
    @Test func usesTheFakeGateway() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { FakeGateway() }.conforms(to: PaymentGateway.self)
            })
        let gateway: any PaymentGateway = try DependencyGraph.inject()
        #expect(gateway is FakeGateway)
    }

    @Test func aThreadStartedByTheTestUsesItsGraph() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { FakeGateway() }.conforms(to: PaymentGateway.self)
            })
        let found = Protected(false)
        let done = DispatchSemaphore(value: 0)
        let context = DependencyGraph.currentContext
        Thread {
            context.run {
                let gateway = try? DependencyGraph.inject() as any PaymentGateway
                found.withLock { $0 = gateway is FakeGateway }
            }
            done.signal()
        }.start()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        #expect(found.withLock { $0 })
    }

    @Test func theAppsGraphIsValid() {
        expectValidDependencyGraph(appDependencies)
    }
}

// MARK: VerifyingTheGraph.md

private final class TaxTable: Sendable { init() {} }
private final class Invoice: Sendable {
    init(taxes: TaxTable) {}
}
private final class Printer: Sendable { init() {} }
private final class Receipt: Sendable {
    init(printer: Printer) {}
}

// MARK: ScopesAndLifetimes.md

private final class Transaction: TeardownAware, @unchecked Sendable {
    private(set) var committed = false
    func commit() { committed = true }
    func tearDown() { /* roll back unless committed */  }
}

private struct RequestID: Sendable { let value: String }

// MARK: RegisteringDependencies.md

private protocol Greeting: Sendable { var text: String { get } }
private struct Hello: Greeting { let text = "hello" }
private enum Region: Hashable, Sendable { case eu, us }
private struct Currency: Sendable { let code: String }

private final class Checkout: Sendable {
    let greeting: any Greeting
    let total: Int
    init(greeting: any Greeting, total: Int) {
        self.greeting = greeting
        self.total = total
    }
}

// MARK: InjectingDependencies.md

private protocol Plugin: Sendable {}
private struct Spelling: Plugin {}
private struct Grammar: Plugin {}
private final class Editor: Sendable { init() {} }

private final class SpellChecker {
    @Injected var plugins: [any Plugin]
    @EagerInjected var optionalEditor: Editor?
}

// MARK: AsynchronousFactories.md (its `Session` is `Session2` here: the seed-004 example has one)

private final class Database: Sendable {
    static func connect() async throws -> Database { Database() }
}
private final class Session2: Sendable {
    let user: Int
    let database: Database
    init(user: Int, database: Database) {
        self.user = user
        self.database = database
    }
}

@Suite(.isolatedDependencyGraph)
struct DocumentationSnippetTests {
    @Test func landingPage() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Clock() }.scope(.singleton)
                Dependency(autowiring: Greeter.init)
            })

        let greeter: Greeter = try DependencyGraph.inject()
        #expect(greeter.clock === (try DependencyGraph.inject() as Clock))
    }

    @Test func gettingStarted() throws {
        let container = DependencyContainer {
            Dependency { SunnyWeather() as any Weather }.scope(.singleton)
            Dependency(autowiring: Briefing.init)
        }

        DependencyGraph.activate(container)

        let briefing: Briefing = try DependencyGraph.inject()
        #expect(briefing.text == "Today: sunny.")
        #expect(MorningScreen().briefing.text == "Today: sunny.")
        try DependencyGraph.verify()
    }

    @Test func migratingFromSwinject() throws {
        let container = DependencyContainer {
            Dependency { URLSessionAPIClient() as any APIClient }.scope(.singleton)
            Dependency(autowiring: UserRepository.init)
            Dependency(autowiring: ProfileModel.init, parameters: String.self)
        }
        DependencyGraph.activate(container)

        let profile: ProfileModel = try DependencyGraph.inject(byType: ProfileModel.self, "42")
        #expect(profile.userID == "42")
        #expect(profile.users.api is URLSessionAPIClient)
        try DependencyGraph.verify()
    }

    @Test func overridingForAStretchOfCode() async throws {
        await DependencyGraph.activate(numberFactDependencies)
        let model = try DependencyGraph.withScope(
            DependencyContainer {
                Dependency { NumberFact { "\($0) is a good number." } }
            }
        ) {
            EagerCounterModel()
        }
        #expect(try await model.numberFact.fetch(3) == "3 is a good number.")
        #expect(try await CounterModel().fact(for: 3) == "3 is a number.")
    }

    @Test func migratingFromDIContainer() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Navigator() as any Routing }.scope(.singleton)
                Dependency(autowiring: Feed.init)
            })
        #expect(FeedScreen().feed.routing is Navigator)
    }

    @Test func migratingFromContainer() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { InMemoryStore() as any Store }.scope(.singleton)
                Dependency(autowiring: Session.init, parameters: String.self)
            })
        let session: Session = try DependencyGraph.inject(byType: Session.self, "ada")
        #expect(session.user == "ada")
        #expect(session.store is InMemoryStore)
    }

    @Test(arguments: [false, true])
    func migratingFromStitcher1(autowired: Bool) throws {
        // Stitcher 1.x: still compiles and runs.
        let legacy = DependencyContainer {
            Dependency { HTTPTransport() }.scope(.singleton)
            Dependency { AccountService(transport: try DependencyGraph.inject()) }
        }

        // Now: the same registrations, autowired, and verified before use.
        let current = DependencyContainer {
            Dependency { HTTPTransport() }.scope(.singleton)
            Dependency(autowiring: AccountService.init)
        }
        DependencyGraph.activate(autowired ? current : legacy)
        try DependencyGraph.verify()
        let account: AccountService = try DependencyGraph.inject()
        #expect(account.transport === (try DependencyGraph.inject() as HTTPTransport))
    }

    @Test func verifyingTheGraph() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency(autowiring: Invoice.init)  // needs a TaxTable, which nothing registers
            })
        var printed = ""
        do {
            try DependencyGraph.verify()
        } catch let report as GraphVerificationReport {
            printed = "\(report)"
        }
        #expect(printed.contains("Type[Invoice] declares a dependency on Type[TaxTable], which no active container registers."))

        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Receipt(printer: try DependencyGraph.inject()) }
                    .dependsOn(Printer.self)
            })
        let report = try #require(throws: GraphVerificationReport.self) { try DependencyGraph.verify() }
        #expect(report.problems.contains { "\($0)".contains("Type[Printer]") })

        let dot = DependencyGraph.export(.dot)
        #expect(dot.contains("digraph"))
    }

    @Test func scopesAndLifetimes() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Transaction() }.scope(.scoped)
            })

        let committed = try DependencyGraph.withScope {
            let transaction: Transaction = try DependencyGraph.inject()
            transaction.commit()
            return (try DependencyGraph.inject() as Transaction).committed
        }  // torn down and released here
        #expect(committed)
        #expect(throws: DependencyScopeError.self) { let _: Transaction = try DependencyGraph.inject() }

        let id = try DependencyGraph.withScope(DependencyContainer { Dependency { RequestID(value: "r-1") } }) {
            (try DependencyGraph.inject() as RequestID).value
        }
        #expect(id == "r-1")
    }

    @Test func registeringDependencies() throws {
        let container = DependencyContainer {
            Dependency { Hello() }.conforms(to: Greeting.self)
            Dependency(named: "motto") { "Stitch it once." }
            Dependency(for: Region.eu) { Currency(code: "EUR") }
            Dependency { (amount: Int) in Currency(code: amount > 0 ? "USD" : "none") }
        }
        let checkoutContainer = DependencyContainer {
            Dependency(autowiring: Checkout.init, parameters: Int.self)
        }
        DependencyGraph.activate(container)
        DependencyGraph.activate(checkoutContainer)

        let usd: Currency = try DependencyGraph.inject(byType: Currency.self, 10)
        let euro: Currency = try DependencyGraph.inject(byValue: Region.eu)
        #expect(usd.code == "USD")
        #expect(euro.code == "EUR")
        #expect(try DependencyGraph.inject(byName: "motto") as String == "Stitch it once.")
        let checkout: Checkout = try DependencyGraph.inject(byType: Checkout.self, 42)
        #expect(checkout.total == 42)
        #expect(checkout.greeting.text == "hello")
    }

    @Test func injecting() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Spelling() }.conforms(to: Plugin.self)
                Dependency { Grammar() }.conforms(to: Plugin.self)
            })

        let plugins: [any Plugin] = try DependencyGraph.inject()  // both, in order
        let editor: Editor? = try DependencyGraph.inject()  // nil: nothing registers Editor
        #expect(plugins.count == 2)
        #expect(plugins.first is Spelling)
        #expect(editor == nil)
        let checker = SpellChecker()
        #expect(checker.plugins.count == 2)
        #expect(checker.optionalEditor == nil)
    }

    @Test func asynchronousFactories() async throws {
        let container = DependencyContainer {
            Dependency { () async throws -> Database in try await Database.connect() }
                .scope(.singleton)
                .eagerness(.eager)
            Dependency { (userID: Int) async throws -> Session2 in
                Session2(user: userID, database: try await DependencyGraph.injectAsync())
            }
        }
        await DependencyGraph.activate(container)  // returns once the eager Database exists
        let session: Session2 = try await DependencyGraph.injectAsync(byType: Session2.self, 42)
        #expect(session.user == 42)
        #expect(session.database === (try DependencyGraph.inject() as Database))
    }

    @Test func servers() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { RequestLog() }.scope(.scoped)
            })
        #expect(try await handle("/todos") == "ok")
        // Outside the scope, the request's log is not there.
        #expect(throws: DependencyScopeError.self) { let _: RequestLog = try DependencyGraph.inject() }
    }
}
