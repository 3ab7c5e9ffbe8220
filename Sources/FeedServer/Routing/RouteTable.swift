import Hummingbird
import Synchronization

/// Every route the server registered, path pattern and method, so that a request for a known
/// path with a method it lacks is answered 405 with `Allow` (RFC 9110 §15.5.6), not 404.
final class RouteTable: Sendable {
    private let entries = Mutex<[(path: RouterPath, method: HTTPRequest.Method)]>([])

    /// Records `method` on `path`.
    func add(_ path: RouterPath, _ method: HTTPRequest.Method) {
        entries.withLock { $0.append((path, method)) }
    }

    /// Every route as registered: its path pattern (`videos/:id`) and method.
    var routes: [(path: String, method: HTTPRequest.Method)] {
        entries.withLock { $0.map { ($0.path.description, $0.method) } }
    }

    /// The methods some route answers on `path` (a request's path, percent-encoded as sent),
    /// HEAD wherever GET is; empty when no route has that path.
    func methods(for path: String) -> [HTTPRequest.Method] {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        var found: [HTTPRequest.Method] = entries.withLock { entries in
            Self.resolve(entries, components).map(\.method)
        }
        if found.contains(.get) && !found.contains(.head) { found.append(.head) }
        let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
        return order.filter(found.contains)
    }

    /// The pattern (`/videos/{id}`) of the route that answers `method` on `path`; HEAD finds
    /// GET's route where it has none of its own. Nil when no route does.
    func route(for path: String, method: HTTPRequest.Method) -> String? {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        return entries.withLock { entries in
            let candidates = Self.resolve(entries, components)
            let match = candidates.first { $0.method == method }
                ?? (method == .head ? candidates.first { $0.method == .get } : nil)
            return match?.path.description
        }
    }

    /// The entries whose pattern takes `components` the way the router's trie does: component
    /// by component, a literal that equals it wins over a capture (so `/jobs/stack` is the
    /// literal route's, never `/jobs/:id`'s).
    private static func resolve(_ entries: [(path: RouterPath, method: HTTPRequest.Method)],
                                _ components: [Substring]) -> [(path: RouterPath, method: HTTPRequest.Method)] {
        var candidates = entries.filter { $0.path.count == components.count }
        for (index, component) in components.enumerated() {
            let literal = candidates.filter { Array($0.path)[index] == component }
            candidates = literal.isEmpty ? candidates.filter { Array($0.path)[index] ~= component } : literal
        }
        return candidates
    }
}
