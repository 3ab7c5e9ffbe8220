import Foundation
import OpenAPIRuntime

/// Dates as `feed serve` writes them (`2026-11-25T09:30:00.123Z`, milliseconds), also read without
/// the fraction, as other servers of the same contract may write them.
struct ISO8601Transcoder: DateTranscoder {
    func encode(_ date: Date) throws -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    func decode(_ text: String) throws -> Date {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(text) is not an ISO 8601 date"))
    }
}
