import StitcherMacrosPlugin
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

let stitcherMacros: [String: MacroSpec] = [
    "InjectedParameters": MacroSpec(type: InjectedParametersMacro.self),
    "PreferredInitializer": MacroSpec(type: PreferredInitializerMacro.self),
    "Registerable": MacroSpec(type: RegisterableMacro.self, conformances: ["RegisterableDependency", "AutoregisterableDependency"]),
    "registrations": MacroSpec(type: RegistrationsMacro.self),
]

/// `assertMacroExpansion` reporting to Swift Testing.
func assertExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    applyFixIts: [String]? = nil,
    fixedSource: String? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    assertMacroExpansion(
        source, expandedSource: expandedSource, diagnostics: diagnostics, macroSpecs: stitcherMacros,
        applyFixIts: applyFixIts, fixedSource: fixedSource,
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    )
}
