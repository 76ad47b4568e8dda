/// The parts of a registration that most registrations do without, kept apart so that
/// their records stay small: parameters, a boxed instance form, an asynchronous factory,
/// the context of a factory that captures values, the factory's isolation, and how a
/// dependency scope tears its instances down.
///
/// Made once by the provider; the record keeps the same object.
@usableFromInline
final class RegistrationExtras: @unchecked Sendable {
    /// The parameter types, in order; empty when the registration takes none.
    let parameterTypes: [TypeKey]
    /// Equal to the `signature` of the injection arguments the registration accepts.
    let signature: ObjectIdentifier
    /// The form of boxed instances, when `T` is not a class.
    let form: InstanceForm.Type?
    /// Runs an asynchronous factory and returns the instance in stored form.
    let makeAsync: ((InjectionArguments) async throws -> AnyObject)?
    /// The context of the factory closure (see `RegistrationRecord.origin`).
    let originContext: UInt
    /// The factory is isolated to the main actor and runs only there.
    let isMainActor: Bool
    /// How to tear down an instance of `T`, when `T` asks for it.
    let teardown: TeardownWitness?

    private init(
        parameterTypes: [TypeKey], signature: ObjectIdentifier, form: InstanceForm.Type?,
        makeAsync: ((InjectionArguments) async throws -> AnyObject)?, originContext: UInt, isMainActor: Bool,
        teardown: TeardownWitness?
    ) {
        self.parameterTypes = parameterTypes
        self.signature = signature
        self.form = form
        self.makeAsync = makeAsync
        self.originContext = originContext
        self.isMainActor = isMainActor
        self.teardown = teardown
    }

    /// The extras of a factory; nil when it needs none.
    @usableFromInline
    static func of(
        parameterTypes: [TypeKey], signature: ObjectIdentifier, form: InstanceForm.Type?,
        makeAsync: ((InjectionArguments) async throws -> AnyObject)?, originContext: UInt, isMainActor: Bool
    ) -> RegistrationExtras? {
        guard !parameterTypes.isEmpty || form != nil || makeAsync != nil || originContext != 0 || isMainActor else {
            return nil
        }
        return RegistrationExtras(
            parameterTypes: parameterTypes, signature: signature, form: form, makeAsync: makeAsync,
            originContext: originContext, isMainActor: isMainActor, teardown: nil
        )
    }

    /// `extras` (or none) with `teardown` added: made for the `.scoped` registrations of a
    /// type that asks to be torn down, whose records are then made.
    static func adding(_ teardown: TeardownWitness, to extras: RegistrationExtras?) -> RegistrationExtras {
        RegistrationExtras(
            parameterTypes: extras?.parameterTypes ?? [], signature: extras?.signature ?? InjectionArguments.noParameters,
            form: extras?.form, makeAsync: extras?.makeAsync, originContext: extras?.originContext ?? 0,
            isMainActor: extras?.isMainActor ?? false, teardown: teardown
        )
    }
}
