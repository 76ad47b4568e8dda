import Foundation
import StitcherTesting
import Testing

@testable import Stitcher

// `DependencyGraph.export(_:)`: the DOT and Mermaid pictures of a fixed graph, with
// declared and observed edges, a missing dependency, and a problem highlighted.

private final class Clock: @unchecked Sendable {}
private final class Token: @unchecked Sendable {}
private final class Repository: @unchecked Sendable { init(clock: Clock, token: Token) {} }
private final class Request: @unchecked Sendable {}
private final class Cache: @unchecked Sendable { init(request: Request) {} }
private final class Report: @unchecked Sendable { init(clock: Clock) {} }
private final class Feed: @unchecked Sendable {}

private func pictured() throws -> DependencyContainer {
    let container = DependencyContainer(name: "App") {
        Dependency { Clock() }.scope(.singleton)
        Dependency(autowiring: Repository.init)
        Dependency { Request() }.scope(.scoped)
        Dependency(autowiring: Cache.init).scope(.singleton)
        Dependency { Report(clock: try DependencyGraph.inject()) }.scope(.instance)
        Dependency { (id: Int) async in Feed() }.named("feed").scope(.instance)
    }
    DependencyGraph.currentContext.observer = DependencyEdgeRecorder()
    DependencyGraph.activate(container)
    _ = try DependencyGraph.inject(byType: Report.self)  // observes Report -> Clock
    return container
}

@Suite(.isolatedDependencyGraph)
struct GraphExportTests {
    @Test func dotPicturesTheGraph() throws {
        _ = try pictured()
        #expect(
            DependencyGraph.export(.dot) == #"""
                digraph Stitcher {
                  rankdir=LR;
                  node [shape=box, style=rounded, fontname="Helvetica", fontsize=11];
                  edge [fontname="Helvetica", fontsize=9];
                  subgraph cluster_1 {
                    label="App"; style=dashed; color="#9e9e9e"; fontname="Helvetica";
                    n0 [label="Type[Clock]\n() -> Clock\nsingleton"];
                    n1 [label="Type[Repository]\n() -> Repository\nshared", color="#c62828", fontcolor="#c62828", penwidth=2];
                    n2 [label="Type[Request]\n() -> Request\nscoped", color="#c62828", fontcolor="#c62828", penwidth=2];
                    n3 [label="Type[Cache]\n() -> Cache\nsingleton", color="#c62828", fontcolor="#c62828", penwidth=2];
                    n4 [label="Type[Report]\n() -> Report\ninstance"];
                    n5 [label="Name[feed]\n(Int) -> Feed\ninstance · async"];
                  }
                  m0 [label="Type[Token]\nnot registered", style="rounded,dashed", color="#c62828", fontcolor="#c62828", penwidth=2];
                  n1 -> m0 [color="#c62828"];
                  n1 -> n0;
                  n3 -> n2 [color="#c62828", penwidth=2];
                  n4 -> n0 [style=dashed];
                }

                """#)
    }

    @Test func mermaidPicturesTheGraph() throws {
        _ = try pictured()
        #expect(
            DependencyGraph.export(.mermaid) == #"""
                flowchart LR
                  subgraph c1["App"]
                    n0["Type[Clock]<br/>() -#gt; Clock<br/>singleton"]
                    n1["Type[Repository]<br/>() -#gt; Repository<br/>shared"]
                    n2["Type[Request]<br/>() -#gt; Request<br/>scoped"]
                    n3["Type[Cache]<br/>() -#gt; Cache<br/>singleton"]
                    n4["Type[Report]<br/>() -#gt; Report<br/>instance"]
                    n5["Name[feed]<br/>(Int) -#gt; Feed<br/>instance · async"]
                  end
                  m0["Type[Token]<br/>not registered"]
                  n1 --> m0
                  n1 --> n0
                  n3 --> n2
                  n4 -.-> n0
                  classDef problem stroke:#c62828,stroke-width:2px,color:#c62828
                  classDef note stroke:#ef8f00,stroke-width:2px
                  classDef missing stroke:#c62828,stroke-width:2px,stroke-dasharray:4 3,color:#c62828
                  class n1,n2,n3 problem
                  class m0 missing
                  linkStyle 0,2 stroke:#c62828,stroke-width:2px

                """#)
    }

    @Test func graphvizReadsTheDotPictureWhenItIsInstalled() throws {
        _ = try pictured()
        let dot = DependencyGraph.export(.dot)
        // Every node an edge names is declared.
        let lines = dot.split(separator: "\n").map { $0.drop { $0 == " " } }
        let declared = Set(lines.filter { $0.contains(" [label=") }.map { $0.prefix { $0 != " " } })
        let edges = lines.filter { $0.contains(" -> ") && !$0.contains("[label=") }.map { $0.split(separator: " ") }
        #expect(edges.count == 4)
        for edge in edges {
            #expect(declared.contains(edge[0]) && declared.contains(edge[2].prefix { $0 != ";" }))
        }
        let graphviz = URL(fileURLWithPath: "/usr/bin/dot")
        guard FileManager.default.isExecutableFile(atPath: graphviz.path) else { return }
        let process = Process()
        process.executableURL = graphviz
        process.arguments = ["-Tsvg", "-o", "/dev/null"]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        input.fileHandleForWriting.write(Data(dot.utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
