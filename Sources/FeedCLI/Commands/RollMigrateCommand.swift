import ArgumentParser
import FeedCore
import FeedRemote
import Foundation

/// `feed roll migrate --to s3://…|DIR`: copy every recording's bytes to another media store.
struct RollMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy the roll's recordings to a bucket (s3://…) or a folder.",
        discussion: """
            Copies every recording's bytes from where the roll keeps them now (--media, \
            $FEED_MEDIA, else the roll's folder) to --to: a bucket, s3://BUCKET[/PREFIX] (keys \
            from $AWS_ACCESS_KEY_ID and the other AWS_* variables), or a folder (holding \
            recordings/). Each copy is hashed on the way and published there only if its \
            sha256 is its row's. Rows do not change: they name media the same way in every \
            store, so once the copy is done, using --to as --media is the switch. A run cut \
            short is resumed by running it again: recordings already there with their size \
            are skipped. Posters, ladders and fast-start copies are not copied (they are made \
            again on first use). Prints one line per recording (copied, already there, or \
            failed and why); exits 1 if any failed.

            EXAMPLES:
              feed roll migrate --to s3://feed-media/team
              FEED_MEDIA=s3://feed-media/team feed roll verify --deep
              feed roll migrate --media s3://feed-media/team --to /srv/feed   # and back
            """
    )

    @OptionGroup var store: CatalogOptions

    @Option(help: ArgumentHelp("Where to copy to: s3://BUCKET[/PREFIX] or a folder.", valueName: "s3-url|dir"))
    var to: String

    func validate() throws {
        if to.hasPrefix("s3://"), S3Location(to) == nil {
            throw ValidationError("--to \(to): not a bucket S3 takes (s3://BUCKET[/PREFIX], the bucket 3-63 of a-z 0-9 . -)")
        }
        if to.isEmpty { throw ValidationError("--to cannot be empty") }
    }

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let paths = RollPaths.fromEnvironment(environment)
        let destination: any MediaStore
        var bucket: S3MediaStore?
        if let store = try CatalogOptions.objectStore(to, given: true, paths: paths, environment) {
            destination = store
            bucket = store
        } else {
            let home = RollPaths(home: URL(fileURLWithPath: to, isDirectory: true))
            for folder in [home.recordings, home.incoming, home.trash] {
                do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                    throw CommandFailure(description: "\(folder.path): cannot create folder: \(error.localizedDescription)", kind: .cannotCreate)
                }
            }
            destination = FolderMediaStore(paths: home)
        }
        defer { bucket?.shutdown() }
        let steps = try await RollCommand.withRoll(store: store) { roll in
            try await roll.migrate(to: destination) { step in
                let line: String
                switch step {
                case let .copied(id, file, bytes): line = "copied \(id) \(file) (\(bytes) bytes)\n"
                case let .present(id, file): line = "already there \(id) \(file)\n"
                case let .failed(id, file, reason): line = "failed \(id) \(file): \(reason)\n"
                }
                try? StandardStream.output.write(line)
            }
        }
        let failed = steps.filter { if case .failed = $0 { true } else { false } }.count
        let copied = steps.filter { if case .copied = $0 { true } else { false } }.count
        try StandardStream.error.write("\(steps.count) recording\(steps.count == 1 ? "" : "s"): \(copied) copied, \(steps.count - copied - failed) already there, \(failed) failed\n")
        if failed > 0 { throw ExitCode(ExitStatus.failure.rawValue) }
    }
}
