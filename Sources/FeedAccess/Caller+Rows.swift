/// Which rows a caller sees and what the rows it makes belong to. A user sees and changes their
/// own; an admin everyone's; a signed link the one file it was signed for. Another user's row
/// is answered exactly as one that does not exist (404), so ids say nothing of other users.
extension Caller {
    /// The owner of the rows this caller creates: the user; nil (the server's own) for the
    /// admin token and an open server.
    package var rowOwner: String? { user }

    /// Whose likes and bookmarks: the user's; the empty owner's for the admin token, an open
    /// server and the CLI (which share them, as before there were users).
    package var markOwner: String { user ?? "" }

    /// The owner a listing is filtered by: nil (everyone's) for an admin, else the user's own.
    package var listedOwner: String? { isAdmin ? nil : (user ?? "") }

    /// Whether the caller may see and change a row of `owner`.
    package func sees(_ owner: String?) -> Bool {
        if isAdmin { return true }
        if case .link = credential { return true }
        return user != nil && owner == user
    }
}
