import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension FragmentedMP4Flattener {
    /// The size of the buffer media is copied through.
    static let copyBufferSize = 1 << 20

    /// Writes `ftyp`, the `moov` of `tracks`, and an `mdat` of `spans` of `file` to `path`
    /// (created or replaced) through an ``AtomicFileWriter``: synced and renamed into place, or
    /// nothing there.
    /// - Throws: ``LiveRecordingError/cannotCreate(path:reason:)``, ``LiveRecordingError/cannotWrite(path:reason:)``,
    ///   ``LiveRecordingError/cannotRead(path:reason:)`` when the source shrank.
    static func writeOutput(_ tracks: [OutputTrack], spans: [Span], from file: Source, to path: String) throws(LiveRecordingError) {
        let fileType = fileType()
        let dataLength = spans.reduce(Int64(0)) { $0 + $1.length }
        // The 32-bit size holds the mdat unless its media reaches 4 GiB.
        let mdatHeader = dataLength <= Int64(UInt32.max) - 8 ? 8 : 16
        // The moov's size depends only on stco or co64, and its offsets on its size: size it, then write it.
        var wide = false
        var moovLength = movie(tracks, dataStart: 0, wide: false).count
        if Int64(fileType.count + moovLength + mdatHeader) + dataLength > Int64(UInt32.max) {
            wide = tracks.contains { track in
                track.table.chunks.contains { Int64(fileType.count + moovLength + mdatHeader) + $0.position > Int64(UInt32.max) }
            }
            if wide { moovLength = movie(tracks, dataStart: 0, wide: true).count }
        }
        let dataStart = Int64(fileType.count + moovLength + mdatHeader)
        let moov = movie(tracks, dataStart: dataStart, wide: wide)
        var header = CMAFBoxBuilder()
        if mdatHeader == 8 {
            header.u32(UInt32(dataLength + 8))
            header.fourCC("mdat")
        } else {
            header.u32(1)
            header.fourCC("mdat")
            header.u64(UInt64(dataLength + 16))
        }

        // Whole or not at all: a failure (or a crash) leaves nothing at `path`.
        let writer: AtomicFileWriter
        do { writer = try AtomicFileWriter(URL(fileURLWithPath: path)) } catch { throw .cannotCreate(path: path, reason: Self.reason(error)) }
        do throws(RollError) {
            for bytes in [fileType, moov, header.bytes] { try writer.write(bytes) }
        } catch {
            throw .writing(path, error)
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: copyBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        for span in spans {
            var copied: Int64 = 0
            while copied < span.length {
                let chunk = UnsafeMutableRawBufferPointer(rebasing: buffer[0 ..< Int(min(Int64(buffer.count), span.length - copied))])
                try file.read(into: chunk, at: span.offset + copied)
                do throws(RollError) { try writer.write(UnsafeRawBufferPointer(chunk)) } catch { throw .writing(path, error) }
                copied += Int64(chunk.count)
            }
        }
        do throws(RollError) { try writer.commit() } catch { throw .writing(path, error) }
    }

    /// A failure's reason without the path it names.
    private static func reason(_ error: RollError) -> String {
        switch error {
        case let .cannotCreate(_, reason), let .io(_, reason): reason
        default: error.description
        }
    }
}
