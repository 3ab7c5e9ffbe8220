import Foundation
import Testing
@testable import FeedCore

@Suite("UploadMetadata (tus Upload-Metadata)")
struct UploadMetadataTests {
    private static func b64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    @Test("filename and title decoded, other keys and keys without a value kept in the header")
    func parse() throws {
        let header = "filename \(Self.b64("Holiday clip.MOV")), title \(Self.b64("Été 🌊")),is_private,filetype \(Self.b64("video/quicktime"))"
        let metadata = try UploadMetadata(header: header)
        #expect(metadata.filename == "Holiday clip.MOV" && metadata.title == "Été 🌊")
        #expect(metadata.fileExtension == "mov")
        #expect(metadata.header == header.replacingOccurrences(of: ", ", with: ","))
    }

    @Test("no header, an empty one: nothing; an empty title is no title")
    func empty() throws {
        #expect(try UploadMetadata(header: "") == UploadMetadata())
        #expect(try UploadMetadata(header: "title ").title == nil)
        #expect(try UploadMetadata(header: "filename").filename == nil)
        #expect(UploadMetadata().fileExtension == "mp4")
    }

    @Test("malformed headers are refused", arguments: ["filename a b", ",filename \(Data("a".utf8).base64EncodedString())",
                                                       "filename !!!",
                                                       "filename \(Data("two\nlines".utf8).base64EncodedString())",
                                                       "title \(Data([0xFF, 0xFE]).base64EncodedString())",
                                                       String(repeating: "k", count: 5000)])
    func refused(header: String) {
        #expect(throws: UploadError.self, "\(header.prefix(60))") { try UploadMetadata(header: header) }
    }

    @Test("a key given twice keeps its last value, as tusd does")
    func repeatedKey() throws {
        let metadata = try UploadMetadata(header: "filename \(Self.b64("a.mp4")),filename \(Self.b64("b.mov"))")
        #expect(metadata.filename == "b.mov" && metadata.fileExtension == "mov")
    }

    @Test("the stored extension is the filename's when plain, else mp4",
          arguments: [("a.MP4", "mp4"), ("b.webm", "webm"), ("noext", "mp4"), ("../../x.sh;rm", "mp4"), ("c.toolongext", "mp4"), ("d.m4v", "m4v")])
    func fileExtension(name: String, ext: String) throws {
        let metadata = try UploadMetadata(header: "filename \(Self.b64(name))")
        #expect(metadata.fileExtension == ext)
    }
}
