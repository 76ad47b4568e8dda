import Logging
import Stitcher
import TodoServer

// `swift run --package-path Examples/TodoServer` serves the API on 127.0.0.1:8080 until
// Ctrl-C (SIGINT) or SIGTERM, which shut it down gracefully, in dependency order.
// Arguments: a port (8080), `--hand-wired` (the load check's baseline), `--quiet` (warnings only).
var logger = Logger(label: "todo-server")
logger.logLevel = CommandLine.arguments.contains("--quiet") ? .warning : .info
let journal = LifecycleJournal(logger: logger)
// A long-running server keeps no record of its units of work (tests do).
DependencyGraph.activate(todoContainer(logger: logger, journal: journal, outcomes: UnitOfWorkOutcomes(keepsEndings: false)))
try DependencyGraph.verify()
let arguments = CommandLine.arguments.dropFirst()
let port = arguments.first.flatMap(Int.init) ?? 8080
// `--hand-wired`: the same handlers, their objects made by hand (the load check's baseline).
let wiring: Wiring = arguments.contains("--hand-wired") ? .byHand(try HandWiredDependencies()) : .stitcher
try await todoApplication(port: port, wiring: wiring, logger: logger).runService()
