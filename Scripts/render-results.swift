// Renders the benchmark tables of README.md and the Performance article from
// Benchmarks/Results/results.tsv (written by Scripts/record-results.sh from `Profile`'s output),
// between `<!-- results: NAME -->` and `<!-- /results -->` lines. With `--check`, changes
// nothing and fails when a rendered table differs from what the files hold, so that the
// documents and the results file cannot disagree.
//
// Usage: swift Scripts/render-results.swift [--check]
import Foundation

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
let resultsPath = root + "/Benchmarks/Results/results.tsv"
let checking = CommandLine.arguments.contains("--check")

// MARK: Reading the results

struct Row {
    let table: String
    let name: String
    var baseline: [Double] = []
    var stitcher: [Double] = []
    var ratio: [Double] = []
    var swinject: [Double] = []
    var swiftDependencies: [Double] = []
}

var header: [String: String] = [:]
var rows: [Row] = []
guard let text = try? String(contentsOfFile: resultsPath, encoding: .utf8) else {
    FileHandle.standardError.write("error: no \(resultsPath). To fix this, run Scripts/record-results.sh.\n".data(using: .utf8)!)
    exit(1)
}
for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    if line.hasPrefix("# ") {
        if fields.count == 2 { header[String(fields[0].dropFirst(2))] = fields[1] }
        continue
    }
    guard fields.count == 8, fields[0] != "table" else { continue }
    let index =
        rows.firstIndex { $0.table == fields[0] && $0.name == fields[1] }
        ?? {
            rows.append(Row(table: fields[0], name: fields[1]))
            return rows.count - 1
        }()
    rows[index].baseline.append(Double(fields[3])!)
    rows[index].stitcher.append(Double(fields[4])!)
    rows[index].ratio.append(Double(fields[5])!)
    if let value = Double(fields[6]) { rows[index].swinject.append(value) }
    if let value = Double(fields[7]) { rows[index].swiftDependencies.append(value) }
}

func row(_ table: String, _ prefix: String) -> Row {
    guard let found = rows.first(where: { $0.table == table && $0.name.hasPrefix(prefix) }) else {
        FileHandle.standardError.write("error: \(resultsPath) has no \(table) row starting \"\(prefix)\".\n".data(using: .utf8)!)
        exit(1)
    }
    return found
}

