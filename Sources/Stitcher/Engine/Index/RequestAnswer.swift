/// Which registration answers a request for one value, decided from the registrations found
/// under its key: the one decision that both an injection and ``DependencyGraph/verify(_:)``
/// (which checks declared dependencies without building anything) follow.
enum RequestAnswer {
    /// This registration answers.
    case entry(IndexEntry)
    /// Nothing is registered under the key: an `Optional`, `Array` or `Set` request looks for
    /// its element instead; any other is missing.
    case nothing
    /// Registrations exist, but none takes the request's parameters.
    case parameterMismatch
    /// Several registrations take the request's parameters, none of them of exactly the type
    /// asked for.
    case ambiguous([IndexEntry])

    /// The answer to a request located by `key` among `candidates`, of which those for which
    /// `accepts` is true take the request's parameters.
    init(_ key: LookupKey, _ candidates: [IndexEntry], accepts: (RegistrationRecord) -> Bool) {
        let matching = candidates.filter { accepts($0.record) }
        if let entry = EntryList.answering(matching, for: key) {
            self = .entry(entry)
        } else if matching.isEmpty {
            self = candidates.isEmpty ? .nothing : .parameterMismatch
        } else {
            self = .ambiguous(matching)
        }
    }
}
