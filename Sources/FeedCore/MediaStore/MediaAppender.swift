/// An unfinished upload's bytes, open for appending (``MediaStore/append(to:at:)``): what a tus
/// PATCH writes through. One request at a time holds one (the upload's claim sees to that),
/// so an appender is used from one task and needs no lock of its own.
public protocol MediaAppender: AnyObject {
    /// Writes `bytes` at `offset` (the end of what is there).
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(RollError)

    /// Makes everything written so far durable: after it returns, a crash (even of the machine)
    /// keeps those bytes, and ``MediaStore/size(of:)`` counts them.
    func sync() throws(RollError)

    /// Drops what was written past `size` (a PATCH refused for overflowing).
    func truncate(to size: Int64) throws(RollError)

    /// Lets go of the bytes (without ``sync()``: call it first to keep them for sure).
    func close()
}
