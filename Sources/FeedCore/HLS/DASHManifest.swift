import Foundation

/// The DASH description (ISO/IEC 23009-1, `manifest.mpd`) of a ladder ``HLSPackager`` wrote: the
/// same fMP4 (CMAF) files, no second encode. A video adaptation set with a representation per
/// rung and, when there is sound, an audio one for the `audio/` rendition, each with a
/// `SegmentList` of its files and a `SegmentTimeline` read from the segments themselves (each
/// `moof`'s `tfdt` and sample durations, in the `mdhd` timescale of `init.mp4`), so the timeline
/// is exact where the HLS playlists round to the microsecond. Explicit segment URLs rather than
/// a `$Number$` template let a server sign each one.
public enum DASHManifest {
    /// The file's name beside `master.m3u8`.
    public static let fileName = "manifest.mpd"

    /// One segment: its start and duration in the timescale.
    struct Span: Equatable { let start: UInt64; let duration: UInt64 }

    /// Writes `manifest.mpd` into the ladder `folder` (a temporary file renamed into place).
    /// - Throws: ``HLSError/badPlaylist(path:reason:)`` when a playlist or segment cannot be read.
    public static func write(folder: String) throws(HLSError) {
        let text = try manifest(folder: folder)
        try HLSPackager.write(text, to: folder + "/" + fileName)
    }

