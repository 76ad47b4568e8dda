import Logging
import Stitcher
import TodoServer

// `swift run --package-path Examples/TodoServer` serves the API on 127.0.0.1:8080 until
// Ctrl-C (SIGINT) or SIGTERM, which shut it down gracefully, in dependency order.
var logger = Logger(label: "todo-server")
logger.logLevel = .info
let journal = LifecycleJournal(logger: logger)
DependencyGraph.activate(todoContainer(logger: logger, journal: journal, outcomes: UnitOfWorkOutcomes()))
try DependencyGraph.verify()
let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8080
try await todoApplication(port: port, logger: logger).runService()
