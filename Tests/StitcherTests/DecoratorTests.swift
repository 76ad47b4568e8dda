import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

private final class HTTPClientStub: @unchecked Sendable {
    var timeout = 1
    var tags: [String] = []
}
private struct RetrySettings: Sendable { var retries = 0 }
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
private protocol API: Sendable { func fetch() -> String }
private struct LiveAPI: API { func fetch() -> String { "live" } }
private final class RecordingAPI: API, @unchecked Sendable {
    let wrapped: any API
    private(set) var calls = 0
    init(wrapping wrapped: any API) { self.wrapped = wrapped }
    func fetch() -> String {
        calls += 1
        return "recorded " + wrapped.fetch()
    }
}
private final class AutowiredService: Sendable {
    let client: HTTPClientStub
    init(client: HTTPClientStub) { self.client = client }
}
private final class DecoratedLoop: Sendable {}
private struct DecoratorFailed: Error {}

/// `.decorated { … }`: runs once per new instance, inside the build, for every kind of
/// registration.
@Suite(.isolatedDependencyGraph)
struct DecoratorTests {
    @Test func aSingletonIsDecoratedOnce() throws {
        let calls = CallCounter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { HTTPClientStub() }
                    .decorated { client in
                        calls.increment()
                        client.timeout = 10
                        return client
                    }
                    .scope(.singleton)
            })
        let first: HTTPClientStub = try DependencyGraph.inject()
        let second: HTTPClientStub = try DependencyGraph.inject()
        #expect(first === second && first.timeout == 10)
        #expect(calls.value == 1)
    }

    @Test func everyNewInstanceIsDecorated() throws {
        let calls = CallCounter()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { HTTPClientStub() }
                    .decorated { client in
                        calls.increment()
                        return client
                    }
                    .scope(.instance)
            })
        for _ in 0..<3 { _ = try DependencyGraph.inject() as HTTPClientStub }
        #expect(calls.value == 3)
    }

    @Test func decoratorsRunInOrderOnValuesAndWithParameters() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { RetrySettings() }
                    .decorated { RetrySettings(retries: $0.retries + 1) }
                    .decorated { RetrySettings(retries: $0.retries * 10) }
                Dependency { (tag: String) in HTTPClientStub() }
                    .decorated { client in
                        client.tags.append("decorated")
                        return client
                    }
            })
        #expect(try DependencyGraph.inject(byType: RetrySettings.self).retries == 10)
        let client: HTTPClientStub = try DependencyGraph.inject(byType: HTTPClientStub.self, "a")
        #expect(client.tags == ["decorated"])
    }

    /// A spy wraps the app's client behind its protocol without re-registering it.
    @Test func aSpyWrapsAnInstanceBehindItsProtocol() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { LiveAPI() as any API }.decorated { RecordingAPI(wrapping: $0) }.scope(.singleton)
            })
        let api: any API = try DependencyGraph.inject()
        #expect(api.fetch() == "recorded live")
        #expect((api as? RecordingAPI)?.calls == 1)
    }

    @Test func autowiredAndAsynchronousFactoriesAreDecorated() async throws {
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { HTTPClientStub() }.scope(.singleton)
                Dependency(autowiring: AutowiredService.init)
                    .decorated { service in
                        service.client.tags.append("autowired")
                        return service
                    }
                Dependency { () async -> RetrySettings in RetrySettings(retries: 1) }.decorated { RetrySettings(retries: $0.retries + 1) }
            })
        let service: AutowiredService = try DependencyGraph.inject()
        #expect(service.client.tags == ["autowired"])
        let settings: RetrySettings = try await DependencyGraph.injectAsync()
        #expect(settings.retries == 2)
    }

    /// The decorator is part of the build: what it injects is on the resolution path, and
    /// its error fails the injection.
    @Test func theDecoratorRunsInsideTheBuild() throws {
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { DecoratedLoop() }.decorated { _ in try DependencyGraph.inject() as DecoratedLoop }.scope(.singleton)
                Dependency { HTTPClientStub() }.decorated { _ in throw DecoratorFailed() }
                Dependency { RetrySettings() }
                    .decorated { settings in
                        let client: HTTPClientStub? = try DependencyGraph.inject()
                        return RetrySettings(retries: client == nil ? -1 : 1)
                    }
            })
        #expect {
            _ = try DependencyGraph.inject() as DecoratedLoop
        } throws: { error in
            guard case InjectionError.cyclicDependencyReference = error else { return false }
            return true
        }
        #expect {
            _ = try DependencyGraph.inject() as HTTPClientStub
        } throws: { error in
            guard case InjectionError.unknown(let underlying) = error else { return false }
            return underlying is DecoratorFailed
        }
        // The optional injection inside the decorator sees the failing client as an error.
        #expect(throws: InjectionError.self) { _ = try DependencyGraph.inject() as RetrySettings }
    }
}
