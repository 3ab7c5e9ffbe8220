import Foundation

/// Media files no camera makes, built by hand for the hostile-input tests: tiny AVI files
/// (raw pictures of any size, or sound only) and surgery on clips made with `VideoWriter`
/// (a different declared size in the MP4 boxes or in the H.264 sequence parameter set, the
/// video track hidden). Nothing here calls FFmpeg, so the bytes are exactly what a test asks.
public enum HostileMedia {
    /// What went wrong taking a clip apart.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    // MARK: AVI

    /// An AVI of `frames` uncompressed BGR pictures declaring `width`x`height` at `fps`.
    /// Each frame chunk holds the bytes such a picture takes (rows padded to 4 bytes) unless
    /// `frameBytes` says otherwise: a huge declared size with a small chunk is the hostile case.
    @discardableResult
    public static func rawVideoAVI(_ path: String, width: Int, height: Int, frames: Int = 10, fps: Int = 10,
                                   frameBytes: Int? = nil) throws -> String {
        let stride = (width * 3 + 3) / 4 * 4
        let size = frameBytes ?? stride * height
        let chunks = (0..<frames).map { index in
            (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7 + index * 40) }
        }
        let header = bitmapInfoHeader(width: width, height: height, imageBytes: stride * height)
        let stream = streamHeader(type: "vids", scale: 1, rate: fps, length: frames, bufferSize: size, sampleSize: 0,
                                  width: width, height: height)
        try Data(avi(microsecondsPerFrame: 1_000_000 / fps, width: width, height: height, streamHeader: stream,
                     format: header, chunkID: "00db", chunks: chunks)).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// An AVI holding only 16-bit mono PCM sound (a 440 Hz tone): no video stream at all.
    @discardableResult
    public static func audioOnlyAVI(_ path: String, sampleRate: Int = 8000, seconds: Double = 1) throws -> String {
        let samples = Int(Double(sampleRate) * seconds)
        var pcm: [UInt8] = []
        for index in 0..<samples {
            let value = Int16(8000 * sin(2 * Double.pi * 440 * Double(index) / Double(sampleRate)))
            pcm += le16(Int(UInt16(bitPattern: value)))
        }
        let perChunk = sampleRate / 5 * 2
        let chunks = stride(from: 0, to: pcm.count, by: perChunk).map { Array(pcm[$0..<min($0 + perChunk, pcm.count)]) }
        let format = le16(1) + le16(1) + le32(sampleRate) + le32(sampleRate * 2) + le16(2) + le16(16) + le16(0)
        let stream = streamHeader(type: "auds", scale: 2, rate: sampleRate * 2, length: samples, bufferSize: perChunk,
                                  sampleSize: 2, width: 0, height: 0)
        try Data(avi(microsecondsPerFrame: 0, width: 0, height: 0, streamHeader: stream, format: format,
                     chunkID: "00wb", chunks: chunks)).write(to: URL(fileURLWithPath: path))
        return path
    }

    private static func avi(microsecondsPerFrame: Int, width: Int, height: Int, streamHeader: [UInt8], format: [UInt8],
                            chunkID: String, chunks: [[UInt8]]) -> [UInt8] {
        let largest = chunks.map(\.count).max() ?? 0
        let main = le32(microsecondsPerFrame) + le32(0) + le32(0) + le32(0x10) + le32(chunks.count) + le32(0) + le32(1)
            + le32(largest) + le32(width) + le32(height) + [UInt8](repeating: 0, count: 16)
        let strl = list("strl", chunk("strh", streamHeader) + chunk("strf", format))
        let hdrl = list("hdrl", chunk("avih", main) + strl)
        var movi: [UInt8] = [], index: [UInt8] = []
        for bytes in chunks {
            // idx1 offsets count from the "movi" tag, which is 4 bytes before the first chunk.
            index += fourCC(chunkID) + le32(0x10) + le32(4 + movi.count) + le32(bytes.count)
            movi += chunk(chunkID, bytes)
        }
        return chunk("RIFF", fourCC("AVI ") + hdrl + list("movi", movi) + chunk("idx1", index))
    }

    private static func streamHeader(type: String, scale: Int, rate: Int, length: Int, bufferSize: Int, sampleSize: Int,
                                     width: Int, height: Int) -> [UInt8] {
        fourCC(type) + le32(0) + le32(0) + le16(0) + le16(0) + le32(0) + le32(scale) + le32(rate) + le32(0) + le32(length)
            + le32(bufferSize) + le32(0xFFFF_FFFF) + le32(sampleSize) + le16(0) + le16(0) + le16(width) + le16(height)
    }

    private static func bitmapInfoHeader(width: Int, height: Int, imageBytes: Int) -> [UInt8] {
        le32(40) + le32(width) + le32(height) + le16(1) + le16(24) + le32(0) + le32(imageBytes) + le32(0) + le32(0)
            + le32(0) + le32(0)
    }

