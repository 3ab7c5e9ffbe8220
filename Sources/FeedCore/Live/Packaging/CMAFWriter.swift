/// Writes a live stream's CMAF (fragmented MP4) files: the init segment (`ftyp` with the `iso6`
/// and `cmfc` brands, `moov` with one `trak` per track and `mvex`) and fragments, each one
/// `moof` + `mdat` with a `traf` per track that has samples.
///
/// Track ids: video is 1 when there is video, audio the next. Video runs at ``videoTimescale``
/// (90 kHz); audio at its AAC sample rate. Each `traf` has `tfhd` with default-base-is-moof (so
/// fragments may be concatenated into a segment as they are), `tfdt` with its first decode time
/// and `trun` with each sample's duration, size, flags and, for video, composition offset
/// (version 1, signed, only when one is negative). Samples are written as they came: AVCC
/// length-prefixed NAL units, raw AAC frames.
public struct CMAFWriter: Sendable {
    /// One sample of a run.
    public struct Sample: Sendable, Equatable {
        /// Its duration in the track's timescale.
        public var duration: UInt32
        /// Presentation minus decode time in the track's timescale.
        public var compositionOffset: Int32
        /// Whether it is a sync sample (a key frame; every audio frame).
        public var isSync: Bool
        /// Its bytes.
        public var data: [UInt8]

        /// A sample of `data` lasting `duration` ticks.
        public init(duration: UInt32, compositionOffset: Int32 = 0, isSync: Bool, data: [UInt8]) {
            self.duration = duration
            self.compositionOffset = compositionOffset
            self.isSync = isSync
            self.data = data
        }
    }

    /// The samples of one track in one fragment.
    public struct Run: Sendable, Equatable {
        /// The track.
        public var track: LiveSample.Track
        /// The first sample's decode time in the track's timescale (the `tfdt`).
        public var baseDecodeTime: UInt64
        /// The samples, in decode order.
        public var samples: [Sample]

        /// A run of `samples` of `track` from `baseDecodeTime`.
        public init(track: LiveSample.Track, baseDecodeTime: UInt64, samples: [Sample]) {
            self.track = track
            self.baseDecodeTime = baseDecodeTime
            self.samples = samples
        }
    }

    /// The video timescale: 90 kHz, so millisecond timestamps convert exactly.
    public static let videoTimescale = 90_000

    /// `sample_depends_on` = 2 (depends on no other sample), a sync sample.
    static let syncFlags: UInt32 = 0x0200_0000
    /// `sample_depends_on` = 1 and `sample_is_non_sync_sample`.
    static let nonSyncFlags: UInt32 = 0x0101_0000

    /// The video configuration, if the stream has video.
    public let video: AVCConfiguration?
    /// The audio configuration, if the stream has audio.
    public let audio: AACConfiguration?

    /// A writer for a stream with `video`, `audio` or both (at least one).
    public init(video: AVCConfiguration?, audio: AACConfiguration?) {
        precondition(video != nil || audio != nil, "a CMAF stream needs a track")
        self.video = video
        self.audio = audio
    }

    /// The track id of `track`, or nil when the stream does not have it.
    public func trackID(_ track: LiveSample.Track) -> UInt32? {
        switch track {
        case .video: video == nil ? nil : 1
        case .audio: audio == nil ? nil : (video == nil ? 1 : 2)
        }
    }

    /// The timescale of `track`: 90 kHz for video, the sample rate for audio (1 without audio).
    public func timescale(_ track: LiveSample.Track) -> Int {
        switch track {
        case .video: Self.videoTimescale
        case .audio: audio?.sampleRate ?? 1
        }
    }

