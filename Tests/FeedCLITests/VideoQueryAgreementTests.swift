import FeedTestSupport
import Foundation
import Testing

/// `feed list`'s options and `GET /videos`'s query are one ``FeedQuery``: the same words give
/// the same videos, and the same mistakes are refused, on the command line and over HTTP.
@Suite("feed list and GET /videos agree")
struct VideoQueryAgreementTests {
    /// Each case: `feed list` arguments, the same as a query string.
    static let cases: [([String], String)] = [
        (["--limit", "0"], "limit=0"),
        (["--limit", "0", "--offset", "1"], "limit=0&offset=1"),
        (["--tag", "one"], "tag=one"),
        (["--tag", "#ONE"], "tag=%23ONE"),
        (["--tag", "##one", "--limit", "0"], "tag=%23%23one&limit=0"),
        (["--sort", "likes", "--reverse", "--limit", "2"], "sort=likes&reverse=1&limit=2"),
    ]

    @Test("limit 0 is all and leading #s are one tag, in both; a tag of only # is refused by both")
    func sameAnswers() async throws {
        let (home, feed, _) = try ServeCommandTests.feedHome()
        let server = try await ServeProcess(["--feed", feed], home: home)
        for (arguments, query) in Self.cases {
            // Given one feed, when the CLI and the server are asked the same thing,
            let cli = try await FeedProcess.run(["list", "--json"] + arguments, environment: ["FEED_PATH": feed])
            let http = try await server.curl("/videos?" + query)
            // then they list the same videos in the same order.
            #expect(cli.status == 0 && http.status == 200, "\(arguments): \(cli.stderr) / \(http.status)")
            let listed = try cli.objects().map { "\($0["id"]!)" }
            let served = try #require(try http.json()["videos"] as? [[String: Any]], "\(query)").map { "\($0["id"]!)" }
            #expect(listed == served, "\(arguments) gave \(listed), ?\(query) gave \(served)")
            #expect(!listed.isEmpty, "\(arguments): a case that lists nothing proves nothing")
        }
        let everything = try await server.curl("/videos")
        let zero = try await server.curl("/videos?limit=0")
        #expect(try (zero.json()["videos"] as? [Any])?.count == 3 && (everything.json()["videos"] as? [Any])?.count == 3)

        let cli = try await FeedProcess.run(["list", "--tag", "##"], environment: ["FEED_PATH": feed])
        let http = try await server.curl("/videos?tag=%23%23")
        #expect(cli.status == 64 && cli.stderr.hasPrefix("feed: --tag needs a hashtag"), "\(cli.stderr)")
        #expect(http.status == 400 && http.problem?.kind == "usage")
        #expect(await server.stop() == 0)
    }
}
