import Foundation
import Stitcher

extension Scenarios {
    /// Child graphs made and ended while other threads resolve through them, and `Lazy` and
    /// `Provider` values read after (or while) their graph ends.
    static let children = Scenario(
        name: "children",
        summary: "child graphs made and ended by 2 threads while 3 resolve their own, their parent's, arrays and deferred instances"
    ) { runner in
        let census = Census()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Svc(tag: 1, census: census) }.scope(.singleton)
                Dependency(named: "app-shared") { Svc(tag: 2, census: census) }.scope(.shared)
            })
        let sessions = Protected<[DependencyGraph.Context]>([])
        let deferred = Protected<[Lazy<Svc>]>([])
        let churn: Runner.Step = { random in
            let session = DependencyGraph.currentContext.child()
            session.activate(
                DependencyContainer {
                    Dependency(named: "session") { Svc(tag: 10, census: census) }.scope(.singleton)
                    Dependency(named: "session-transient") { Svc(tag: 11, census: census) }.scope(.instance)
                })
            // A grandchild now and then: ending its parent ends it.
            let grandchild = Bool.random(using: &random) ? session.child() : nil
            grandchild?.activate(DependencyContainer { Dependency(named: "feature") { Svc(tag: 20, census: census) }.scope(.singleton) })
            let ended: DependencyGraph.Context? = sessions.withLock { list in
                list.append(grandchild ?? session)
                return list.count > 4 ? list.removeFirst() : nil
            }
            // Ended explicitly, or by letting its last copy go (the readers may hold one).
            if Bool.random(using: &random) { ended?.end() }
        }
        let resolve: Runner.Step = { random in
            guard let session = sessions.withLock({ $0.randomElement(using: &random) }) else { return }
            do {
                let own: Svc = try session.inject(byName: "session")
                try own.check("the session's singleton", tags: 10...10)
                let parents: Svc = try session.inject()
                try parents.check("the app's singleton through a child", tags: 1...1)
                let shared: Svc = try session.inject(byName: "app-shared")
                try shared.check("the app's shared instance through a child", tags: 2...2)
                // An array of singletons, kept by the child graph (`ElementArrays`).
                for svc in try session.run({ try DependencyGraph.inject() as [Svc] }) {
                    try svc.check("an element of [Svc] through a child", tags: 1...20)
                }
                let provider: Provider<Svc> = try session.inject(byName: "session-transient")
                try provider().check("a provider's transient", tags: 11...11)
                let lazy: Lazy<Svc> = try session.inject(byName: "session")
                deferred.withLock { list in
                    list.append(lazy)
                    if list.count > 8 { list.removeFirst() }
                }
            } catch is InjectionError, is DeferredInjectionError {
                // The session ended between the pick and the injection: nothing to resolve.
            } catch let error as AutowiringError {
                throw error
            }
            // A Lazy kept from an earlier session: its value, or the error saying it ended.
            if let lazy = deferred.withLock({ $0.randomElement(using: &random) }) {
                do {
                    try lazy.value.check("a Lazy read as its graph ends", tags: 10...10)
                } catch is InjectionError, is DeferredInjectionError {}
            }
        }
        let outcome = runner.run([("churn", churn), ("churn", churn), ("resolve", resolve), ("resolve", resolve), ("resolve", resolve)])
        for session in sessions.withLock({ $0 }) { session.end() }
        sessions.withLock { $0.removeAll() }
        deferred.withLock { $0.removeAll() }
        return released(census, outcome)
    }
}
