extension GraphEngine {
    /// The error for a locator whose registrations all take other parameters.
    func parameterMismatch(_ key: LookupKey, _ arguments: InjectionArguments, _ candidates: [IndexEntry]) -> InjectionError {
        let given = arguments.types
        let closest = candidates.first { $0.record.parameterTypes.count == given.count } ?? candidates[0]
        let expected = closest.record.parameterTypes
        let detail: InjectionError.DependencyParameterContext
        if expected.count != given.count {
            detail = .mismatchedCount(given.count, expected: expected.count)
        } else {
            let position = given.indices.first { given[$0] != expected[$0] } ?? 0
            detail = .mismatchedType(given[position].description, expected: expected[position].description, position: position)
        }
        let names = containerNames()
        let diagnosis = FailureDiagnosis(
            candidates: candidates.map { NearbyRegistrations.summary(of: $0, names) }, neededBy: instantiationsInProgress())
        return .invalidDependencyParameters(key.context.diagnosed(diagnosis), detail, parameters: arguments.typeNames)
    }

    /// The error for a request nothing is registered under, carrying where to look for the
    /// nearest registrations for its message.
    ///
    /// The snapshot the lookup read is kept, and the nearest registrations are found in it
    /// only when the message is read: a miss costs about what a hit costs, however many
    /// registrations there are and whatever their names, and the message still describes
    /// the index the failed lookup saw.
    func missing(_ key: LookupKey, _ arguments: InjectionArguments) -> InjectionError {
        let nearby = NearbyRegistrations(key: key, snapshot: snapshot(), graph: self)
        return .missingDependency(key.context.diagnosed(FailureDiagnosis(nearby: nearby, neededBy: instantiationsInProgress())))
    }

    /// The error for a request for one value that several registrations answer.
    func ambiguity(_ key: LookupKey, _ matching: [IndexEntry]) -> InjectionError {
        let names = containerNames()
        let diagnosis = FailureDiagnosis(
            candidates: matching.map { NearbyRegistrations.summary(of: $0, names) }, neededBy: instantiationsInProgress())
        return .multipleDependencies(key.context.diagnosed(diagnosis))
    }

    /// The instantiations in progress on the calling thread, outermost first.
    private func instantiationsInProgress() -> [InjectionError.DependencyContext] {
        ThreadState.current.frames.map(\.context)
    }
}

/// The registrations a user may have meant by a request that found nothing, found in the
/// snapshot the request read when first asked for.
final class NearbyRegistrations: @unchecked Sendable {
    private let key: LookupKey
    private let lock = Lock()
    private var snapshot: IndexSnapshot?
    private var found: [String] = []
    /// The graph whose containers' names the message gives, asked when the message is read
    /// (a miss costs no more than storing it); or the names themselves.
    private weak var graph: GraphEngine?
    private let names: [ObjectIdentifier: String]?

    init(key: LookupKey, snapshot: IndexSnapshot, graph: GraphEngine) {
        self.key = key
        self.snapshot = snapshot
        self.graph = graph
        self.names = nil
    }

    init(key: LookupKey, snapshot: IndexSnapshot, names: [ObjectIdentifier: String]) {
        self.key = key
        self.snapshot = snapshot
        self.names = names
    }

    /// How a message names a registration: its summary and its container's name.
    static func summary(of entry: IndexEntry, _ names: [ObjectIdentifier: String]) -> String {
        names[entry.owner].map { "\(entry.record.summary) (in \($0))" } ?? entry.record.summary
    }

    /// Up to five registrations: the same type registered under a name or value, close
    /// spellings, and other values of the same type. Computed once; the snapshot is then
    /// dropped.
    var summaries: [String] {
        lock.withLock {
            if let snapshot {
                found = Self.nearest(to: key, in: snapshot, names: names ?? graph?.containerNames() ?? [:])
                self.snapshot = nil
            }
            return found
        }
    }

    private static func nearest(to key: LookupKey, in snapshot: IndexSnapshot, names: [ObjectIdentifier: String]) -> [String] {
        var found: [String] = []
        for entry in snapshot.entries {
            let record = entry.record
            let summary = summary(of: entry, names)
            switch (key, record.locator.kind) {
            case (.type(let type), .name(let name)) where record.producedType == type:
                found.append("\(summary) — inject it with inject(byName: \"\(name)\")")
            case (.type(let type), .value(let value)) where record.producedType == type:
                found.append("\(summary) — inject it with inject(byValue: \(value.base))")
            case (.type(let type), .type(let types)):
                if types.contains(where: { isCloseSpelling($0.description, type.description) }) {
                    found.append(summary)
                }
            case (.name(let name), .name(let other)) where isCloseSpelling(name, other):
                found.append(summary)
            case (.value(let value), .value(let other))
            where type(of: value.base) == type(of: other.base) || isCloseSpelling("\(value.base)", "\(other.base)"):
                found.append(summary)
            default:
                continue
            }
            if found.count == 5 { break }
        }
        return found
    }
}

/// Identifiers longer than this (in UTF-8 bytes) are not compared for close spellings:
/// names built from input can be arbitrarily long, and a diagnosis must stay cheap.
let longestComparedSpelling = 1_024

/// Containment is checked only when the longer identifier is at most this long.
let longestContainmentSpelling = 256

/// Whether two identifiers differ only by case, by containment, or by at most two edits.
///
/// Linear in the identifiers' length, and bounded by `longestComparedSpelling`.
func isCloseSpelling(_ lhs: String, _ rhs: String) -> Bool {
    let (lhsLength, rhsLength) = (lhs.utf8.count, rhs.utf8.count)
    guard max(lhsLength, rhsLength) <= longestComparedSpelling else { return false }
    let canContain = min(lhsLength, rhsLength) >= 3 && max(lhsLength, rhsLength) <= longestContainmentSpelling
    let a = lhs.lowercased()
    let b = rhs.lowercased()
    if a == b { return true }
    if canContain, a.contains(b) || b.contains(a) { return true }
    return editDistance(Array(a), Array(b), limit: 2) <= 2
}

/// The Levenshtein distance between two strings, or `limit + 1` when it is larger.
///
/// Only the diagonal band of width `2 * limit + 1` is computed, so the cost is linear in the
/// strings' length.
func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    let beyond = limit + 1
    // Row i holds distances for columns i-limit ... i+limit, at offsets 0 ... 2*limit.
    let width = 2 * limit + 1
    var previous = [Int](repeating: beyond, count: width)
    var row = [Int](repeating: beyond, count: width)
    for offset in 0..<width {
        let column = offset - limit
        if column >= 0, column <= b.count { previous[offset] = min(column, beyond) }
    }
    for i in 1...a.count {
        var smallest = beyond
        for offset in 0..<width {
            let j = i + offset - limit
            guard j >= 0, j <= b.count else {
                row[offset] = beyond
                continue
            }
            if j == 0 {
                row[offset] = min(i, beyond)
            } else {
                // Same column in the previous row is one offset to the right.
                let above = offset + 1 < width ? previous[offset + 1] + 1 : beyond
                let left = offset > 0 ? row[offset - 1] + 1 : beyond
                let diagonal = previous[offset] + (a[i - 1] == b[j - 1] ? 0 : 1)
                row[offset] = min(above, left, diagonal, beyond)
            }
            smallest = min(smallest, row[offset])
        }
        if smallest >= beyond { return beyond }
        swap(&previous, &row)
    }
    return previous[b.count - a.count + limit]
}
