// Which path an injection takes, chosen where it is compiled: a class's object, a value or
// an existential (`DependencyGraph+DirectAnswers.swift`), or the general path. Not API:
// inlined into the injecting code.
extension DependencyGraph {
    /// The `D` a direct lookup answered with: for a class, the instance itself; for any other
    /// type (a value, an existential), a `TypedBox<D>` (see `DirectLookup`). Decided when the
    /// caller is compiled (see `isClassOrUnknown(_:)`): for a class, one cast of the reference.
    @inlinable @inline(__always)
    static func directValue<D>(_ object: AnyObject, as _: D.Type) -> D {
        if isClassOrUnknown(D.self) {
            if D.self is AnyClass { return unsafeBitCast(object, to: D.self) }
            return directNonClassValueOutOfLine(object, as: D.self)
        }
        return directNonClassValue(object, as: D.self)
    }

    /// `directValue(_:as:)` for a `D` that is not a class: unboxed, or presented as the
    /// protocol `D`.
    @inlinable @inline(__always)
    static func directNonClassValue<D>(_ object: AnyObject, as _: D.Type) -> D {
        if ObjectIdentifier(type(of: object)) == ObjectIdentifier(TypedBox<D>.self) {
            return unsafeDowncast(object, to: TypedBox<D>.self).value
        }
        // A class instance to present as the existential `D` (a transient by its protocol).
        return withUnsafeTemporaryAllocation(of: D.self, capacity: 1) { buffer in
            let existential = UnsafeMutableRawPointer(buffer.baseAddress!)
            ExistentialTemplates.present(object, as: ObjectIdentifier(D.self), into: existential, size: MemoryLayout<D>.size)
            return buffer.baseAddress!.move()
        }
    }

    /// `directNonClassValue(_:as:)`, called out of line (for `AnyObject`, or where `D` is
    /// not known until run time).
    @inlinable @inline(never)
    static func directNonClassValueOutOfLine<D>(_ object: AnyObject, as _: D.Type) -> D {
        directNonClassValue(object, as: D.self)
    }

    /// Whether `D` may be a class: false only when the compiler knows it is not; true for a
    /// class, for `AnyObject` (and, on Apple platforms, an `@objc` protocol), and where `D`
    /// is known only at run time. `_canBeClass` is decided before the optimizer runs;
    /// `D.self is AnyClass` is not, and tested alone it left every injection with the code
    /// of every path, too large to inline (docs/performance-notes.md, sixteenth step). So
    /// the injections test this first, then `is AnyClass`, and send what is left of a
    /// class's path out of line.
    @inlinable @inline(__always)
    static func isClassOrUnknown<D>(_: D.Type) -> Bool {
        _canBeClass(D.self) != 0
    }

    /// Resolves by type with `arguments`, trying the direct path first. Inlined, so that
    /// the choice of path is made in the caller's module (see `isClassOrUnknown(_:)`): a
    /// class takes `injectObject`, a value or an existential `injectNonClass`, neither with
    /// code for the other.
    @inlinable @inline(__always)
    static func inject<D>(byType type: D.Type, arguments: InjectionArguments) throws -> D {
        if isClassOrUnknown(D.self) {
            if D.self is AnyClass { return try injectObject(byType: D.self, arguments: arguments) }
            return try injectNonClassOutOfLine(byType: D.self, arguments: arguments)
        }
        return try injectNonClass(byType: D.self, arguments: arguments)
    }

    /// `inject(byType:arguments:)` for a class `D`: the direct path's object, which is of
    /// class `D`, or the general path's answer.
    @inlinable @inline(__always)
    static func injectObject<D>(byType _: D.Type, arguments: InjectionArguments) throws -> D {
        let id = ObjectIdentifier(D.self)
        if let object = try arguments.isEmpty ? _directObject(ofType: id, arguments) : _directObject(ofType: id, parameters: arguments) {
            return unsafeBitCast(object, to: D.self)
        }
        return try resolveOutOfLine(byType: D.self, arguments: arguments)
    }

    /// `inject(byType:arguments:)` for a `D` that is not a class (a value, an existential,
    /// `AnyObject`): without parameters, written in place or presented by the injecting
    /// code (for a protocol, one metadata read chooses between the value path and the
    /// class-bound one); with parameters, answered boxed, as a class is.
    @inlinable @inline(__always)
    static func injectNonClass<D>(byType _: D.Type, arguments: InjectionArguments) throws -> D {
        if arguments.isEmpty {
            return try ValueLayout.mayHoldValues(D.self) ? injectValue(byType: D.self) : injectClassBound(byType: D.self)
        }
        if let object = try _directObject(ofType: ObjectIdentifier(D.self), parameters: arguments) {
            return directValue(object, as: D.self)
        }
        return try resolveOutOfLine(byType: D.self, arguments: arguments)
    }

    /// `injectNonClass(byType:arguments:)`, called out of line: for `AnyObject`, for a `D`
    /// known only at run time, and for a caller whose general path is rare and should not
    /// grow its fast one (an array request, whose `[Element]` is never a class).
    @inlinable @inline(never)
    static func injectNonClassOutOfLine<D>(byType _: D.Type, arguments: InjectionArguments) throws -> D {
        try injectNonClass(byType: D.self, arguments: arguments)
    }

    /// `resolve(byType:arguments:)`, called out of line: its generic result is returned
    /// through memory on the caller's stack, which made the inlined caller guard its stack
    /// frame (a canary written and checked on every call).
    @inlinable @inline(never)
    static func resolveOutOfLine<D>(byType _: D.Type, arguments: InjectionArguments) throws -> D {
        try resolve(byType: D.self, arguments: arguments)
    }

    /// Resolves by name with `arguments`, trying the direct path first.
    @inlinable
    static func inject<D>(byName name: String, arguments: InjectionArguments) throws -> D {
        if let object = try _directObject(named: name, as: ObjectIdentifier(D.self), arguments) {
            return directValue(object, as: D.self)
        }
        return try resolveOutOfLine(byName: name, arguments: arguments)
    }

    /// `resolve(byName:arguments:)`, called out of line (see `resolveOutOfLine(byType:arguments:)`).
    @inlinable @inline(never)
    static func resolveOutOfLine<D>(byName name: String, arguments: InjectionArguments) throws -> D {
        try resolve(byName: name, arguments: arguments)
    }

    @usableFromInline
    static func resolve<D>(byType type: D.Type, arguments: InjectionArguments) throws -> D {
        try GraphContext.resolve(type: TypeKey(D.self), arguments)
    }

    @usableFromInline
    static func resolve<D>(byName name: String, arguments: InjectionArguments) throws -> D {
        try GraphContext.resolve(.name(name), arguments)
    }

    @usableFromInline
    static func resolve<D>(byValue value: AnyHashable, arguments: InjectionArguments) throws -> D {
        try GraphContext.resolve(.value(value), arguments)
    }
}
