@testable import FeedCore

/// A `traf` of a fragment, read back with FeedCore's box reader.
struct TrackFragment: Equatable {
    var trackID: UInt32
    var baseDecodeTime: UInt64
    var durations: [UInt32]
    var sizes: [UInt32]
    var flags: [UInt32]
    var compositionOffsets: [Int32]
    /// The trun's data offset, from the start of the moof.
    var dataOffset: Int
    /// Where the moof starts in the bytes.
    var moofStart: Int

    /// Whether the first sample is a sync sample.
    var startsWithSync: Bool { flags.first.map { $0 & 0x0001_0000 == 0 } ?? false }

    /// The `traf`s of every `moof` in `bytes` (a part, or a segment of several), in order.
    static func all(in bytes: [UInt8]) -> [[TrackFragment]] {
        MP4Box.children(of: bytes, in: 0 ..< bytes.count).filter { $0.type == "moof" }.map { moof in
            MP4Box.children(of: bytes, in: moof.body).filter { $0.type == "traf" }.compactMap { traf in
                read(traf, moofStart: moof.start, in: bytes)
            }
        }
    }

    private static func read(_ traf: MP4Box, moofStart: Int, in bytes: [UInt8]) -> TrackFragment? {
        guard let tfhd = MP4Box.child("tfhd", of: bytes, in: traf.body), let tfdt = MP4Box.child("tfdt", of: bytes, in: traf.body),
              let trun = MP4Box.child("trun", of: bytes, in: traf.body) else { return nil }
        let base = bytes[tfdt.payload] == 1 ? bytes.uint64(at: tfdt.payload + 4) : UInt64(bytes.uint32(at: tfdt.payload + 4))
        let trunFlags = bytes.uint32(at: trun.payload) & 0xFFFFFF
        let count = Int(bytes.uint32(at: trun.payload + 4))
        var offset = trun.payload + 8
        var fragment = TrackFragment(trackID: bytes.uint32(at: tfhd.payload + 4), baseDecodeTime: base, durations: [], sizes: [],
                                     flags: [], compositionOffsets: [], dataOffset: 0, moofStart: moofStart)
        if trunFlags & 0x1 != 0 { fragment.dataOffset = Int(Int32(bitPattern: bytes.uint32(at: offset))); offset += 4 }
        for _ in 0 ..< count {
            if trunFlags & 0x100 != 0 { fragment.durations.append(bytes.uint32(at: offset)); offset += 4 }
            if trunFlags & 0x200 != 0 { fragment.sizes.append(bytes.uint32(at: offset)); offset += 4 }
            if trunFlags & 0x400 != 0 { fragment.flags.append(bytes.uint32(at: offset)); offset += 4 }
            if trunFlags & 0x800 != 0 { fragment.compositionOffsets.append(Int32(bitPattern: bytes.uint32(at: offset))); offset += 4 }
        }
        return fragment
    }
}
