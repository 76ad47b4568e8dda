extension InjectionError {
    /// What a failed injection asked for, by name, by type or by an associated value, together
    /// with what the graph showed when it failed.
    ///
    /// Written and compared as in Stitcher 1.x: `.type("Alpha")`, `.name("service")`,
    /// `.value(UploadLocation.avatar)`, printed as `Type[Alpha]`, `Name[service]`,
    /// `Value[avatar]`. Two contexts are equal when they ask for the same thing; the diagnosis
    /// a thrown error carries (the nearest registrations, the instantiations in progress) is
    /// captured when it is thrown and does not take part in comparisons, so each error keeps
    /// describing its own failure however many others follow.
    ///
    /// ```swift
    /// do {
    ///     let service: Service = try DependencyGraph.inject()
    /// } catch InjectionError.missingDependency(let context) {
    ///     switch context.kind {
    ///     case .type(let typeName): print("register \(typeName)")
    ///     case .name(let name): print("register the name \(name)")
    ///     case .value(let value): print("associate a dependency with \(value)")
    ///     }
    /// }
    /// ```
    public struct DependencyContext: Hashable, Sendable, CustomStringConvertible {
        /// How the dependency was asked for.
        public enum Kind: Hashable, @unchecked Sendable {
            /// By name.
            case name(String)
            /// By type; the unqualified type name, as in `.type("Alpha")`.
            case type(String)
            /// By an associated value.
            case value(AnyHashable)
        }

        /// How the dependency was asked for.
        public var kind: Kind { storage.kind }

        /// What the graph showed when the request failed; nil for a context that describes a
        /// request without a failure (a cycle's steps, a context written by the user).
        var diagnosis: FailureDiagnosis? { storage.diagnosis }

        // One reference: a context is a word wide, so errors and cycle paths stay small
        // however the request was located (an `AnyHashable` alone takes five words).
        private let storage: Storage

        private final class Storage: @unchecked Sendable {
            let kind: Kind
            let diagnosis: FailureDiagnosis?

            init(_ kind: Kind, _ diagnosis: FailureDiagnosis?) {
                self.kind = kind
                self.diagnosis = diagnosis
            }
        }

        /// A context asking for `kind`.
        public init(_ kind: Kind) {
            self.init(kind, diagnosis: nil)
        }

        init(_ kind: Kind, diagnosis: FailureDiagnosis?) {
            storage = Storage(kind, diagnosis)
        }

        /// A dependency located by name.
        public static func name(_ name: String) -> Self { Self(.name(name)) }

        /// A dependency located by type, given by its unqualified name, as in `.type("Alpha")`.
        public static func type(_ typeName: String) -> Self { Self(.type(typeName)) }

        /// A dependency located by an associated value.
        public static func value(_ value: AnyHashable) -> Self { Self(.value(value)) }

        /// The same request, carrying what the graph showed when it failed.
        func diagnosed(_ diagnosis: FailureDiagnosis) -> Self { Self(kind, diagnosis: diagnosis) }

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind }

        public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

        public var description: String {
            switch kind {
            case .name(let name): "Name[\(name)]"
            case .type(let type): "Type[\(type)]"
            case .value(let value): "Value[\(value.base)]"
            }
        }
    }
}

/// What a failed request found when it failed, kept by the error thrown for it.
///
/// Captured at the throw: the registrations that matched (ambiguity, parameters) or the
/// snapshot in which the nearest ones are looked for when the message is first read (a miss),
/// and the instantiations in progress on the failing thread.
final class FailureDiagnosis: Sendable {
    private enum Candidates {
        case listed([String])
        case nearby(NearbyRegistrations)
    }

    private let candidates: Candidates
    /// The instantiations in progress, outermost first; empty for a top-level request.
    let neededBy: [InjectionError.DependencyContext]

    private init(_ candidates: Candidates, neededBy: [InjectionError.DependencyContext]) {
        self.candidates = candidates
        self.neededBy = neededBy
    }

    /// The registrations found for the request, listed now.
    convenience init(candidates: [String], neededBy: [InjectionError.DependencyContext]) {
        self.init(.listed(candidates), neededBy: neededBy)
    }

    /// The registrations nearest to a request that found nothing, looked for when first read.
    convenience init(nearby: NearbyRegistrations, neededBy: [InjectionError.DependencyContext]) {
        self.init(.nearby(nearby), neededBy: neededBy)
    }

    /// Summaries of the candidates, as the error's message lists them.
    var candidateSummaries: [String] {
        switch candidates {
        case .listed(let summaries): summaries
        case .nearby(let nearby): nearby.summaries
        }
    }
}
