import Stitcher
import Tracing

/// Traces a dependency graph's instantiations with swift-distributed-tracing: a span per
/// factory run, nested under the caller's span.
///
/// The span is the current one while the factory runs, so the dependencies it injects (and
/// whatever the factory traces itself, such as connecting to a database) nest under it: a
/// server's traces show where start-up and request time go. Spans are named
/// `Instantiate Type[Database]`, carry the dependency, its scope and the dependency that
/// asked for it as attributes, and record a factory's error.
///
/// ```swift
/// InstrumentationSystem.bootstrap(otelTracer)
/// DependencyGraph.observer = DependencyTracer()
/// ```
public final class DependencyTracer: DependencyGraphObserver {
    private let tracer: (any Tracer)?

    /// A tracer of instantiations, starting spans with `tracer`, or with
    /// `InstrumentationSystem.tracer` when nil.
    public init(tracer: (any Tracer)? = nil) {
        self.tracer = tracer
    }

    public func instantiate<R>(_ event: DependencyGraphEvent.Instantiation, _ factory: () throws -> R) rethrows -> R {
        let span = startSpan(event)
        defer { span.end() }
        do {
            return try ServiceContext.withValue(span.context) { try factory() }
        } catch {
            span.recordError(error)
            throw error
        }
    }

    public func instantiateAsync<R>(
        _ event: DependencyGraphEvent.Instantiation, _ factory: () async throws -> R
    ) async rethrows -> R {
        let span = startSpan(event)
        defer { span.end() }
        do {
            return try await ServiceContext.withValue(span.context) { try await factory() }
        } catch {
            span.recordError(error)
            throw error
        }
    }

    /// A span for `event`, child of the current context's span.
    private func startSpan(_ event: DependencyGraphEvent.Instantiation) -> any Span {
        let context = ServiceContext.current ?? .topLevel
        let span = (tracer ?? InstrumentationSystem.tracer).startAnySpan(
            "Instantiate \(event.dependency)", context: context, ofKind: .internal)
        span.attributes["stitcher.dependency"] = "\(event.dependency)"
        span.attributes["stitcher.scope"] = "\(event.scope)"
        span.attributes["stitcher.container"] = event.container
        if let parent = event.parent { span.attributes["stitcher.parent"] = "\(parent)" }
        if event.isAsync { span.attributes["stitcher.async"] = true }
        return span
    }
}
