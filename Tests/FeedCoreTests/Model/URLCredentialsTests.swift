import Testing
@testable import FeedCore

/// Passwords hidden from URLs and from messages naming them.
@Suite("URLCredentials")
struct URLCredentialsTests {
    @Test(arguments: [
        ("http://alice:s3cret@cdn.test/a.mp4", "http://alice:***@cdn.test/a.mp4"),
        ("https://alice@cdn.test/a.mp4", "https://alice@cdn.test/a.mp4"),
        ("postgres://feed:p/a#s@s@db:5432/feed?sslmode=require", "postgres://feed:***@db:5432/feed?sslmode=require"),
        ("https://cdn.test/a.mp4?user=a&password=s3cret&x=1", "https://cdn.test/a.mp4?user=a&password=***&x=1"),
        ("https://cdn.test/a.mp4", "https://cdn.test/a.mp4"),
    ])
    func oneURL(url: String, shown: String) {
        #expect(URLCredentials.redacted(url: url) == shown)
    }

    @Test func urlsInAMessage() {
        let message = "http://alice:s3cret@a.test:8080/v.json: HTTP 404 Not Found; tried https://bob:pw@b.test/x?password=z and ftp://c.test/y"
        #expect(URLCredentials.redacted(inText: message)
                == "http://alice:***@a.test:8080/v.json: HTTP 404 Not Found; tried https://bob:***@b.test/x?password=*** and ftp://c.test/y")
        #expect(URLCredentials.redacted(inText: "no URL here: a@b:c") == "no URL here: a@b:c")
    }
}
