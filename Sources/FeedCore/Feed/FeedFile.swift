#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Reads a whole feed file (or stdin) into memory with plain POSIX calls.
enum FeedFile {
    /// The largest feed read: 1 GiB (a 100,000-video feed is about 50 MB). Without a cap,
    /// `--feed /dev/zero` or an endless pipe would take all memory.
    static let maxBytes = 1 << 30

    /// The bytes of `path` and its name for problems (`"-"` reads stdin, named `<stdin>`).
    /// - Throws: ``FeedError/invalid(_:)`` when the input is larger than `limit` bytes ("not read
    ///   as `what`": a feed, a page).
    static func read(_ path: String, limit: Int = maxBytes, as what: String = "a feed") throws(FeedError) -> (bytes: [UInt8], source: String) {
        if path == "-" { return (try readAll(STDIN_FILENO, path: "<stdin>", limit: limit, as: what), "<stdin>") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missingFile(path: path) }
            throw .unreadable(path: path, reason: reason(code))
        }
        defer { close(descriptor) }
        return (try readAll(descriptor, path: path, limit: limit, as: what), path)
    }

    /// The absolute folder of the feed at `path`, which relative media paths are taken from:
    /// `path`'s folder made absolute from the current folder (`.` and `..` resolved, links not
    /// followed); for `"-"` (stdin), the current folder.
    static func folder(of path: String) -> String {
        let current = currentFolder()
        guard path != "-" else { return current }
        return MediaReference.absolute(path + "/..", in: current)
    }

    /// The current working folder, or `/` when it cannot be read (it was removed).
    static func currentFolder() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func readAll(_ descriptor: Int32, path: String, limit: Int, as what: String) throws(FeedError) -> [UInt8] {
        var info = stat()
        var expected = 0
        if fstat(descriptor, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw .unreadable(path: path, reason: "is a directory") }
            if info.st_mode & S_IFMT == S_IFREG { expected = Int(info.st_size) }
        }
        if expected > limit { throw tooLarge(path, limit, as: what) }
        var failure: Int32 = 0
        // Regular files: one read straight into the array, no zero-filling.
        var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            count = 0
            while count < expected {
                let got = readBytes(descriptor, buffer.baseAddress! + count, expected - count)
                if got > 0 {
                    count += got
                } else if got == 0 || errno != EINTR {
                    if got < 0 { failure = errno }
                    return
                }
            }
        }
        // Pipes, and files that grew since fstat: read in chunks to the end.
        let chunkSize = 1 << 20
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: chunkSize)
        defer { chunk.deallocate() }
        while failure == 0 {
            let got = readBytes(descriptor, chunk.baseAddress!, chunkSize)
            if got > 0 {
                if bytes.count + got > limit { throw tooLarge(path, limit, as: what) }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[..<got]))
            } else if got == 0 {
                break
            } else if errno != EINTR {
                failure = errno
            }
        }
        if failure != 0 { throw .unreadable(path: path, reason: reason(failure)) }
        return bytes
    }

    private static func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    private static func tooLarge(_ path: String, _ limit: Int, as what: String) -> FeedError {
        let size = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
        return .invalid(FeedProblem(file: path, line: 1, column: 1, path: "", message: "larger than \(size): not read as \(what)"))
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
