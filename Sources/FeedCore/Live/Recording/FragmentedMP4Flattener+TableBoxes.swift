extension FragmentedMP4Flattener {
    /// The `stbl` children of `track`: its `stsd` as the init segment had it, then `stts`,
    /// `ctts` (when an offset is not 0; version 1 when one is negative), `stss` (video with a
    /// sample that is not sync), `stsz`, `stsc` (a chunk per fragment run) and `stco` or `co64`.
    static func sampleTables(_ track: OutputTrack, into stbl: inout CMAFBoxBuilder, dataStart: Int64, wide: Bool) {
        let table = track.table
        stbl.append(track.header.sampleDescriptions)
        stbl.fullBox("stts") { stts in
            let runs = SampleTable.runLengths(table.durations)
            stts.u32(UInt32(truncatingIfNeeded: runs.count))
            for run in runs {
                stts.u32(run.count)
                stts.u32(run.value)
            }
        }
        if table.compositionOffsets.contains(where: { $0 != 0 }) {
            let signed = table.compositionOffsets.contains { $0 < 0 }
            stbl.fullBox("ctts", version: signed ? 1 : 0) { ctts in
                let runs = SampleTable.runLengths(table.compositionOffsets)
                ctts.u32(UInt32(truncatingIfNeeded: runs.count))
                for run in runs {
                    ctts.u32(run.count)
                    ctts.u32(UInt32(bitPattern: run.value))
                }
            }
        }
        if track.header.isVideo && table.syncSamples.count != table.count {
            stbl.fullBox("stss") { stss in
                stss.u32(UInt32(truncatingIfNeeded: table.syncSamples.count))
                for number in table.syncSamples { stss.u32(number) }
            }
        }
        stbl.fullBox("stsz") { stsz in
            if let first = table.sizes.first, table.sizes.allSatisfy({ $0 == first }) {
                stsz.u32(first)
                stsz.u32(UInt32(truncatingIfNeeded: table.count))
            } else {
                stsz.u32(0)
                stsz.u32(UInt32(truncatingIfNeeded: table.count))
                for size in table.sizes { stsz.u32(size) }
            }
        }
        stbl.fullBox("stsc") { stsc in
            var entries: [(first: UInt32, samples: UInt32, description: UInt32)] = []
            for (index, chunk) in table.chunks.enumerated()
            where entries.last.map({ $0.samples != chunk.samples || $0.description != chunk.descriptionIndex }) ?? true {
                entries.append((UInt32(truncatingIfNeeded: index + 1), chunk.samples, chunk.descriptionIndex))
            }
            stsc.u32(UInt32(truncatingIfNeeded: entries.count))
            for entry in entries {
                stsc.u32(entry.first)
                stsc.u32(entry.samples)
                stsc.u32(entry.description)
            }
        }
        stbl.fullBox(wide ? "co64" : "stco") { offsets in
            offsets.u32(UInt32(truncatingIfNeeded: table.chunks.count))
            for chunk in table.chunks {
                let offset = UInt64(dataStart + chunk.position)
                if wide { offsets.u64(offset) } else { offsets.u32(UInt32(truncatingIfNeeded: offset)) }
            }
        }
    }
}
