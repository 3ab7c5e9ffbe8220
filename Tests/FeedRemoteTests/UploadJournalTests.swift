import FeedRemote
import FeedTestSupport
import Foundation
import Testing

/// `feed push`'s memory of unfinished uploads: per server and file, gone when the file changes.
@Suite("UploadJournal")
struct UploadJournalTests {
    @Test("remembers per server and file; a changed file or another server has no entry; forget removes it")
    func remembers() throws {
        let folder = try ScratchFolder()
        let journal = UploadJournal(folder: folder.url("state/feed/uploads").path)
        let file = folder.url("clip.mp4").path
        try Data(repeating: 1, count: 1000).write(to: URL(fileURLWithPath: file))
        #expect(journal.uploadID(server: "http://a:8080", file: file) == nil)
        try journal.remember("u1", server: "http://a:8080", file: file)
        #expect(journal.uploadID(server: "http://a:8080", file: file) == "u1")
        #expect(journal.uploadID(server: "http://b:8080", file: file) == nil)
        // No temporary file is left beside the entry.
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal.folder).filter { !$0.hasSuffix(".json") }.isEmpty)

        try Data(repeating: 2, count: 1001).write(to: URL(fileURLWithPath: file))
        #expect(journal.uploadID(server: "http://a:8080", file: file) == nil, "the file changed: a new upload")
        try journal.remember("u2", server: "http://a:8080", file: file)
        journal.forget(server: "http://a:8080", file: file)
        #expect(journal.uploadID(server: "http://a:8080", file: file) == nil)
    }

    @Test("the folder: $XDG_STATE_HOME/feed/uploads when absolute, else ~/.local/state/feed/uploads")
    func folder() {
        #expect(UploadJournal.folder(environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/feed/uploads")
        #expect(UploadJournal.folder(environment: ["XDG_STATE_HOME": "rel", "HOME": "/h"]) == "/h/.local/state/feed/uploads")
        #expect(UploadJournal.folder(environment: ["HOME": "/h"]) == "/h/.local/state/feed/uploads")
    }
}
