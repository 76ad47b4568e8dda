import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `#registrations(A.self, B.self, …)`: a `DependencyGroup` of the `dependencyRegistration` of
/// each listed `@Registerable` type, for registering a module's types in one line.
public struct RegistrationsMacro: ExpressionMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax,
        in context: some MacroExpansionContext
    ) throws -> ExprSyntax {
        var lines: [String] = []
        for argument in node.arguments {
            guard let member = argument.expression.as(MemberAccessExprSyntax.self),
                member.declName.baseName.text == "self", let base = member.base
            else {
                context.diagnose(Diagnostic(node: argument.expression, message: StitcherMacroDiagnostic.notATypeList))
                return "DependencyGroup {}"
            }
            lines.append("\(base.trimmedDescription).dependencyRegistration")
        }
        return "DependencyGroup {\n\(raw: lines.map { "    " + $0 }.joined(separator: "\n"))\n}"
    }
}
