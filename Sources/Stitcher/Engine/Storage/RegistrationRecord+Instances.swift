/// What a registration knows of the instances it makes: their type, their value, and how a
/// scope tears them down.
extension RegistrationRecord {
    /// Calls `didInstantiate()` on a new instance in stored form, which is returned.
    @inline(__always)
    func finish(_ instance: __owned AnyObject) -> AnyObject {
        if storesObjects {
            if isAlwaysAware {
                (instance as? PostInstantiationAware)?.didInstantiate()
            } else if ObjectIdentifier(type(of: instance)) != producedType.id {
                UnawareTypes.notifyIfAware(instance)
            }
        } else {
            let box = unsafeDowncast(instance, to: InstanceBox.self)
            if isAlwaysAware {
                (box.anyValue as? PostInstantiationAware)?.didInstantiate()
            } else if !boxesExactType {
                box.notifyIfAware()
            }
        }
        return instance
    }

    /// The object a shared registration holds weakly for an instance in stored form; nil
    /// when the instance is a value, which cannot be shared.
    func weakTarget(_ instance: AnyObject) -> AnyObject? {
        storesObjects ? instance : instanceForm?.weakTarget(instance)
    }

    /// The stored form of an instance found alive through its weak reference.
    func restore(_ object: AnyObject) -> AnyObject? {
        storesObjects ? object : instanceForm?.restore(object)
    }

    /// An instance in stored form as a `D`, or nil when it is not one.
    @inline(__always)
    func cast<D>(_ instance: AnyObject, to type: D.Type) -> D? {
        if producedType.id == ObjectIdentifier(D.self) {
            return storesObjects
                ? unsafeBitCast(instance, to: D.self)
                : unsafeDowncast(instance, to: TypedBox<D>.self).value
        }
        return value(of: instance) as? D
    }

    /// How to tear down `instance` (in stored form), nil when it asks for no teardown: for an
    /// instance of exactly `T`, the witness found when the record was made (`.scoped`
    /// registrations only); for another type (a subclass, an implementation of a protocol
    /// `T`), its conformances are looked up.
    @inline(__always)
    func teardown(of instance: AnyObject) -> TeardownWitness? {
        let teardown = slotTeardown(of: instance)
        return teardown.asks ? witness(keptAs: teardown.witness) : nil
    }

    /// How a scope's slot tears down `instance` (in stored form): whether it asks to be, and
    /// the witness to keep beside the registration, nil when it is `ownTeardown` (an
    /// instance of exactly `T`), which the slot then does not count a reference to. (Not a
    /// double optional: its copies went through outlined functions counting references.)
    @inline(__always)
    func slotTeardown(of instance: AnyObject) -> (asks: Bool, witness: TeardownWitness?) {
        if isOfExactType(instance) { return (hasOwnTeardown, nil) }
        let witness = TeardownWitness.checking(value(of: instance))
        return (witness != nil, witness)
    }

    /// The witness a slot that keeps `witness` (see `slotTeardown(of:)`) tears its instance
    /// down by: `witness`, or when nil `ownTeardown`.
    @inline(__always)
    func witness(keptAs witness: TeardownWitness?) -> TeardownWitness? { witness ?? ownTeardown }

    /// Whether `instance` (in stored form) is of exactly `T`, whose conformances the record
    /// looked up once.
    @inline(__always)
    private func isOfExactType(_ instance: AnyObject) -> Bool {
        storesObjects ? ObjectIdentifier(Swift.type(of: instance)) == producedType.id : boxesExactType
    }

    /// An instance in stored form as a value of its own type.
    func value(of instance: AnyObject) -> Any {
        storesObjects ? instance : (instance as! InstanceBox).anyValue
    }

    /// The unqualified name of an instance's dynamic type.
    func typeName(of instance: AnyObject) -> String {
        String(describing: Swift.type(of: value(of: instance)))
    }
}
