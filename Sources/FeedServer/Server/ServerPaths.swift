import FeedCore
import Foundation

/// The server's own folders, kept out of what it answers: a message that names a file under one
/// of them (the feed file, a recording, an upload's part) keeps the file's name and loses the
/// folders, so a 404 says `feed.json: no video or post has id 999`, not `/srv/…/feed.json: …`.
/// The server's log (stderr) keeps the whole paths for its operator.
struct ServerPaths: Sendable {
    /// Absolute folders, longest first, each without a trailing slash.
    let folders: [String]

    init(folders: [String]) {
        var seen = Set<String>(), kept: [String] = []
        for folder in folders {
            var path = URL(fileURLWithPath: folder).standardizedFileURL.path
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            guard path.count > 1, seen.insert(path).inserted else { continue }
            kept.append(path)
            // The same folder reached through symbolic links (/tmp → /private/tmp on macOS).
            let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            if real != path, seen.insert(real).inserted { kept.append(real) }
        }
        self.folders = kept.sorted { $0.count > $1.count }
    }

    /// `text` with every path under one of ``folders`` cut to its last component (the folder
    /// itself, named alone, becomes `.`).
    func redact(_ text: String) -> String {
        guard folders.contains(where: { text.contains($0) }) else { return text }
        var out = text
        for folder in folders {
            var from = out.startIndex
            while let range = out.range(of: folder, range: from..<out.endIndex) {
                // Only the folder itself or a path in it: /srv/feed, not /srv/feedback.
                guard range.upperBound == out.endIndex || out[range.upperBound] == "/" || Self.stops.contains(out[range.upperBound]) else {
                    from = range.upperBound
                    continue
                }
                // The path goes on to the next character that cannot be in this message's path.
                var end = range.upperBound
                while end < out.endIndex, !Self.stops.contains(out[end]) { end = out.index(after: end) }
                let name = out[range.upperBound..<end].split(separator: "/").last.map(String.init) ?? "."
                let start = out.distance(from: out.startIndex, to: range.lowerBound)
                out.replaceSubrange(range.lowerBound..<end, with: name)
                from = out.index(out.startIndex, offsetBy: start + name.count)
            }
        }
        return out
    }

    /// Where a path ends in a message: `path: what is wrong`, `'path'`, `(path)`, a comma.
    private static let stops: Set<Character> = [":", " ", "'", "\"", ")", ",", "\n", "\t"]
}
