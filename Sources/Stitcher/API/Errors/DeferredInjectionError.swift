import Foundation

/// A `Lazy` or `Provider` called after the graph or the dependency scope it was injected
/// from has ended.
///
/// A deferred injection resolves in the graph and scope it was injected from, wherever it
/// is called later. Once that graph has ended (the last copy of a held graph's context went
/// away, or a child graph was ended) or that scope's body has returned, there is nothing
/// left to resolve in: the call throws this error instead of resolving somewhere else.
///
/// ```swift
/// do {
///     let report = try makeReport()
/// } catch let error as DeferredInjectionError where error.reason == .scopeEnded {
///     // the Provider outlived the request it was injected in
/// }
/// ```
public struct DeferredInjectionError: Error, CustomStringConvertible, LocalizedError, Sendable {
    /// Why the deferred injection could not resolve.
    public enum Reason: Hashable, Sendable {
        /// The graph it was injected from has ended.
        case graphEnded
        /// The dependency scope it was injected in has ended.
        case scopeEnded
    }

    /// Why the call failed.
    public let reason: Reason
    /// The dependency the `Lazy` or `Provider` resolves.
    public let requested: InjectionError.DependencyContext
    /// The deferred type, such as `Lazy<ReportBuilder>`.
    public let deferredType: String

    public var description: String {
        switch reason {
        case .graphEnded:
            "\(deferredType) was called for \(requested), and the dependency graph it was injected from has ended."
        case .scopeEnded:
            "\(deferredType) was called for \(requested), and the dependency scope it was injected in has ended."
        }
    }

    public var errorDescription: String? { description }

    public var recoverySuggestion: String? {
        switch reason {
        case .graphEnded:
            "To fix this, stop using what the graph injected when you end it (a child graph's objects at logout), "
                + "or keep a copy of the graph's context for as long as its objects are used."
        case .scopeEnded:
            "To fix this, call it before the scope's body returns (await the tasks that use it), or inject the "
                + "\(deferredType) again in the scope where it is used."
        }
    }
}
