import Foundation
import Testing
@testable import FeedCore

@Suite struct MediaReferenceTests {
    @Test(arguments: [
        ("https://x.test/a.mp4", true), ("file:///srv/a.mp4", true), ("data:video/mp4;base64,AA", true), ("FILE:///a", true),
        ("/srv/a.mp4", false), ("clips/a.mp4", false), ("../a.mp4", false), ("a.mp4", false), ("1x:y", false), ("//h/a", false),
    ])
    func textWithASchemeIsAURLAnythingElseAPath(text: String, isURL: Bool) throws {
        let reference = try #require(MediaReference(text))

        #expect(reference == (isURL ? .url(text) : .path(text)))
        #expect(reference.text == text, "kept as written")
        #expect(MediaReference("") == nil)
    }

    @Test(arguments: [
        ("clips/a.mp4", "/feeds/clips/a.mp4"),
        ("./clips/./a.mp4", "/feeds/clips/a.mp4"),
        ("../common/a.mp4", "/common/a.mp4"),
        ("../../../../a.mp4", "/a.mp4"),
        ("clips//a b.mp4", "/feeds/clips/a b.mp4"),
        ("clips/a%20b.mp4", "/feeds/clips/a%20b.mp4"),
        ("/srv/clips/../a.mp4", "/srv/a.mp4"),
        ("file:///srv/clip%201.mp4", "/srv/clip 1.mp4"),
        ("FILE:///srv/x/../a.mp4", "/srv/a.mp4"),
    ])
    func pathsAndFileURLsResolveToAbsoluteFiles(text: String, file: String) throws {
        let reference = try #require(MediaReference(text))

        #expect(reference.resolved(against: "/feeds") == .file(path: file))
        #expect(reference.resolved(against: "/feeds").source == file)
    }

    @Test(arguments: ["https://x.test/clips/../a.mp4", "http://x.test/a.mp4?x=1", "data:video/mp4;base64,AAAA", "ftp://x.test/a.mp4"])
    func otherURLsStayAsWritten(text: String) throws {
        let location = try #require(MediaReference(text)).resolved(against: "/feeds")

        #expect(location == .url(text))
        #expect(location.source == text)
        #expect(location.isRemote == text.hasPrefix("http"))
    }

    @Test func aURLIsAURLReferenceAndCodableAsItsText() throws {
        let url = try #require(URL(string: "file:///tmp/a%201.mp4"))
        #expect(MediaReference(url: url) == .url("file:///tmp/a%201.mp4"))
        #expect(MediaReference.path("clips/a.mp4").url == nil)
        #expect(MediaReference.url("https://x.test/a.mp4").url?.host == "x.test")

        let data = try JSONEncoder().encode([MediaReference.path("clips/a.mp4"), .url("https://x.test/a.mp4")])
        #expect(String(decoding: data, as: UTF8.self) == #"["clips\/a.mp4","https:\/\/x.test\/a.mp4"]"#)
        #expect(try JSONDecoder().decode([MediaReference].self, from: data) == [.path("clips/a.mp4"), .url("https://x.test/a.mp4")])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([MediaReference].self, from: Data(#"[""]"#.utf8)) }
    }

    @Test(arguments: [
        ("https://x.test/a.mp4", false, MediaError.networkNotAllowed(path: "https://x.test/a.mp4")),
        ("HTTP://x.test/a.mp4", false, MediaError.networkNotAllowed(path: "HTTP://x.test/a.mp4")),
        ("ftp://x.test/a.mp4", true, MediaError.refused(path: "ftp://x.test/a.mp4", reason: "only local files and http(s) URLs are opened")),
        ("data:video/mp4;base64,AAAA", false, MediaError.refused(path: "data:video/mp4;base64,AAAA", reason: "only local files and http(s) URLs are opened")),
    ])
    func urlsAreRefusedSayingWhatWouldOpenThem(source: String, allowNetwork: Bool, refusal: MediaError) {
        #expect(MediaLocation.refusal(toOpen: source, allowNetwork: allowNetwork) == refusal)
        #expect(!refusal.description.contains("--"), "FeedCore names no flag: \(refusal)")
    }

    @Test func pathsAndAllowedURLsAreNotRefused() {
        #expect(MediaLocation.refusal(toOpen: "/srv/a.mp4", allowNetwork: false) == nil)
        #expect(MediaLocation.refusal(toOpen: "clips/a.mp4", allowNetwork: false) == nil)
        #expect(MediaLocation.refusal(toOpen: "https://x.test/a.mp4", allowNetwork: true) == nil)
    }
}
