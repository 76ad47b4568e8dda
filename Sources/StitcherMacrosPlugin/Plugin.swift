import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct StitcherMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        InjectedParametersMacro.self,
        PreferredInitializerMacro.self,
        RegisterableMacro.self,
        RegistrationsMacro.self,
    ]
}
