import SwiftDiagnostics
import SwiftSyntax

/// Every misuse the macros report, with the text the user sees.
enum StitcherMacroDiagnostic: String, DiagnosticMessage {
    case unsupportedDeclaration
    case genericParameters
    case unknownIgnoredParameter
    case nothingToInject
    case unsupportedParameter
    case notAType
    case noInitializer
    case severalInitializers
    case severalPreferredInitializers
    case notATypeList

    var message: String {
        switch self {
        case .unsupportedDeclaration:
            "@InjectedParameters applies to initializers and functions. To fix this, move it to an 'init' or a 'func'."
        case .genericParameters:
            "@InjectedParameters cannot inject into a generic declaration: the dependency types must be known. To fix this, remove the generic parameters, or write the overload by hand."
        case .unknownIgnoredParameter:
            "This name matches no parameter. To fix this, remove it or use the name of a parameter."
        case .nothingToInject:
            "Every parameter is ignored, so there is nothing to inject. To fix this, remove @InjectedParameters or stop ignoring a parameter."
        case .unsupportedParameter:
            "An 'inout', variadic or opaque ('some') parameter cannot be injected. To fix this, add its name to 'ignoring:'."
        case .notAType:
            "@Registerable applies to classes, structs, enums and actors. To fix this, move it to a type declaration."
        case .noInitializer:
            "@Registerable needs an initializer to register. To fix this, declare one (a memberwise initializer is not visible to macros)."
        case .severalInitializers:
            "@Registerable found several initializers and cannot choose. To fix this, mark the one to use with @PreferredInitializer."
        case .severalPreferredInitializers:
            "Only one initializer can be marked @PreferredInitializer. To fix this, remove the attribute from the others."
        case .notATypeList:
            "#registrations takes types, written as 'Service.self'. To fix this, pass each @Registerable type followed by '.self'."
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "StitcherMacros", id: rawValue) }
    var severity: DiagnosticSeverity { .error }
}

/// A fix-it message.
struct StitcherFixIt: FixItMessage {
    let message: String
    var fixItID: MessageID { MessageID(domain: "StitcherMacros", id: message) }
}
