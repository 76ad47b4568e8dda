import Foundation
import Stitcher
import StitcherTesting
import Testing

@MainActor private final class ProfileModel: PostInstantiationAware {
    let userID: Int
    var awareOnMainThread: Bool?
    init(userID: Int = 0) { self.userID = userID }
    nonisolated func didInstantiate() {
        MainActor.assumeIsolated { awareOnMainThread = isOnMainActorForTests() }
    }
}
@MainActor private final class Coordinator {
    let store: Store
    init(store: Store) { self.store = store }
}
private final class Store: Sendable {}
@MainActor private final class LoopView { init(_ presenter: LoopPresenter) {} }
private final class LoopPresenter: Sendable { init(_ view: LoopView) {} }
private final class NeedsProfile: Sendable { init(_ model: ProfileModel) {} }
@MainActor private final class ProfileScreen {
    @Injected var model: ProfileModel
    @EagerInjected var coordinator: Coordinator
}
/// Isolated to a global actor other than the main one.
@globalActor private actor StorageActor {
    static let shared = StorageActor()
}
@StorageActor private final class DiskCache {
    var onStorageActor: Bool
    init() {
        onStorageActor = true
        StorageActor.shared.assertIsolated()
    }
}

/// Whether this code runs on the main actor (a job of the main queue, or the main thread);
/// `MainActor.assumeIsolated` would trap instead of answering.
private func isOnMainActorForTests() -> Bool {
    Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueKey) != nil
}
private let mainQueueKey: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
}()

/// Runs `body` on a new thread (not the main one, not the cooperative pool) in the current
/// graph, and returns what it threw.
private func errorOnBackgroundThread(_ body: @escaping @Sendable () throws -> Void) async -> (any Error)? {
    let context = DependencyGraph.currentContext
    return await withCheckedContinuation { continuation in
        Thread {
            context.run {
                do {
                    try body()
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: error)
                }
            }
        }.start()
    }
}

