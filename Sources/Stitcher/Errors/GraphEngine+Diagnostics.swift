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
        InjectionDiagnostics.record(candidates.map(\.record.summary), for: key.context)
        InjectionDiagnostics.recordChain(for: key.context)
        return .invalidDependencyParameters(key.context, detail, parameters: arguments.typeNames)
    }

    /// The error for a request nothing is registered under, remembering the nearest
    /// registrations for its message.
    func missing(_ key: LookupKey, _ arguments: InjectionArguments) -> InjectionError {
        let nearby = nearestRegistrations(to: key)
        InjectionDiagnostics.record(nearby, for: key.context)
        InjectionDiagnostics.recordChain(for: key.context)
        return .missingDependency(key.context)
    }

    /// Up to five registrations a user may have meant: the same type registered under a name
    /// or value, close spellings, and other values of the same type.
    func nearestRegistrations(to key: LookupKey) -> [String] {
        var found: [String] = []
        for entry in snapshot().entries {
            let record = entry.record
            switch (key, record.locator.kind) {
            case let (.type(type), .name(name)) where record.producedType == type:
                found.append("\(record.summary) — inject it with inject(byName: \"\(name)\")")
            case let (.type(type), .value(value)) where record.producedType == type:
                found.append("\(record.summary) — inject it with inject(byValue: \(value.base))")
            case let (.type(type), .type(types)):
                if types.contains(where: { isCloseSpelling($0.description, type.description) }) {
                    found.append(record.summary)
                }
            case let (.name(name), .name(other)) where isCloseSpelling(name, other):
                found.append(record.summary)
            case let (.value(value), .value(other))
                where type(of: value.base) == type(of: other.base) || isCloseSpelling("\(value.base)", "\(other.base)"):
                found.append(record.summary)
            default:
                continue
            }
            if found.count == 5 { break }
        }
        return found
    }
}

/// Whether two identifiers differ only by case, by containment, or by at most two edits.
func isCloseSpelling(_ lhs: String, _ rhs: String) -> Bool {
    let a = lhs.lowercased(), b = rhs.lowercased()
    if a == b { return true }
    if min(a.count, b.count) >= 3, a.contains(b) || b.contains(a) { return true }
    return editDistance(Array(a), Array(b), limit: 2) <= 2
}

/// The Levenshtein distance between two strings, stopping early above `limit`.
func editDistance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
    var previous = Array(0...b.count)
    for i in 1...a.count {
        var row = [i] + Array(repeating: 0, count: b.count)
        for j in 1...b.count {
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        if row.min()! > limit { return limit + 1 }
        previous = row
    }
    return previous[b.count]
}
