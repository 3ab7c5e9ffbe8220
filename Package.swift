// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "feed",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "feed", targets: ["FeedCLI"]),
        .library(name: "FeedCore", targets: ["FeedCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // Debian's FFmpeg 5.1 libraries, found through pkg-config.
        .systemLibrary(
            name: "CFFmpegSys",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev", "libswresample-dev"])]
        ),
        // The C shim: the only code that sees FFmpeg's structs and macros.
        .target(
            name: "CFFmpeg",
            dependencies: ["CFFmpegSys"],
            cSettings: [.unsafeFlags(["-Wall", "-Wextra", "-Wno-unused-parameter"])],
            linkerSettings: ["avformat", "avcodec", "swscale", "swresample", "avutil"].map { .linkedLibrary($0) }
        ),
        .target(
            name: "FeedCore",
            dependencies: [
                "CFFmpeg",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.embedInCode("Resources/videos.json"), .embedInCode("Resources/comments.json")]
        ),
        .executableTarget(
            name: "FeedCLI",
            dependencies: [
                "FeedCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "FeedCoreTests", dependencies: ["FeedCore", "CFFmpeg"]),
        .testTarget(name: "FeedCLITests", dependencies: ["FeedCore", "FeedCLI"]),
    ]
)