/// Registrations isolated to the main actor: built there, injected synchronously on the main
/// actor and through `injectAsync` from anywhere.
@Suite(.isolatedDependencyGraph)
struct MainActorTests {
    @Test func aMainActorSingletonIsBuiltOnceFromTheMainActorAndEightTasks() async throws {
        let builds = Counter()
        let onMainThread = Flag(true)
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { @MainActor in
                    _ = builds.increment()
                    if !isOnMainActorForTests() { onMainThread.isOn = false }
                    return ProfileModel()
                }
                .scope(.singleton)
            })
        let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
            for _ in 0..<8 {
                group.addTask { ObjectIdentifier(try await DependencyGraph.injectAsync(byType: ProfileModel.self) as ProfileModel) }
            }
            group.addTask {
                try await MainActor.run { ObjectIdentifier(try DependencyGraph.inject(byType: ProfileModel.self) as ProfileModel) }
            }
            return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        #expect(identities.count == 1)
        #expect(builds.value == 1)
        #expect(onMainThread.isOn, "the factory ran on the main thread")
        let aware = try await MainActor.run { (try DependencyGraph.inject() as ProfileModel).awareOnMainThread }
        #expect(aware == true, "didInstantiate ran on the main actor")
    }

    @Test func aSynchronousInjectionOnAnotherThreadIsATypedError() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { @MainActor in ProfileModel() }.scope(.singleton)
                Dependency { NeedsProfile(try DependencyGraph.inject()) }
            })
        let direct = await errorOnBackgroundThread { _ = try DependencyGraph.inject(byType: ProfileModel.self) as ProfileModel }
        let error = try #require(direct as? MainActorIsolationError, "got \(String(describing: direct))")
        #expect(error.requested == .type("ProfileModel") && error.neededBy.isEmpty)
        #expect(error.description == "Type[ProfileModel] is isolated to the main actor and cannot be built synchronously elsewhere.")
        #expect(error.recoverySuggestion?.hasPrefix("To fix this, inject it from the main actor") == true)

        let nested = await errorOnBackgroundThread { _ = try DependencyGraph.inject(byType: NeedsProfile.self) as NeedsProfile }
        let nestedError = try #require(nested as? MainActorIsolationError, "passed through the outer factory unwrapped")
        #expect(nestedError.neededBy == [.type("NeedsProfile")])

        // Built on the main actor, the stored instance is returned on any thread.
        let model: ProfileModel = try await DependencyGraph.injectAsync()
        let stored = Protected<ObjectIdentifier?>(nil)
        #expect(
            await errorOnBackgroundThread {
                let found: ProfileModel = try DependencyGraph.inject()
                stored.withLock { $0 = ObjectIdentifier(found) }
            } == nil)
        #expect(stored.withLock { $0 } == ObjectIdentifier(model))
    }

    @Test func eagerMainActorSingletonsAreBuiltOnTheMainActorWhenActivated() async throws {
        let builds = Counter()
        let container = DependencyContainer {
            Dependency(.mainActor) {
                _ = builds.increment()
                return ProfileModel()
            }.scope(.singleton).eagerness(.eager)
        }
        await DependencyGraph.activate(container)
        #expect(builds.value == 1, "built by the asynchronous activation, before any injection")
        DependencyGraph.deactivate(container)

        // A synchronous activation off the main thread leaves it to the first injection ...
        #expect(await errorOnBackgroundThread { DependencyGraph.activate(container) } == nil)
        #expect(builds.value == 1)
        let _: ProfileModel = try await DependencyGraph.injectAsync()
        #expect(builds.value == 2)
        DependencyGraph.deactivate(container)

        // ... and one on the main actor builds it at once.
        await MainActor.run { DependencyGraph.activate(container) }
        #expect(builds.value == 3)
    }

    @Test func aCycleThroughIsolatedAndNonisolatedRegistrationsIsReportedWithItsPath() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { @MainActor in LoopView(try DependencyGraph.inject()) }
                Dependency { LoopPresenter(try DependencyGraph.inject()) }
            })
        let expected = InjectionError.cyclicDependencyReference(
            .init(entries: [.type("LoopView"), .type("LoopPresenter"), .type("LoopView")]))
        await MainActor.run {
            _ = #expect(throws: expected, "on the main actor") { _ = try DependencyGraph.inject(byType: LoopView.self) as LoopView }
        }
        await #expect(throws: expected, "through injectAsync") {
            _ = try await DependencyGraph.injectAsync(byType: LoopView.self) as LoopView
        }
    }

    @Test func mainActorFactoriesTakeParametersAndDependOnOthers() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { Store() }.scope(.singleton)
                Dependency { @MainActor (userID: Int) in ProfileModel(userID: userID) }
                Dependency(.mainActor) { Coordinator(store: try DependencyGraph.inject()) }.named("coordinator")
            })
        let model: ProfileModel = try await DependencyGraph.injectAsync(byType: ProfileModel.self, parameters: 7)
        let userID = await MainActor.run { model.userID }
        #expect(userID == 7)
        try await MainActor.run {
            let coordinator: Coordinator = try DependencyGraph.inject(byName: "coordinator")
            #expect(coordinator.store === (try DependencyGraph.inject() as Store))
            let other: ProfileModel = try DependencyGraph.inject(parameters: 8)
            #expect(other.userID == 8)
        }
        let viaName: Coordinator = try await DependencyGraph.injectAsync(byName: "coordinator")
        _ = viaName
    }

    @Test func propertyWrappersOfMainActorTypesInjectOnTheMainActor() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { Store() }
                Dependency { @MainActor in ProfileModel(userID: 3) }
                Dependency(.mainActor) { Coordinator(store: try DependencyGraph.inject()) }
            })
        let userID = await MainActor.run {
            let screen = ProfileScreen()
            _ = screen.coordinator
            return screen.model.userID
        }
        #expect(userID == 3)
    }

    @Test func aFactoryOfAnotherGlobalActorIsAnAsyncFactoryThatRunsOnIt() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { await DiskCache() }.scope(.singleton)
            })
        #expect(throws: InjectionError.unsupportedOperation, "not built yet: inject it asynchronously") {
            _ = try DependencyGraph.inject(byType: DiskCache.self) as DiskCache
        }
        let cache: DiskCache = try await DependencyGraph.injectAsync()
        #expect(await cache.onStorageActor)
        #expect(try DependencyGraph.inject(byType: DiskCache.self) as DiskCache === cache, "stored: returned anywhere")
    }
}
