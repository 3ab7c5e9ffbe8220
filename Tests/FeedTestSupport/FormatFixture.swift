import FeedCore
import Foundation

/// The project's own small feed files, one per accepted ``FeedFormat``, in
/// `Fixtures/formats/`. Each is written by hand to hold its format's odd corners, so the
/// decoders are checked in every clone (the peer teams' files in `../shared/peer-data` are a
/// second check only where that folder exists, see ``PeerData``).
public enum FormatFixture: String, CaseIterable, Sendable, CustomStringConvertible {
    /// LIVEr `{"videos": [...]}`: a UTF-8 byte-order mark, trailing commas in objects and
    /// arrays, integer ids and string ids (`"clip-7"`, `"0042"`, and `"101"` which repeats the
    /// integer id 101: a duplicate-id warning), optional fields missing or `null`, an empty
    /// URL, hashtags (`#café`, `#日本`, `#2024`, a lone `#`), emoji and `\u` escapes
    /// (a surrogate pair too), `\n` and `\"` in text, an unknown member.
    case liver = "liver-videos.json"
    /// LIVEr `{"comments": [...]}`: integer and string ids, a duplicate id (a warning),
    /// `picURL` present, `null`, `""` or missing, an empty comment, escapes, a tab, emoji
    /// (skin tone, a ZWJ family) as a username and in text, trailing commas, an unknown member.
    case liverComments = "liver-comments.json"
    /// FeedsApp `[ {post}, ... ]` (Imgur albums): a post of two images and no video, a post of
    /// an image then two videos with full metadata, a post whose media lack metadata (and
    /// one with partial metadata), a post with no media; integer and string `account_id`,
    /// `created_at` present, `null` and missing, Imgur members the decoder ignores, trailing
    /// commas.
    case feedsApp = "feedsapp-posts.json"
    /// A Pexels `/videos/search` response, page 2: files whose playable pick is hd (of
    /// uhd, sd, hd, hd, hls: the first hd), sd (of uhd, hls, sd), hls (of uhd, hls) and the
    /// first (of a `null` quality and uhd); `user{}` with a name, without one, and a
    /// unicode name; `video_pictures`; a video with no image and no duration; `null` sizes.
    case pexels = "pexels-search.json"

    /// The format the loader should detect.
    public var format: FeedFormat {
        switch self {
        case .liver: .liver
        case .liverComments: .liverComments
        case .feedsApp: .feedsApp
        case .pexels: .pexels
        }
    }

    /// The file.
    public var url: URL { RepositoryFiles.fixture("formats/" + rawValue) }

    /// The file's path.
    public var path: String { url.path }

    /// The file's bytes, exactly as committed (the LIVEr one starts with a BOM).
    public func bytes() throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// The file's text (a BOM, when there is one, is kept as U+FEFF).
    public func text() throws -> String { String(decoding: try bytes(), as: UTF8.self) }

    /// The file name, as parameterized tests show it.
    public var description: String { rawValue }
}
