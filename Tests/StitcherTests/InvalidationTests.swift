import Foundation
import Observation
import Stitcher
import StitcherTesting
import Testing

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

private final class LogoutService: Sendable {}
private final class Settings: Sendable {}
private final class Endpoint: Sendable {
    let region: String
    init(region: String) { self.region = region }
}

private final class SessionModel: ObservableObject, @unchecked Sendable {
    @Published var isLoggedIn = false
}

@Observable
private final class ObservedSession: @unchecked Sendable {
    var isLoggedIn = false
}

private func isRegistered() throws -> Bool {
    (try DependencyGraph.inject() as LogoutService?) != nil
}

@Suite(.isolatedDependencyGraph)
struct InvalidationTests {
    @Test func publisherInvalidation() throws {
        let flag = Flag(false)
        let subject = PassthroughSubject<Void, Never>()
        let container = DependencyContainer {
            if flag.isOn { Dependency { LogoutService() } }
        }
        .invalidated(tracking: subject)
        DependencyGraph.activate(container)
        #expect(try !isRegistered())
        flag.isOn = true
        subject.send()
        #expect(try isRegistered())
        flag.isOn = false
        subject.send()
        #expect(try !isRegistered())
    }

    @Test func observableObjectInvalidation() throws {
        let model = SessionModel()
        let container = DependencyContainer {
            if model.isLoggedIn { Dependency { LogoutService() } }
        }
        .invalidated(tracking: model)
        DependencyGraph.activate(container)
        #expect(try !isRegistered())
        model.isLoggedIn = true
        #expect(try isRegistered())
        model.isLoggedIn = false
        #expect(try !isRegistered())
    }

    @Test func publishedPropertyInvalidation() throws {
        let model = SessionModel()
        DependencyGraph.activate(
            DependencyContainer {
                if model.isLoggedIn { Dependency { LogoutService() } }
            }
            .invalidated(tracking: model.$isLoggedIn))
        model.isLoggedIn = true
        #expect(try isRegistered(), "@Published emits before the change; the rebuild waits for the lookup")
    }

    @Test func aRebuildThatReadTheStateBeforeTheChangeIsCorrected() async throws {
        let flag = Flag(false)
        let subject = Unchecked(PassthroughSubject<Void, Never>())
        await DependencyGraph.activate(
            DependencyContainer {
                if flag.isOn { Dependency { LogoutService() } }
            }
            .invalidated(tracking: subject.value))
        var changes = DependencyGraph.graphChanges.makeAsyncIterator()
        subject.value.send()  // announced before the change, as objectWillChange does
        #expect(try !isRegistered(), "a lookup in between rebuilds from the old state")
        flag.isOn = true  // the change is applied
        _ = await changes.next()  // the rebuild of that lookup
        _ = await changes.next()  // the background confirmation
        #expect(try isRegistered())
    }

    @Test func observationInvalidatesAutomatically() throws {
        let session = ObservedSession()
        DependencyGraph.activate(
            DependencyContainer {
                if session.isLoggedIn { Dependency { LogoutService() } }
            })
        #expect(try !isRegistered())
        session.isLoggedIn = true
        #expect(try isRegistered())
        session.isLoggedIn = false
        #expect(try !isRegistered())
        session.isLoggedIn = true
        #expect(try isRegistered(), "tracking is renewed on every rebuild")
    }

    @Test func mergedContainersPropagateTheirPartsInvalidations() throws {
        let flag = Flag(false)
        let subject = PassthroughSubject<Void, Never>()
        let part = DependencyContainer {
            if flag.isOn { Dependency { LogoutService() } }
        }
        .invalidated(tracking: subject)
        let session = ObservedSession()
        let observedPart = DependencyContainer {
            if session.isLoggedIn { Dependency { Settings() } }
        }
        DependencyGraph.activate(DependencyContainer(merging: part, observedPart))
        flag.isOn = true
        subject.send()
        #expect(try isRegistered())
        session.isLoggedIn = true
        #expect((try DependencyGraph.inject() as Settings?) != nil)
    }

    @Test func unchangedRegistrationsKeepTheirInstancesAndRemovedOnesReleaseThem() throws {
        let flag = Flag(true)
        let subject = PassthroughSubject<Void, Never>()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Settings() }.scope(.singleton)
                if flag.isOn { Dependency { LogoutService() }.scope(.singleton) }
            }
            .invalidated(tracking: subject))
        let settings: Settings = try DependencyGraph.inject()
        weak var logout: LogoutService?
        do {
            let instance: LogoutService = try DependencyGraph.inject()
            logout = instance
        }
        #expect(logout != nil)
        flag.isOn = false
        subject.send()
        #expect(try DependencyGraph.inject(byType: Settings.self) === settings)
        #expect(logout == nil, "the removed registration's singleton is released")
    }

    @Test func aRebuiltFactoryThatCapturesValuesIsDeclaredAnew() throws {
        let flag = Flag(true)
        let subject = PassthroughSubject<Void, Never>()
        let label = "settings"
        let shared = Dependency { () -> Settings in
            _ = label  // captured: the closure has a context
            return Settings()
        }
        .scope(.singleton)
        DependencyGraph.activate(
            DependencyContainer {
                let region = flag.isOn ? "eu" : "us"
                Dependency { Endpoint(region: region) }.scope(.singleton)
                shared
            }
            .invalidated(tracking: subject))
        let first: Endpoint = try DependencyGraph.inject(byType: Endpoint.self)
        let settings = try DependencyGraph.inject(byType: Settings.self)
        #expect(first.region == "eu")
        flag.isOn = false
        subject.send()
        #expect(try DependencyGraph.inject(byType: Endpoint.self).region == "us", "its captures may have changed")
        #expect(
            try DependencyGraph.inject(byType: Settings.self) === settings,
            "the same declaration, captured context included, keeps its instance"
        )
    }

    @Test func invalidatingAnInactiveContainerIsHarmless() throws {
        let subject = PassthroughSubject<Void, Never>()
        let container = DependencyContainer { LogoutService() }.invalidated(tracking: subject)
        subject.send()
        DependencyGraph.activate(container)
        subject.send()
        #expect(try isRegistered())
        DependencyGraph.deactivate(container)
        subject.send()
        #expect(try !isRegistered())
    }

    @Test func managedScopeTrackingAnObservableObject() throws {
        let model = SessionModel()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Settings() }.scope(.managed(by: model.objectWillChange))
            })
        let before: Settings = try DependencyGraph.inject()
        model.isLoggedIn = true
        #expect(try DependencyGraph.inject(byType: Settings.self) !== before)
    }

    @Test func subscriptionsDoNotKeepContainersAlive() {
        let subject = PassthroughSubject<Void, Never>()
        weak var weakContainer: DependencyContainer?
        do {
            let container = DependencyContainer { LogoutService() }.invalidated(tracking: subject)
            weakContainer = container
            DependencyGraph.activate(container)
            DependencyGraph.deactivate(container)
        }
        #expect(weakContainer == nil)
        subject.send()
    }
}
