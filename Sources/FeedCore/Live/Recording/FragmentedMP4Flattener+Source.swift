import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FragmentedMP4Flattener {
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
        func box(at offset: Int64) throws(LiveRecordingError) -> MP4Box.Header {
            guard offset < size else { return .end }
            let header = try read(at: offset, count: Int(min(16, size - offset)))
            return MP4Box.header(header[...], at: Int(offset), limit: Int(size))
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
