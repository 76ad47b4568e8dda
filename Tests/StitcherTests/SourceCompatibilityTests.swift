import Foundation
import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

// Every public form of Stitcher 1.x that ../shared/reference/stitcher-1x-api.md lists, written
// as a 1.x user writes it (section by section, in its order): a missing or differently shaped
// name fails the build. Deprecated 1.0 names are used in a deprecated test only, so that the
// build stays free of warnings. The macros' forms are in StitcherMacrosTests.

private protocol Tracking: AnyObject {}
private class BaseService {}
private final class Service: BaseService, Tracking, PostInstantiationAware, @unchecked Sendable {
    var didInstantiateCalls = 0
    func didInstantiate() { didInstantiateCalls += 1 }
}
private final class Repository: Sendable {
    let cache: Int
    init(cachedBy cache: Int) { self.cache = cache }
}
private struct Plain: Sendable {}
private enum Names: String { case service, repository }
private struct Label: CustomStringConvertible { var description: String { "labelled" } }
private enum Slot: Hashable { case avatar, banner }
private final class Settings: ObservableObject, @unchecked Sendable {
    let objectWillChange = ObservableObjectPublisher()
}
private final class PrincipalDatasource: ManagedDependencyScopeProviding, @unchecked Sendable {
    let subject = PassthroughSubject<Void, Never>()
    func onScopeInvalidated(perform action: @escaping @Sendable () -> Void) -> any ManagedDependencyScopeReceipt {
        subject.sink { action() }
    }
}
private struct RepositoryRegistration: DependencyRepresenting {
    typealias T = Repository
    var dependencyProvider: DependencyFactory.Provider<Repository> {
        DependencyFactory.Provider { (cache: Int) in Repository(cachedBy: cache) }
    }
}
private struct Holder {
    @Injected var service: Service
    @Injected(type: Service.self) var typed: Service
    @Injected(name: Names.service) var named: Service
    @Injected(name: "repository", 7) var repository: Repository
    @Injected(value: Slot.avatar) var valued: Service
    @Injected var optional: Plain?
    @Injected var all: [Tracking]
}

@Suite(.isolatedDependencyGraph)
struct SourceCompatibilityTests {
    @Test func registration() throws {
        let subject = PassthroughSubject<Void, Never>()
        let datasource = PrincipalDatasource()
        let slot = [Slot.avatar, .banner].randomElement()!
        let first = DependencyContainer {
            Dependency { Service() }
            Dependency(named: "service") { Service() }
            Dependency(named: Names.repository) { (cache: Int) in Repository(cachedBy: cache) }
            Dependency(named: Label()) { Plain() }
            Dependency(conformingTo: Tracking.self) { Service() }
            Dependency(inheritingFrom: BaseService.self) { Service() }
            Dependency(for: Slot.avatar) { Service() }
            Dependency { Service() }.named("a").named(Names.service).named(Label())
            Dependency { Service() }.associated(with: Slot.banner)
            Dependency { Service() }.conforms(to: Tracking.self).inherits(from: BaseService.self)
            Dependency { Service() }.scope(.singleton).eagerness(.eager)
            Dependency { Service() }.scope(.instance).eagerness(.lazy)
            Dependency { Service() }.scope(.shared)
            Dependency { Service() }.scope(.managed(by: subject))
            Dependency { Service() }.scope(.managed(datasource))
            Dependency { Service() }.scope(.managed(by: datasource))
            Dependency { Service() }.scope(.automatic(for: Service.self))
            Plain()
            RepositoryRegistration()
            DependencyGroup { Dependency { Plain() }.named("grouped") }.enabled(true)
            if Bool.random() { Dependency { Plain() }.named("if") } else { Dependency { Plain() }.named("else") }
            if let name = Optional("if-let") { Dependency { Plain() }.named(name) }
            switch slot {
            case .avatar: Dependency { Plain() }.named("switch")
            case .banner: Dependency { Plain() }.named("banner")
            }
            for index in 0..<2 { Dependency { Plain() }.named("loop-\(index)") }
            if #available(macOS 13, iOS 16, *) { Dependency { Plain() }.named("available") }
        }
        let second = DependencyContainer()
        let merged = DependencyContainer(merging: [first, second])
        let mergedVariadic = DependencyContainer(merging: first, second, .empty)
        let tracked = DependencyContainer { Plain() }.invalidated(tracking: subject)
        let observed = DependencyContainer { Plain() }.invalidated(tracking: Settings())
        #expect(merged != mergedVariadic && merged.id != mergedVariadic.id && tracked != observed)
        let locators: [DependencyLocator] = [
            .name("n"), .type(Service.self), .type(Service.self, Tracking.self),
            .type(Service.self, Tracking.self, BaseService.self), .value(Slot.avatar),
        ]
        #expect(Set(locators).count == 5)
        #expect(RepositoryRegistration().locator == .type(Repository.self))
        #expect(RepositoryRegistration().eagerness == .lazy)
        let _: DependencyEagerness = .eager
        DependencyGraph.activate(first)
        let repository: Repository = try DependencyGraph.inject(byName: Names.repository, parameters: 3)
        #expect(repository.cache == 3)
    }

