/// Values kept per parameter values, the no-parameter key held inline.
///
/// An entry's builds in progress and stored instances are almost always under the empty key
/// (a singleton's first build, each `.scoped` instance of a scope): keeping that one in a
/// field spares a dictionary's allocation and a hash for every build.
struct KeyedSlots<Value> {
    private var unkeyed: Value?
    private var keyed: [ArgumentKey: Value] = [:]

    subscript(key: ArgumentKey) -> Value? {
        get { key.values.isEmpty ? unkeyed : keyed[key] }
        set {
            if key.values.isEmpty { unkeyed = newValue } else { keyed[key] = newValue }
        }
    }

    var isEmpty: Bool { unkeyed == nil && keyed.isEmpty }

    /// Every value, the no-parameter one first.
    var values: [Value] { (unkeyed.map { [$0] } ?? []) + keyed.values }

    mutating func removeAll() {
        unkeyed = nil
        keyed.removeAll()
    }

    /// Keeps only the values for which `isKept` is true.
    mutating func keep(where isKept: (Value) -> Bool) {
        if let value = unkeyed, !isKept(value) { unkeyed = nil }
        if !keyed.isEmpty { keyed = keyed.filter { isKept($0.value) } }
    }
}
