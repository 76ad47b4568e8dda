import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

private final class Report: Sendable {}
private final class Upload: Sendable {
    let size: Int
    init(size: Int) { self.size = size }
}
private protocol Plugin: Sendable {}
private final class FirstPlugin: Plugin {}
private final class SecondPlugin: Plugin {}
private final class Absent: Sendable {}
private final class RequestState: Sendable {}
private final class Connection: Sendable {}

// A cycle broken by a Lazy edge: Editor takes Lazy<Preview>, Preview takes Editor.
private final class Editor: Sendable {
    let preview: Lazy<Preview>
    init(preview: Lazy<Preview>) { self.preview = preview }
}
private final class Preview: Sendable {
    let editor: Editor
    init(editor: Editor) { self.editor = editor }
}
private final class NeedsMissing: Sendable {
    init(missing: Provider<Absent>) {}
}
private final class Screen {
    @Injected var report: Lazy<Report>
    @Injected var makeUpload: Provider<Upload>
}

/// `Lazy<T>` and `Provider<T>`: injected wherever `T` is, resolved later in the graph and
/// scope they were injected from.
@Suite(.isolatedDependencyGraph)
struct DeferredInjectionTests {
    @Test func aLazyBuildsNothingUntilReadThenKeepsWhatItResolved() throws {
        let builds = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Report in
                    builds.increment()
                    return Report()
                }
                .scope(.instance)
            })
        let lazy: Lazy<Report> = try DependencyGraph.inject()
        #expect(builds.value == 0)
        let first = try lazy.value
        let second = try lazy.value
        #expect(first === second && builds.value == 1)
        // Another injection is another Lazy, resolved on its own.
        let other: Lazy<Report> = try DependencyGraph.inject()
        #expect(try other.value !== first && builds.value == 2)
    }

    @Test func threadsReadingALazyFirstAtOnceShareOneResolution() throws {
        let builds = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Report in
                    builds.increment()
                    Thread.sleep(forTimeInterval: 0.01)
                    return Report()
                }
                .scope(.instance)
            })
        for _ in 0..<20 {
            let lazy: Lazy<Report> = try DependencyGraph.inject()
            let seen = Protected<Set<ObjectIdentifier>>([])
            let barrier = Barrier(parties: 8)
            let lazyBox = Unchecked(lazy)
            #expect(
                onThreads(8) { _ in
                    barrier.arriveAndWait()
                    if let report = try? lazyBox.value.value { seen.withLock { _ = $0.insert(ObjectIdentifier(report)) } }
                })
            #expect(seen.withLock { $0.count } == 1)
        }
        #expect(builds.value == 20)
    }

    @Test func aReadInsideAFactoryDoesNotWaitForAnotherThreadsResolution() throws {
        let builds = Counter()
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let released = Flag(false)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Report in
                    // The first build holds the Lazy's resolution until released.
                    if builds.increment() == 1 {
                        started.signal()
                        _ = release.wait(timeout: .now() + 10)
                    }
                    return Report()
                }
                .scope(.instance)
            })
        let lazy: Lazy<Report> = try DependencyGraph.inject()
        let box = Unchecked(lazy)
        let first = Protected<Report?>(nil)
        let done = DispatchSemaphore(value: 0)
        let context = DependencyGraph.currentContext
        Thread.detachNewThread {
            context.run { first.withLock { $0 = try? box.value.value } }
            done.signal()
        }
        started.wait()
        // Inside a build (the factory of a registration), while the other thread resolves
        // the Lazy: resolved on its own, without waiting for a release only this thread gives.
        let ownRead = Protected<Report?>(nil)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Upload in
                    let report = try box.value.value
                    ownRead.withLock { $0 = report }
                    return Upload(size: 1)
                }
            })
        _ = try DependencyGraph.inject(byType: Upload.self)
        #expect(ownRead.withLock { $0 } != nil && !released.isOn)
        released.isOn = true
        release.signal()
        done.wait()
        let stored = try #require(first.withLock { $0 })
        #expect(try lazy.value === stored && ownRead.withLock { $0 } !== stored && builds.value == 2)
    }

    @Test func aFailedReadStoresNothingAndTheNextReadTriesAgain() throws {
        let failing = Flag(true)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Report in
                    if failing.isOn { throw CancellationError() }
                    return Report()
                }
            })
        let lazy: Lazy<Report> = try DependencyGraph.inject()
        #expect(throws: (any Error).self) { try lazy.value }
        failing.isOn = false
        let report = try lazy.value
        #expect(try lazy.value === report)
    }

    @Test func aProviderResolvesOnEveryCallWithTheCallsParameters() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { (size: Int) in Upload(size: size) }
                Dependency { Report() }.scope(.singleton)
            })
        let makeUpload: Provider<Upload> = try DependencyGraph.inject()
        let small = try makeUpload(1)
        let large = try makeUpload(1000)
        #expect(small !== large && small.size == 1 && large.size == 1000)
        // Without parameters in the call, the injection's own are used.
        let defaulted: Provider<Upload> = try DependencyGraph.inject(byType: Provider<Upload>.self, 7)
        #expect(try defaulted().size == 7 && defaulted(8).size == 8)
        // A stored scope hands out its one instance.
        let report: Provider<Report> = try DependencyGraph.inject()
        #expect(try report() === report())
        #expect(throws: InjectionError.self) { try makeUpload("wrong") }
    }

    @Test func everyFormOfInjectionTakesThem() throws {
        let builds = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Report in
                    builds.increment()
                    return Report()
                }
                .named("report")
                Dependency { () -> Report in
                    builds.increment()
                    return Report()
                }
                Dependency { (size: Int) in Upload(size: size) }
                Dependency(autowiring: Editor.init).scope(.singleton)
                Dependency(autowiring: Preview.init)
            })
        // By name: nothing built until read.
        let named: Lazy<Report> = try DependencyGraph.inject(byName: "report")
        #expect(builds.value == 0)
        _ = try named.value
        #expect(builds.value == 1)
        // A property wrapper.
        let screen = Screen()
        _ = try screen.report.value
        #expect(try screen.makeUpload(3).size == 3 && builds.value == 2)
        // Autowired initializer parameters, through a cycle the Lazy edge breaks.
        let editor: Editor = try DependencyGraph.inject()
        #expect(try editor.preview.value.editor === editor)
    }

    @Test func theyResolveInTheGraphAndScopeTheyWereInjectedFrom() throws {
        let container = DependencyContainer {
            Dependency { RequestState() }.scope(.scoped)
            Dependency { Report() }
        }
        let graph = DependencyGraph.Context.isolated()
        graph.activate(container)
        var inScope: RequestState?
        var provider: Provider<RequestState>?
        try graph.withScope {
            inScope = try DependencyGraph.inject()
            provider = try DependencyGraph.inject()
            // Called from a thread that has no scope and no graph bound: the same scope's instance.
            let captured = Unchecked(provider!)
            let other = Protected<RequestState?>(nil)
            Thread.detachNewThread { other.withLock { $0 = try? captured.value() } }
            while other.withLock({ $0 == nil }) { Thread.sleep(forTimeInterval: 0.001) }
            #expect(other.withLock { $0 } === inScope)
            // From another scope of the same graph: still the scope it was injected in.
            try graph.withScope {
                let again = try provider!()
                #expect(again === inScope)
            }
        }
        let ended = #expect(throws: DeferredInjectionError.self) { try provider!() }
        #expect(ended?.reason == .scopeEnded && ended?.requested == .type("RequestState"))
        #expect(ended?.recoverySuggestion?.hasPrefix("To fix this, ") == true)

        // The process-wide (here: the suite's) graph does not answer for an isolated graph.
        var lazy: Lazy<Report>? = try graph.inject()
        #expect(throws: (any Error).self) { let _: Report = try DependencyGraph.inject() }
        _ = try lazy!.value
        lazy = try graph.inject()
        _ = consume graph
        let gone = #expect(throws: DeferredInjectionError.self) { try lazy!.value }
        #expect(gone?.reason == .graphEnded)
        #expect(gone?.description.contains("Lazy<Report>") == true)
    }

    @Test func theyComposeWithTheOtherWrappers() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { FirstPlugin() }.conforms(to: (any Plugin).self)
                Dependency { SecondPlugin() }.conforms(to: (any Plugin).self)
            })
        let plugins: Lazy<[any Plugin]> = try DependencyGraph.inject()
        #expect(try plugins.value.count == 2)
        let absent: Provider<Absent?> = try DependencyGraph.inject()
        #expect(try absent() == nil)
        let lazies: [Lazy<any Plugin>] = try DependencyGraph.inject()
        #expect(lazies.isEmpty)  // an array takes every registration of its element, and no Lazy is registered
        let missing: Lazy<Absent> = try DependencyGraph.inject()
        #expect(throws: InjectionError.missingDependency(.type("Absent"))) { try missing.value }
    }

    @Test func asynchronousFactoriesAreAwaited() async throws {
        let builds = Counter()
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async -> Connection in
                    builds.increment()
                    await Task.yield()
                    return Connection()
                }
                .scope(.instance)
            })
        let lazy: Lazy<Connection> = try DependencyGraph.inject()
        let provider: Provider<Connection> = try DependencyGraph.inject()
        async let first = lazy.valueAsync()
        async let second = lazy.valueAsync()
        let (a, b) = try await (first, second)
        #expect(a === b && builds.value == 1)
        #expect(try await provider.callAsync() !== provider.callAsync())
        #expect(builds.value == 3)
    }

    @Test func verifyAndExportKnowADeferredEdge() throws {
        DependencyGraph.activate(
            DependencyContainer(name: "Editing") {
                Dependency(autowiring: Editor.init).scope(.singleton)
                Dependency(autowiring: Preview.init)
                Dependency(autowiring: NeedsMissing.init)
            })
        let report = DependencyGraph.verificationReport()
        // No cycle through the Lazy; a Provider of something missing is still missing.
        #expect(
            report.problems.map { "\($0.kind) \($0.dependency) \($0.requested.map(String.init(describing:)) ?? "")" } == [
                "missingDependency Type[NeedsMissing] Type[Absent]"
            ])
        let dot = DependencyGraph.export(.dot)
        #expect(dot.contains("n0 -> n1 [style=dotted, arrowhead=odot];"))
        #expect(dot.contains("n1 -> n0;"))
        #expect(DependencyGraph.export(.mermaid).contains("n0 --o n1"))
    }
}
