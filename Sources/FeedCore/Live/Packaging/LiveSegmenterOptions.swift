/// How ``LiveSegmenter`` cuts a live stream: the part and segment targets, how many segments the
/// playlist keeps, and how large a timestamp jump is taken as a discontinuity.
public struct LiveSegmenterOptions: Sendable, Equatable {
    /// The longest a part may last, in seconds (`PART-TARGET`): 0.2–0.5. A part is closed
    /// before the sample that would take it over; only a single sample longer than this makes a
    /// longer part.
    public var partTarget: Double
    /// The shortest a segment lasts, in seconds: 1–30. A segment closes at the first video key
    /// frame at or after it, so the publisher's key frame interval should be at most this; with
    /// key frames further apart, segments are cut without one (see ``LiveSegmenter``).
    public var segmentTarget: Double
    /// How many complete segments the playlist lists (at least 3): older ones leave it, and
    /// their files are given back (``LiveSegmenter/Event/removed(_:)``) once they have been out
    /// of it for as many segments again plus one.
    public var windowSegments: Int
    /// A forward timestamp jump longer than this, in seconds, is a discontinuity (as is any
    /// jump backwards): 1–600.
    public var maximumGap: Double
    /// How far past the last key frame a video frame may come while no key frame does, in
    /// seconds: from the segment target to 600. Later ones are refused until the next key frame
    /// (``LivePackagingError/keyFramesTooFarApart(seconds:)``; the last frame kept lasts until
    /// it), so a publisher that sends none is told, and a player joining finds a key frame within
    /// this (a frame on the same time as the one before counts a millisecond).
    public var maximumSegment: Double

    /// The options; the defaults suit a 1 s key frame interval. The part target is 0.34 s rather
    /// than a third of a second because FLV's millisecond timestamps make ten frames at 30 fps
    /// last 333 or 334 ms: a 0.333 s target would cut parts of nine frames and a tenth of a second
    /// left at the end of each segment, 0.34 s cuts three parts of ten.
    public init(partTarget: Double = 0.34, segmentTarget: Double = 1, windowSegments: Int = 8, maximumGap: Double = 10,
                maximumSegment: Double = 20) {
        self.partTarget = partTarget
        self.segmentTarget = segmentTarget
        self.windowSegments = windowSegments
        self.maximumGap = maximumGap
        self.maximumSegment = maximumSegment
    }

    /// Throws unless every option is in its range.
    /// - Throws: ``LivePackagingError/invalidOption(name:problem:)`` naming the first that is not.
    public func validate() throws(LivePackagingError) {
        guard partTarget.isFinite, (0.2 ... 0.5).contains(partTarget) else {
            throw .invalidOption(name: "part target", problem: "\(partTarget) s is not between 0.2 and 0.5 s")
        }
        guard segmentTarget.isFinite, (1 ... 30).contains(segmentTarget) else {
            throw .invalidOption(name: "segment target", problem: "\(segmentTarget) s is not between 1 and 30 s")
        }
        guard windowSegments >= 3 else {
            throw .invalidOption(name: "window", problem: "\(windowSegments) segments is fewer than 3")
        }
        guard maximumGap.isFinite, (1 ... 600).contains(maximumGap) else {
            throw .invalidOption(name: "maximum gap", problem: "\(maximumGap) s is not between 1 and 600 s")
        }
        guard maximumSegment.isFinite, (segmentTarget ... 600).contains(maximumSegment) else {
            throw .invalidOption(name: "maximum segment", problem: "\(maximumSegment) s is not between the segment target and 600 s")
        }
    }
}
