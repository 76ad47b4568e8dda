import Foundation
import Hummingbird

/// A todo, as stored and as the API returns it.
public struct Todo: Codable, Equatable, Sendable, ResponseCodable {
    public let id: UUID
    public var title: String
    public var completed: Bool
    public let createdAt: Date

    public init(id: UUID, title: String, completed: Bool, createdAt: Date) {
        self.id = id
        self.title = title
        self.completed = completed
        self.createdAt = createdAt
    }
}

/// Where todos are kept. One implementation, in memory; a database-backed one would
/// conform the same way.
public protocol TodoRepository: Sendable {
    func all() -> [Todo]
    func todo(id: UUID) -> Todo?
    /// Applies a unit of work's changes at once.
    func apply(_ changes: [TodoChange])
}

/// A change a unit of work stages and commits.
public enum TodoChange: Sendable, Equatable {
    case save(Todo)
    case delete(UUID)
}

/// The time now; a dependency, so that tests can fix it.
public protocol TimeSource: Sendable {
    func now() -> Date
}

public struct SystemTime: TimeSource {
    public init() {}
    public func now() -> Date { Date() }
}

/// Makes todo identifiers; a dependency, so that tests can predict them.
public protocol IDGenerator: Sendable {
    func next() -> UUID
}

public struct RandomIDs: IDGenerator {
    public init() {}
    public func next() -> UUID { UUID() }
}
