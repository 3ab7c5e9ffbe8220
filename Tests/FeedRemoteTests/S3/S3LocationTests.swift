import Foundation
import Testing
@testable import FeedRemote

@Suite("S3Location and S3Configuration")
struct S3LocationTests {
    @Test("s3://BUCKET/PREFIX: slashes tidied, keys below the prefix, bucket names S3 would refuse refused")
    func locations() throws {
        let root = try #require(S3Location("s3://feed-media"))
        #expect(root.prefix == "" && root.key("recordings/a.mp4") == "recordings/a.mp4" && root.description == "s3://feed-media")
        let nested = try #require(S3Location("s3://feed-media//team/roll/"))
        #expect(nested.bucket == "feed-media" && nested.prefix == "team/roll" && nested.description == "s3://feed-media/team/roll")
        #expect(nested.key("posters/x.jpg") == "team/roll/posters/x.jpg")
        #expect(nested.name(ofKey: "team/roll/posters/x.jpg") == "posters/x.jpg" && nested.name(ofKey: "team/rollx/y") == nil)
        for bad in ["s3://", "s3://ab", "s3://Feed", "s3://-feed", "s3://feed_media", "https://feed/x", "/tmp/media", "s3://" + String(repeating: "a", count: 64)] {
            #expect(S3Location(bad) == nil, "\(bad)")
        }
    }

    @Test("the standard variables: keys needed, region and endpoint defaults, path style with an endpoint, errors naming the variable")
    func environment() throws {
        let keys = ["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret"]
        let aws = try S3Configuration(environment: keys.merging(["AWS_DEFAULT_REGION": "eu-west-3"]) { $1 })
        #expect(aws.endpoint.absoluteString == "https://s3.eu-west-3.amazonaws.com" && aws.region == "eu-west-3" && !aws.pathStyle)
        let local = try S3Configuration(environment: keys.merging(["AWS_ENDPOINT_URL": "http://127.0.0.1:8333", "AWS_REGION": "r1", "AWS_DEFAULT_REGION": "r2"]) { $1 })
        #expect(local.endpoint.absoluteString == "http://127.0.0.1:8333" && local.region == "r1" && local.pathStyle)
        let virtual = try S3Configuration(environment: keys.merging(["AWS_ENDPOINT_URL": "https://r2.example", "FEED_S3_PATH_STYLE": "0"]) { $1 })
        #expect(!virtual.pathStyle && virtual.credentials.sessionToken == nil)
        let specific = try S3Configuration(environment: keys.merging(["AWS_ENDPOINT_URL": "http://a", "AWS_ENDPOINT_URL_S3": "http://b:9000"]) { $1 })
        #expect(specific.endpoint.absoluteString == "http://b:9000")
        #expect(throws: S3Error.configuration("no keys for the object store: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")) {
            try S3Configuration(environment: ["AWS_ACCESS_KEY_ID": "AKID"])
        }
        #expect(throws: S3Error.configuration("AWS_ENDPOINT_URL: ftp://x is not an http(s) URL of a store")) {
            try S3Configuration(environment: keys.merging(["AWS_ENDPOINT_URL": "ftp://x"]) { $1 })
        }
        #expect(throws: S3Error.configuration("FEED_S3_PATH_STYLE: maybe is not 1 or 0")) {
            try S3Configuration(environment: keys.merging(["FEED_S3_PATH_STYLE": "maybe"]) { $1 })
        }
        #expect("\(aws.credentials)" == "access key AKID")
    }

    @Test("addresses: path style puts the bucket in the path, virtual hosting in the host; default ports left out")
    func addresses() throws {
        let credentials = S3Credentials(accessKey: "AKID", secretKey: "s")
        let path = S3Client(configuration: .init(endpoint: URL(string: "http://127.0.0.1:8333")!, region: "us-east-1", credentials: credentials, pathStyle: true), bucket: "b")
        #expect(path.address("k/x y").host == "127.0.0.1:8333" && path.address("k/x y").path == "/b/k/x y" && path.address(nil).path == "/b")
        let virtual = S3Client(configuration: .init(endpoint: URL(string: "https://s3.eu-west-3.amazonaws.com:443")!, region: "eu-west-3", credentials: credentials, pathStyle: false), bucket: "b")
        #expect(virtual.address("k").host == "b.s3.eu-west-3.amazonaws.com" && virtual.address("k").path == "/k" && virtual.address(nil).path == "/")
        let url = virtual.presignedURL("k/a b.mp4", expires: 900, at: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(url.absoluteString.hasPrefix("https://b.s3.eu-west-3.amazonaws.com/k/a%20b.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKID%2F20270115%2Feu-west-3%2Fs3%2Faws4_request&X-Amz-Date=20270115T080000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature="))
    }
}
