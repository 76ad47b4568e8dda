/// How often Stitcher 1.0 pruned stored instances that were released elsewhere.
///
/// Stitcher 1.1 replaced it with ``StitcherConfiguration/autoCleanupEnabled``; pruning now
/// runs on every graph change when enabled. Every frequency other than ``never`` enables it.
///
/// ```swift
/// StitcherConfiguration.autoCleanupEnabled = false   // was: autoCleanupFrequency = .never
/// ```
@available(*, deprecated, message: "Use StitcherConfiguration.autoCleanupEnabled")
public struct AutoCleanupFrequency: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral {
    /// The frequency as a number; 0 is never.
    public let rawValue: Int

    /// A frequency from its number (0 is never; negative numbers are 0).
    public init(rawValue: Int) { self.rawValue = max(0, rawValue) }

    /// A frequency written as a number, as Stitcher 1.0 allowed.
    public init(integerLiteral value: Int) { self.init(rawValue: value) }

    /// No pruning.
    public static let never: Self = 0
    /// The lowest frequency.
    public static let veryLow: Self = 1
    /// A low frequency.
    public static let low: Self = 2
    /// The default frequency.
    public static let medium: Self = 3
    /// A high frequency.
    public static let high: Self = 4
    /// The highest frequency.
    public static let veryHigh: Self = 5
}

extension StitcherConfiguration {
    /// How often Stitcher 1.0 pruned stored instances released elsewhere (see
    /// ``AutoCleanupFrequency``).
    @available(*, deprecated, renamed: "AutoCleanupFrequency")
    public typealias AutoCleanupFrequency = Stitcher.AutoCleanupFrequency

    /// Stitcher 1.0's setting for ``autoCleanupEnabled``: `.never` disables pruning, any other
    /// frequency enables it. Reads `.never` while pruning is disabled, otherwise the last
    /// frequency set (`.medium` at first).
    @available(*, deprecated, message: "Use autoCleanupEnabled")
    public static var autoCleanupFrequency: Stitcher.AutoCleanupFrequency {
        get {
            guard autoCleanupEnabled else { return .never }
            return Stitcher.AutoCleanupFrequency(rawValue: lastCleanupFrequency.withLock { $0 })
        }
        set {
            if newValue != .never { lastCleanupFrequency.withLock { $0 = newValue.rawValue } }
            autoCleanupEnabled = newValue != .never
        }
    }

    /// The raw value of the last frequency other than `.never` set through
    /// `autoCleanupFrequency`.
    private static let lastCleanupFrequency = Protected(3)
}
