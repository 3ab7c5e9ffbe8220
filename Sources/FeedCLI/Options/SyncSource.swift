import ArgumentParser

/// Where `feed stack --sync` finds the offset.
enum SyncSource: String, ExpressibleByArgument, CaseIterable {
    case audio
}
