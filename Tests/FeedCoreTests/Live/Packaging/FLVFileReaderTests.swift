import Foundation
import Testing
@testable import FeedCore
import FeedTestSupport

/// The FLV file reader: its header, tags with extended timestamps, damaged files refused at the
/// damage, and a real file ffmpeg wrote.
@Suite("FLVFileReader")
struct FLVFileReaderTests {
    /// A tag: 11-byte header, body, previous tag size.
    static func tag(_ type: UInt8, timestamp: UInt32, _ body: [UInt8]) -> [UInt8] {
        let size = UInt32(body.count)
        let header: [UInt8] = [type, UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF),
                               UInt8(timestamp >> 16 & 0xFF), UInt8(timestamp >> 8 & 0xFF), UInt8(timestamp & 0xFF),
                               UInt8(timestamp >> 24), 0, 0, 0]
        let previous = UInt32(11 + body.count)
        return header + body + [UInt8(previous >> 24), UInt8(previous >> 16 & 0xFF), UInt8(previous >> 8 & 0xFF), UInt8(previous & 0xFF)]
    }

    static let header: [UInt8] = Array("FLV".utf8) + [1, 0x05, 0, 0, 0, 9, 0, 0, 0, 0]

    @Test("the header's flags, then each tag's type, 32-bit timestamp (extension byte on top), body and offset, then the end")
    func tags() throws {
        let file = Self.header + Self.tag(9, timestamp: 0x0102_0304, [0x17, 1]) + Self.tag(8, timestamp: 40, [0xAF, 1, 7])
        var reader = try FLVFileReader(bytes: file)
        #expect(reader.announcesAudio && reader.announcesVideo)
        #expect(try reader.next() == FLVFileReader.Tag(type: 9, timestamp: 0x0102_0304, body: [0x17, 1], offset: 13))
        #expect(try reader.next() == FLVFileReader.Tag(type: 8, timestamp: 40, body: [0xAF, 1, 7], offset: 13 + 13 + 4))
        #expect(try reader.next() == nil)
        #expect(try reader.next() == nil)
    }

    @Test("a file that ends right after a tag body, without the last previous-tag-size, still reads to the end")
    func missingLastSize() throws {
        let file = Self.header + Self.tag(9, timestamp: 0, [0x17, 2, 0, 0, 0]).dropLast(4)
        var reader = try FLVFileReader(bytes: Array(file))
        #expect(try reader.next()?.body == [0x17, 2, 0, 0, 0])
        #expect(try reader.next() == nil)
    }

    @Test("no signature, a wrong version or header size are refused at once; a cut or encrypted tag after the tags before it")
    func damage() throws {
        for bad in [[], Array("FLX".utf8) + Self.header.dropFirst(3), Self.header.prefix(3) + [2] + Self.header.dropFirst(4),
                    Array(Self.header.prefix(8)) + [200]] as [[UInt8]] {
            #expect(throws: LivePackagingError.self) { try FLVFileReader(bytes: Array(bad)) }
        }
        let good = Self.tag(9, timestamp: 0, [0x17, 2, 0, 0, 0])
        for tail in [Array(Self.tag(8, timestamp: 1, [0xAF, 1, 2, 3]).prefix(13)), [8, 0, 0], [0x28] + good.dropFirst()] as [[UInt8]] {
            var reader = try FLVFileReader(bytes: Self.header + good + tail, name: "cut.flv")
            #expect(try reader.next() != nil)
            do throws(LivePackagingError) {
                _ = try reader.next()
                Issue.record("a damaged tag was read")
            } catch {
                guard case .badFLVFile(let name, let offset, _) = error else { Issue.record("\(error)"); continue }
                #expect(name == "cut.flv" && offset == 13 + good.count)
            }
        }
    }

    @Test("a missing file is refused with cannotRead, naming it")
    func missing() throws {
        let folder = try ScratchFolder()
        do throws(LivePackagingError) {
            _ = try FLVFileReader(path: folder.path("none.flv"))
            Issue.record("a missing file was read")
        } catch {
            guard case .cannotRead(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == folder.path("none.flv"))
            #expect(error.kind == .missingInput)
        }
    }

    @Test("ffmpeg's FLV: the sequence headers come first, then 120 video and 4 s of audio frames with rising timestamps; every cut of it reads up to the cut")
    func ffmpegFile() async throws {
        let folder = try ScratchFolder()
        let path = try await LiveMedia.flv(.plain, in: folder)
        let tags = try await offThePool { try LiveMedia.tags(of: path) }
        #expect(tags.prefix(2).allSatisfy { if case .videoConfiguration = $0 { true } else if case .audioConfiguration = $0 { true } else { false } })
        let samples = tags.compactMap { if case .sample(let sample) = $0 { sample } else { nil } }
        #expect(samples.filter { $0.track == .video }.count == 120)
        #expect(samples.filter { $0.track == .audio }.count >= 4 * 44_100 / 1024)
        for track in LiveSample.Track.allCases {
            let times = samples.filter { $0.track == track }.map(\.decodeTime)
            #expect(times == times.sorted())
        }

        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let counts = try await offThePool { () throws -> [Int] in
            try stride(from: 0, to: bytes.count, by: 997).map { length in
                guard var reader = try? FLVFileReader(bytes: Array(bytes.prefix(length))) else { return -1 }
                var count = 0
                while true {
                    do throws(LivePackagingError) {
                        guard try reader.next() != nil else { return count }
                        count += 1
                    } catch {
                        guard case .badFLVFile = error else { throw error }
                        return count
                    }
                }
            }
        }
        #expect(counts.first == -1)
        #expect(counts == counts.sorted())
    }
}