    @Test func activation() async throws {
        let container = DependencyContainer { Dependency { Service() }.named("service") }
        await DependencyGraph.activate(container)
        DependencyGraph.deactivate(container)
        await DependencyGraph.activate(container)
        await withCheckedContinuation { continuation in
            DependencyGraph.activate(DependencyContainer(), completion: { continuation.resume() })
        }
        DependencyGraph.releaseUnusedStorage()
        let changes: AnyPublisher<Void, Never> = DependencyGraph.graphChangedPublisher
        _ = changes
        try DependencyGraph.validate { (registrar: DependencyGraph.DependencyRegistrarProjection) in
            let registrations: [DependencyGraph.DependencyRegistrationProjection] = registrar.registrations
            #expect(registrar.count == registrations.count && !registrar.isEmpty)
            #expect(registrar.matches(where: { $0.isLocatedBy(name: "service") }).count == 1)
            try registrar.withMatches(where: { $0.isLocatedBy(type: Service.self) }) { matches in
                if matches.count > 1 { throw CocoaError(.featureUnsupported) }
            }
            try registrar.withFirstMatch(where: { $0.isLocatedBy(value: Slot.avatar) }) { match in
                if let match, match.scope == .singleton || match.eagerness == .eager || match.locator == .name("x") {
                    throw CocoaError(.featureUnsupported)
                }
            }
        }
        DependencyGraph.deactivateAll()
    }

    @Test func dependenciesPropertyWrapper() async {
        @Dependencies var container = DependencyContainer { Dependency { Plain() } }
        await _container.setContainer(DependencyContainer { Dependency { Service() } })
        await withCheckedContinuation { continuation in
            _container.setContainer(DependencyContainer(), completion: { continuation.resume() })
        }
    }

