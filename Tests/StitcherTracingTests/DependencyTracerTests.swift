import InMemoryTracing
import Stitcher
import StitcherTesting
import StitcherTracing
import Testing
import Tracing

// `DependencyTracer`: a span per instantiation, nested under the caller's span, the
// factory's own spans nested under it, errors recorded; checked with an in-memory tracer.

private final class Database: @unchecked Sendable {}
private final class Service: @unchecked Sendable { init(database: Database) {} }
private final class Gateway: @unchecked Sendable {}
private struct Refused: Error {}

@Suite(.isolatedDependencyGraph)
struct DependencyTracerTests {
    @Test func instantiationsNestUnderTheCallersSpan() throws {
        let tracer = InMemoryTracer()
        DependencyGraph.currentContext.observer = DependencyTracer(tracer: tracer)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () -> Database in
                    tracer.withSpan("connect") { _ in }  // the factory's own work
                    return Database()
                }
                .scope(.singleton)
                Dependency(autowiring: Service.init)
            })
        try tracer.withSpan("GET /orders") { _ in
            _ = try DependencyGraph.inject(byType: Service.self)
        }
        let spans = Dictionary(uniqueKeysWithValues: tracer.finishedSpans.map { ($0.operationName, $0) })
        #expect(Set(spans.keys) == ["GET /orders", "Instantiate Type[Service]", "Instantiate Type[Database]", "connect"])
        let request = try #require(spans["GET /orders"])
        let service = try #require(spans["Instantiate Type[Service]"])
        let database = try #require(spans["Instantiate Type[Database]"])
        #expect(service.parentSpanID == request.spanID)
        #expect(database.parentSpanID == service.spanID)
        #expect(spans["connect"]?.parentSpanID == database.spanID)
        #expect(Set([service.traceID, database.traceID]) == [request.traceID])
        #expect(database.attributes["stitcher.dependency"]?.toSpanAttribute() == "Type[Database]")
        #expect(database.attributes["stitcher.scope"]?.toSpanAttribute() == "singleton")
        // Named by the file and line that created the container.
        guard case .string(let container)? = database.attributes["stitcher.container"]?.toSpanAttribute() else {
            Issue.record("no container attribute")
            return
        }
        #expect(container.hasPrefix("StitcherTracingTests/DependencyTracerTests.swift:"))
        #expect(database.attributes["stitcher.parent"]?.toSpanAttribute() == "Type[Service]")
        #expect(service.attributes["stitcher.parent"] == nil)
        // A singleton is built once: no span for the second injection.
        tracer.clearFinishedSpans()
        _ = try DependencyGraph.inject(byType: Database.self)
        #expect(tracer.finishedSpans.isEmpty)
    }

    @Test func aFailingFactoryRecordsItsError() throws {
        let tracer = InMemoryTracer()
        DependencyGraph.currentContext.observer = DependencyTracer(tracer: tracer)
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { () throws -> Database in throw Refused() }
            })
        #expect(throws: InjectionError.self) { try DependencyGraph.inject(byType: Database.self) }
        let span = try #require(tracer.finishedSpans.first)
        #expect(span.operationName == "Instantiate Type[Database]")
        #expect(span.errors.count == 1 && span.errors.first?.error is Refused)
    }

    @Test func anAsynchronousFactoryIsTracedUnderTheCallersSpan() async throws {
        let tracer = InMemoryTracer()
        DependencyGraph.currentContext.observer = DependencyTracer(tracer: tracer)
        await DependencyGraph.activate(
            DependencyContainer {
                Dependency { () async -> Gateway in
                    await tracer.withSpan("handshake") { _ in await Task.yield() }
                    return Gateway()
                }
                .scope(.singleton)
            })
        try await tracer.withSpan("startup") { _ in
            _ = try await DependencyGraph.injectAsync(byType: Gateway.self)
        }
        let spans = Dictionary(uniqueKeysWithValues: tracer.finishedSpans.map { ($0.operationName, $0) })
        let gateway = try #require(spans["Instantiate Type[Gateway]"])
        #expect(gateway.parentSpanID == spans["startup"]?.spanID)
        #expect(spans["handshake"]?.parentSpanID == gateway.spanID)
        #expect(gateway.attributes["stitcher.async"]?.toSpanAttribute() == true)
    }
}
