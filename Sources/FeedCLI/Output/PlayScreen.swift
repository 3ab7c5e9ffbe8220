import FeedCore

enum PlayScreen {
    static func run(items: [HeadlessPlayback.Item], videos: [Video], comments: [Comment],
                    allowNetwork: Bool, wrap: Bool, start: Int, roll: Bool) async throws {
        throw ValidationErrorPlaceholder()
    }
}
struct ValidationErrorPlaceholder: Error {}