// MARK: Formatting

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func number(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

/// The smallest and largest of `values` ("1.91–2.02"), or one number when they round alike.
func range(_ values: [Double], decimals: Int = 2) -> String {
    let (low, high) = (number(values.min()!, decimals), number(values.max()!, decimals))
    return low == high ? low : "\(low)–\(high)"
}

/// A factor's range with one decimal below 10, none above.
func factor(_ values: [Double]) -> String { range(values, decimals: values.max()! < 10 ? 1 : 0) }

/// Another library's time ÷ Stitcher's, as a user reads it.
func comparison(_ values: [Double], note: String = "") -> String {
    guard !values.isEmpty else { return "—" }
    let text = values.max()! < 1 ? "\(factor(values.map { 1 / $0 }))× faster" : "\(factor(values))× slower"
    return note.isEmpty ? text : "\(text) (\(note))"
}

/// The unit a row's figures are in, which its name tells: bytes for memory rows, milliseconds
/// for activation rows, else nanoseconds.
func unit(of row: Row) -> String {
    if row.name.hasSuffix(", B") { return "B" }
    return row.name.contains(", ms") ? "ms" : "ns"
}

/// The median of Stitcher's side, in its row's unit; nanoseconds from 1,000 up as µs.
func time(_ row: Row) -> String {
    let value = median(row.stitcher)
    let unit = unit(of: row)
    if unit == "ns", value >= 1000 { return "\(number(value / 1000, 1)) µs" }
    return "\(number(value, 0)) \(unit)"
}

// MARK: The tables

/// The README's table: the workloads users write most, in their words.
func readmeTable() -> [String] {
    let entries: [(table: String, prefix: String, label: String, baseline: String, dependencies: String)] = [
        (
            "ratios", "1 ", "a cached singleton by type", "a stored closure",
            "`@Dependency`, which looks the value up on every read"
        ),
        ("ratios", "2 ", "a transient class by type", "the initializer", ""),
        ("ratios", "3 ", "a transient graph `Root(A(B), C)`", "the initializers", ""),
        ("ratios", "4 ", "a singleton by name", "a dictionary lookup", ""),
        ("ratios", "6 ", "one of 100,000 names", "a dictionary lookup", ""),
        ("ratios", "12 ", "an autowired transient, three parameters", "the initializer, each parameter injected", ""),
        (
            "ratios", "9 @Injected read (stored let)", "an `@Injected` read, after the first", "a stored property",
            "a `@Dependency` read, which looks the value up every time"
        ),
        ("ratios", "13 ", "a `Lazy` read, after the first", "a stored closure", ""),
        ("ratios", "14 Provider call, singleton", "a `Provider` call (a singleton)", "a stored closure", ""),
        ("ratios", "14 Provider call, transient", "a `Provider` call (a transient)", "a stored closure calling the initializer", ""),
        ("ratios", "15 ", "an app's singleton through two child graphs", "dictionaries falling back", ""),
        ("shapes", "singleton by its protocol", "a singleton by its protocol", "a stored closure", ""),
        ("shapes", "struct by its own type", "a struct by its own type", "the initializer", ""),
        ("shapes", "value type behind a protocol", "a struct behind a protocol", "a closure making it", ""),
        (
            "shapes", "with and without a parameter, injected with one",
            "a request with a parameter, for a type also registered without", "the initializer", ""
        ),
        ("shapes", "[P] of two singletons", "`[any P]` of two singletons", "a new array of the two singletons", ""),
        (
            "ratios", "11 ", "a request scope: five per-request values and a singleton, with teardown", "a struct of them",
            "`withDependencies` over values made by hand"
        ),
        (
            "server", "11b ", "a server request's dependencies: an asynchronous scope, autowired",
            "the same objects made by hand", "`withDependencies` over objects made by hand"
        ),
        ("ratios", "7 activate", "activating 100,000 named registrations", "filling a dictionary", ""),
        (
            "memory", "7 a registration whose factory captures", "the memory of a registration whose factory captures a value",
            "a dictionary of such closures", ""
        ),
    ]
    var lines = [
        "| Workload | Stitcher | ÷ hand-written code | Swinject | swift-dependencies |",
        "| - | - | - | - | - |",
    ]
    for entry in entries {
        let measured = row(entry.table, entry.prefix)
        lines.append(
            "| \(entry.label) | \(time(measured)) | \(range(measured.ratio, decimals: 1))× \(entry.baseline) | "
                + "\(comparison(measured.swinject)) | \(comparison(measured.swiftDependencies, note: entry.dependencies)) |")
    }
    return lines
}

/// Every row of one table of `Profile`, as it names them.
func fullTable(_ table: String) -> [String] {
    var lines = [
        "| Workload (baseline) | Stitcher | baseline | Stitcher ÷ baseline | Swinject ÷ Stitcher | swift-dependencies ÷ Stitcher |",
        "| - | - | - | - | - | - |",
    ]
    for measured in rows where measured.table == table {
        let base = "\(number(median(measured.baseline), 0)) \(unit(of: measured))"
        lines.append(
            "| \(measured.name) | \(time(measured)) | \(base) | \(range(measured.ratio))× | "
                + "\(measured.swinject.isEmpty ? "—" : factor(measured.swinject) + "×") | "
                + "\(measured.swiftDependencies.isEmpty ? "—" : factor(measured.swiftDependencies) + "×") |")
    }
    return lines
}

/// Where, when and how the results were measured.
func method() -> [String] {
    let runs = rows.first?.ratio.count ?? 0
    return [
        "Measured on \(header["date"] ?? "?") at commit \(header["commit"] ?? "?"), on \(header["machine"] ?? "?"), "
            + "with \(header["toolchain"] ?? "?") and \(header["references"] ?? "?"): \(runs) runs; a range is the "
            + "smallest to the largest of the runs, a time the median. \(header["method"] ?? "")"
    ]
}

let renderings: [String: [String]] = [
    "readme": readmeTable(),
    "ratios": fullTable("ratios"),
    "shapes": fullTable("shapes"),
    "server": fullTable("server"),
    "memory": fullTable("memory"),
    "method": method(),
]

// MARK: Rewriting the documents

var stale: [String] = []
for document in ["README.md", "Sources/Stitcher/Stitcher.docc/Performance.md"] {
    let path = root + "/" + document
    let original = try String(contentsOfFile: path, encoding: .utf8)
    var output: [String] = []
    var skipping = false
    for line in original.components(separatedBy: "\n") {
        if skipping {
            if line == "<!-- /results -->" {
                skipping = false
                output.append(line)
            }
            continue
        }
        output.append(line)
        if line.hasPrefix("<!-- results: "), line.hasSuffix(" -->") {
            let name = String(line.dropFirst("<!-- results: ".count).dropLast(" -->".count))
            guard let rendering = renderings[name] else {
                FileHandle.standardError.write("error: \(document): no table named \(name).\n".data(using: .utf8)!)
                exit(1)
            }
            output += rendering
            skipping = true
        }
    }
    let rendered = output.joined(separator: "\n")
    if rendered != original {
        if checking { stale.append(document) } else { try rendered.write(toFile: path, atomically: true, encoding: .utf8) }
    }
}
if !stale.isEmpty {
    FileHandle.standardError.write(
        ("error: the tables of \(stale.joined(separator: ", ")) differ from Benchmarks/Results/results.tsv. "
            + "To fix this, run `swift Scripts/render-results.swift` (or Scripts/record-results.sh to measure again) "
            + "and commit the result.\n").data(using: .utf8)!)
    exit(1)
}
print(checking ? "The documents' tables match Benchmarks/Results/results.tsv." : "Rendered the tables from Benchmarks/Results/results.tsv.")
