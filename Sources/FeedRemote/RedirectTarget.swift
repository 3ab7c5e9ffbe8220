import Foundation

/// The one check of every URL feed connects to on its own: the first one and each redirect's
/// `Location`, which redirects are followed by hand (AsyncHTTPClient's own following stops the
/// process on a target such as `http://127.0.0.1:99999/`, a port no connection can have).
enum RedirectTarget {
    /// The statuses that name another URL in `Location`.
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Why `url` cannot be fetched, or nil: http or https, a host, a port of 1…65535.
    static func problem(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return "only http:// and https:// URLs can be fetched"
        }
        guard url.host?.isEmpty == false else { return "no host" }
        if let port = url.port, !(1...65535).contains(port) { return "port \(port) is not 1…65535" }
        return nil
    }

    /// The URL a redirect from `current` leads to, checked; `location` may be relative.
    static func next(from current: URL, location: String?) throws(RemoteError) -> URL {
        guard let location, let target = URL(string: location, relativeTo: current)?.absoluteURL else {
            throw .failed(url: current.absoluteString, reason: "a redirect without a usable Location")
        }
        if let problem = problem(target) { throw .failed(url: current.absoluteString, reason: "redirected to \(target.absoluteString): \(problem)") }
        return target
    }
}
