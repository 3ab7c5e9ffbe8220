/// What `feed live publish` sends: files one after another (again from the first with `loop`),
/// as RTMP media messages on one continuous clock, each to be sent at its timestamp in
/// milliseconds from the start.
///
/// Every file is opened first (``init(paths:loop:)``), so a file that cannot be sent is refused
/// before anything goes out. A live stream keeps one codec configuration (the server refuses a
/// change), so every file must have the first one's H.264 and AAC configuration, or none of the
/// first's audio either. Within a file, video and audio packets are interleaved by decoding time;
/// the next file (or the next loop) starts where the longer track of the one before ended, so
/// timestamps never go back. The sequence headers come first, at 0.
public final class LivePublishSource {
    /// The files, as given.
    public let paths: [String]
    /// Whether the files repeat until the caller stops.
    public let loop: Bool
    /// The first file's picture: what the metadata announces.
    public let info: MediaInfo
    private let videoConfiguration: [UInt8]
    private let audioConfiguration: [UInt8]?
    private var pending: [RTMPMediaMessage]
    private var reader: MediaPacketReader?
    private var index = 0
    private var file = FileClock()

    /// Where a file's packets land on the stream's clock.
    private struct FileClock {
        /// The stream time the file starts at, ms.
        var base: Int64 = 0
        /// The file's earliest decoding time, once its first packets are in.
        var origin: Int64?
        /// Where each track's last packet ends, in stream time.
        var videoEnd: Int64 = 0
        var audioEnd: Int64 = 0
        var lastVideo: Int64?
        var lastAudio: Int64?
        var video: [MediaPacket] = []
        var audio: [MediaPacket] = []
        var drained = false
    }

    /// Opens every file to check it, keeping the first open.
    /// - Throws: ``MediaError`` naming the first file that cannot be read or sent, or
    ///   ``MediaError/refused(path:reason:)`` for one whose configuration differs from the first's.
    public init(paths: [String], loop: Bool) throws(MediaError) {
        precondition(!paths.isEmpty, "at least one file")
        self.paths = paths
        self.loop = loop
        let first = try MediaPacketReader(path: paths[0])
        for path in paths.dropFirst() {
            let other = try MediaPacketReader(path: path)
            guard other.videoConfiguration == first.videoConfiguration else {
                throw .refused(path: path, reason: "its H.264 configuration (\(other.info.codedWidth)x\(other.info.codedHeight)) differs from \(paths[0])'s (\(first.info.codedWidth)x\(first.info.codedHeight)); a live stream keeps one: encode the files alike")
            }
            guard other.audioConfiguration == first.audioConfiguration else {
                throw .refused(path: path, reason: "its audio (\(other.info.audioCodec ?? "none")) is not configured as \(paths[0])'s (\(first.info.audioCodec ?? "none")); a live stream keeps one: encode the files alike")
            }
        }
        info = first.info
        videoConfiguration = first.videoConfiguration
        audioConfiguration = first.audioConfiguration
        reader = first
        pending = [.avcSequenceHeader(first.videoConfiguration, timestamp: 0)]
        if let audio = first.audioConfiguration { pending.append(.aacSequenceHeader(audio, timestamp: 0)) }
    }

    /// `onMetaData`'s properties for the stream: the first file's size and rate and the codecs.
    public var metadata: [AMF0.Property] {
        var properties: [AMF0.Property] = [
            AMF0.Property("width", .number(Double(info.displayWidth))), AMF0.Property("height", .number(Double(info.displayHeight))),
            AMF0.Property("framerate", .number(info.nominalFPS)), AMF0.Property("videocodecid", .number(7)),
        ]
        if audioConfiguration != nil {
            properties.append(AMF0.Property("audiocodecid", .number(10)))
            if let rate = info.audioSampleRate { properties.append(AMF0.Property("audiosamplerate", .number(Double(rate)))) }
        }
        properties.append(AMF0.Property("encoder", .string("feed live publish")))
        return properties
    }

    /// The next message, or nil once the last file ended (never with `loop`).
    /// - Throws: ``MediaError`` when a file cannot be read on.
    public func next() throws(MediaError) -> RTMPMediaMessage? {
        while pending.isEmpty {
            guard try fill() else { return nil }
        }
        return pending.removeFirst()
    }

    /// Where the stream ends after the last message: the end of the longer track, in ms.
    public var end: Int64 { max(file.videoEnd, file.audioEnd, file.base) }

    /// Reads on until a message is pending; false at the end of the last file.
    private func fill() throws(MediaError) -> Bool {
        guard let reader else { return false }
        // Read until each track present has a packet queued (or the file ends), so that the
        // earlier of the two goes first.
        while !file.drained, file.video.isEmpty || (audioConfiguration != nil && file.audio.isEmpty) {
            guard let packet = try reader.next() else { file.drained = true; break }
            if packet.track == .video { file.video.append(packet) } else if audioConfiguration != nil { file.audio.append(packet) }
            if file.origin == nil, !file.video.isEmpty, audioConfiguration == nil || !file.audio.isEmpty || file.drained {
                file.origin = min(file.video[0].decodeTime, file.audio.first?.decodeTime ?? .max)
            }
        }
        if file.origin == nil, file.drained {
            file.origin = min(file.video.first?.decodeTime ?? 0, file.audio.first?.decodeTime ?? 0)
        }
        guard let video = file.video.first else {
            guard let audio = file.audio.first else { try nextFile(); return true }
            file.audio.removeFirst()
            pending.append(message(audio))
            return true
        }
        if let audio = file.audio.first, audio.decodeTime < video.decodeTime {
            file.audio.removeFirst()
            pending.append(message(audio))
        } else {
            file.video.removeFirst()
            pending.append(message(video))
        }
        return true
    }

    private func message(_ packet: MediaPacket) -> RTMPMediaMessage {
        let time = file.base + packet.decodeTime - (file.origin ?? 0)
        let stamp = UInt32(truncatingIfNeeded: max(0, time))
        switch packet.track {
        case .video:
            let step = packet.duration > 0 ? packet.duration : file.lastVideo.map { max(1, time - $0) } ?? 1
            file.lastVideo = time
            file.videoEnd = max(file.videoEnd, time + step)
            let offset = Int32(clamping: packet.presentationTime - packet.decodeTime)
            return .avcFrame(packet.bytes, key: packet.isKey, timestamp: stamp, compositionOffset: offset)
        case .audio:
            let step = packet.duration > 0 ? packet.duration : file.lastAudio.map { max(1, time - $0) } ?? 1
            file.lastAudio = time
            file.audioEnd = max(file.audioEnd, time + step)
            return .aacFrame(packet.bytes, timestamp: stamp)
        }
    }

    /// Moves to the next file (or back to the first when looping); no reader past the end.
    private func nextFile() throws(MediaError) {
        let base = end
        index += 1
        if index == paths.count {
            guard loop else { reader = nil; return }
            index = 0
        }
        let next = try MediaPacketReader(path: paths[index])
        // Checked at the start too; this one may have changed on disk since.
        guard next.videoConfiguration == videoConfiguration, next.audioConfiguration == audioConfiguration else {
            throw .refused(path: paths[index], reason: "its codec configuration changed since the start; a live stream keeps one")
        }
        reader = next
        file = FileClock(base: base, videoEnd: base, audioEnd: base)
    }
}
