import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

/// Real media for the live packaging tests, made with the ffmpeg CLI, the packaging of it into a
/// folder, and readers of what was written.
enum LiveMedia {
    /// The kinds of stream a publisher sends.
    enum Variant: String, CaseIterable, CustomTestStringConvertible, Sendable {
        /// 320x240 at 30 fps with a 440 Hz tone, a key frame a second, no B-frames.
        case plain
        /// The same with two B-frames, so composition offsets are not zero.
        case bFrames
        /// Video only.
        case videoOnly
        /// Sound only.
        case audioOnly
        /// 1080x1920 4:2:0 for a second, a picture whose width is cropped from 1088 coded pixels.
        case portrait

        var testDescription: String { rawValue }

        var hasVideo: Bool { self != .audioOnly }
        var hasAudio: Bool { self != .videoOnly }

        /// ffmpeg's arguments that write this variant as FLV to `output`.
        func arguments(output: String) -> [String] {
            let size = self == .portrait ? "1080x1920" : "320x240"
            let seconds = self == .portrait ? "1" : "4"
            var arguments = ["-v", "error", "-y"]
            if hasVideo { arguments += ["-f", "lavfi", "-i", "testsrc=size=\(size):rate=30"] }
            if hasAudio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440"] }
            arguments += ["-t", seconds]
            if hasVideo {
                // testsrc is RGB, so x264 encodes 4:4:4 (High 4:4:4) unless told; the portrait clip
                // is 4:2:0 as OBS sends, so both crop units (1 and 2 pixels) are read.
                arguments += ["-c:v", "libx264", "-g", "30", "-bf", self == .bFrames ? "2" : "0"]
                if self == .portrait { arguments += ["-preset", "ultrafast", "-pix_fmt", "yuv420p"] }
            }
            if hasAudio { arguments += ["-c:a", "aac"] }
            return arguments + ["-f", "flv", output]
        }
    }

    /// The avcC record of a 320x240 yuv420p High profile x264 stream, as ffmpeg's FLV muxer sent it.
    static let avcRecord = bytes("0164000dffe100176764000dacb20283f60220000003002000000781e2854901000668ebc3cb22c0fdf8f800")
    /// An AudioSpecificConfig: AAC-LC, 44.1 kHz, mono.
    static let aacConfig: [UInt8] = [0x12, 0x08]

