extension FragmentedMP4Flattener {
    /// A track's samples gathered from the whole fragments, as the output's sample tables hold
    /// them: a few numbers per sample, no media bytes.
    struct SampleTable: Sendable, Equatable {
        /// One run of the fragments, one chunk of the output.
        struct Chunk: Sendable, Equatable {
            /// Where it starts in the output's media data, from the first byte after the mdat header.
            var position: Int64
            var samples: UInt32
            var descriptionIndex: UInt32
        }

        var durations: [UInt32] = []
        var sizes: [UInt32] = []
        var compositionOffsets: [Int32] = []
        /// The sync samples' numbers, from 1.
        var syncSamples: [UInt32] = []
        var chunks: [Chunk] = []
        /// The first sample's decode time, in the track's timescale.
        var firstDecodeTime: UInt64 = 0
        /// Where the next sample decodes.
        var end: UInt64 = 0

        var count: Int { sizes.count }

        /// The time from the first sample's decode time to the end of the last, in the track's timescale.
        var duration: UInt64 { end - firstDecodeTime }

        /// Adds `run`'s samples as a chunk at `position` of the media data. A decode time later
        /// than where the track ended lengthens the last sample by the gap, so what follows keeps
        /// its time; an earlier one (never written by ``CMAFWriter``) is ignored, so the samples
        /// keep their order and the run follows on.
        mutating func append(_ run: Run, at position: Int64) {
            guard !run.samples.isEmpty else { return }
            if let time = run.decodeTime {
                if sizes.isEmpty {
                    firstDecodeTime = time
                    end = time
                } else if time > end, let last = durations.indices.last {
                    // A gap past what one 32-bit duration holds keeps only as much of it.
                    let added = min(time - end, UInt64(UInt32.max - durations[last]))
                    durations[last] += UInt32(added)
                    end += added
                }
            }
            for sample in run.samples {
                durations.append(sample.duration)
                sizes.append(sample.size)
                compositionOffsets.append(sample.compositionOffset)
                if sample.isSync { syncSamples.append(UInt32(truncatingIfNeeded: sizes.count)) }
                // Saturating: a hostile tfdt near 2^64 must not trap.
                end = end.addingReportingOverflow(UInt64(sample.duration)).overflow ? .max : end + UInt64(sample.duration)
            }
            chunks.append(Chunk(position: position, samples: UInt32(truncatingIfNeeded: run.samples.count),
                                descriptionIndex: run.descriptionIndex))
        }

        /// `(count, value)` runs of equal neighbours of `values`.
        static func runLengths<Value: Equatable>(_ values: [Value]) -> [(count: UInt32, value: Value)] {
            var runs: [(count: UInt32, value: Value)] = []
            for value in values {
                if let last = runs.indices.last, runs[last].value == value {
                    runs[last].count += 1
                } else {
                    runs.append((1, value))
                }
            }
            return runs
        }
    }
}