    private static func chunk(_ id: String, _ payload: [UInt8]) -> [UInt8] {
        fourCC(id) + le32(payload.count) + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    private static func list(_ type: String, _ payload: [UInt8]) -> [UInt8] { chunk("LIST", fourCC(type) + payload) }
    private static func fourCC(_ text: String) -> [UInt8] { Array(text.utf8) }
    private static func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    private static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    // MARK: MP4 surgery

    /// A copy of the H.264 MP4 `source` whose `tkhd` and `avc1` boxes declare `width`x`height`;
    /// the H.264 stream inside (its sequence parameter set) still says the real size.
    @discardableResult
    public static func mp4DeclaringSize(_ source: String, to path: String, width: Int, height: Int) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let video = try videoTrack(bytes)
        let tkhd = try first("tkhd", in: bytes, video.payload)
        put32(&bytes, at: tkhd.end - 8, width << 16)
        put32(&bytes, at: tkhd.end - 4, height << 16)
        let avc1 = try sampleEntry(bytes, video)
        put16(&bytes, at: avc1.start + 32, width)
        put16(&bytes, at: avc1.start + 34, height)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A copy of the MP4 `source` with its video track hidden (its `trak` box renamed `free`):
    /// what is left is an audio-only MP4, as a voice memo app writes.
    @discardableResult
    public static func mp4WithoutVideo(_ source: String, to path: String) throws -> String {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let video = try videoTrack(bytes)
        bytes.replaceSubrange((video.start + 4)..<(video.start + 8), with: fourCC("free"))
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The H.264 stream of the video-only MP4 `source` as a raw Annex B file whose sequence
    /// parameter set declares `width`x`height` (multiples of 16); the slices are unchanged.
    @discardableResult
    public static func h264DeclaringSize(_ source: String, to path: String, width: Int, height: Int) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let video = try videoTrack(bytes)
        let avc1 = try sampleEntry(bytes, video)
        let avcC = try first("avcC", in: bytes, (avc1.start + 8 + 78)..<avc1.end)
        var at = avcC.payload.lowerBound + 5
        var parameterSets: [[UInt8]] = []
        for counted in [true, false] {
            let count = Int(bytes[at]) & (counted ? 0x1F : 0xFF)
            at += 1
            for _ in 0..<count {
                let length = Int(bytes[at]) << 8 | Int(bytes[at + 1])
                parameterSets.append(Array(bytes[(at + 2)..<(at + 2 + length)]))
                at += 2 + length
            }
        }
        guard parameterSets.count == 2 else { throw Failure(description: "expected one SPS and one PPS") }
        var out: [UInt8] = []
        let start: [UInt8] = [0, 0, 0, 1]
        out += start + (try resizedSPS(parameterSets[0], width: width, height: height)) + start + parameterSets[1]
        let mdat = try first("mdat", in: bytes, 0..<bytes.count)
        var position = mdat.payload.lowerBound
        while position + 4 <= mdat.payload.upperBound {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(bytes[position + $1]) }
            guard length > 0, position + 4 + length <= mdat.payload.upperBound else {
                throw Failure(description: "mdat is not length-prefixed H.264 at \(position)")
            }
            out += start + bytes[(position + 4)..<(position + 4 + length)]
            position += 4 + length
        }
        try Data(out).write(to: URL(fileURLWithPath: path))
        return path
    }

    struct Box {
        var type: String, start: Int, end: Int, payload: Range<Int>
    }

    private static func boxes(_ bytes: [UInt8], _ range: Range<Int>) throws -> [Box] {
        var found: [Box] = [], at = range.lowerBound
        while at + 8 <= range.upperBound {
            var size = (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) }
            var header = 8
            if size == 1 {
                size = (8..<16).reduce(0) { $0 << 8 | Int(bytes[at + $1]) }
                header = 16
            } else if size == 0 {
                size = range.upperBound - at
            }
            guard size >= header, at + size <= range.upperBound else { throw Failure(description: "bad box at \(at)") }
            found.append(Box(type: String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self), start: at,
                             end: at + size, payload: (at + header)..<(at + size)))
            at += size
        }
        return found
    }

    private static func first(_ type: String, in bytes: [UInt8], _ range: Range<Int>) throws -> Box {
        guard let box = try boxes(bytes, range).first(where: { $0.type == type }) else {
            throw Failure(description: "no \(type) box")
        }
        return box
    }

    /// The `trak` whose handler is `vide`.
    private static func videoTrack(_ bytes: [UInt8]) throws -> Box {
        let moov = try first("moov", in: bytes, 0..<bytes.count)
        for trak in try boxes(bytes, moov.payload) where trak.type == "trak" {
            let mdia = try first("mdia", in: bytes, trak.payload)
            let hdlr = try first("hdlr", in: bytes, mdia.payload)
            if Array(bytes[(hdlr.payload.lowerBound + 8)..<(hdlr.payload.lowerBound + 12)]) == fourCC("vide") { return trak }
        }
        throw Failure(description: "no video track")
    }

    /// The video track's first sample entry (`avc1`).
    private static func sampleEntry(_ bytes: [UInt8], _ trak: Box) throws -> Box {
        var box = trak
        for type in ["mdia", "minf", "stbl", "stsd"] { box = try first(type, in: bytes, box.payload) }
        let entry = try first("avc1", in: bytes, (box.payload.lowerBound + 8)..<box.payload.upperBound)
        return entry
    }

    private static func put16(_ bytes: inout [UInt8], at offset: Int, _ value: Int) {
        for i in 0..<2 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * (1 - i))) }
    }

    private static func put32(_ bytes: inout [UInt8], at offset: Int, _ value: Int) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * (3 - i))) }
    }
}
