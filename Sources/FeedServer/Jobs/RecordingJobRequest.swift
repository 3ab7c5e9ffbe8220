import FeedCore
import Foundation

/// The request of an `hls` or `thumb` job: `{"recording": ID}`, with `"at": SECONDS` for a
/// poster frame (default 10 % of the recording).
struct RecordingJobRequest: Codable, Sendable {
    var recording: Int64
    var at: Double?
}
