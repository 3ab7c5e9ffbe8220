/// The viewers × videos wishes of training, both ways (each viewer's videos, each video's
/// viewers, as compressed rows), and each video's nearest neighbours by co-watching: the cosine
/// of two videos' columns, times `shared / (shared + shrinkage)` for `shared` viewers in common.
struct CoWatchGraph: Sendable {
    let videos: Int
    let rowOffsets: [Int32]
    let rowVideos: [Int32]
    let rowWeights: [Float]
    let columnOffsets: [Int32]
    let columnViewers: [Int32]
    let columnWeights: [Float]
    let norms: [Float]
    let keep: Int
    let shrinkage: Float

    /// The neighbours of videos `start`, `start + stride`, …: each video, its neighbours and
    /// their similarities, most similar first.
    func neighbours(from start: Int, stride: Int) -> [(Int32, [Int32], [Float])] {
        var dot = [Float](repeating: 0, count: videos), common = [Int32](repeating: 0, count: videos)
        var touched: [Int32] = []
        var out: [(Int32, [Int32], [Float])] = []
        rowOffsets.withUnsafeBufferPointer { rowOffsets in
            rowVideos.withUnsafeBufferPointer { rowVideos in
                rowWeights.withUnsafeBufferPointer { rowWeights in
                    columnOffsets.withUnsafeBufferPointer { columnOffsets in
                        columnViewers.withUnsafeBufferPointer { columnViewers in
                            columnWeights.withUnsafeBufferPointer { columnWeights in
                                var v = start
                                while v < videos {
                                    touched.removeAll(keepingCapacity: true)
                                    for c in Int(columnOffsets[v])..<Int(columnOffsets[v + 1]) {
                                        let u = Int(columnViewers[c]), wu = columnWeights[c]
                                        for k in Int(rowOffsets[u])..<Int(rowOffsets[u + 1]) {
                                            let j = Int(rowVideos[k])
                                            if j == v { continue }
                                            if common[j] == 0 { touched.append(Int32(j)) }
                                            common[j] += 1
                                            dot[j] += wu * rowWeights[k]
                                        }
                                    }
                                    var best = TopK(capacity: keep)
                                    for j32 in touched {
                                        let j = Int(j32)
                                        let shared = Float(common[j])
                                        best.offer(dot[j] / (norms[v] * norms[j]) * shared / (shared + shrinkage), j32)
                                        dot[j] = 0
                                        common[j] = 0
                                    }
                                    let sorted = best.sorted()
                                    out.append((Int32(v), sorted.map(\.1), sorted.map(\.0)))
                                    v += stride
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
