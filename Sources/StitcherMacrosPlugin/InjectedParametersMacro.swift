import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@InjectedParameters(parent:strategy:ignoring:)`: adds an overload of an initializer or
/// function without its injected parameters, which it resolves from the dependency graph.
///
/// The overload keeps the declaration's access level, `static`/`mutating`, `async` and
/// `throws`. A throwing declaration propagates injection errors with `try`; one that cannot
/// throw uses `try!`, as it has no other way to report them.
public struct InjectedParametersMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let options = Options(node)
        let signature: FunctionSignatureSyntax
        let genericClause: GenericParameterClauseSyntax?
        if let initializer = declaration.as(InitializerDeclSyntax.self) {
            signature = initializer.signature
            genericClause = initializer.genericParameterClause
        } else if let function = declaration.as(FunctionDeclSyntax.self) {
            signature = function.signature
            genericClause = function.genericParameterClause
        } else {
            context.diagnose(Diagnostic(node: node, message: StitcherMacroDiagnostic.unsupportedDeclaration))
            return []
        }
        if let genericClause {
            context.diagnose(Diagnostic(node: genericClause, message: StitcherMacroDiagnostic.genericParameters))
            return []
        }

        let parameters = Array(signature.parameterClause.parameters)
        let names = Set(parameters.map(\.internalName))
        var valid = true
        for ignored in options.ignored where !names.contains(ignored.name) {
            valid = false
            var fixIts: [FixIt] = []
            if let arguments = options.arguments {
                fixIts.append(
                    FixIt(
                        message: StitcherFixIt(message: "Remove '\(ignored.name)'"),
                        changes: [.replace(oldNode: Syntax(arguments), newNode: Syntax(removing(ignored.element, from: arguments)))]
                    ))
            }
            context.diagnose(
                Diagnostic(
                    node: ignored.expression, message: StitcherMacroDiagnostic.unknownIgnoredParameter, fixIts: fixIts))
        }
        let ignoredNames = Set(options.ignored.map(\.name))
        let injected = parameters.filter { !ignoredNames.contains($0.internalName) }
        if injected.isEmpty {
            context.diagnose(Diagnostic(node: node, message: StitcherMacroDiagnostic.nothingToInject))
            valid = false
        }
        for parameter in injected where parameter.isUninjectable {
            context.diagnose(Diagnostic(node: parameter, message: StitcherMacroDiagnostic.unsupportedParameter))
            valid = false
        }
        guard valid else { return [] }

        let effects = signature.effectSpecifiers
        let isThrowing = effects?.throwsClause != nil
        let isAsync = effects?.asyncSpecifier != nil
        let tryKeyword = isThrowing ? "try" : "try!"

        let arguments = parameters.map { parameter -> String in
            let value: String
            if ignoredNames.contains(parameter.internalName) {
                value = parameter.internalName
            } else if options.byName {
                value = "\(tryKeyword) DependencyGraph.inject(byName: \"\(parameter.internalName)\")"
            } else {
                value = "\(tryKeyword) DependencyGraph.inject(byType: \(parameter.type.trimmedDescription).self)"
            }
            let label = parameter.firstName.text
            return label == "_" ? value : "\(label): \(value)"
        }.joined(separator: ", ")
        let kept = parameters.filter { ignoredNames.contains($0.internalName) }
            .map { $0.with(\.trailingComma, nil).trimmedDescription }
            .joined(separator: ", ")
        var callPrefix = ""
        if isThrowing { callPrefix += "try " }
        if isAsync { callPrefix += "await " }
        let effectText = effects.map { " " + $0.trimmedDescription } ?? ""

        if let initializer = declaration.as(InitializerDeclSyntax.self) {
            let modifiers = keptModifiers(
                initializer.modifiers, allowed: ["public", "package", "internal", "fileprivate", "private", "nonisolated"])
            let convenience = options.parent == "classParent" ? "convenience " : ""
            let optional = initializer.optionalMark?.text ?? ""
            return [
                """
                \(raw: modifiers)\(raw: convenience)init\(raw: optional)(\(raw: kept))\(raw: effectText) {
                    \(raw: callPrefix)self.init(\(raw: arguments))
                }
                """
            ]
        }
        let function = declaration.as(FunctionDeclSyntax.self)!
        let modifiers = keptModifiers(
            function.modifiers,
            allowed: [
                "public", "package", "internal", "fileprivate", "private", "open", "static", "class", "mutating", "nonisolated",
            ])
        let attributes = function.attributes.filter { element in
            guard case .attribute(let attribute) = element else { return false }
            return attribute.attributeName.trimmedDescription == "discardableResult"
        }.map { $0.trimmedDescription + " " }.joined()
        let returnClause = function.signature.returnClause.map { " " + $0.trimmedDescription } ?? ""
        let name = function.name.text
        return [
            """
            \(raw: attributes)\(raw: modifiers)func \(raw: name)(\(raw: kept))\(raw: effectText)\(raw: returnClause) {
                return \(raw: callPrefix)\(raw: name)(\(raw: arguments))
            }
            """
        ]
    }

    /// The argument list without `element`; a following argument inherits its label.
    private static func removing(_ element: LabeledExprSyntax, from arguments: LabeledExprListSyntax) -> LabeledExprListSyntax {
        var remaining: [LabeledExprSyntax] = []
        var pendingLabel: LabeledExprSyntax?
        for argument in arguments {
            if argument.id == element.id {
                if argument.label != nil { pendingLabel = argument }
                continue
            }
            if let label = pendingLabel, argument.label == nil {
                remaining.append(argument.with(\.label, label.label).with(\.colon, label.colon))
                pendingLabel = nil
            } else {
                remaining.append(argument)
            }
        }
        let count = remaining.count
        return LabeledExprListSyntax(
            remaining.enumerated().map { index, argument in
                argument.with(\.trailingComma, index == count - 1 ? nil : .commaToken(trailingTrivia: .space))
            })
    }

    private static func keptModifiers(_ modifiers: DeclModifierListSyntax, allowed: Set<String>) -> String {
        modifiers.map(\.name.text).filter(allowed.contains).map { $0 + " " }.joined()
    }

    /// The macro's arguments (also read by `@Registerable`, which registers through the
    /// overload this macro generates).
    struct Options {
        struct Ignored {
            let name: String
            let expression: ExprSyntax
            let element: LabeledExprSyntax
        }

        var parent = "classParent"
        var byName = false
        var ignored: [Ignored] = []
        var arguments: LabeledExprListSyntax?

        init(_ node: AttributeSyntax) {
            guard case .argumentList(let arguments) = node.arguments else { return }
            self.arguments = arguments
            var inIgnoring = false
            for argument in arguments {
                if let label = argument.label?.text { inIgnoring = label == "ignoring" }
                switch argument.label?.text {
                case "parent":
                    parent = argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? parent
                case "strategy":
                    byName = argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "stitcherByName"
                default:
                    guard inIgnoring,
                        let literal = argument.expression.as(StringLiteralExprSyntax.self),
                        let name = literal.representedLiteralValue
                    else { continue }
                    ignored.append(Ignored(name: name, expression: argument.expression, element: argument))
                }
            }
        }
    }
}

extension FunctionParameterSyntax {
    /// The name the body uses.
    var internalName: String { (secondName ?? firstName).text }

    /// Whether the parameter cannot receive an injected value.
    var isUninjectable: Bool {
        ellipsis != nil
            || type.is(SomeOrAnyTypeSyntax.self) && type.as(SomeOrAnyTypeSyntax.self)?.someOrAnySpecifier.text == "some"
            || type.as(AttributedTypeSyntax.self)?.specifiers.contains { $0.trimmedDescription == "inout" } == true
    }
}
