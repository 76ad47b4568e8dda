// The stress stage: every scenario of issue 36 for a fixed time per seed, invariants checked
// after each operation. Usage:
//
//     stitcher-stress [SCENARIO ...] [--seconds N] [--seed S] [--seeds K]
//
// With no scenario, runs them all. `--seeds K` runs each scenario with K seeds (S, S+1, …);
// every run prints its seed, so `--seed` replays one. Exits with 1 on the first failure.
import Foundation
import Stitcher

var names: [String] = []
var seconds = 10.0
var firstSeed = UInt64(DispatchTime.now().uptimeNanoseconds & 0xFFFF_FFFF)
var seedCount = 1
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--seconds": seconds = arguments.popFirst().flatMap(Double.init) ?? seconds
    case "--seed": firstSeed = arguments.popFirst().flatMap { UInt64($0, radix: $0.hasPrefix("0x") ? 16 : 10) } ?? firstSeed
    case "--seeds": seedCount = arguments.popFirst().flatMap(Int.init) ?? seedCount
    case "--list":
        for scenario in Scenarios.all { print("\(scenario.name): \(scenario.summary)") }
        exit(0)
    default: names.append(argument)
    }
}
let chosen = names.isEmpty ? Scenarios.all : Scenarios.all.filter { names.contains($0.name) }
guard chosen.count == max(names.count, chosen.count) || names.isEmpty, !chosen.isEmpty else {
    print("unknown scenario in \(names); known: \(Scenarios.all.map(\.name).joined(separator: ", "))")
    exit(2)
}

// What the engine decided about this runtime (docs/Reclamation.md), for the log.
_ = HazardDomain()
say(
    "runtime: published reads retain "
        + (HazardDomain.retainsThroughRuntime ? "through swift_retain from C" : "through a Swift function")
        + ", announcements " + (HazardDomain.usesAsymmetricFences ? "plain stores with membarrier" : "fenced")
        + ", metadata kinds " + (MetadataKind.isReliable ? "as expected" : "not trusted")
        + ", capturing class factories " + (keepsCapturingClassFactories ? "kept as they are" : "wrapped"))
var failed = false
for offset in 0..<seedCount {
    let seed = firstSeed &+ UInt64(offset)
    for scenario in chosen {
        let outcome = scenario.run(Runner(seconds: seconds, seed: seed))
        let rate = Double(outcome.operations) / max(outcome.elapsed, 1e-9)
        let verdict = outcome.failures.isEmpty ? "ok" : "FAILED"
        say(
            "\(scenario.name) seed \(seed): \(verdict), \(outcome.operations) operations in "
                + "\(String(format: "%.1f", outcome.elapsed)) s (\(Int(rate)) per second)")
        for failure in outcome.failures.prefix(5) { say("  \(failure)") }
        if !outcome.failures.isEmpty {
            say("  replay: stitcher-stress \(scenario.name) --seed \(seed) --seconds \(seconds)")
            failed = true
        }
    }
}
exit(failed ? 1 : 0)

/// Prints a line at once, whatever buffers standard output (CI pipes it).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
