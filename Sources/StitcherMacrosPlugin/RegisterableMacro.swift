import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Registerable(by:scope:eagerness:)`: adds `dependencyRegistration`, a `Dependency` built
/// from the type's preferred (or only) initializer, whose parameters become instantiation
/// parameters; plus `dependencyName` or `dependencyValue` when located by name or value,
/// and conformances to `RegisterableDependency` and `AutoregisterableDependency`.
public struct RegisterableMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let typeName = declaration.typeName else {
            context.diagnose(Diagnostic(node: node, message: StitcherMacroDiagnostic.notAType))
            return []
        }
        let initializers = declaration.memberBlock.members.compactMap { $0.decl.as(InitializerDeclSyntax.self) }
        let candidates = initializers.flatMap(RegistrableInitializer.candidates(for:))
        let preferred = candidates.filter(\.isPreferred)
        let chosen: RegistrableInitializer
        if let fewest = preferred.map(\.parameters.count).min() {
            // StitcherMacros 1.1: of several preferred initializers, the one with the fewest
            // parameters; only a tie for the fewest is ambiguous.
            let tied = preferred.filter { $0.parameters.count == fewest }
            guard tied.count == 1 else {
                for extra in tied.dropFirst() {
                    context.diagnose(Diagnostic(node: extra.marker, message: StitcherMacroDiagnostic.severalPreferredInitializers))
                }
                return []
            }
            chosen = tied[0]
        } else if initializers.count == 1 {
            chosen = RegistrableInitializer(written: initializers[0])
        } else if initializers.isEmpty {
            context.diagnose(Diagnostic(node: node, message: StitcherMacroDiagnostic.noInitializer))
            return []
        } else {
            let first = initializers[0]
            let marked = first.with(\.attributes, first.attributes + [.attribute("@PreferredInitializer ")])
            context.diagnose(
                Diagnostic(
                    node: node, message: StitcherMacroDiagnostic.severalInitializers,
                    fixIts: [
                        FixIt(
                            message: StitcherFixIt(message: "Mark the first initializer with @PreferredInitializer"),
                            changes: [.replace(oldNode: Syntax(first), newNode: Syntax(marked))]
                        )
                    ]
                ))
            return []
        }
        let arguments = Arguments(node)
        let parameters = chosen.parameters
        let closureParameters = parameters.enumerated().map { index, parameter in
            "p\(index): \(parameter.type.trimmedDescription)"
        }.joined(separator: ", ")
        let call = parameters.enumerated().map { index, parameter in
            parameter.firstName.text == "_" ? "p\(index)" : "\(parameter.firstName.text): p\(index)"
        }.joined(separator: ", ")
        let isThrowing = chosen.declaration.signature.effectSpecifiers?.throwsClause != nil
        // An async initializer makes an async factory: the dependency is then injected with
        // `injectAsync`.
        let isAsync = chosen.declaration.signature.effectSpecifiers?.asyncSpecifier != nil
        let optional = chosen.declaration.optionalMark != nil
        let effects = (isAsync ? " async" : "") + (isThrowing ? " throws" : "")
        let construction =
            (isThrowing ? "try " : "") + (isAsync ? "await " : "")
            + "\(typeName)(\(call))\(optional ? "!" : "")"
        let closureHead =
            isAsync
            ? "(\(closureParameters))\(effects) -> \(typeName) in"
            : "(\(closureParameters)) in"
        // A `@MainActor` type's initializer runs on the main actor: so does its factory. The
        // members are `nonisolated` (they only describe the registration), so that a
        // container can list them from any context and the conformance crosses no isolation.
        let isMainActor = declaration.attributes.attribute(named: "MainActor") != nil
        let isolation = isMainActor && !isAsync ? ", isolation: DependencyIsolation.mainActor" : ""
        let locator = arguments.locator ?? "DependencyLocator.type(\(typeName).self)"
        let scope = arguments.scope ?? "DependencyScope.automatic(for: \(typeName).self)"
        let eagerness = arguments.eagerness ?? "DependencyEagerness.lazy"
        let access =
            declaration.modifiers.map(\.name.text).first { ["public", "package", "open"].contains($0) }
            .map { $0 == "open" ? "public " : $0 + " " } ?? ""

        var members: [DeclSyntax] = [
            """
            \(raw: access)nonisolated static var dependencyRegistration: Dependency<\(raw: typeName)> {
                Dependency<\(raw: typeName)>(locator: \(raw: locator), scope: \(raw: scope), eagerness: \(raw: eagerness)\(raw: isolation)) { \(raw: closureHead)
                    \(raw: construction)
                }\(raw: chosen.declarations.map { "\n" + $0 }.joined())
            }
            """
        ]
        if let name = arguments.name {
            members.append(
                """
                \(raw: access)nonisolated static var dependencyName: String { DependencyLocator.name(\(raw: name)).locatedName! }
                """)
        }
        if let value = arguments.value {
            members.append(
                """
                \(raw: access)nonisolated static var dependencyValue: AnyHashable { AnyHashable(\(raw: value)) }
                """)
        }
        return members
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.typeName != nil, !protocols.isEmpty else { return [] }
        let conformances = protocols.map(\.trimmedDescription).joined(separator: ", ")
        return [try ExtensionDeclSyntax("extension \(type.trimmed): \(raw: conformances) {}")]
    }

    /// The macro's arguments, as source text.
    private struct Arguments {
        var locator: String?
        var name: String?
        var value: String?
        var scope: String?
        var eagerness: String?

        init(_ node: AttributeSyntax) {
            guard case .argumentList(let arguments) = node.arguments else { return }
            for argument in arguments {
                let text = argument.expression.trimmedDescription
                switch argument.label?.text {
                case "by":
                    locator = text.hasPrefix(".") ? "DependencyLocator" + text : text
                    if let call = argument.expression.as(FunctionCallExprSyntax.self),
                        let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                        let first = call.arguments.first
                    {
                        switch member.declName.baseName.text {
                        case "name": name = first.expression.trimmedDescription
                        case "value": value = first.expression.trimmedDescription
                        default: break
                        }
                    }
                case "scope": scope = text.hasPrefix(".") ? "DependencyScope" + text : text
                case "eagerness": eagerness = text.hasPrefix(".") ? "DependencyEagerness" + text : text
                default: break
                }
            }
        }
    }
}

/// An initializer `@Registerable` can call: a written one, or the overload that
/// `@InjectedParameters` generates for it (without the injected parameters).
struct RegistrableInitializer {
    /// The written initializer (for a generated one, the one it is generated from).
    let declaration: InitializerDeclSyntax
    /// The parameters the call passes.
    let parameters: [FunctionParameterSyntax]
    /// Marked `@PreferredInitializer`, or generated by `@InjectedParameters` (which
    /// StitcherMacros 1.1 attributes `@PreferredInitializer`).
    let isPreferred: Bool
    /// Where a diagnostic about choosing it points.
    let marker: Syntax
    /// The `dependsOn(…)` modifiers declaring what the call injects (a generated
    /// initializer's injected parameters), so that `verify()` checks them unbuilt.
    let declarations: [String]

    init(written declaration: InitializerDeclSyntax) {
        self.declaration = declaration
        parameters = Array(declaration.signature.parameterClause.parameters)
        let preferredAttribute = declaration.attributes.attribute(named: "PreferredInitializer")
        isPreferred = preferredAttribute != nil
        marker = preferredAttribute.map(Syntax.init) ?? Syntax(declaration)
        declarations = []
    }

    private init(generatedFrom declaration: InitializerDeclSyntax, by attribute: AttributeSyntax) {
        self.declaration = declaration
        let options = InjectedParametersMacro.Options(attribute)
        let ignored = Set(options.ignored.map(\.name))
        let all = declaration.signature.parameterClause.parameters
        parameters = all.filter { ignored.contains($0.internalName) }
        isPreferred = true
        marker = Syntax(attribute)
        let injected = all.filter { !ignored.contains($0.internalName) }
        func metatype(_ parameter: FunctionParameterSyntax) -> String {
            let type = parameter.type.trimmedDescription
            return type.contains(" ") ? "(\(type)).self" : "\(type).self"
        }
        if injected.isEmpty {
            declarations = []
        } else if options.byName {
            declarations = injected.map { ".dependsOn(named: \"\($0.internalName)\", as: \(metatype($0)))" }
        } else {
            declarations = [".dependsOn(\(injected.map(metatype).joined(separator: ", ")))"]
        }
    }

    /// The written initializer and, when it carries `@InjectedParameters`, its generated
    /// overload.
    static func candidates(for declaration: InitializerDeclSyntax) -> [RegistrableInitializer] {
        let written = RegistrableInitializer(written: declaration)
        guard let injecting = declaration.attributes.attribute(named: "InjectedParameters") else { return [written] }
        return [written, RegistrableInitializer(generatedFrom: declaration, by: injecting)]
    }
}

extension AttributeListSyntax {
    /// The attribute written `@name` in the list, if any.
    func attribute(named name: String) -> AttributeSyntax? {
        lazy.compactMap { $0.as(AttributeSyntax.self) }
            .first { $0.attributeName.trimmedDescription == name }
    }
}

extension DeclGroupSyntax {
    /// The declared type's name, for classes, structs, enums and actors.
    var typeName: String? {
        if let declaration = self.as(ClassDeclSyntax.self) { return declaration.name.text }
        if let declaration = self.as(StructDeclSyntax.self) { return declaration.name.text }
        if let declaration = self.as(EnumDeclSyntax.self) { return declaration.name.text }
        if let declaration = self.as(ActorDeclSyntax.self) { return declaration.name.text }
        return nil
    }
}
