/// The parts of a registration that most registrations do without, kept apart so that
/// their records stay small: parameters, a boxed instance form, an asynchronous factory,
/// and the context of a factory that captures values.
final class RegistrationExtras: @unchecked Sendable {
    /// The parameter types, in order; empty when the registration takes none.
    let parameterTypes: [TypeKey]
    /// Equal to the `signature` of the injection arguments the registration accepts.
    let signature: ObjectIdentifier
    /// The form of boxed instances, when `T` is not a class.
    let form: InstanceForm.Type?
    /// Runs an asynchronous factory and returns the instance in stored form.
    let makeAsync: ((InjectionArguments) async throws -> AnyObject)?
    /// The context of the factory closure (see `DependencyFactory.Provider.origin`).
    let originContext: UInt

    /// The extras of a provider's registration; nil when it needs none.
    init?<T>(_ provider: DependencyFactory.Provider<T>) {
        let factory = provider.extras
        guard !provider.parameterTypes.isEmpty || factory != nil || provider.origin.context != 0 else { return nil }
        parameterTypes = provider.parameterTypes
        signature = provider.signature
        form = factory?.form
        makeAsync = factory?.makeAsync
        originContext = provider.origin.context
    }
}
