import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Clock: Sendable {
    static let built = Counter()
    let serial: Int
    init() { serial = Self.built.increment() }
}
private protocol Plugin: Sendable { var name: String { get } }
private struct PluginA: Plugin { var name: String { "a" } }
private struct PluginB: Plugin { var name: String { "b" } }
private enum Slot: Hashable { case left, right }
private enum Key: String { case clock }
private final class Labelled: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

private final class Consumer {
    @Injected var clock: Clock
    @Injected var optionalClock: Clock?
    @Injected var plugins: [Plugin]
    @Injected(name: "named") var named: Labelled
    @Injected(name: Key.clock) var namedByRawValue: Clock
    @Injected(name: "parameterized", "x") var namedWithParameter: Labelled
    @Injected(name: "parameterized", parameters: "y") var namedWithLabelledParameter: Labelled
    @Injected(value: Slot.left) var left: Labelled
    @Injected(value: Slot.right, "r") var right: Labelled
    @Injected(type: Labelled.self, "typed") var typed: Labelled
    @Injected("unlabelled") var unlabelled: Labelled
}

private final class Reloading {
    @Injected var clock: Clock
    @Injected var plugins: [Plugin]
}

@Suite(.isolatedDependencyGraph)
struct InjectedTests {
    private func activate() {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Clock() }.scope(.instance)
                Dependency { PluginA() }.conforms(to: Plugin.self)
                Dependency { PluginB() }.conforms(to: Plugin.self)
                Dependency { Labelled("named") }.named("named")
                Dependency { Clock() }.named(Key.clock)
                Dependency { (suffix: String) in Labelled("parameterized-" + suffix) }.named("parameterized")
                Dependency { Labelled("left") }.associated(with: Slot.left)
                Dependency { (suffix: String) in Labelled("right-" + suffix) }.associated(with: Slot.right)
                Dependency { (suffix: String) in Labelled("typed-" + suffix) }
            })
    }

    @Test func everyInitializerInjects() {
        activate()
        let consumer = Consumer()
        #expect(consumer.clock.serial > 0)
        #expect(consumer.optionalClock != nil)
        #expect(consumer.plugins.map(\.name) == ["a", "b"])
        #expect(consumer.named.label == "named")
        #expect(consumer.namedByRawValue.serial > 0)
        #expect(consumer.namedWithParameter.label == "parameterized-x")
        #expect(consumer.namedWithLabelledParameter.label == "parameterized-y")
        #expect(consumer.left.label == "left")
        #expect(consumer.right.label == "right-r")
        #expect(consumer.typed.label == "typed-typed")
        #expect(consumer.unlabelled.label == "typed-unlabelled")
    }

    @Test func valueIsResolvedLazilyOnceAndKept() {
        let consumer = Reloading()
        activate()  // after the property exists: resolution waits for the first read
        let first = consumer.clock
        #expect(consumer.clock === first, "an instance-scoped dependency is still injected once")
    }

    @Test func reloadAndLoadIfNeeded() throws {
        let consumer = Reloading()
        #expect(consumer.plugins.isEmpty)
        activate()
        #expect(consumer.plugins.isEmpty, "kept until reloaded")
        try consumer.$plugins.loadIfNeeded()
        #expect(consumer.plugins.count == 2, "an empty collection is loaded again")
        let clock = consumer.clock
        try consumer.$clock.loadIfNeeded()
        #expect(consumer.clock === clock, "a loaded value is kept")
        try consumer.$clock.reload()
        #expect(consumer.clock !== clock)
    }

    @Test func autoreloadFollowsGraphChangesAndStopsWithItsOwner() throws {
        activate()
        var consumer: Reloading? = Reloading()
        consumer!.$plugins.autoreload()
        #expect(consumer!.plugins.count == 2)
        struct PluginC: Plugin { var name: String { "c" } }
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { PluginC() }.conforms(to: Plugin.self)
                Dependency { PluginB() }.conforms(to: Plugin.self).scope(.singleton)
            })
        #expect(consumer!.plugins.map(\.name) == ["a", "c", "b"], "reloaded; the later PluginB replaced the first")
        DependencyGraph.deactivateAll()
        #expect(consumer!.plugins.isEmpty, "reloaded after deactivation")
        weak let weakConsumer = consumer
        consumer = nil
        #expect(weakConsumer == nil, "the subscription does not retain the owner")
        activate()  // must not touch the released property
    }

    @Test func firstReadFromManyThreadsResolvesOnce() {
        let builds = Counter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Labelled in
                    builds.increment()
                    Thread.sleep(forTimeInterval: 0.01)
                    return Labelled("slow")
                }.scope(.instance)
            })
        final class Holder: @unchecked Sendable { @Injected var value: Labelled }
        let holder = Holder()
        let seen = InstanceSet()
        onThreads(8) { _ in seen.insert(holder.value) }
        #expect(builds.value == 1)
        #expect(seen.count == 1)
    }

    @Test func failedInjectionStopsWithFileAndLine() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            final class Missing {}
            final class Broken { @Injected var missing: Missing }
            _ = Broken().missing
        }.map { result in
            let output = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(output.contains("InjectedTests.swift"))
            #expect(output.contains("No dependency could be found for Type[Missing]."))
        }
    }
}
