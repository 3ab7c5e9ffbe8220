import Foundation

/// A trained model, as every server serving For You holds it in memory: the videos it knows,
/// each one's author, hashtags and quality (how much of it viewers watch), its nearest
/// neighbours by co-watching (viewers who watched one watched the other, weighted by how much),
/// what is trending, and the best videos of each hashtag. ``RecsTrainer`` makes it; the
/// catalog keeps it as bytes (``encoded()``, ``init(decoding:info:)``).
public struct RecsModel: Sendable {
    /// Its row in the catalog.
    public var info: ModelInfo
    /// The videos' ids, ascending: a video's index is its place here.
    public internal(set) var videos: [Int64]
    /// Authors' names; ``videoAuthor`` indexes them.
    var authors: [String]
    /// Each video's author (an index into ``authors``).
    var videoAuthor: [Int32]
    /// Hashtags; ``videoTags`` indexes them.
    var tags: [String]
    /// Each video's hashtags: `tagList[tagOffsets[v]..<tagOffsets[v+1]]`.
    var tagOffsets: [Int32]
    var tagList: [Int32]
    /// Each video's neighbours, most similar first: `neighbours[neighbourOffsets[v]..<neighbourOffsets[v+1]]`, with `similarity` beside.
    var neighbourOffsets: [Int32]
    var neighbours: [Int32]
    var similarity: [Float]
    /// Each video's quality: the share of it viewers watch (smoothed toward the mean), 0…1.5.
    var quality: [Float]
    /// The trending videos, most first, and their scores.
    var trending: [Int32]
    var trendScore: [Float]
    /// Each hashtag's best videos: `tagTop[tagTopOffsets[t]..<tagTopOffsets[t+1]]`.
    var tagTopOffsets: [Int32]
    var tagTop: [Int32]

    /// Video index by id, hashtag index by name, and each author's videos, best quality first
    /// (built when made or read).
    let index: [Int64: Int32]
    let tagIndex: [String: Int32]
    let authorVideos: [String: [Int32]]

    init(info: ModelInfo, videos: [Int64], authors: [String], videoAuthor: [Int32], tags: [String], tagOffsets: [Int32], tagList: [Int32],
         neighbourOffsets: [Int32], neighbours: [Int32], similarity: [Float], quality: [Float], trending: [Int32], trendScore: [Float],
         tagTopOffsets: [Int32], tagTop: [Int32]) {
        self.info = info
        self.videos = videos
        self.authors = authors
        self.videoAuthor = videoAuthor
        self.tags = tags
        self.tagOffsets = tagOffsets
        self.tagList = tagList
        self.neighbourOffsets = neighbourOffsets
        self.neighbours = neighbours
        self.similarity = similarity
        self.quality = quality
        self.trending = trending
        self.trendScore = trendScore
        self.tagTopOffsets = tagTopOffsets
        self.tagTop = tagTop
        var index: [Int64: Int32] = [:]
        index.reserveCapacity(videos.count)
        for (i, id) in videos.enumerated() { index[id] = Int32(i) }
        self.index = index
        var tagIndex: [String: Int32] = [:]
        for (i, tag) in tags.enumerated() { tagIndex[tag] = Int32(i) }
        self.tagIndex = tagIndex
        var byAuthor: [Int32: [Int32]] = [:]
        for (v, a) in videoAuthor.enumerated() where a >= 0 { byAuthor[a, default: []].append(Int32(v)) }
        var authorVideos: [String: [Int32]] = [:]
        for (a, list) in byAuthor {
            authorVideos[authors[Int(a)]] = list.sorted { quality[Int($0)] != quality[Int($1)] ? quality[Int($0)] > quality[Int($1)] : $0 > $1 }
        }
        self.authorVideos = authorVideos
    }

    /// The author of video `v` (an index).
    func author(_ v: Int32) -> String? {
        let a = videoAuthor[Int(v)]
        return a >= 0 ? authors[Int(a)] : nil
    }

    /// The hashtags of video `v`, as indexes.
    func tagIndexes(_ v: Int32) -> ArraySlice<Int32> { tagList[Int(tagOffsets[Int(v)])..<Int(tagOffsets[Int(v) + 1])] }

    /// The neighbours of video `v` and their similarity.
    func neighbourRange(_ v: Int32) -> Range<Int> { Int(neighbourOffsets[Int(v)])..<Int(neighbourOffsets[Int(v) + 1]) }

    /// The best videos of hashtag `t`.
    func topOfTag(_ t: Int32) -> ArraySlice<Int32> { tagTop[Int(tagTopOffsets[Int(t)])..<Int(tagTopOffsets[Int(t) + 1])] }

    /// The `count` videos most similar to `video` (an id), most similar first, with their similarity.
    public func similar(to video: Int64, count: Int = 20) -> [(video: Int64, similarity: Float)] {
        guard let v = index[video] else { return [] }
        return neighbourRange(v).prefix(count).map { (videos[Int(neighbours[$0])], similarity[$0]) }
    }

    /// The trending videos' ids, most first.
    public var trendingVideos: [Int64] { trending.map { videos[Int($0)] } }

    /// The quality of `video` (an id), if the model knows it.
    public func quality(of video: Int64) -> Float? { index[video].map { quality[Int($0)] } }
}

extension RecsModel {
    /// Its version in the catalog.
    public var version: Int64 { info.version }
}
