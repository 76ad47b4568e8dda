import Foundation
import Stitcher
import StitcherTesting
import Testing

private final class Session: @unchecked Sendable {}
private final class Cache: @unchecked Sendable {
    let session: Session
    init(_ session: Session) { self.session = session }
}
private final class Helper: @unchecked Sendable {
    let session: Session
    init(_ session: Session) { self.session = session }
}
private final class Holder: @unchecked Sendable {
    let helper: Helper
    init(_ helper: Helper) { self.helper = helper }
}

/// Scope validation, always on: a `.scoped` dependency needs an open scope, and nothing that
/// outlives scopes may hold one.
@Suite(.isolatedDependencyGraph)
struct ScopeValidationTests {
    @Test func injectingAScopedDependencyWithNoScopeOpenNamesItAndSaysHowToFixIt() {
        DependencyGraph.activate(DependencyContainer { Dependency { Session() }.scope(.scoped) })
        let error = #expect(throws: DependencyScopeError.self) { try DependencyGraph.inject() as Session }
        #expect(error?.reason == .noScopeOpen)
        #expect(error?.requested == .type("Session"))
        #expect(error?.description == "Type[Session] is .scoped, and no dependency scope is open.")
        #expect(error?.recoverySuggestion?.hasPrefix("To fix this, inject it inside `DependencyGraph.withScope") == true)
    }

    @Test func aSingletonInjectingAScopedDependencyIsACaptiveDependency() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Session() }.scope(.scoped)
                Dependency { Cache(try DependencyGraph.inject()) }.scope(.singleton)
            })
        try DependencyGraph.withScope {
            let error = #expect(throws: DependencyScopeError.self) { try DependencyGraph.inject() as Cache }
            #expect(error?.reason == .captiveDependency(holder: .type("Cache"), holderScope: "singleton"))
            #expect(error?.chain == [.type("Cache"), .type("Session")])
            #expect(error?.description.contains("Type[Cache] is .singleton and injects Type[Session]") == true)
            #expect(error?.recoverySuggestion?.hasPrefix("To fix this, make Type[Cache] `.scoped` or `.instance`") == true)
        }
    }

    @Test func aCaptiveDependencyThroughTransientsNamesTheWholeChain() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Session() }.scope(.scoped)
                Dependency { Helper(try DependencyGraph.inject()) }.scope(.instance)
                Dependency { Holder(try DependencyGraph.inject()) }.scope(.managed(by: ManualScope()))
            })
        try DependencyGraph.withScope {
            let error = #expect(throws: DependencyScopeError.self) { try DependencyGraph.inject() as Holder }
            #expect(error?.reason == .captiveDependency(holder: .type("Holder"), holderScope: "managed(ManualScope)"))
            #expect(error?.chain == [.type("Holder"), .type("Helper"), .type("Session")])
            #expect(error?.failureReason == "Injected along Type[Holder] -> Type[Helper] -> Type[Session].")
        }
    }

    @Test func aSharedInstanceInjectingAScopedOneIsCaptiveToo() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Session() }.scope(.scoped)
                Dependency { Cache(try DependencyGraph.inject()) }.scope(.shared)
            })
        try DependencyGraph.withScope {
            let error = #expect(throws: DependencyScopeError.self) { try DependencyGraph.inject() as Cache }
            #expect(error?.reason == .captiveDependency(holder: .type("Cache"), holderScope: "shared"))
        }
    }

    @Test func scopedAndTransientDependenciesMayInjectScopedOnes() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Session() }.scope(.scoped)
                Dependency { Helper(try DependencyGraph.inject()) }.scope(.instance)
                Dependency { Holder(try DependencyGraph.inject()) }.scope(.scoped)
            })
        try DependencyGraph.withScope {
            let holder: Holder = try DependencyGraph.inject()
            let helper: Helper = try DependencyGraph.inject()
            #expect(holder.helper.session === helper.session)
        }
    }

    @Test func anAsyncFactoryHoldingAScopedDependencyIsCaughtToo() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { Session() }.scope(.scoped)
                Dependency { () async throws -> Cache in Cache(try await DependencyGraph.injectAsync()) }.scope(.singleton)
            })
        try await DependencyGraph.withScope {
            let error = await #expect(throws: DependencyScopeError.self) { try await DependencyGraph.injectAsync() as Cache }
            #expect(error?.reason == .captiveDependency(holder: .type("Cache"), holderScope: "singleton"))
        }
    }

    /// A task started by a singleton's factory inherits the path of that build: a `.scoped`
    /// dependency it injects through a transient one is the singleton's captive, though the
    /// task's own frames hold only the transient (and the scope is bound to the task).
    @Test func aTaskStartedByASingletonsFactoryCannotHoldAScopedDependencyThroughATransient() async throws {
        let started = Protected<Task<Result<Helper, any Error>, Never>?>(nil)
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { Session() }.scope(.scoped)
                Dependency { Helper(try DependencyGraph.inject()) }.scope(.instance)
                Dependency { () -> Cache in
                    // Not awaited here: the task keeps the path it inherited after the build.
                    let task = Task { Result { try DependencyGraph.inject() as Helper } }
                    started.withLock { $0 = task }
                    return Cache(Session())
                }
                .scope(.singleton)
            })
        try await DependencyGraph.withScope {
            _ = try DependencyGraph.inject() as Cache
            let result = await started.withLock { $0 }!.value
            #expect(throws: DependencyScopeError.self) { try result.get() }
            if case .failure(let error as DependencyScopeError) = result {
                #expect(error.reason == .captiveDependency(holder: .type("Cache"), holderScope: "singleton"))
                #expect(error.chain == [.type("Cache"), .type("Helper"), .type("Session")])
            }
            // The body's own transient is no captive: its task inherited no path.
            let helper: Helper = try DependencyGraph.inject()
            #expect(helper.session === (try DependencyGraph.inject() as Session))
        }
    }

    @Test func theFailureIsNotCachedAndTheNextScopeWorks() throws {
        DependencyGraph.activate(DependencyContainer { Dependency { Session() }.scope(.scoped) })
        #expect(throws: DependencyScopeError.self) { try DependencyGraph.inject() as Session }
        try DependencyGraph.withScope { _ = try DependencyGraph.inject() as Session }
    }
}

/// A managed scope reset by hand, for tests.
private final class ManualScope: ManagedDependencyScopeProviding, @unchecked Sendable {
    func onScopeInvalidated(perform action: @escaping @Sendable () -> Void) -> any ManagedDependencyScopeReceipt {
        Receipt()
    }
    struct Receipt: ManagedDependencyScopeReceipt { func cancel() {} }
}