    /// The init segment (`init.mp4`).
    public func initSegment() -> [UInt8] {
        var out = CMAFBoxBuilder()
        out.box("ftyp") { ftyp in
            ftyp.fourCC("iso6")
            ftyp.u32(0)
            for brand in ["iso6", "cmfc"] { ftyp.fourCC(brand) }
        }
        out.box("moov") { moov in
            moov.fullBox("mvhd") { mvhd in
                mvhd.u32(0)                // creation time
                mvhd.u32(0)                // modification time
                mvhd.u32(1000)             // timescale
                mvhd.u32(0)                // duration: unknown, fragmented
                mvhd.u32(0x0001_0000)      // rate 1.0
                mvhd.u16(0x0100)           // volume 1.0
                mvhd.zeros(10)
                mvhd.unityMatrix()
                mvhd.zeros(24)             // pre_defined
                mvhd.u32((audio == nil || video == nil ? 1 : 2) + 1)   // next_track_ID
            }
            if let video { track(video: video, into: &moov) }
            if let audio { track(audio: audio, into: &moov) }
            moov.box("mvex") { mvex in
                for track in LiveSample.Track.allCases {
                    guard let id = trackID(track) else { continue }
                    mvex.fullBox("trex") { trex in
                        trex.u32(id)
                        trex.u32(1)        // default_sample_description_index
                        trex.u32(0)        // default_sample_duration
                        trex.u32(0)        // default_sample_size
                        trex.u32(0)        // default_sample_flags
                    }
                }
            }
        }
        return out.bytes
    }

    /// One fragment: a `moof` numbered `sequence` (the `mfhd`, counting from 1) and its `mdat`.
    /// Runs of tracks the stream does not have, and empty runs, are left out.
    public func fragment(sequence: UInt32, runs: [Run]) -> [UInt8] {
        let runs = runs.filter { !$0.samples.isEmpty && trackID($0.track) != nil }
        var out = CMAFBoxBuilder()
        var dataOffsetFields: [Int] = []
        out.box("moof") { moof in
            moof.fullBox("mfhd") { $0.u32(sequence) }
            for run in runs {
                moof.box("traf") { traf in
                    traf.fullBox("tfhd", flags: 0x02_0000) { $0.u32(trackID(run.track)!) }   // default-base-is-moof
                    traf.fullBox("tfdt", version: 1) { $0.u64(run.baseDecodeTime) }
                    let offsets = run.track == .video
                    let signed = run.samples.contains { $0.compositionOffset < 0 }
                    // data-offset, duration, size, flags, and composition offsets for video.
                    let flags: UInt32 = 0x000001 | 0x000100 | 0x000200 | 0x000400 | (offsets ? 0x000800 : 0)
                    traf.fullBox("trun", version: signed ? 1 : 0, flags: flags) { trun in
                        trun.u32(UInt32(run.samples.count))
                        dataOffsetFields.append(trun.count)
                        trun.u32(0)
                        for sample in run.samples {
                            trun.u32(sample.duration)
                            trun.u32(UInt32(sample.data.count))
                            trun.u32(sample.isSync ? Self.syncFlags : Self.nonSyncFlags)
                            if offsets { trun.u32(UInt32(bitPattern: sample.compositionOffset)) }
                        }
                    }
                }
            }
        }
        // Each trun's data offset counts from the start of the moof to its first sample in the mdat.
        var dataStart = out.count + 8
        for (run, field) in zip(runs, dataOffsetFields) {
            out.patch32(UInt32(dataStart), at: field)
            dataStart += run.samples.reduce(0) { $0 + $1.data.count }
        }
        out.box("mdat") { mdat in
            for run in runs {
                for sample in run.samples { mdat.append(sample.data) }
            }
        }
        return out.bytes
    }

    private func track(video: AVCConfiguration, into moov: inout CMAFBoxBuilder) {
        trak(.video, handler: "vide", name: "VideoHandler", width: video.width, height: video.height, into: &moov) { stsd in
            stsd.box("avc1") { avc1 in
                avc1.zeros(6)
                avc1.u16(1)                        // data_reference_index
                avc1.zeros(16)                     // pre_defined, reserved
                avc1.u16(UInt16(clamping: video.width))
                avc1.u16(UInt16(clamping: video.height))
                avc1.u32(0x0048_0000)              // 72 dpi
                avc1.u32(0x0048_0000)
                avc1.u32(0)
                avc1.u16(1)                        // frame_count
                avc1.zeros(32)                     // compressorname
                avc1.u16(0x0018)                   // depth
                avc1.u16(0xFFFF)                   // pre_defined = -1
                avc1.box("avcC") { $0.append(video.record) }
            }
        } media: { minf in
            minf.fullBox("vmhd", flags: 1) { $0.zeros(8) }
        }
    }

