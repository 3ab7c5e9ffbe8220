import Foundation

/// A user's report of a post or a comment, for the admin (`GET /reports`).
public struct Report: Sendable, Equatable, Identifiable {
    /// What a report is about.
    public enum Target: Sendable, Equatable, Hashable {
        case post(Int64)
        case comment(Int64)
    }

    /// Why it was reported.
    public enum Reason: String, Sendable, CaseIterable, Codable {
        case spam, nudity, violence, harassment, hate, misinformation, copyright, other
    }

    /// The report's id.
    public var id: Int64
    /// The post or comment.
    public var target: Target
    /// Who reported it.
    public var reporter: String
    /// Why.
    public var reason: Reason
    /// Their words, if any (at most 1,000 characters).
    public var note: String
    /// When.
    public var createdAt: Date

    /// The longest note.
    public static let maximumNote = 1000

    /// A report.
    public init(id: Int64, target: Target, reporter: String, reason: Reason, note: String = "", createdAt: Date) {
        self.id = id
        self.target = target
        self.reporter = reporter
        self.reason = reason
        self.note = note
        self.createdAt = createdAt
    }
}
