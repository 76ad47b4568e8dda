import SwiftSyntax
import SwiftSyntaxMacros

/// `@PreferredInitializer`: marks the initializer `@Registerable` uses. Expands to nothing.
public struct PreferredInitializerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
