// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "feed",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "feed", targets: ["FeedCLI"]),
        .library(name: "FeedCore", targets: ["FeedCore"]),
        .library(name: "FeedJobs", targets: ["FeedJobs"]),
        .library(name: "FeedServer", targets: ["FeedServer"]),
        // The client an app links: generated from openapi.yaml, with a tus uploader; any transport.
        .library(name: "FeedClient", targets: ["FeedClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // SHA-256 for the roll's fingerprints: BoringSSL's assembly (SHA-NI where the CPU has it).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // `feed serve`'s identities: bearer JWTs (HS256 from a secret, ES256/RS256 from a JWKS).
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
        // `feed serve`: the HTTP server and the lifecycle that shuts it down in order on SIGTERM.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // NIOHTTPTypes: the response parts a channel handler sees below Hummingbird (TCPCorkHandler).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // `--catalog postgres://…`: the catalog and the job queue shared by several machines.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // `feed scrape https://…`: pages (and, next, feeds and clips) fetched over HTTP.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // FeedClient: the runtime of the code swift-openapi-generator wrote from openapi.yaml
        // (scripts/openapi-client.sh; committed), and its AsyncHTTPClient transport for the CLI.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
    ],
    targets: [
        // Debian's FFmpeg 5.1 headers (in the default multiarch include path, which is all
        // `pkg-config --cflags libavformat` gives). No pkgConfig here: SwiftPM would add its
        // `--libs` (-lavformat) to every link, and the shim loads FFmpeg with dlopen instead.
        .systemLibrary(
            name: "CFFmpegSys",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev", "libswresample-dev"])]
        ),
        // The C shim: the only code that sees FFmpeg's structs and macros. It compiles against
        // FFmpeg's headers but does not link the libraries: it dlopens them at first use.
        .target(
            name: "CFFmpeg",
            dependencies: ["CFFmpegSys"],
            cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Wno-unused-parameter"])],
            linkerSettings: [.linkedLibrary("dl")]
        ),
        // Cross-correlation over Debian's FFTW (libfftw3-dev; single precision, linked).
        .target(
            name: "CSignal",
            cSettings: [.unsafeFlags(["-Wall", "-Wextra"])],
            linkerSettings: [.linkedLibrary("fftw3f"), .linkedLibrary("m")]
        ),
        // The videos of an HTML page, parsed by Debian's gumbo (libgumbo-dev; HTML5, linked).
        .target(
            name: "CHTML",
            cSettings: [.unsafeFlags(["-Wall", "-Wextra"])],
            linkerSettings: [.linkedLibrary("gumbo")]
        ),
        .target(
            name: "FeedCore",
            dependencies: [
                "CFFmpeg",
                "CSignal",
                "CHTML",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.embedInCode("Resources/videos.json"), .embedInCode("Resources/comments.json")]
        ),
        // The social catalog's seam: posts, people, follows, per-video comments, blocks and
        // reports (models, their rules, the store protocol both catalogs implement).
        .target(name: "FeedSocial", dependencies: ["FeedCore"]),
        // For You: events, the model trained from them (item-to-item co-watching) and the
        // ranking of a page, over the store protocol both catalogs implement.
        .target(name: "FeedRecs", dependencies: ["FeedCore", "FeedSocial"]),
        // `feed play`: the terminal player (its window of clips, the half-block renderer).
        .target(name: "FeedPlayer", dependencies: ["FeedCore"]),
        // The catalog in the roll's own SQLite file (GRDB): the only code that sees GRDB.
        .target(
            name: "FeedSQLite",
            dependencies: ["FeedCore", "FeedSocial", "FeedRecs", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The job engine: runners that claim, run and finish queued jobs, keep their leases and
        // clean up after dead workers, as a lifecycle service (`feed worker`, `feed serve --jobs`).
        .target(
            name: "FeedJobs",
            dependencies: [
                "FeedCore",
                "FeedRecs",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Who may call feed serve, below the server so `feed token` and the webhook secrets need
        // no HTTP server: bearer JWTs (jwt-kit), signed-link keys, scopes and callers.
        .target(
            name: "FeedAccess",
            dependencies: [
                "FeedCore",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Debian's zlib, for gzip-encoded playlists (`Accept-Encoding: gzip`).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The HTTP server: routes over FeedCore, one file per resource.
        .target(
            name: "FeedServer",
            dependencies: [
                "FeedCore",
                "FeedSocial",
                "FeedRecs",
                "FeedAccess",
                "FeedJobs",
                "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The RTMP ingest's listener (`feed serve --rtmp-port`).
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // HTTP10Handler finds the HTTP/1 to HTTP types conversion to sit below it.
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The console at `/`: plain HTML, CSS and JavaScript, in the binary.
            resources: [.embedInCode("Resources/console/index.html"), .embedInCode("Resources/console/console.css"),
                        .embedInCode("Resources/console/console.js")]
        ),
        // The PostgreSQL catalog and job queue (postgres-nio): the only code that sees PostgresNIO.
        .target(
            name: "FeedPostgres",
            dependencies: [
                "FeedCore",
                "FeedSocial",
                "FeedRecs",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // feed serve's client: the generated types and client, the tus uploader, job events. No
        // FeedCore (an iOS app links it) and no transport: the app brings URLSession's or AHC's.
        .target(
            name: "FeedClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // HTTP(S) reads with limits (async-http-client): the only code that sees it.
        .target(
            name: "FeedRemote",
            dependencies: [
                "FeedCore",
                "FeedClient",
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(
            name: "FeedCLI",
            dependencies: [
                "FeedCore",
                "FeedSocial",
                "FeedRecs",
                "FeedJobs",
                "FeedAccess",
                "FeedServer",
                "FeedSQLite",
                "FeedPlayer",
                "FeedPostgres",
                "FeedRemote",
                "FeedClient",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Helpers both test targets use (clips, image headers); never shipped.
        .target(name: "FeedTestSupport", dependencies: ["FeedCore", "FeedSQLite", "FeedPostgres"], path: "Tests/FeedTestSupport"),
        .testTarget(
            name: "FeedCoreTests",
            dependencies: ["FeedCore", "FeedSocial", "FeedRecs", "FeedPlayer", "FeedSQLite", "FeedPostgres", "CFFmpeg", "CSignal", "FeedTestSupport", .product(name: "Crypto", package: "swift-crypto"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"), .product(name: "Logging", package: "swift-log"),
                           // RollTests reads the SQLite file's pragmas through GRDB.
                           .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "FeedCLITests",
            dependencies: ["FeedCore", "FeedSQLite", "FeedCLI", "FeedTestSupport", "FeedClient", "FeedRemote",
                           .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                           .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["Scripts"]  // tus_upload.py: the tus client the upload tests run
        ),
        .testTarget(name: "FeedServerTests", dependencies: [
            "FeedServer", "FeedAccess", "FeedCore", "FeedSocial", "FeedRecs", "FeedSQLite", "FeedTestSupport", "FeedPostgres",
            .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "JWTKit", package: "jwt-kit"),
            .product(name: "CryptoExtras", package: "swift-crypto"),
            .product(name: "NIOPosix", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        ]),
        .testTarget(
            name: "FeedClientTests",
            dependencies: ["FeedClient", "FeedCore", "FeedTestSupport", "FeedRemote",
                           .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                           .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                           .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(name: "FeedJobsTests", dependencies: ["FeedJobs", "FeedCore", "FeedSQLite", "FeedTestSupport"]),
        .testTarget(
            name: "FeedRemoteTests",
            dependencies: ["FeedRemote", "FeedCore", "FeedTestSupport"],
            // range_server.py (ranges, cut-off bodies), s3_fault_proxy.py (503s, silence in front of the
            // test store), botocore_sign.py (the reference signer); S3/Vectors: AWS's SigV4 test suite.
            exclude: ["Scripts", "S3/Vectors"]
        ),
    ]
)

// The libFuzzer harnesses in Fuzz/ (see Fuzz/README.md). Every build compiles them as plain
// library targets, so `swift build --build-tests` (and so `make test`) fails when one no longer
// compiles against FeedCore or the CHTML shim. Fuzz/build.sh sets FEED_FUZZ=1 and builds them
// as executables (libFuzzer supplies main) with the fuzzer and address sanitizers, into a
// scratch path of their own; the products exist only then.
let fuzzing = Context.environment["FEED_FUZZ"] != nil
let fuzzTargets: [(product: String, target: String, over: String)] = [
    ("feed-loader-fuzz", "FeedLoaderFuzz", "FeedCore"),
    ("media-reader-fuzz", "MediaReaderFuzz", "FeedCore"),
    ("mp4-box-fuzz", "MP4BoxFuzz", "FeedCore"),
    ("rtmp-fuzz", "RTMPFuzz", "FeedCore"),
    ("live-packaging-fuzz", "LivePackagingFuzz", "FeedCore"),
    ("html-page-fuzz", "HTMLPageFuzz", "CHTML"),
]
for (product, target, over) in fuzzTargets {
    let path = "Fuzz/\(target)", dependencies: [Target.Dependency] = [.target(name: over)]
    let cSettings: [CSetting] = [.unsafeFlags(["-Wall", "-Wextra"])]
    if fuzzing {
        package.targets.append(.executableTarget(name: target, dependencies: dependencies, path: path, cSettings: cSettings))
        package.products.append(.executable(name: product, targets: [target]))
    } else {
        // publicHeadersPath: the C harness has no headers, and a C library target needs the folder.
        package.targets.append(.target(name: target, dependencies: dependencies, path: path, publicHeadersPath: ".",
                                       cSettings: cSettings))
    }
}
