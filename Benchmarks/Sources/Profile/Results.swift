import Foundation

// `Profile record FILE [RUNS]`: runs `Profile ratios`, `Profile shapes` and
// `Profile server-request` RUNS times (3 unless told) and writes every row of every run to
// FILE, a tab-separated table that `Scripts/render-results.swift` renders into the README's
// and the Performance article's tables. `Scripts/record-results.sh` runs it with the
// machine's and the toolchain's description.

/// One row of one run: medians over the row's alternating rounds.
struct RecordedRow {
    let table: String
    let row: String
    let baseline: Double
    let stitcher: Double
    let ratio: Double
    /// Swinject's time ÷ Stitcher's, when it runs the same work.
    let swinjectFactor: Double?
    /// swift-dependencies' time ÷ Stitcher's, when it runs the same work.
    let swiftDependenciesFactor: Double?
}

/// Rows measured since the last `recordedRows.removeAll()`, in order; only the main thread
/// (the measuring code) touches it.
nonisolated(unsafe) var recordedRows: [RecordedRow] = []
/// The table the rows measured now belong to.
nonisolated(unsafe) var recordingTable = "ratios"

func record(_ row: String, baseline: Double, stitcher: Double, ratio: Double, swinject: Double?, swiftDependencies: Double?) {
    recordedRows.append(
        RecordedRow(
            table: recordingTable, row: row, baseline: baseline, stitcher: stitcher, ratio: ratio,
            swinjectFactor: swinject, swiftDependenciesFactor: swiftDependencies))
}

/// Runs every recorded workload `runs` times and writes the rows to `path`, after a header
/// of `#` lines describing the run (the environment's `STITCHER_RESULTS_*` values).
func recordResults(to path: String, runs: Int) throws {
    var lines: [String] = []
    let environment = ProcessInfo.processInfo.environment
    lines.append(
        "# Stitcher's benchmark results, written by `Profile record` (Scripts/record-results.sh); "
            + "rendered by Scripts/render-results.swift.")
    lines.append("# date\t\(environment["STITCHER_RESULTS_DATE"] ?? "unknown")")
    lines.append("# machine\t\(environment["STITCHER_RESULTS_MACHINE"] ?? "unknown")")
    lines.append("# toolchain\t\(environment["STITCHER_RESULTS_TOOLCHAIN"] ?? "unknown")")
    lines.append("# references\t\(environment["STITCHER_RESULTS_REFERENCES"] ?? "unknown")")
    lines.append("# commit\t\(environment["STITCHER_RESULTS_COMMIT"] ?? "unknown")")
    lines.append(
        "# method\tRelease build. Each row times its workload and its hand-written baseline (and Swinject and swift-dependencies "
            + "where they do the same work) in alternating bursts of about a millisecond, 61 rounds (activation: 15; the server "
            + "request: 40), and keeps the medians; the ratio is the median of the per-round ratios. \(runs) runs, one after the other.")
    lines.append("table\trow\trun\tbaseline\tstitcher\tratio\tswinject_factor\tswift_dependencies_factor")
    for run in 1...runs {
        recordedRows.removeAll()
        recordingTable = "ratios"
        try printRatios()
        recordingTable = "shapes"
        try printShapes()
        recordingTable = "server"
        compareServerRequest(only: nil)
        for row in recordedRows {
            let fields = [
                row.table, row.row, "\(run)", format(row.baseline), format(row.stitcher), format(row.ratio),
                row.swinjectFactor.map(format) ?? "", row.swiftDependenciesFactor.map(format) ?? "",
            ]
            lines.append(fields.joined(separator: "\t"))
        }
    }
    try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
}

private func format(_ value: Double) -> String { String(format: "%.3f", value) }
