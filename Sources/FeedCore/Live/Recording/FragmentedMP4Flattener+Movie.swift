extension FragmentedMP4Flattener {
    /// The movie timescale: milliseconds.
    static let movieTimescale: UInt64 = 1000

    /// A kept track: its init segment header, its samples, and where it starts on the movie's timeline.
    struct OutputTrack: Sendable {
        var header: TrackHeader
        var table: SampleTable
        /// How long after the earliest track this one starts, in movie ticks: an empty edit when not 0.
        var delay: UInt64

        /// Its media duration in movie ticks.
        var movieDuration: UInt64 { scaled(table.duration, from: UInt64(header.timescale)) }

        /// Its duration on the movie's timeline (the delay, then its media), in movie ticks.
        var presentedDuration: UInt64 {
            let sum = delay.addingReportingOverflow(movieDuration)
            return sum.overflow ? .max : sum.partialValue
        }

        /// Its duration in seconds, the delay included.
        var seconds: Double { Double(delay) / Double(movieTimescale) + Double(table.duration) / Double(header.timescale) }
    }

    /// The tracks with samples, each with its delay behind the earliest first decode time.
    static func outputTracks(_ tracks: [TrackHeader], _ tables: [SampleTable]) -> [OutputTrack] {
        let kept = zip(tracks, tables).filter { $0.1.count > 0 }
        let earliest = kept.map { Double($0.1.firstDecodeTime) / Double($0.0.timescale) }.min() ?? 0
        return kept.map { header, table in
            let start = Double(table.firstDecodeTime) / Double(header.timescale)
            let delay = ((start - earliest) * Double(movieTimescale)).rounded()
            return OutputTrack(header: header, table: table, delay: delay < 9e15 ? UInt64(delay) : 0)
        }
    }

    /// `value` ticks of `timescale` in movie ticks, rounded down; saturates instead of overflowing.
    static func scaled(_ value: UInt64, from timescale: UInt64) -> UInt64 {
        let whole = (value / timescale).multipliedReportingOverflow(by: movieTimescale)
        guard !whole.overflow else { return .max }
        let sum = whole.partialValue.addingReportingOverflow(value % timescale * movieTimescale / timescale)
        return sum.overflow ? .max : sum.partialValue
    }

    /// The output's `ftyp`.
    static func fileType() -> [UInt8] {
        var out = CMAFBoxBuilder()
        out.box("ftyp") { ftyp in
            ftyp.fourCC("isom")
            ftyp.u32(512)
            for brand in ["isom", "iso2", "avc1", "mp41"] { ftyp.fourCC(brand) }
        }
        return out.bytes
    }

    /// The output's `moov` for `tracks` whose media data starts at byte `dataStart` of the output,
    /// with 64-bit chunk offsets (`co64`) when `wide`.
    static func movie(_ tracks: [OutputTrack], dataStart: Int64, wide: Bool) -> [UInt8] {
        var out = CMAFBoxBuilder()
        let duration = tracks.map(\.presentedDuration).max() ?? 0
        out.box("moov") { moov in
            let long = duration > UInt32.max
            moov.fullBox("mvhd", version: long ? 1 : 0) { mvhd in
                times(&mvhd, timescale: UInt32(movieTimescale), duration: duration, long: long)
                mvhd.u32(0x0001_0000)      // rate 1.0
                mvhd.u16(0x0100)           // volume 1.0
                mvhd.zeros(10)
                mvhd.unityMatrix()
                mvhd.zeros(24)             // pre_defined
                let next = (tracks.map(\.header.id).max() ?? 0).addingReportingOverflow(1)
                mvhd.u32(next.overflow ? 0xFFFF_FFFF : next.partialValue)
            }
            for track in tracks { trak(track, into: &moov, dataStart: dataStart, wide: wide) }
        }
        return out.bytes
    }

    /// Creation and modification times (0), `timescale` when not nil, and `duration`: 32 or 64-bit.
    private static func times(_ box: inout CMAFBoxBuilder, id: UInt32? = nil, timescale: UInt32?, duration: UInt64, long: Bool) {
        if long { box.u64(0); box.u64(0) } else { box.u32(0); box.u32(0) }
        if let timescale { box.u32(timescale) }
        if let id {
            box.u32(id)
            box.u32(0)                     // reserved
        }
        if long { box.u64(duration) } else { box.u32(UInt32(truncatingIfNeeded: duration)) }
    }

    private static func trak(_ track: OutputTrack, into moov: inout CMAFBoxBuilder, dataStart: Int64, wide: Bool) {
        let header = track.header
        moov.box("trak") { trak in
            let presented = track.presentedDuration
            trak.fullBox("tkhd", version: presented > UInt32.max ? 1 : 0, flags: 0x3) { tkhd in   // enabled, in movie
                times(&tkhd, id: header.id, timescale: nil, duration: presented, long: presented > UInt32.max)
                tkhd.zeros(8)
                tkhd.u16(0)                                 // layer
                tkhd.u16(0)                                 // alternate_group
                tkhd.u16(header.isVideo ? 0 : 0x0100)       // volume
                tkhd.u16(0)
                tkhd.unityMatrix()
                tkhd.u32(header.width)
                tkhd.u32(header.height)
            }
            if track.delay > 0 {
                // An empty edit keeps a track that starts later than the other where it was.
                trak.box("edts") { edts in
                    let long = presented > UInt32.max
                    edts.fullBox("elst", version: long ? 1 : 0) { elst in
                        elst.u32(2)
                        for (length, time) in [(track.delay, Int64(-1)), (track.movieDuration, 0)] {
                            if long { elst.u64(length); elst.u64(UInt64(bitPattern: time)) } else {
                                elst.u32(UInt32(truncatingIfNeeded: length))
                                elst.u32(UInt32(truncatingIfNeeded: time))
                            }
                            elst.u32(0x0001_0000)           // media rate 1.0
                        }
                    }
                }
            }
            trak.box("mdia") { mdia in
                let long = track.table.duration > UInt32.max
                mdia.fullBox("mdhd", version: long ? 1 : 0) { mdhd in
                    times(&mdhd, timescale: header.timescale, duration: track.table.duration, long: long)
                    mdhd.u16(header.language)
                    mdhd.u16(0)
                }
                mdia.fullBox("hdlr") { hdlr in
                    hdlr.u32(0)
                    hdlr.fourCC(header.isVideo ? "vide" : "soun")
                    hdlr.zeros(12)
                    hdlr.append((header.isVideo ? "VideoHandler" : "SoundHandler").utf8)
                    hdlr.u8(0)
                }
                mdia.box("minf") { minf in
                    if header.isVideo {
                        minf.fullBox("vmhd", flags: 1) { $0.zeros(8) }
                    } else {
                        minf.fullBox("smhd") { $0.zeros(4) }
                    }
                    minf.box("dinf") { dinf in
                        dinf.fullBox("dref") { dref in
                            dref.u32(1)
                            dref.fullBox("url ", flags: 1) { _ in }   // the data is in this file
                        }
                    }
                    minf.box("stbl") { sampleTables(track, into: &$0, dataStart: dataStart, wide: wide) }
                }
            }
        }
    }
}
