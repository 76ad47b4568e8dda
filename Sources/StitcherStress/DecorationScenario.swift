import Foundation
import Stitcher

/// A decoration's wrapper: alive while what it wraps is.
final class Wrapping: Probe, Service, @unchecked Sendable {
    let wrapped: any Service
    init(wrapping wrapped: any Service, census: Census) {
        self.wrapped = wrapped
        super.init(tag: 100 + wrapped.tag, census: census)
    }
}

extension Scenarios {
    /// A container of decorations activated and deactivated while other threads inject what
    /// it decorates: decoration entries made, kept and retired under the readers.
    static let decorations = Scenario(
        name: "decorations",
        summary: "a container decorating a singleton's protocol swapped by 2 threads while 3 inject it, alone and in an array"
    ) { runner in
        let census = Census()
        DependencyGraph.activate(
            DependencyContainer {
                Dependency { Conforming(tag: 1, census: census) }.conforms(to: (any Service).self).scope(.singleton)
            })
        let decorating = DependencyContainer {
            Decoration(of: (any Service).self) { service in Wrapping(wrapping: service, census: census) }
        }
        let swap: Runner.Step = { random in
            if Bool.random(using: &random) { DependencyGraph.activate(decorating) } else { DependencyGraph.deactivate(decorating) }
        }
        let inject: Runner.Step = { _ in
            let service: any Service = try DependencyGraph.inject()
            try check(service, "the decorated singleton", tags: 1)
            let all: [any Service] = try DependencyGraph.inject()
            for service in all { try check(service, "a decorated element", tags: 1) }
            let conforming: Conforming = try DependencyGraph.inject()
            try conforming.check("the undecorated singleton", tags: 1...1)
        }
        return runThenRelease(runner, [("swap", swap), ("swap", swap), ("inject", inject), ("inject", inject), ("inject", inject)], census)
    }

    /// Throws unless `service` is alive with `tag`, or a live wrapper of one.
    private static func check(_ service: any Service, _ what: String, tags tag: Int) throws {
        if let wrapper = service as? Wrapping {
            try wrapper.check(what, tags: (100 + tag)...(100 + tag))
            try check(wrapper.wrapped, what + " (wrapped)", tags: tag)
        } else if let probe = service as? Probe {
            try probe.check(what, tags: tag...tag)
        } else {
            throw StressFailure("\(what) is a \(type(of: service))")
        }
    }
}