    @Test func injection() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Service() }.conforms(to: Tracking.self)
                Dependency { Service() }.named("service")
                Dependency { Service() }.named(Names.service)
                Dependency { Service() }.named(Label())
                Dependency { (cache: Int) in Repository(cachedBy: cache) }.named("repository")
                Dependency { (cache: Int) in Repository(cachedBy: cache) }
                Dependency { Service() }.associated(with: Slot.avatar)
            })
        let _: Service = try DependencyGraph.inject(byName: "service")
        let _: Service = try DependencyGraph.inject(byName: Names.service)
        let _: Service = try DependencyGraph.inject(byName: Label())
        let _: Repository = try DependencyGraph.inject(byName: "repository", parameters: 1)
        let _: Service = try DependencyGraph.inject(byType: Service.self)
        let _: Service = try DependencyGraph.inject()
        let _: Repository = try DependencyGraph.inject(byType: Repository.self, parameters: 1)
        let _: Repository = try DependencyGraph.inject(byType: Repository.self, 1)
        let _: Service = try DependencyGraph.inject(byValue: Slot.avatar)
        let missing: Plain? = try DependencyGraph.inject(byType: Plain.self)
        let missingByName: Plain? = try DependencyGraph.inject(byName: "plain")
        let all: [Tracking] = try DependencyGraph.inject(byType: [Tracking].self)
        let set: Set<Slot> = try DependencyGraph.inject()
        let optionalAll: [Tracking]? = try DependencyGraph.inject(byType: [Tracking].self)
        #expect(missing == nil && missingByName == nil && all.count == 1 && set.isEmpty && optionalAll?.count == 1)
        let injected = Holder()
        #expect(injected.service.didInstantiateCalls == 1, "PostInstantiationAware")
        try injected.$service.loadIfNeeded()
        try injected.$service.reload()
        injected.$service.autoreload()
        #expect(injected.optional == nil)
    }

    @Test func errors() {
        let errors: [InjectionError] = [
            .unknown(CocoaError(.fileNoSuchFile)), .unsupportedOperation,
            .mismatchedDependencyType("A", expected: "B"),
            .missingDependency(.type("Alpha")), .multipleDependencies(.name("dupe")),
            .cyclicDependencyReference(.init(entries: [.type("Root"), .type("Leaf"), .type("Root")])),
            .invalidDependencyParameters(.value(Slot.avatar), .mismatchedCount(0, expected: 1), parameters: []),
            .invalidDependencyParameters(.name("n"), .mismatchedType("Int", expected: "String", position: 0), parameters: ["Int"]),
        ]
        for error in errors {
            let _: any Error = error
            let _: String = error.description
            let _: String? = error.errorDescription
            switch error {
            case .unknown(let underlying): _ = underlying
            case .unsupportedOperation: break
            case .mismatchedDependencyType(let type, let expected): _ = (type, expected)
            case .missingDependency(let context), .multipleDependencies(let context):
                let _: InjectionError.DependencyContext = context
            case .cyclicDependencyReference(let backtrace): #expect(backtrace.depth == 3)
            case .invalidDependencyParameters(let context, let parameterContext, let parameters):
                switch parameterContext {
                case .mismatchedCount(let count, let expected): _ = (context, count, expected, parameters)
                case .mismatchedType(let type, let expected, let position): _ = (type, expected, position)
                }
            }
        }
        do {
            throw InjectionError.missingDependency(.type("Alpha"))
        } catch InjectionError.missingDependency(.type("Alpha")) {
        } catch {
            Issue.record("caught by pattern as in 1.x")
        }
        #expect(InjectionError.DependencyContext.value(Slot.avatar) == .value(AnyHashable(Slot.avatar)))
    }

    @available(*, deprecated, message: "Exercises Stitcher 1.0's names on purpose.")
    @Test func names1_0() {
        let backtrace = DependencyCycleInstantationBacktrace(entries: [.type("A"), .type("A")])
        let cycle: [InjectionError.DependencyContext] = backtrace.cycle
        #expect(backtrace.depth == 2 && cycle == [.type("A"), .type("A")])

        let frequencies: [AutoCleanupFrequency] = [.veryLow, .medium, .high, AutoCleanupFrequency(rawValue: 9)]
        #expect(frequencies.map(\.rawValue) == [1, 3, 4, 9])
    }

    // The configuration is process-wide and other suites run in parallel: the tests that set
    // it run in processes of their own.

    @available(*, deprecated, message: "Exercises Stitcher 1.0's names on purpose.")
    @Test func autoCleanupFrequency1_0() async {
        await #expect(processExitsWith: .success) {
            StitcherConfiguration.autoCleanupFrequency = .never
            precondition(!StitcherConfiguration.autoCleanupEnabled && StitcherConfiguration.autoCleanupFrequency == .never)
            StitcherConfiguration.autoCleanupFrequency = .veryHigh
            precondition(StitcherConfiguration.autoCleanupEnabled && StitcherConfiguration.autoCleanupFrequency == .veryHigh)
            let literal: StitcherConfiguration.AutoCleanupFrequency = 2
            StitcherConfiguration.autoCleanupFrequency = literal
            precondition(StitcherConfiguration.autoCleanupFrequency == .low)
        }
    }

    @Test func configuration() async {
        await #expect(processExitsWith: .success) {
            StitcherConfiguration.isIndexingEnabled = true
            StitcherConfiguration.approximateDependencyCount = 500
            StitcherConfiguration.runtimeCycleDetectionAvailability = .debugOnly
            StitcherConfiguration.runtimeCycleDetectionAvailability = .never
            StitcherConfiguration.runtimeCycleDetectionAvailability = .always
            StitcherConfiguration.autoCleanupEnabled = true
            precondition(StitcherConfiguration.isIndexingEnabled && StitcherConfiguration.approximateDependencyCount == 500)
            precondition(StitcherConfiguration.runtimeCycleDetectionAvailability == .always && StitcherConfiguration.autoCleanupEnabled)
        }
    }
}
