extension FragmentedMP4Flattener {
    /// One sample of a run: what the sample tables need, never its bytes.
    struct Sample: Sendable, Equatable {
        var duration: UInt32
        var size: UInt32
        var flags: UInt32
        var compositionOffset: Int32

        /// Whether `sample_is_non_sync_sample` is clear.
        var isSync: Bool { flags & 0x0001_0000 == 0 }
    }

    /// One `trun` of a track the output keeps: its samples lie end to end in the source.
    struct Run: Sendable, Equatable {
        /// The index of its track in the init segment's tracks.
        var track: Int
        /// The `tfdt` decode time for a traf's first run; nil for the runs after it, and when
        /// the traf has no `tfdt` (the run goes on from where its track ended).
        var decodeTime: UInt64?
        /// The `stsd` entry its samples use, from 1.
        var descriptionIndex: UInt32
        /// Where its first sample starts in the source.
        var dataOffset: Int64
        /// Its samples' bytes in all.
        var byteCount: Int64
        var samples: [Sample]
    }

    /// The most samples a `trun` without per-sample fields may announce (it spends no bytes on
    /// them, so its count alone cannot be checked against the box).
    static let maximumImplicitSamples: UInt32 = 1 << 20

    /// The runs of the `moof` in `moof` (the whole box, its header of `headerLength` bytes
    /// included, which starts at byte `start` of a source of `fileSize` bytes) for `tracks`, or nil when it is not whole: a box
    /// in it that lies about its size, a missing `mfhd` or `tfhd`, a `trun` cut short, or a
    /// sample whose bytes are not all inside the file. Trafs of other tracks are skipped.
    static func runs(inMoof moof: [UInt8], headerLength: Int, at start: Int64, tracks: [TrackHeader], fileSize: Int64) -> [Run]? {
        func kids(_ box: MP4Box) -> [MP4Box]? {
            let (boxes, broken) = MP4Box.walk(moof, in: box.body)
            return broken == nil ? boxes : nil
        }
        guard let top = kids(MP4Box(type: "moof", start: 0, payload: headerLength, end: moof.count)),
              let mfhd = top.first(where: { $0.type == "mfhd" }), LiveByteReader(moof, mfhd).remaining >= 8 else { return nil }
        var runs: [Run] = []
        // Without an explicit base, a traf's data starts where the previous traf's ended (the first's at the moof).
        var previousEnd = start
        var first = true
        for traf in top where traf.type == "traf" {
            guard let boxes = kids(traf), let tfhd = boxes.first(where: { $0.type == "tfhd" }) else { return nil }
            var header = LiveByteReader(moof, tfhd)
            guard let (_, flags) = header.versionAndFlags(), let id = header.u32() else { return nil }
            let index = tracks.firstIndex { $0.id == id }
            var defaults = index.map { tracks[$0].defaults } ?? SampleDefaults()
            var base = flags & 0x2_0000 != 0 || first ? start : previousEnd
            if flags & 0x1 != 0 {
                guard let offset = header.u64(), offset <= UInt64(Int64.max) else { return nil }
                base = Int64(offset)
            }
            if flags & 0x2 != 0 { guard let value = header.u32() else { return nil }; defaults.descriptionIndex = value }
            if flags & 0x8 != 0 { guard let value = header.u32() else { return nil }; defaults.duration = value }
            if flags & 0x10 != 0 { guard let value = header.u32() else { return nil }; defaults.size = value }
            if flags & 0x20 != 0 { guard let value = header.u32() else { return nil }; defaults.flags = value }
            var decodeTime: UInt64?
            if let tfdt = boxes.first(where: { $0.type == "tfdt" }) {
                var fields = LiveByteReader(moof, tfdt)
                guard let (version, _) = fields.versionAndFlags() else { return nil }
                guard let time = version == 1 ? fields.u64() : fields.u32().map(UInt64.init) else { return nil }
                decodeTime = time
            }
            var runStart = base
            for trun in boxes where trun.type == "trun" {
                guard var run = self.run(LiveByteReader(moof, trun), start: runStart, base: base, defaults: defaults, fileSize: fileSize) else {
                    return nil
                }
                runStart = run.dataOffset + run.byteCount
                guard let index else { continue }
                run.track = index
                run.decodeTime = decodeTime
                decodeTime = nil
                runs.append(run)
            }
            previousEnd = runStart
            first = false
        }
        return runs
    }

    /// One `trun`: its samples from `start` (where the previous run ended) unless it has a data
    /// offset from `base`; nil when it is cut short or a sample lies outside the file.
    private static func run(_ trun: LiveByteReader, start: Int64, base: Int64, defaults: SampleDefaults, fileSize: Int64) -> Run? {
        var fields = trun
        guard let (version, flags) = fields.versionAndFlags(), let count = fields.u32() else { return nil }
        var dataOffset = start
        if flags & 0x1 != 0 {
            guard let offset = fields.u32() else { return nil }
            let sum = base.addingReportingOverflow(Int64(Int32(bitPattern: offset)))
            guard !sum.overflow else { return nil }
            dataOffset = sum.partialValue
        }
        var firstFlags: UInt32?
        if flags & 0x4 != 0 { guard let value = fields.u32() else { return nil }; firstFlags = value }
        let perSample = [0x100, 0x200, 0x400, 0x800].filter { flags & UInt32($0) != 0 }.count * 4
        guard perSample > 0 ? Int(count) <= fields.remaining / perSample : count <= maximumImplicitSamples else { return nil }
        var samples: [Sample] = []
        samples.reserveCapacity(Int(count))
        var byteCount: Int64 = 0
        for number in 0 ..< Int(count) {
            var sample = Sample(duration: defaults.duration, size: defaults.size, flags: defaults.flags, compositionOffset: 0)
            if number == 0, let firstFlags { sample.flags = firstFlags }
            // The count was checked against the box: these reads cannot fail, but stay checked.
            if flags & 0x100 != 0 { guard let value = fields.u32() else { return nil }; sample.duration = value }
            if flags & 0x200 != 0 { guard let value = fields.u32() else { return nil }; sample.size = value }
            if flags & 0x400 != 0 { guard let value = fields.u32() else { return nil }; sample.flags = value }
            if flags & 0x800 != 0 {
                guard let value = fields.u32() else { return nil }
                // Version 0 offsets are unsigned; one past Int32.max is no real offset, and is clamped.
                sample.compositionOffset = version == 0 ? Int32(clamping: value) : Int32(bitPattern: value)
            }
            byteCount += Int64(sample.size)
            samples.append(sample)
        }
        guard dataOffset >= 0, dataOffset <= fileSize, byteCount <= fileSize - dataOffset else { return nil }
        return Run(track: 0, decodeTime: nil, descriptionIndex: defaults.descriptionIndex, dataOffset: dataOffset,
                   byteCount: byteCount, samples: samples)
    }
}
