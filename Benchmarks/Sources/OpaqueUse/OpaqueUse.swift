/// How many objects `use(_:)` was given, so that its work cannot be dropped.
nonisolated(unsafe) private var uses = 0

/// Takes an object the way an app's code does when it passes a dependency on: from another
/// module, so that the optimizer cannot tell that the call keeps nothing and releases
/// nothing. (`blackHole` is visible to it: a `var` read for `blackHole` skips the retain
/// that it costs anywhere else.)
@inline(never)
public func use(_ object: AnyObject) {
    uses &+= ObjectIdentifier(object).hashValue & 1
}
