/// Whether a catalog will be written through.
public enum CatalogAccess: Sendable {
    /// Reads and writes.
    case readWrite
    /// Reads only: opening writes nothing, which keeps listing cheap. A catalog that has not
    /// yet been created or migrated is opened read-write instead (see each implementation).
    case readOnly
}
