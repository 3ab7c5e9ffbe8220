import Testing
@testable import FeedCore

/// The AudioSpecificConfig: object type, rate, channels and frame length, and bad ones refused.
@Suite("AACConfiguration")
struct AACConfigurationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var config: [UInt8]
        var objectType: Int, sampleRate: Int, channels: Int, samplesPerFrame: Int
        var testDescription: String { config.map { String($0, radix: 16) }.joined(separator: " ") }
    }

    @Test("object type, core sample rate, channels and samples per frame are read", arguments: [
        Case(config: [0x12, 0x08], objectType: 2, sampleRate: 44_100, channels: 1, samplesPerFrame: 1024),     // LC 44.1 kHz mono
        Case(config: [0x11, 0x90], objectType: 2, sampleRate: 48_000, channels: 2, samplesPerFrame: 1024),     // LC 48 kHz stereo
        Case(config: [0x12, 0x14], objectType: 2, sampleRate: 44_100, channels: 2, samplesPerFrame: 960),      // frame length flag
        Case(config: [0x11, 0xB8], objectType: 2, sampleRate: 48_000, channels: 8, samplesPerFrame: 1024),     // 7.1
        // HE-AAC, explicit: SBR, 24 kHz core, stereo, 48 kHz extension, then LC.
        Case(config: [0x2B, 0x11, 0x88, 0x00], objectType: 5, sampleRate: 24_000, channels: 2, samplesPerFrame: 1024),
        // An explicit rate (index 15): 30000 Hz, mono.
        Case(config: [0x17, 0x80, 0x3A, 0x98, 0x08], objectType: 2, sampleRate: 30_000, channels: 1, samplesPerFrame: 1024),
    ])
    func read(example: Case) throws {
        let configuration = try AACConfiguration(config: example.config)
        #expect(configuration.objectType == example.objectType)
        #expect(configuration.sampleRate == example.sampleRate)
        #expect(configuration.channels == example.channels)
        #expect(configuration.samplesPerFrame == example.samplesPerFrame)
        #expect(configuration.codecString == "mp4a.40.\(example.objectType)")
    }

    @Test("an empty or one-byte config, a reserved rate index, channel configuration 0 or 8 are refused with badAACConfiguration",
          arguments: [[], [0x12], [0x16, 0x88], [0x12, 0x00], [0x12, 0x40]] as [[UInt8]])
    func refusals(config: [UInt8]) {
        do throws(LivePackagingError) {
            _ = try AACConfiguration(config: config)
            Issue.record("\(config) was read")
        } catch {
            guard case .badAACConfiguration = error else { Issue.record("\(error)"); return }
        }
    }
}
