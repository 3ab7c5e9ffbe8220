import Foundation

/// An MP4's `moov` read into memory beside its top-level layout: enough to move the index in
/// front of the media (``FastStart``) and to say how many leading bytes hold the first picture
/// (``preloadBytes``), without FFmpeg and without reading the media.
struct MP4Movie: Sendable {
    /// The largest `moov` read (a 15-minute phone clip's is a few MB).
    static let moovLimit: Int64 = 256 << 20

    let path: String
    let layout: MP4Layout
    /// The whole `moov` box, header included.
    var moov: [UInt8]

    /// Reads the layout and the `moov` of the file at `path`.
    /// - Throws: ``MediaError/missingFile(path:)``, ``MediaError/notMedia(path:reason:)`` when
    ///   it is no ISO base media file with a `moov`, ``MediaError/refused(path:reason:)`` for a
    ///   `moov` over ``moovLimit``.
    static func read(path: String) throws(MediaError) -> MP4Movie {
        guard FileManager.default.fileExists(atPath: path) else { throw .missingFile(path: path) }
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .notMedia(path: path, reason: "cannot open") }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { throw .notMedia(path: path, reason: "cannot read") }
        let read = MP4Layout.reader(handle)
        guard let layout = MP4Layout.scan(size: Int64(size), read: read), let box = layout.moov else {
            throw .notMedia(path: path, reason: "not an MP4/MOV file with a moov box")
        }
        guard box.length <= moovLimit else { throw .refused(path: path, reason: "its moov box is \(box.length) bytes, over \(moovLimit)") }
        let moov = read(box.offset, Int(box.length))
        guard moov.count == Int(box.length) else { throw .notMedia(path: path, reason: "truncated moov box") }
        return MP4Movie(path: path, layout: layout, moov: moov)
    }

    /// The top-level boxes of the fast-start file, in order: what came before the first `mdat`
    /// (but `moov`), then `moov`, then the rest as it was. Unchanged when `moov` already leads.
    var fastStartOrder: [MP4Layout.TopBox] {
        guard let box = layout.moov, layout.index == .end else { return layout.boxes }
        let rest = layout.boxes.filter { $0 != box }
        let split = rest.firstIndex { $0.type == "mdat" } ?? rest.count
        return Array(rest[..<split]) + [box] + Array(rest[split...])
    }

    /// Where the byte at `offset` of the file lands once `moov` is moved in front of the media:
    /// bytes between the first `mdat` and `moov` move back by `moov`'s length; the rest stay.
    func fastStartOffset(_ offset: Int64) -> Int64 {
        guard let box = layout.moov, let mdat = layout.mdatOffset, layout.index == .end else { return offset }
        return offset >= mdat && offset < box.offset ? offset + box.length : offset
    }

    /// Every chunk-offset table (`stco`, `co64`) under `moov`, shifted with ``fastStartOffset(_:)``.
    /// - Throws: ``MediaError/refused(path:reason:)`` for a compressed `moov` (`cmov`) or a
    ///   32-bit offset the shift would overflow.
    mutating func shiftChunkOffsets() throws(MediaError) {
        let whole = 0 ..< moov.count
        guard let root = MP4Box.children(of: moov, in: whole).first else { return }
        if MP4Box.child("cmov", of: moov, in: root.body) != nil { throw .refused(path: path, reason: "its moov box is compressed (cmov)") }
        for trak in MP4Box.children(of: moov, in: root.body) where trak.type == "trak" {
            guard let stbl = MP4Box.find(["mdia", "minf", "stbl"], in: moov, range: trak.body) else { continue }
            for table in MP4Box.children(of: moov, in: stbl.body) where table.type == "stco" || table.type == "co64" {
                let wide = table.type == "co64"
                let width = wide ? 8 : 4
                guard table.payload + 8 <= table.end else { continue }
                let count = Int(moov.uint32(at: table.payload + 4))
                guard count <= (table.end - table.payload - 8) / width else {
                    throw .notMedia(path: path, reason: "a \(table.type) box claims \(count) entries it does not hold")
                }
                for index in 0 ..< count {
                    let at = table.payload + 8 + index * width
                    let old = wide ? Int64(bitPattern: moov.uint64(at: at)) : Int64(moov.uint32(at: at))
                    let new = fastStartOffset(old)
                    if wide {
                        moov.setUInt64(UInt64(bitPattern: new), at: at)
                    } else {
                        guard new <= Int64(UInt32.max) else {
                            throw .refused(path: path, reason: "moving moov first would overflow its 32-bit chunk offsets")
                        }
                        moov.setUInt32(UInt32(new), at: at)
                    }
                }
            }
        }
    }

    /// One past the last byte of the first video key frame in this file, or nil when the
    /// sample tables do not say (no video track, a fragmented file, tables that disagree).
    var firstPictureEnd: Int64? {
        let whole = 0 ..< moov.count
        guard let root = MP4Box.children(of: moov, in: whole).first else { return nil }
        for trak in MP4Box.children(of: moov, in: root.body) where trak.type == "trak" {
            guard let hdlr = MP4Box.find(["mdia", "hdlr"], in: moov, range: trak.body), hdlr.payload + 12 <= hdlr.end,
                  String(decoding: moov[hdlr.payload + 8 ..< hdlr.payload + 12], as: UTF8.self) == "vide",
                  let stbl = MP4Box.find(["mdia", "minf", "stbl"], in: moov, range: trak.body) else { continue }
            return MP4SampleTable(moov, stbl: stbl)?.firstSyncSampleEnd
        }
        return nil
    }

    /// How many leading bytes of the fast-start form of this file a player needs for its first
    /// picture: the header, `moov`, and the media up to the end of the first video key frame
    /// (with whatever audio is interleaved before it). A fragmented file's first fragment
    /// (`moof` and its `mdat`) stands in for the key frame. Nil when neither is known.
    var preloadBytes: Int64? {
        let order = fastStartOrder
        guard let moovIndex = order.firstIndex(where: { $0.type == "moov" }) else { return nil }
        let headerEnd = order[...moovIndex].reduce(0) { $0 + $1.length }
        if let end = firstPictureEnd {
            // A key frame that ends past the file (or before its header) is a table that lies.
            guard end > 0, end <= layout.size else { return nil }
            return max(headerEnd, fastStartOffset(end - 1) + 1)
        }
        // Fragmented: the first moof and the mdat after it.
        guard let moof = order.firstIndex(where: { $0.type == "moof" }),
              let mdat = order[moof...].firstIndex(where: { $0.type == "mdat" }) else { return nil }
        return order[...mdat].reduce(0) { $0 + $1.length }
    }
}
