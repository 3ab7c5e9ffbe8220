// swift-tools-version:6.0
// bench/nio-floor: a measurement peer for bench/serve.sh, not part of feed (see main.swift).
import PackageDescription

let package = Package(
    name: "nio-floor",
    dependencies: [
        // The version feed's own Package.swift asks for: the floor of the same SwiftNIO.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(name: "nio-floor", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
    ]
)
