/// Who sent a request, as ``AccessMiddleware`` worked it out; the routes read it from the context.
public struct Caller: Sendable, Equatable {
    /// How the caller proved who they are.
    public enum Credential: Sendable, Equatable {
        /// Nothing: the server has no key and no token (loopback only), so it is open.
        case none
        /// `--token`: the admin's shared secret.
        case adminToken
        /// A bearer JWT, verified.
        case jwt
        /// A signed link (`?exp=&sig=`): this one path, until `expires` (seconds since 1970).
        case link(expires: Int64)
    }

    /// The user id (the JWT's `sub`); nil for the admin token, an open server and a signed link.
    public let user: String?
    /// What the caller may do.
    public let scopes: Set<Scope>
    /// How they proved it.
    public let credential: Credential

    /// A caller.
    public init(user: String?, scopes: Set<Scope>, credential: Credential) {
        self.user = user
        self.scopes = scopes
        self.credential = credential
    }

    /// An open server's caller: anyone may do anything, as before there were users.
    public static let open = Caller(user: nil, scopes: [.read, .upload, .admin], credential: .none)
    /// `--token`'s holder.
    public static let admin = Caller(user: nil, scopes: [.read, .upload, .admin], credential: .adminToken)
    /// Nobody yet: what the context holds before ``AccessMiddleware`` runs.
    public static let nobody = Caller(user: nil, scopes: [], credential: .none)

    /// Whether the caller sees and changes everyone's rows.
    public var isAdmin: Bool { scopes.contains(.admin) }

    /// Whether the caller has `scope`: `admin` has every scope, and `upload` includes `read`
    /// (who may add rows may list what they added, as write access includes read in the APIs
    /// app teams know: GitHub's, Mux's).
    public func has(_ scope: Scope) -> Bool {
        isAdmin || scopes.contains(scope) || (scope == .read && scopes.contains(.upload))
    }
}
