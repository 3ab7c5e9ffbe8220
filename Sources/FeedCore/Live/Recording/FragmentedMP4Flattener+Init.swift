extension FragmentedMP4Flattener {
    /// What a fragment's sample takes when neither its `trun` nor its `tfhd` says: the `trex`'s values.
    struct SampleDefaults: Sendable, Equatable {
        var descriptionIndex: UInt32 = 1
        var duration: UInt32 = 0
        var size: UInt32 = 0
        var flags: UInt32 = 0
    }

    /// One video or audio track of the init segment's `moov`.
    struct TrackHeader: Sendable, Equatable {
        /// The `tkhd` track id, which the fragments' `tfhd`s name.
        var id: UInt32
        /// The `mdhd` timescale, ticks a second (never 0).
        var timescale: UInt32
        /// Whether the `hdlr` says `vide` (else it says `soun`).
        var isVideo: Bool
        /// The whole `stsd` box, header included, copied into the output unchanged.
        var sampleDescriptions: [UInt8]
        /// The `tkhd` width and height, 16.16 fixed point.
        var width: UInt32
        var height: UInt32
        /// The `mdhd` language code.
        var language: UInt16
        /// The `trex` defaults.
        var defaults: SampleDefaults
    }

    /// The video and audio tracks of `moov` (the whole box, its header of `headerLength` bytes
    /// included): other handlers (text, metadata) are left out.
    /// - Throws: ``LiveRecordingError/notFragmented(path:reason:)`` when a box in it lies about
    ///   its size, a field is missing, there is no `mvex`, or no video or audio track.
    static func tracks(inMoov moov: [UInt8], headerLength: Int, path: String) throws(LiveRecordingError) -> [TrackHeader] {
        func fail(_ reason: String) -> LiveRecordingError { .notFragmented(path: path, reason: reason) }
        func kids(_ box: MP4Box) throws(LiveRecordingError) -> [MP4Box] {
            let (boxes, broken) = MP4Box.walk(moov, in: box.body)
            if let broken { throw fail("in its moov, \(broken)") }
            return boxes
        }
        func child(_ type: String, of box: MP4Box) throws(LiveRecordingError) -> MP4Box {
            guard let found = try kids(box).first(where: { $0.type == type }) else { throw fail("a '\(box.type)' has no '\(type)'") }
            return found
        }
        let root = MP4Box(type: "moov", start: 0, payload: headerLength, end: moov.count)
        let top = try kids(root)
        guard let mvex = top.first(where: { $0.type == "mvex" }) else {
            throw fail("its moov has no mvex; it is a progressive MP4 already")
        }
        var defaults: [UInt32: SampleDefaults] = [:]
        for trex in try kids(mvex) where trex.type == "trex" {
            var fields = LiveByteReader(moov, trex)
            guard fields.versionAndFlags() != nil, let id = fields.u32(), let index = fields.u32(), let duration = fields.u32(),
                  let size = fields.u32(), let flags = fields.u32() else { throw fail("a trex is cut short") }
            defaults[id] = SampleDefaults(descriptionIndex: index, duration: duration, size: size, flags: flags)
        }
        var tracks: [TrackHeader] = []
        for trak in top where trak.type == "trak" {
            let mdia = try child("mdia", of: trak)
            var hdlr = LiveByteReader(moov, try child("hdlr", of: mdia))
            guard hdlr.skip(8), let handler = hdlr.u32() else { throw fail("an hdlr is cut short") }
            // 'vide' and 'soun'; other tracks (subtitles, timed metadata) are not kept.
            guard handler == 0x7669_6465 || handler == 0x736F_756E else { continue }
            var track = TrackHeader(id: 0, timescale: 0, isVideo: handler == 0x7669_6465, sampleDescriptions: [], width: 0, height: 0,
                                    language: 0x55C4, defaults: SampleDefaults())
            try readTrackHeader(LiveByteReader(moov, try child("tkhd", of: trak)), into: &track, fail: fail)
            try readMediaHeader(LiveByteReader(moov, try child("mdhd", of: mdia)), into: &track, fail: fail)
            let stsd = try child("stsd", of: try child("stbl", of: try child("minf", of: mdia)))
            track.sampleDescriptions = Array(moov[stsd.start ..< stsd.end])
            guard !tracks.contains(where: { $0.id == track.id }) else { throw fail("two tracks have id \(track.id)") }
            track.defaults = defaults[track.id] ?? SampleDefaults()
            tracks.append(track)
        }
        guard !tracks.isEmpty else { throw fail("its moov has no video or audio track") }
        return tracks
    }

    /// The track id, width and height of a `tkhd` (version 0 or 1).
    private static func readTrackHeader(_ tkhd: LiveByteReader, into track: inout TrackHeader,
                                        fail: (String) -> LiveRecordingError) throws(LiveRecordingError) {
        var fields = tkhd
        guard let (version, _) = fields.versionAndFlags(), fields.skip(version == 1 ? 16 : 8), let id = fields.u32(),
              fields.skip(4 + (version == 1 ? 8 : 4) + 8 + 8 + 36), let width = fields.u32(), let height = fields.u32() else {
            throw fail("a tkhd is cut short")
        }
        track.id = id
        track.width = width
        track.height = height
    }

    /// The timescale and language of an `mdhd` (version 0 or 1).
    private static func readMediaHeader(_ mdhd: LiveByteReader, into track: inout TrackHeader,
                                        fail: (String) -> LiveRecordingError) throws(LiveRecordingError) {
        var fields = mdhd
        guard let (version, _) = fields.versionAndFlags(), fields.skip(version == 1 ? 16 : 8), let timescale = fields.u32(),
              fields.skip(version == 1 ? 8 : 4), let language = fields.u16() else {
            throw fail("an mdhd is cut short")
        }
        guard timescale > 0 else { throw fail("track \(track.id) has timescale 0") }
        track.timescale = timescale
        track.language = language
    }
}
