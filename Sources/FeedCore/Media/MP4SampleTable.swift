/// The parts of one track's sample table (`stbl`) that locate a sample in the file: sizes
/// (`stsz`/`stz2` are read as `stsz` only), chunks (`stsc`, `stco`/`co64`) and sync samples (`stss`).
struct MP4SampleTable {
    private let sizes: (constant: UInt32, table: [UInt32])
    private let chunkOffsets: [Int64]
    /// `stsc` runs: first chunk (1-based), samples per chunk.
    private let runs: [(firstChunk: Int, samples: Int)]
    /// The first sync sample (1-based); 1 when there is no `stss` (every sample is one).
    private let firstSync: Int

    /// The table in `bytes[stbl]`, or nil when a box it needs is missing or malformed.
    init?(_ bytes: [UInt8], stbl: MP4Box) {
        let boxes = MP4Box.children(of: bytes, in: stbl.body)
        func box(_ type: String) -> MP4Box? { boxes.first { $0.type == type } }
        // Every full box: version and flags (4), then an entry count (4) for most.
        guard let stsz = box("stsz"), stsz.payload + 12 <= stsz.end else { return nil }
        let constant = bytes.uint32(at: stsz.payload + 4)
        let sampleCount = Int(bytes.uint32(at: stsz.payload + 8))
        var table: [UInt32] = []
        if constant == 0 {
            guard sampleCount <= (stsz.end - stsz.payload - 12) / 4 else { return nil }
            // Only the samples up to the first sync sample's chunk are needed; read them all, they are small.
            table = (0 ..< sampleCount).map { bytes.uint32(at: stsz.payload + 12 + 4 * $0) }
        }
        sizes = (constant, table)

        let offsetsBox = box("stco") ?? box("co64")
        guard let offsetsBox, offsetsBox.payload + 8 <= offsetsBox.end else { return nil }
        let wide = offsetsBox.type == "co64"
        let chunks = Int(bytes.uint32(at: offsetsBox.payload + 4))
        guard chunks <= (offsetsBox.end - offsetsBox.payload - 8) / (wide ? 8 : 4) else { return nil }
        chunkOffsets = (0 ..< chunks).map { index in
            let at = offsetsBox.payload + 8 + index * (wide ? 8 : 4)
            return wide ? Int64(bitPattern: bytes.uint64(at: at)) : Int64(bytes.uint32(at: at))
        }

        guard let stsc = box("stsc"), stsc.payload + 8 <= stsc.end else { return nil }
        let entries = Int(bytes.uint32(at: stsc.payload + 4))
        guard entries > 0, entries <= (stsc.end - stsc.payload - 8) / 12 else { return nil }
        runs = (0 ..< entries).map { index in
            let at = stsc.payload + 8 + 12 * index
            return (Int(bytes.uint32(at: at)), Int(bytes.uint32(at: at + 4)))
        }

        if let stss = box("stss"), stss.payload + 12 <= stss.end, bytes.uint32(at: stss.payload + 4) > 0 {
            firstSync = Int(bytes.uint32(at: stss.payload + 8))
        } else {
            firstSync = 1
        }
        guard firstSync >= 1, firstSync <= sampleCount else { return nil }
    }

    /// The size of sample `number` (1-based).
    private func size(_ number: Int) -> Int64 {
        sizes.constant != 0 ? Int64(sizes.constant) : Int64(sizes.table[number - 1])
    }

    /// One past the last byte of the first sync sample, or nil when the chunks do not hold it.
    var firstSyncSampleEnd: Int64? {
        var sample = 1  // the first sample of the current chunk
        for (index, run) in runs.enumerated() {
            guard run.firstChunk >= 1, run.samples >= 0 else { return nil }
            let lastChunk = index + 1 < runs.count ? runs[index + 1].firstChunk - 1 : chunkOffsets.count
            guard lastChunk >= run.firstChunk - 1 else { return nil }
            for chunk in run.firstChunk ... max(run.firstChunk, lastChunk) where chunk <= lastChunk {
                guard chunk <= chunkOffsets.count else { return nil }
                if firstSync < sample + run.samples {
                    // Offsets and sizes are the file's word: a sum past Int64 is a hostile table.
                    var offset = chunkOffsets[chunk - 1]
                    guard offset >= 0 else { return nil }
                    for number in sample ... firstSync {
                        let (sum, overflow) = offset.addingReportingOverflow(size(number))
                        guard !overflow else { return nil }
                        offset = sum
                    }
                    return offset
                }
                sample += run.samples
            }
        }
        return nil
    }
}
