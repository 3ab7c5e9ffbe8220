/// Who is asking, as the social catalog sees them: a user by name, or nobody (a caller with no
/// user, such as a signed link), and whether they moderate (the admin sees every post, hidden
/// ones included, and may change any).
public struct Viewer: Sendable, Equatable, Hashable {
    /// The user's name (a JWT's `sub`); nil for a caller who is no user.
    public let name: String?
    /// Whether the viewer is the admin.
    public let isAdmin: Bool

    /// A viewer.
    public init(name: String?, isAdmin: Bool = false) {
        self.name = name
        self.isAdmin = isAdmin
    }

    /// Someone who is no user and no admin: public, unhidden posts only.
    public static let anonymous = Viewer(name: nil)

    /// The admin with no name of their own (the admin token, an open server, the CLI).
    public static let admin = Viewer(name: nil, isAdmin: true)

    /// The user `name`.
    public static func user(_ name: String) -> Viewer { Viewer(name: name) }

    /// The name of the user acting, or the error saying that this write needs one.
    public func actingUser(_ what: String) throws(SocialError) -> String {
        guard let name else { throw SocialError.needsUser(what) }
        return name
    }
}
