import FeedCore
import Hummingbird

/// Every route the server registered, path pattern and method, so that a request for a known
/// path with a method it lacks is answered 405 with `Allow` (RFC 9110 §15.5.6), not 404.
/// Each entry keeps its pattern's components and description, made once at `add`.
final class RouteTable: Sendable {
    private struct Entry {
        let components: [RouterPath.Element]
        let pattern: String
        let method: HTTPRequest.Method
    }

    private let entries = Locked<[Entry]>([])

    /// Records `method` on `path`.
    func add(_ path: RouterPath, _ method: HTTPRequest.Method) {
        let entry = Entry(components: Array(path), pattern: path.description, method: method)
        entries.withLock { $0.append(entry) }
    }

    /// Every route as registered: its path pattern (`videos/:id`) and method.
    var routes: [(path: String, method: HTTPRequest.Method)] {
        entries.withLock { $0.map { ($0.pattern, $0.method) } }
    }

    /// The methods some route answers on `path` (a request's path, percent-encoded as sent),
    /// HEAD wherever GET is; empty when no route has that path.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        var found: [HTTPRequest.Method] = entries.withLock { Self.resolve($0, components).map(\.method) }
        if found.contains(.get) && !found.contains(.head) { found.append(.head) }
        let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
        return order.filter(found.contains)
    }

    /// The entries whose pattern takes `components` the way the router's trie does: component
    /// by component, a literal that equals it wins over a capture (so `/jobs/stack` is the
    /// literal route's, never `/jobs/:id`'s).
    private static func resolve(_ entries: [Entry], _ components: [Substring]) -> [Entry] {
        var candidates = entries.filter { $0.components.count == components.count }
        for (index, component) in components.enumerated() {
            let literal = candidates.filter { $0.components[index] == component }
            candidates = literal.isEmpty ? candidates.filter { $0.components[index] ~= component } : literal
        }
        return candidates
    }
}