    private func track(audio: AACConfiguration, into moov: inout CMAFBoxBuilder) {
        let id = trackID(.audio)!
        trak(.audio, handler: "soun", name: "SoundHandler", width: 0, height: 0, into: &moov) { stsd in
            stsd.box("mp4a") { mp4a in
                mp4a.zeros(6)
                mp4a.u16(1)                        // data_reference_index
                mp4a.zeros(8)
                mp4a.u16(UInt16(clamping: audio.channels))
                mp4a.u16(16)                       // samplesize
                mp4a.zeros(4)
                // 16.16 fixed point; rates over 65535 Hz do not fit, and mdhd's timescale is the rate anyway.
                mp4a.u32(audio.sampleRate <= 0xFFFF ? UInt32(audio.sampleRate) << 16 : 0)
                mp4a.fullBox("esds") { esds in
                    esds.descriptor(0x03) { es in           // ES_Descriptor
                        es.u16(UInt16(truncatingIfNeeded: id))
                        es.u8(0)
                        es.descriptor(0x04) { config in     // DecoderConfigDescriptor
                            config.u8(0x40)                 // MPEG-4 audio
                            config.u8(0x15)                 // audio stream
                            config.u24(0)                   // bufferSizeDB
                            config.u32(0)                   // maxBitrate
                            config.u32(0)                   // avgBitrate
                            config.descriptor(0x05) { $0.append(audio.config) }
                        }
                        es.descriptor(0x06) { $0.u8(0x02) } // SLConfigDescriptor
                    }
                }
            }
        } media: { minf in
            minf.fullBox("smhd") { $0.zeros(4) }
        }
    }

    /// A `trak` whose sample description `entry` writes and whose media header `media` writes.
    private func trak(_ track: LiveSample.Track, handler: String, name: String, width: Int, height: Int,
                      into moov: inout CMAFBoxBuilder, entry: (inout CMAFBoxBuilder) -> Void,
                      media: (inout CMAFBoxBuilder) -> Void) {
        let id = trackID(track)!
        moov.box("trak") { trak in
            trak.fullBox("tkhd", flags: 0x3) { tkhd in      // enabled, in movie
                tkhd.u32(0)
                tkhd.u32(0)
                tkhd.u32(id)
                tkhd.u32(0)
                tkhd.u32(0)                                 // duration
                tkhd.zeros(8)
                tkhd.u16(0)                                 // layer
                tkhd.u16(0)                                 // alternate_group
                tkhd.u16(track == .audio ? 0x0100 : 0)      // volume
                tkhd.u16(0)
                tkhd.unityMatrix()
                tkhd.u32(UInt32(clamping: width) << 16)
                tkhd.u32(UInt32(clamping: height) << 16)
            }
            trak.box("mdia") { mdia in
                mdia.fullBox("mdhd") { mdhd in
                    mdhd.u32(0)
                    mdhd.u32(0)
                    mdhd.u32(UInt32(timescale(track)))
                    mdhd.u32(0)
                    mdhd.u16(0x55C4)                        // language: und
                    mdhd.u16(0)
                }
                mdia.fullBox("hdlr") { hdlr in
                    hdlr.u32(0)
                    hdlr.fourCC(handler)
                    hdlr.zeros(12)
                    hdlr.append(name.utf8)
                    hdlr.u8(0)
                }
                mdia.box("minf") { minf in
                    media(&minf)
                    minf.box("dinf") { dinf in
                        dinf.fullBox("dref") { dref in
                            dref.u32(1)
                            dref.fullBox("url ", flags: 1) { _ in }   // the data is in this file
                        }
                    }
                    minf.box("stbl") { stbl in
                        stbl.fullBox("stsd") { stsd in
                            stsd.u32(1)
                            entry(&stsd)
                        }
                        stbl.fullBox("stts") { $0.u32(0) }
                        stbl.fullBox("stsc") { $0.u32(0) }
                        stbl.fullBox("stsz") { $0.u32(0); $0.u32(0) }
                        stbl.fullBox("stco") { $0.u32(0) }
                    }
                }
            }
        }
    }
}
