import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FragmentedMP4Flattener {
    /// A box header: its type and where it lies, in a file or in a buffer.
    struct Box: Sendable, Equatable {
        /// The four-letter type (`moov`, `trun` …).
        var type: String
        /// Where the box starts.
        var start: Int64
        /// Where its payload starts, after the 8- or 16-byte header.
        var payload: Int64
        /// One past its last byte.
        var end: Int64
    }

    /// What is at an offset of a file or buffer where a box should start.
    enum BoxRead: Sendable, Equatable {
        /// A whole box.
        case box(Box)
        /// Nothing: the offset is the end.
        case end
        /// A box that is cut off or lies about its size; the reason, for errors.
        case broken(String)
    }

    /// Reads the header at `offset` of a container that ends at `limit`, from `header` (the up to
    /// 16 bytes there). Never trusts a size: one smaller than its header, or one that runs past
    /// `limit`, is broken; size 0 runs to `limit`; size 1 takes the 64-bit size after the type.
    static func parseHeader(_ header: ArraySlice<UInt8>, at offset: Int64, limit: Int64) -> BoxRead {
        let left = limit - offset
        guard left > 0 else { return .end }
        guard left >= 8, header.count >= 8 else { return .broken("a box header at byte \(offset) is cut off") }
        let base = header.startIndex
        var size = Int64(header[base ..< base + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let type = String(decoding: header[base + 4 ..< base + 8].map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") },
                          as: UTF8.self)
        var headerSize: Int64 = 8
        if size == 1 {
            guard left >= 16, header.count >= 16 else { return .broken("the 64-bit size of '\(type)' at byte \(offset) is cut off") }
            let large = header[base + 8 ..< base + 16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard large <= UInt64(Int64.max) else { return .broken("'\(type)' at byte \(offset) has size \(large)") }
            size = Int64(large)
            headerSize = 16
        } else if size == 0 {
            size = left
        }
        guard size >= headerSize else {
            return .broken("'\(type)' at byte \(offset) has size \(size), smaller than its \(headerSize)-byte header")
        }
        guard size <= left else {
            return .broken("'\(type)' at byte \(offset) has size \(size) but only \(left) bytes are left")
        }
        return .box(Box(type: type, start: offset, payload: offset + headerSize, end: offset + size))
    }

    /// The boxes directly inside `bytes[range]`, in order, or the reason one of them is broken.
    static func children(of bytes: [UInt8], in range: Range<Int>) -> Result<[Box], BrokenBox> {
        var boxes: [Box] = []
        var offset = range.lowerBound
        while true {
            let header = bytes[offset ..< min(offset + 16, range.upperBound)]
            switch parseHeader(header, at: Int64(offset), limit: Int64(range.upperBound)) {
            case .end: return .success(boxes)
            case .broken(let reason): return .failure(BrokenBox(reason: reason))
            case .box(let box):
                boxes.append(box)
                offset = Int(box.end)
            }
        }
    }

    /// Why a box in a buffer cannot be read.
    struct BrokenBox: Error, Sendable {
        var reason: String
    }

    /// The recording, open for reading with `pread`: never read whole, only the boxes asked for.
    final class Source {
        /// The path, for errors.
        let path: String
        /// Its size when it was opened: what lies past it is not read.
        let size: Int64
        private let descriptor: Int32

        /// Opens the file at `path`.
        /// - Throws: ``LiveRecordingError/missingFile(path:)`` or ``LiveRecordingError/cannotRead(path:reason:)``.
        init(path: String) throws(LiveRecordingError) {
            self.path = path
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                if errno == ENOENT { throw .missingFile(path: path) }
                throw .cannotRead(path: path, reason: String(cString: strerror(errno)))
            }
            var status = stat()
            guard fstat(descriptor, &status) == 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw .cannotRead(path: path, reason: reason)
            }
            guard status.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                throw .cannotRead(path: path, reason: "not a regular file")
            }
            self.descriptor = descriptor
            size = Int64(status.st_size)
        }

        deinit { close(descriptor) }

        /// The box at `offset` of the file.
        /// - Throws: ``LiveRecordingError/cannotRead(path:reason:)`` when reading fails.
        func box(at offset: Int64) throws(LiveRecordingError) -> BoxRead {
            guard offset < size else { return .end }
            let header = try read(at: offset, count: Int(min(16, size - offset)))
            return FragmentedMP4Flattener.parseHeader(header[...], at: offset, limit: size)
        }

        /// `count` bytes from `offset`, all inside the file.
        /// - Throws: ``LiveRecordingError/cannotRead(path:reason:)`` when reading fails or the file shrank.
        func read(at offset: Int64, count: Int) throws(LiveRecordingError) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            let result: Result<Void, LiveRecordingError> = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(LiveRecordingError) in try read(into: buffer, at: offset) }
            }
            try result.get()
            return bytes
        }

        /// Fills `buffer` from `offset`.
        /// - Throws: ``LiveRecordingError/cannotRead(path:reason:)`` when reading fails or the file
        ///   ends first (it shrank since it was opened).
        func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(LiveRecordingError) {
            var done = 0
            while done < buffer.count {
                let count = pread(descriptor, buffer.baseAddress.map { $0 + done }, buffer.count - done, off_t(offset + Int64(done)))
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    let reason = count == 0 ? "the file ends at byte \(offset + Int64(done)), before the bytes its boxes point to"
                        : String(cString: strerror(errno))
                    throw .cannotRead(path: path, reason: reason)
                }
                done += count
            }
        }
    }
}
