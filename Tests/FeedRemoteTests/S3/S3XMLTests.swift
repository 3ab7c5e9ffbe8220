import Testing
@testable import FeedRemote

@Suite("S3XML")
struct S3XMLTests {
    @Test("a listing: namespace, prolog, entities and numeric references, empty elements")
    func listing() throws {
        let text = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>feed</Name><Prefix></Prefix><IsTruncated>true</IsTruncated>
          <Contents><Key>a &amp; b/&#252;&#x20AC;.mp4</Key><Size>12</Size><ETag>&quot;abc&quot;</ETag><Owner/></Contents>
          <Contents><Key><![CDATA[x<y&z]]></Key><Size>0</Size></Contents>
          <NextContinuationToken>t&lt;1&gt;</NextContinuationToken>
        </ListBucketResult>
        """
        let document = try #require(S3XML.parse(Array(text.utf8)))
        #expect(document.name == "ListBucketResult" && document["Name"] == "feed" && document["Prefix"] == "")
        #expect(document.all("Contents").map { $0["Key"] } == ["a & b/ü€.mp4", "x<y&z"])
        #expect(document.all("Contents").first?["ETag"] == "\"abc\"" && document["NextContinuationToken"] == "t<1>")
    }

    @Test("refused, not guessed: unclosed, mismatched, an unknown entity, trailing bytes, nesting past 32")
    func refused() {
        for text in ["<a><b></a>", "<a>", "<a>&nbsp;</a>", "<a></a><b/>", "not xml", "",
                     String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)] {
            #expect(S3XML.parse(Array(text.utf8)) == nil, "\(text.prefix(40))")
        }
    }

    @Test("an S3 error answer: code and message")
    func error() throws {
        let text = "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message><RequestId>1</RequestId></Error>"
        let document = try #require(S3XML.parse(Array(text.utf8)))
        #expect(document.name == "Error" && document["Code"] == "SlowDown" && document["Message"] == "Please reduce your request rate.")
    }
}
