import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A thread that is joined rather than detached: ``join()`` returns once the thread has ended,
/// its thread-local storage released.
///
/// Foundation's `Thread` cannot be joined. A thread that signals "done" and then returns is still
/// tearing down for a moment, and a `feed` that fails right after (an input without video, clips
/// that share no sound) exits during that moment: LeakSanitizer then finds the Swift runtime's
/// per-thread data neither freed nor reachable and turns the exit status to 1. Joining makes the
/// end of the work the end of the thread.
package final class JoinableThread: @unchecked Sendable {
    private let handle: pthread_t
    private let lock = NSLock()
    private var joined = false

    /// Starts `body` on a new thread named `name`.
    package init(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
        var handle = pthread_t()
        let status = pthread_create(&handle, nil, { context in
            let start = Unmanaged<Start>.fromOpaque(context!).takeRetainedValue()
            Thread.current.name = start.name
            start.body()
            return nil
        }, context)
        // Without a thread there is no way to do the work; Foundation's Thread stops here too.
        precondition(status == 0, "pthread_create failed: \(String(cString: strerror(status)))")
        self.handle = handle
    }

    /// Waits until the thread has ended. Later calls return at once.
    package func join() {
        lock.lock()
        defer { lock.unlock() }
        guard !joined else { return }
        joined = true
        pthread_join(handle, nil)
    }

    deinit {
        if !joined { pthread_detach(handle) }
    }

    private final class Start {
        let name: String
        let body: @Sendable () -> Void
        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }
    }
}
