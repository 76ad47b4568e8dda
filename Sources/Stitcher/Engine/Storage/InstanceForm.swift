/// How boxed instances of a registration's type are taken apart and put back together.
///
/// Used as a metatype (`BoxedForm<T>.self`), which costs no allocation: a class method
/// call dispatches on `T` without a closure context per registration.
@usableFromInline
class InstanceForm {
    /// The object a shared registration holds weakly for a boxed instance; nil when the
    /// instance is a value, which cannot be shared.
    class func weakTarget(_ instance: AnyObject) -> AnyObject? { nil }
    /// The boxed form of an instance found alive through its weak reference.
    class func restore(_ object: AnyObject) -> AnyObject? { nil }
}

/// The `InstanceForm` of a type `T` that is not a class (a value or an existential).
@usableFromInline
final class BoxedForm<T>: InstanceForm {
    override class func weakTarget(_ instance: AnyObject) -> AnyObject? {
        (instance as? TypedBox<T>)?.object
    }

    override class func restore(_ object: AnyObject) -> AnyObject? {
        (object as? T).map { TypedBox($0) }
    }
}

/// A value-type (or existential) instance in stored form.
@usableFromInline
class InstanceBox: @unchecked Sendable {
    var anyValue: Any { fatalError("abstract") }
    /// Calls `didInstantiate()` of the value when it is of another type than the box's (a
    /// value behind an existential) and `PostInstantiationAware` (`ValueWriter.notifyIfAware`).
    func notifyIfAware() { fatalError("abstract") }
}

@usableFromInline
final class TypedBox<T>: InstanceBox, @unchecked Sendable {
    @usableFromInline let value: T

    @usableFromInline
    init(_ value: T) { self.value = value }

    override var anyValue: Any { value }

    override func notifyIfAware() {
        var copy = value
        ValueWriter.notifyIfAware(&copy)
    }

    /// The underlying object when the value is a class instance behind an existential.
    var object: AnyObject? {
        Swift.type(of: value as Any) is AnyClass ? (value as AnyObject) : nil
    }
}
