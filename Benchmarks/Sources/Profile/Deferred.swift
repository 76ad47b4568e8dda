import Stitcher
import Swinject

/// Workloads 13 and 14: a `Lazy` read after the first and a `Provider` call, next to the
/// stored closures written by hand for the same purpose, and Swinject's `Lazy` and
/// `Provider` of the same registrations.
func compareDeferredInjection(_ storedClosure: () -> Single, swinject: Container) throws {
    let lazy: Stitcher.Lazy<Single> = try DependencyGraph.inject()
    _ = try lazy.value
    let swinjectLazy = swinject.resolve(Swinject.Lazy<Single>.self)!
    _ = swinjectLazy.instance
    try compare(
        "13 Lazy read after the first (stored closure)", burst: 20_000,
        baseline: { storedClosure() }, stitcher: { try lazy.value }, swinject: { swinjectLazy.instance })
    let provider: Stitcher.Provider<Single> = try DependencyGraph.inject()
    let swinjectProvider = swinject.resolve(Swinject.Provider<Single>.self)!
    try compare(
        "14 Provider call, singleton (stored closure)", burst: 20_000,
        baseline: { storedClosure() }, stitcher: { try provider() }, swinject: { swinjectProvider.instance })
    let makeTransient: () -> Transient = { Transient() }
    let transients: Stitcher.Provider<Transient> = try DependencyGraph.inject()
    let swinjectTransients = swinject.resolve(Swinject.Provider<Transient>.self)!
    try compare(
        "14 Provider call, transient (stored closure calling the initializer)", burst: 20_000,
        baseline: { makeTransient() }, stitcher: { try transients() }, swinject: { swinjectTransients.instance })
}

/// Workload 15: a singleton of the app injected through two levels of child graphs (a
/// session's, then a feature's, each with its own registration), next to a lookup in a
/// feature's dictionary falling back to the session's, then to the app's.
func compareChildGraphs() throws {
    let session = DependencyGraph.currentContext.child()
    session.activate(DependencyContainer { Dependency { Other() }.scope(.singleton) })
    let feature = session.child()
    feature.activate(DependencyContainer { Dependency { Shared() }.scope(.singleton) })
    let app: [ObjectIdentifier: AnyObject] = [ObjectIdentifier(Single.self): try DependencyGraph.inject(byType: Single.self)]
    let sessionObjects: [ObjectIdentifier: AnyObject] = [ObjectIdentifier(Other.self): try session.inject(byType: Other.self)]
    let featureObjects: [ObjectIdentifier: AnyObject] = [ObjectIdentifier(Shared.self): try feature.inject(byType: Shared.self)]
    let key = ObjectIdentifier(Single.self)
    try feature.run {
        try compare(
            "15 app singleton through 2 child graphs (dictionaries falling back)", burst: 20_000,
            baseline: { featureObjects[key] ?? sessionObjects[key] ?? app[key]! },
            stitcher: { try DependencyGraph.inject(byType: Single.self) })
    }
}

/// The `provider` and `lazy` workloads (callgrind): a `Provider` call or a `Lazy` read in a
/// loop of their own. Out of the top-level code, whose size decides what it inlines.
@inline(never)
func profileDeferredInjection(_ workload: String) throws {
    if workload == "lazy" {
        let lazy: Stitcher.Lazy<Single> = try DependencyGraph.inject()
        try measure { try lazy.value }
    } else {
        let provider: Stitcher.Provider<Single> = try DependencyGraph.inject()
        try measure { try provider() }
    }
}
