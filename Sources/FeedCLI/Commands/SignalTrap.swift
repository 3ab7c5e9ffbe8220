import Dispatch
import Foundation
import Synchronization

/// Turns signals (SIGINT, SIGTERM) into a flag that long work polls (the stacker before every
/// frame, `roll add` / `rm` before every file), instead of killing the process with a temporary
/// file or a half-done step left behind. `release()` restores the defaults.
final class SignalTrap {
    /// Set on the dispatch queue that sees the signal, read by the stacker's thread.
    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    private let flag = Flag()
    private let signals: [Int32]
    private var sources: [any DispatchSourceSignal] = []

    init(signals: [Int32]) {
        self.signals = signals
        sources = signals.map { [flag] number in
            // Ignored at the process level so that only the dispatch source sees it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { flag.value.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
    }

    /// Whether one of the signals arrived.
    func caught() -> Bool { flag.value.load(ordering: .relaxed) }

    /// ``caught()`` as a closure any thread may call (FeedCore's `isCancelled`).
    var isCaught: @Sendable () -> Bool { { [flag] in flag.value.load(ordering: .relaxed) } }

    /// Stops watching; the signals end the process again.
    func release() {
        sources.forEach { $0.cancel() }
        sources.removeAll()
        for number in signals { signal(number, SIG_DFL) }
    }
}