    /// The MPD text for the ladder in `folder`.
    public static func manifest(folder: String) throws(HLSError) -> String {
        let variants = try HLSMaster.variants(at: folder + "/" + HLSMaster.fileName)
        let audioFolder = folder + "/" + HLSVariant.audioFolder
        let audioPlaylist = FileManager.default.fileExists(atPath: audioFolder + "/index.m3u8")
            ? try HLSPlaylist.read(path: audioFolder + "/index.m3u8") : nil
        let audioRate = audioPlaylist.map { HLSVariant.bandwidths($0, folder: audioFolder).peak } ?? 0
        var video = "", total = 0.0
        for variant in variants {
            let rung = (variant.uri as NSString).deletingLastPathComponent
            let playlist = try HLSPlaylist.read(path: folder + "/" + variant.uri)
            let (timescale, spans) = try timeline(folder: folder + "/" + rung, playlist: playlist, handler: "vide")
            total = max(total, Double(spans.reduce(0) { $0 + $1.duration }) / Double(timescale))
            let size = variant.resolution?.split(separator: "x").compactMap { Int($0) } ?? []
            // A variant's BANDWIDTH counts the audio rendition; a representation's own rate does not.
            var attributes = #"id="\#(xml(rung))" bandwidth="\#(max(1, variant.bandwidth - audioRate))""#
            if size.count == 2 { attributes += #" width="\#(size[0])" height="\#(size[1])""# }
            if let rate = variant.frameRate { attributes += #" frameRate="\#(frameRate(rate))""# }
            if let codecs = variant.codecs?.split(separator: ",").filter({ !$0.hasPrefix("mp4a") }).joined(separator: ",") {
                attributes += #" codecs="\#(xml(codecs))""#
            }
            video += representation(attributes, folder: rung, playlist: playlist, timescale: timescale, spans: spans)
        }
        var audio = ""
        if let audioPlaylist {
            let (timescale, spans) = try timeline(folder: audioFolder, playlist: audioPlaylist, handler: "soun")
            let attributes = #"id="audio" bandwidth="\#(max(1, audioRate))" codecs="mp4a.40.2" audioSamplingRate="\#(timescale)""#
            audio = #"    <AdaptationSet id="1" contentType="audio" mimeType="audio/mp4" segmentAlignment="true" startWithSAP="1">"# + "\n"
                + representation(attributes, folder: HLSVariant.audioFolder, playlist: audioPlaylist, timescale: timescale, spans: spans)
                + "    </AdaptationSet>\n"
        }
        let duration = String(format: "PT%.3fS", total)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-main:2011" \
            type="static" mediaPresentationDuration="\(duration)" minBufferTime="PT2S">
              <Period id="0" start="PT0S">
                <AdaptationSet id="0" contentType="video" mimeType="video/mp4" segmentAlignment="true" startWithSAP="1">

            """ + video + "    </AdaptationSet>\n" + audio + """
              </Period>
            </MPD>

            """
    }

    /// One `<Representation>` with its `SegmentList`.
    private static func representation(_ attributes: String, folder: String, playlist: HLSPlaylist, timescale: UInt32, spans: [Span]) -> String {
        var out = "      <Representation \(attributes)>\n"
        out += #"        <SegmentList timescale="\#(timescale)">"# + "\n"
        out += #"          <Initialization sourceURL="\#(xml(folder + "/" + playlist.initSegment))"/>"# + "\n"
        out += "          <SegmentTimeline>\n"
        for run in runs(spans) {
            out += #"            <S t="\#(run.start)" d="\#(run.duration)""# + (run.repeats > 0 ? #" r="\#(run.repeats)""# : "") + "/>\n"
        }
        out += "          </SegmentTimeline>\n"
        for segment in playlist.segments {
            out += #"          <SegmentURL media="\#(xml(folder + "/" + segment.uri))"/>"# + "\n"
        }
        return out + "        </SegmentList>\n      </Representation>\n"
    }

    /// The timescale of the track whose handler is `handler` (`vide`, `soun`) and each segment's
    /// span, from `init.mp4` and the segments' `moof`s.
    static func timeline(folder: String, playlist: HLSPlaylist, handler: String) throws(HLSError) -> (UInt32, [Span]) {
        let initPath = folder + "/" + playlist.initSegment
        let initBytes = try read(initPath, upTo: 1 << 20)
        guard let moov = MP4Box.child("moov", of: initBytes, in: 0 ..< initBytes.count) else {
            throw .badPlaylist(path: initPath, reason: "no moov")
        }
        var track: (id: UInt32, timescale: UInt32)?
        for trak in MP4Box.children(of: initBytes, in: moov.body) where trak.type == "trak" {
            guard let hdlr = MP4Box.find(["mdia", "hdlr"], in: initBytes, range: trak.body), hdlr.payload + 12 <= hdlr.end,
                  String(decoding: initBytes[hdlr.payload + 8 ..< hdlr.payload + 12], as: UTF8.self) == handler,
                  let tkhd = MP4Box.child("tkhd", of: initBytes, in: trak.body),
                  let mdhd = MP4Box.find(["mdia", "mdhd"], in: initBytes, range: trak.body) else { continue }
            let wide = initBytes[tkhd.payload] == 1, wideTime = initBytes[mdhd.payload] == 1
            let idAt = tkhd.payload + (wide ? 20 : 12), scaleAt = mdhd.payload + (wideTime ? 20 : 12)
            guard idAt + 4 <= tkhd.end, scaleAt + 4 <= mdhd.end else { continue }
            track = (initBytes.uint32(at: idAt), initBytes.uint32(at: scaleAt))
            break
        }
        guard let track, track.timescale > 0 else { throw .badPlaylist(path: initPath, reason: "no \(handler) track") }
        var defaultDuration: UInt32 = 0
        if let mvex = MP4Box.child("mvex", of: initBytes, in: moov.body) {
            for trex in MP4Box.children(of: initBytes, in: mvex.body) where trex.type == "trex" && trex.payload + 16 <= trex.end
                && initBytes.uint32(at: trex.payload + 4) == track.id {
                defaultDuration = initBytes.uint32(at: trex.payload + 12)
            }
        }
        var spans: [Span] = []
        for segment in playlist.segments {
            let path = folder + "/" + segment.uri
            guard let span = try span(path, track: track.id, defaultDuration: defaultDuration) else {
                throw .badPlaylist(path: path, reason: "no fragment of the \(handler) track")
            }
            spans.append(span)
        }
        return (track.timescale, spans)
    }

    /// The start (`tfdt`) and summed sample durations of track `id` in the `moof`s of one segment.
    private static func span(_ path: String, track id: UInt32, defaultDuration: UInt32) throws(HLSError) -> Span? {
        let bytes = try moofs(path)
        var start: UInt64?, duration: UInt64 = 0
        for moof in MP4Box.children(of: bytes, in: 0 ..< bytes.count) where moof.type == "moof" {
            for traf in MP4Box.children(of: bytes, in: moof.body) where traf.type == "traf" {
                guard let tfhd = MP4Box.child("tfhd", of: bytes, in: traf.body), tfhd.payload + 8 <= tfhd.end,
                      bytes.uint32(at: tfhd.payload + 4) == id else { continue }
                let flags = bytes.uint32(at: tfhd.payload) & 0xFFFFFF
                var at = tfhd.payload + 8
                if flags & 0x01 != 0 { at += 8 }
                if flags & 0x02 != 0 { at += 4 }
                var fallback = defaultDuration
                if flags & 0x08 != 0, at + 4 <= tfhd.end { fallback = bytes.uint32(at: at) }
                if let tfdt = MP4Box.child("tfdt", of: bytes, in: traf.body), start == nil, tfdt.payload + 8 <= tfdt.end {
                    start = bytes[tfdt.payload] == 1 && tfdt.payload + 12 <= tfdt.end
                        ? bytes.uint64(at: tfdt.payload + 4) : UInt64(bytes.uint32(at: tfdt.payload + 4))
                }
                for trun in MP4Box.children(of: bytes, in: traf.body) where trun.type == "trun" && trun.payload + 8 <= trun.end {
                    let runFlags = bytes.uint32(at: trun.payload) & 0xFFFFFF
                    let count = Int(bytes.uint32(at: trun.payload + 4))
                    var field = trun.payload + 8
                    if runFlags & 0x01 != 0 { field += 4 }
                    if runFlags & 0x04 != 0 { field += 4 }
                    let perSample = [0x100, 0x200, 0x400, 0x800].filter { runFlags & UInt32($0) != 0 }.count * 4
                    if runFlags & 0x100 == 0 {
                        duration += UInt64(fallback) * UInt64(count)
                        continue
                    }
                    guard count <= (trun.end - field) / max(4, perSample) else { return nil }
                    for sample in 0 ..< count { duration += UInt64(bytes.uint32(at: field + sample * perSample)) }
                }
            }
        }
        return start.map { Span(start: $0, duration: duration) }
    }

    /// The top-level boxes of a segment up to and including its last `moof`, the media left out.
    private static func moofs(_ path: String) throws(HLSError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .badPlaylist(path: path, reason: "cannot open") }
        defer { try? handle.close() }
        var out: [UInt8] = []
        var offset: UInt64 = 0
        while true {
            try? handle.seek(toOffset: offset)
            guard let header = try? handle.read(upToCount: 8), header.count == 8 else { break }
            let head = [UInt8](header)
            let length = UInt64(head.uint32(at: 0)), type = String(decoding: head[4 ..< 8], as: UTF8.self)
            guard length >= 8 else { break }  // 64-bit or to-the-end sizes: media, which is not needed
            if type == "moof" {
                guard length <= 16 << 20 else { throw .badPlaylist(path: path, reason: "a \(length)-byte moof") }
                try? handle.seek(toOffset: offset)
                guard let box = try? handle.read(upToCount: Int(length)), box.count == Int(length) else { break }
                out += [UInt8](box)
            }
            offset += length
        }
        return out
    }

    private static func read(_ path: String, upTo limit: Int) throws(HLSError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.read(upToCount: limit) else {
            throw .badPlaylist(path: path, reason: "cannot read")
        }
        try? handle.close()
        return [UInt8](data)
    }

    /// Equal consecutive spans folded into `<S r=…>` runs.
    static func runs(_ spans: [Span]) -> [(start: UInt64, duration: UInt64, repeats: Int)] {
        var runs: [(start: UInt64, duration: UInt64, repeats: Int)] = []
        var next: UInt64?
        for span in spans {
            if let last = runs.last, last.duration == span.duration, next == span.start {
                runs[runs.count - 1].repeats += 1
            } else {
                runs.append((span.start, span.duration, 0))
            }
            next = span.start + span.duration
        }
        return runs
    }

    /// `30`, `30000/1001` or a decimal: what `frameRate` takes.
    private static func frameRate(_ rate: Double) -> String {
        if abs(rate - rate.rounded()) < 0.001 { return String(Int(rate.rounded())) }
        let ntsc = rate * 1.001
        if abs(ntsc - ntsc.rounded()) < 0.01 { return "\(Int(ntsc.rounded()) * 1000)/1001" }
        return String(format: "%.3f", rate)
    }

    private static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
