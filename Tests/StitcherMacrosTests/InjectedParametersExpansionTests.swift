import SwiftSyntaxMacrosGenericTestSupport
import Testing

@Suite struct InjectedParametersExpansionTests {
    @Test func classInitializerBecomesAConvenienceInitializer() {
        assertExpansion(
            """
            final class Uploader {
                @InjectedParameters
                public init(session: NetworkingSession) {}
            }
            """,
            expandedSource: """
                final class Uploader {
                    public init(session: NetworkingSession) {}

                    public convenience init() {
                        self.init(session: try! DependencyGraph.inject(byType: NetworkingSession.self))
                    }
                }
                """
        )
    }

    @Test func throwingAsyncStructInitializerPropagatesErrors() {
        assertExpansion(
            """
            struct Loader {
                @InjectedParameters(parent: .structParent, ignoring: "url")
                init(url: String, _ client: HTTPClient) async throws {}
            }
            """,
            expandedSource: """
                struct Loader {
                    init(url: String, _ client: HTTPClient) async throws {}

                    init(url: String) async throws {
                        try await self.init(url: url, try DependencyGraph.inject(byType: HTTPClient.self))
                    }
                }
                """
        )
    }

    @Test func functionsKeepModifiersAndReturnTheirResult() {
        assertExpansion(
            """
            struct Files {
                @InjectedParameters(ignoring: "file")
                @discardableResult
                public mutating func upload(file: URL, using session: NetworkingSession) throws -> Int { 0 }
                @InjectedParameters(strategy: .stitcherByName)
                static func make(clock: Clock) -> Files { Files() }
            }
            """,
            expandedSource: """
                struct Files {
                    @discardableResult
                    public mutating func upload(file: URL, using session: NetworkingSession) throws -> Int { 0 }

                    @discardableResult public mutating func upload(file: URL) throws -> Int {
                        return try upload(file: file, using: try DependencyGraph.inject(byType: NetworkingSession.self))
                    }
                    static func make(clock: Clock) -> Files { Files() }

                    static func make() -> Files {
                        return make(clock: try! DependencyGraph.inject(byName: "clock"))
                    }
                }
                """
        )
    }

    @Test func anIgnoredNameMatchingNoParameterIsDiagnosedWithAFixIt() {
        assertExpansion(
            """
            @InjectedParameters(ignoring: "file", "fiel")
            func upload(file: URL, session: NetworkingSession) {}
            """,
            expandedSource: """
                func upload(file: URL, session: NetworkingSession) {}
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "This name matches no parameter. To fix this, remove it or use the name of a parameter.",
                    line: 1, column: 39, fixIts: [FixItSpec(message: "Remove 'fiel'")])
            ],
            applyFixIts: ["Remove 'fiel'"],
            fixedSource: """
                @InjectedParameters(ignoring: "file")
                func upload(file: URL, session: NetworkingSession) {}
                """
        )
    }

    @Test func genericDeclarationsAreRejected() {
        assertExpansion(
            """
            @InjectedParameters
            func run<T>(value: T) {}
            """,
            expandedSource: """
                func run<T>(value: T) {}
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@InjectedParameters cannot inject into a generic declaration: the dependency types must be known. To fix this, remove the generic parameters, or write the overload by hand.",
                    line: 2, column: 9)
            ]
        )
    }

    @Test func unsupportedDeclarationsAndParametersAreRejected() {
        assertExpansion(
            """
            @InjectedParameters
            var session: NetworkingSession
            @InjectedParameters
            func update(values: inout [Int]) {}
            @InjectedParameters(ignoring: "a")
            func only(a: Int) {}
            """,
            expandedSource: """
                var session: NetworkingSession
                func update(values: inout [Int]) {}
                func only(a: Int) {}
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@InjectedParameters applies to initializers and functions. To fix this, move it to an 'init' or a 'func'.",
                    line: 1, column: 1),
                DiagnosticSpec(
                    message:
                        "An 'inout', variadic or opaque ('some') parameter cannot be injected. To fix this, add its name to 'ignoring:'.",
                    line: 4, column: 13),
                DiagnosticSpec(
                    message:
                        "Every parameter is ignored, so there is nothing to inject. To fix this, remove @InjectedParameters or stop ignoring a parameter.",
                    line: 5, column: 1),
            ]
        )
    }
}
