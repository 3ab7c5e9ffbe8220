import FeedCore
import FeedRemote
import FeedSocial

/// A FeedCore failure in the words of the command line: FeedCore's messages name no flag,
/// so this is the one place that adds the flag or command that would help.
enum FailureMessage {
    /// The one-line message for `failure`, without the "feed: " prefix, and without the
    /// password of any URL it names.
    static func text(_ failure: any FeedFailure) -> String {
        URLCredentials.redacted(inText: unredacted(failure))
    }

    private static func unredacted(_ failure: any FeedFailure) -> String {
        switch failure {
        case let error as StackError: text(error)
        case let error as RollError: text(error)
        case let error as HLSError: text(error)
        case let error as SyncError: text(error)
        case let MediaError.networkNotAllowed(url): networkNotAllowed(url)
        case let error as ScrapeError: text(error)
        case let RemoteError.networkNotAllowed(url): networkNotAllowed(url)
        case let SocialError.recordingHasNoOwner(id): "recording \(id) has no owner: name the post's author with --author"
        case let SocialError.invalidDescription(problem): "--description \(problem)"
        default: failure.description
        }
    }

    /// The flag that sets a stack option.
    static func flag(_ field: StackOptions.Field) -> String {
        field == .output ? "-o" : "--" + field.rawValue
    }

    private static func text(_ error: StackError) -> String {
        switch error {
        case let .invalidOption(field, problem):
            "\(flag(field)) \(problem)"
        case let .outputTooLarge(width, height):
            "output \(width)x\(height) is over 16384x16384 / 100 million pixels; use --width or --size"
        case .outputExists:
            "\(error.description); pass --force to replace it"
        case let .sync(error):
            text(error)
        case let .noOverlap(offset):
            "with --offset \(offset) the clips do not overlap; use --until longest or a smaller offset"
        default:
            error.description
        }
    }

    private static func text(_ error: HLSError) -> String {
        switch error {
        case let .invalidOption(field, problem):
            "--\(field.rawValue) \(problem)"
        case .outputExists:
            "\(error.description); pass --force to replace it"
        default:
            error.description
        }
    }

    private static func text(_ error: SyncError) -> String {
        switch error {
        case let .invalidOption(field, problem): "--\(field.rawValue) \(problem)"
        default: error.description
        }
    }

    /// A URL read without `--allow-network`: one message, whether the feed or a clip was the URL.
    private static func networkNotAllowed(_ url: String) -> String {
        "\(url): a network URL; pass --allow-network to read it"
    }

    private static func text(_ error: ScrapeError) -> String {
        switch error {
        case let .badBase(text): "--base \(text): expected an absolute URL such as https://example.com/"
        default: error.description
        }
    }

    private static func text(_ error: RollError) -> String {
        switch error {
        case .duplicate:
            "\(error.description) (use --allow-duplicate to add it anyway)"
        case .emptyRoll:
            "\(error.description) (add some with `feed roll add FILE`)"
        case let .invalidOption(name, problem):
            "--\(name) \(problem)"
        default:
            error.description
        }
    }
}
