import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

/// `AudioSync` on corpus pairs (bench/sync-corpus.py: two microphones, rooms and noises per
/// pair) and on clips that must be refused.
@Suite("AudioSync", .offThePool)
struct AudioSyncTests {
    /// Eight 20 s pairs: six shared (speech and tones, SNR 20, 10, 5, 0, 15, 20 dB), two without shared sound.
    static func corpus() async throws -> [SyncCorpus.Pair] { try await SyncCorpus.pairs(count: 8, seconds: 20) }

    @Test("shared sound at SNR 5 dB and above: the offset within 33 ms (one frame at 30 fps)")
    func sharedPairs() async throws {
        let pairs = try await Self.corpus().filter { $0.offset != nil && ($0.snr ?? 0) >= 5 }
        #expect(pairs.count == 5)
        for pair in pairs {
            let result = try AudioSync.offset(front: pair.front, back: pair.back)
            #expect(abs(result.offset - pair.offset!) <= 0.033, "\(pair): found \(result.offset)")
            #expect(result.confidence >= SyncOptions.defaultMinConfidence)
            #expect(result.searched == -10...10)
        }
    }

    @Test("the back's clock 80 ppm slow (1.6 ms over 20 s): still found within 33 ms, still confident")
    func clockDrift() async throws {
        let pairs = try await SyncCorpus.pairs(count: 3, seconds: 20, kinds: "shared", drift: 80)
        #expect(pairs.count == 3)
        for pair in pairs {
            let result = try AudioSync.offset(front: pair.front, back: pair.back)
            #expect(abs(result.offset - pair.offset!) <= 0.033, "\(pair): found \(result.offset)")
            #expect(result.confidence >= 5, "\(pair)")
        }
    }

    @Test("at SNR 0 dB an answer may be refused, never wrong")
    func noisyPair() async throws {
        let pair = try #require(try await Self.corpus().first { $0.snr == 0 && $0.offset != nil })
        do throws(SyncError) {
            let result = try AudioSync.offset(front: pair.front, back: pair.back)
            #expect(abs(result.offset - pair.offset!) <= 0.1, "\(pair): found \(result.offset)")
        } catch {
            guard case .noMatch = error else { Issue.record("\(pair): \(error)"); return }
        }
    }

    @Test("pairs that share no sound are refused, naming both files")
    func noSharedSound() async throws {
        let pairs = try await Self.corpus().filter { $0.offset == nil }
        #expect(pairs.count == 2)
        for pair in pairs {
            do throws(SyncError) {
                let result = try AudioSync.offset(front: pair.front, back: pair.back)
                Issue.record("\(pair): accepted offset \(result.offset) at confidence \(result.confidence)")
            } catch {
                guard case let .noMatch(front, back, confidence, searched) = error else { Issue.record("\(error)"); continue }
                #expect(front == pair.front && back == pair.back && searched == -10...10)
                #expect(confidence < SyncOptions.defaultMinConfidence)
                #expect(error.kind == .invalidData && error.description.hasPrefix("\(pair.front) and \(pair.back): no offset"))
            }
        }
    }

    @Test("a metronome (a click every 0.5 s) matches every 0.5 s: refused")
    func metronome() async throws {
        let pair = try #require(try await SyncCorpus.pairs(count: 20, seconds: 20, kinds: "periodic").first)
        #expect(pair.kind == "periodic-periodic")
        #expect { try AudioSync.offset(front: pair.front, back: pair.back) } throws: { error in
            if case .noMatch = error as? SyncError { return true } else { return false }
        }
    }

    @Test("a steady tone on both sides fits every period: refused")
    func steadyTone() throws {
        let folder = try ScratchFolder()
        let sound = AudioFormat(sampleRate: 48000, channels: 1)
        let front = try NumberedClip.write(folder.path("front.mp4"), frames: 90, audio: sound)
        let back = try NumberedClip.write(folder.path("back.mp4"), frames: 120, audio: sound)
        #expect { try AudioSync.offset(front: front, back: back) } throws: { error in
            if case .noMatch = error as? SyncError { return true } else { return false }
        }
    }

    @Test("no audio track, silent audio, a missing file: each its own error")
    func unusableInputs() async throws {
        let folder = try ScratchFolder()
        let pair = try #require(try await Self.corpus().first)
        let mute = try NumberedClip.write(folder.path("mute.mp4"), frames: 60)
        let silent = folder.path("silent.mp4")
        let writer = try VideoWriter(path: silent, width: 64, height: 48, fps: 30, codec: .h264, preset: "ultrafast", crf: 30,
                                     audio: AudioFormat(sampleRate: 48000, channels: 1))
        for i in 0..<60 {
            var frame = NumberedClip.picture(width: 64, height: 48, colour: .red, number: i)
            frame.time = Double(i) / 30
            try writer.append(frame)
        }
        try writer.appendAudio([Float](repeating: 0, count: 96000))
        try writer.finish()

        #expect(throws: SyncError.noAudio(path: mute)) { try AudioSync.offset(front: mute, back: pair.back) }
        #expect(throws: SyncError.silent(path: silent)) { try AudioSync.offset(front: pair.front, back: silent) }
        let missing = folder.path("nothing.mp4")
        #expect(throws: SyncError.media(.missingFile(path: missing))) { try AudioSync.offset(front: missing, back: pair.back) }
        #expect(SyncError.noAudio(path: mute).kind == .invalidData)
    }

    @Test("--max-offset narrows the search: an offset outside it is not found")
    func maxOffset() async throws {
        let pair = try #require(try await Self.corpus().first { ($0.snr ?? 0) >= 10 && abs($0.offset ?? 0) > 3 })
        var options = SyncOptions()
        options.maxOffset = abs(pair.offset!) / 2
        #expect(throws: SyncError.self) {
            let result = try AudioSync.offset(front: pair.front, back: pair.back, options: options)
            if abs(result.offset - pair.offset!) > 0.1 { throw SyncError.noMatch(front: "", back: "", confidence: 0, searched: 0...0) }
        }
    }

    @Test("options out of range are refused", arguments: [(0.0, 2.5), (0.1, 2.5), (61.0, 2.5), (Double.nan, 2.5), (10.0, 0.5)])
    func badOptions(maxOffset: Double, minConfidence: Double) {
        var options = SyncOptions()
        options.maxOffset = maxOffset
        options.minConfidence = minConfidence
        #expect(throws: SyncError.self) { try options.validate() }
    }
}
