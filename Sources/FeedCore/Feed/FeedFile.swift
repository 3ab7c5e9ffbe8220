import Glibc

/// Reads a whole feed file (or stdin) into memory with plain POSIX calls.
enum FeedFile {
    /// The bytes of `path` and its name for problems (`"-"` reads stdin, named `<stdin>`).
    static func read(_ path: String) throws(FeedError) -> (bytes: [UInt8], source: String) {
        if path == "-" { return (try readAll(STDIN_FILENO, path: "<stdin>"), "<stdin>") }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .missingFile(path: path) }
            throw .unreadable(path: path, reason: reason(code))
        }
        defer { close(descriptor) }
        return (try readAll(descriptor, path: path), path)
    }

    private static func readAll(_ descriptor: Int32, path: String) throws(FeedError) -> [UInt8] {
        var info = stat()
        var capacity = 1 << 16
        if fstat(descriptor, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR { throw .unreadable(path: path, reason: "is a directory") }
            if info.st_mode & S_IFMT == S_IFREG { capacity = max(Int(info.st_size) + 1, 1) }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity)
        var failure: Int32 = 0
        while failure == 0 {
            if bytes.count == bytes.capacity { bytes.reserveCapacity(bytes.capacity * 2) }
            let room = bytes.capacity - bytes.count
            let start = bytes.count
            var got = 0
            bytes.append(contentsOf: repeatElement(0, count: room))
            bytes.withUnsafeMutableBufferPointer { buffer in
                got = Glibc.read(descriptor, buffer.baseAddress! + start, room)
            }
            if got < 0, errno == EINTR { got = 0 } else if got < 0 { failure = errno; got = 0 }
            bytes.removeLast(room - got)
            if got == 0, failure == 0, bytes.count - start == 0 { break }
        }
        if failure != 0 { throw .unreadable(path: path, reason: reason(failure)) }
        return bytes
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
