import FeedAccess
import FeedSocial
import Hummingbird

extension Caller {
    /// Who the social catalog sees: the JWT's user (the admin when its scope says so); on an open
    /// server, the user named by `X-Feed-User` (a development server's stand-in for a sign-in,
    /// never honoured with a key), else the admin; the admin token's holder is the admin.
    func viewer(_ request: Request) -> Viewer {
        if credential == .none, isAdmin, let name = request.headers[SocialJSON.userHeader], !name.isEmpty {
            return Viewer(name: name)
        }
        if case .link = credential { return .anonymous }
        return Viewer(name: user, isAdmin: isAdmin)
    }
}
