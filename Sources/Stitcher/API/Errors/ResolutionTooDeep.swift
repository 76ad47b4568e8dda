import Foundation

/// A resolution nested so deeply that continuing would overflow the thread's stack.
///
/// Thrown as itself, not wrapped in ``InjectionError/unknown(_:)``: it comes from the engine,
/// not from a factory, and passes unchanged through every factory on the path. It names the
/// path that got there, so that an unintended chain can be found; a legitimately deep graph
/// can be resolved on a thread with a larger stack.
///
/// ```swift
/// do {
///     _ = try DependencyGraph.inject(byType: DeepGraph.self)
/// } catch let error as ResolutionTooDeep {
///     print(error.depth, error.path.first!)
///     let thread = Thread { _ = try? DependencyGraph.inject(byType: DeepGraph.self) }
///     thread.stackSize = 256 << 20
///     thread.start()
/// }
/// ```
public struct ResolutionTooDeep: Error, CustomStringConvertible, LocalizedError, Sendable {
    /// How many instantiations were nested when the resolution stopped.
    public let depth: Int
    /// The path from the outermost instantiation to the one that was not started.
    public let path: [InjectionError.DependencyContext]

    public var description: String {
        let shown =
            path.count > 8
            ? (path.prefix(4).map(\.description) + ["…"] + path.suffix(4).map(\.description))
            : path.map(\.description)
        return "Resolution stopped \(depth) instantiations deep, before the thread's stack ran out: "
            + shown.joined(separator: " -> ") + "."
    }

    public var errorDescription: String? { description }

    public var failureReason: String? {
        "Each nested instantiation uses stack; fewer than \(StackGuard.margin / 1024) KiB were left on this thread."
    }

    public var recoverySuggestion: String? {
        "To fix this, break up the chain (inject a dependency lazily with @Injected or when first "
            + "used), or resolve it on a thread with a larger stack."
    }
}