    /// `hex` as bytes.
    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index ..< next], radix: 16)!)
            index = next
        }
        return out
    }

    /// A video frame at `ms`: one NAL unit of five bytes.
    static func videoFrame(_ ms: Int64, key: Bool, offset: Int32 = 0) -> LiveSample {
        LiveSample(track: .video, decodeTime: ms, compositionOffset: offset, isKeyFrame: key, payload: [0, 0, 0, 1, key ? 0x65 : 0x41])
    }

    /// An AAC frame at `ms`.
    static func audioFrame(_ ms: Int64) -> LiveSample {
        LiveSample(track: .audio, decodeTime: ms, isKeyFrame: true, payload: [0x21, 0x10, 0x04])
    }

    /// `seconds` of a stream as FLV times it (milliseconds, rounded): video at `fps` with a key
    /// frame every `gop` frames, AAC frames of 1024 samples at 44.1 kHz, interleaved by time
    /// (audio first on a tie).
    static func stream(seconds: Double, fps: Double = 30, gop: Int = 30, video: Bool = true, audio: Bool = true) -> [LiveSample] {
        var samples: [LiveSample] = []
        if audio {
            for index in 0 ..< Int(seconds * 44_100 / 1024) {
                samples.append(audioFrame(Int64((Double(index) * 1024 * 1000 / 44_100).rounded())))
            }
        }
        if video {
            for index in 0 ..< Int(seconds * fps) {
                samples.append(videoFrame(Int64((Double(index) * 1000 / fps).rounded()), key: index % gop == 0))
            }
        }
        // A stable sort: audio, added first, stays first on a tie.
        return samples.enumerated().sorted { ($0.element.decodeTime, $0.offset) < ($1.element.decodeTime, $1.offset) }.map(\.element)
    }

    /// A seeded SplitMix64, for hostile bytes that are the same on every run.
    struct Random: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// `count` random bytes.
        mutating func bytes(_ count: Int) -> [UInt8] { (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &self) } }
    }

    /// A tool that failed.
    struct ToolFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `tool` (`ffmpeg`, `ffprobe`) with `arguments` through the house's async process helper
    /// (no thread of the cooperative pool waits) and returns its standard output.
    /// - Throws: ``ToolFailure`` with the end of its standard error when it exits non-zero.
    static func run(_ tool: String, _ arguments: [String], in folder: ScratchFolder) async throws -> String {
        let name = UUID().uuidString
        let stdout = folder.path("\(name).out"), stderr = folder.path("\(name).err")
        _ = FileManager.default.createFile(atPath: stdout, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdout))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderr))
        let child = try await ChildProcess.run(process)
        defer {
            try? FileManager.default.removeItem(atPath: stdout)
            try? FileManager.default.removeItem(atPath: stderr)
        }
        let output = (try? String(contentsOfFile: stdout, encoding: .utf8)) ?? ""
        guard child.process.terminationStatus == 0 else {
            let errors = (try? String(contentsOfFile: stderr, encoding: .utf8)) ?? ""
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(child.process.terminationStatus): \(errors.suffix(2000))")
        }
        return output
    }

    /// Writes `variant` as `name` in `folder` with ffmpeg; its path.
    static func flv(_ variant: Variant, in folder: ScratchFolder, name: String = "in.flv") async throws -> String {
        let path = folder.path(name)
        _ = try await run("ffmpeg", variant.arguments(output: path), in: folder)
        return path
    }

    /// What packaging a file gave.
    struct Packaged: Sendable {
        /// The folder with init.mp4, the parts, the segments and playlist.m3u8.
        var directory: String
        /// Every event, in order.
        var events: [LiveSegmenter.Event]
        /// The segmenter after `finish()`.
        var segmenter: LiveSegmenter
        /// The playlist's text.
        var playlist: String

        var parts: [(part: LivePart, bytes: [UInt8])] {
            events.compactMap { if case .part(let part, let bytes) = $0 { (part, bytes) } else { nil } }
        }

        var segments: [(segment: LiveSegment, bytes: [UInt8])] {
            events.compactMap { if case .segment(let segment, let bytes) = $0 { (segment, bytes) } else { nil } }
        }
    }

    /// The tags of the FLV file at `path`, parsed.
    static func tags(of path: String) throws -> [FLVTag] {
        var reader = try FLVFileReader(path: path)
        var tags: [FLVTag] = []
        while let tag = try reader.next() {
            if let media = try FLVTag(type: tag.type, body: tag.body, timestamp: tag.timestamp) { tags.append(media) }
        }
        return tags
    }

    /// Feeds the FLV file at `path` through a segmenter and writes what it produces into
    /// `directory` (created): every file of every event, and the playlist after `finish()`.
    static func package(flv path: String, into directory: String, options: LiveSegmenterOptions = LiveSegmenterOptions(),
                        start: Date = Date(timeIntervalSince1970: 1_700_000_000)) throws -> Packaged {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var segmenter = try LiveSegmenter(options: options)
        var events: [LiveSegmenter.Event] = []
        for tag in try tags(of: path) { events += try segmenter.append(tag) }
        events += segmenter.finish()
        for event in events {
            switch event {
            case .initialization(let bytes): try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(LLHLSPlaylist.initURI)"))
            case .part(let part, let bytes): try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(part.uri)"))
            case .segment(let segment, let bytes): try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/\(segment.uri)"))
            case .removed(let segment):
                try FileManager.default.removeItem(atPath: "\(directory)/\(segment.uri)")
                for part in segment.parts { try FileManager.default.removeItem(atPath: "\(directory)/\(part.uri)") }
            case .discontinuity: break
            }
        }
        let playlist = segmenter.playlist(startingAt: start).text
        try playlist.write(toFile: "\(directory)/playlist.m3u8", atomically: true, encoding: .utf8)
        return Packaged(directory: directory, events: events, segmenter: segmenter, playlist: playlist)
    }
}
