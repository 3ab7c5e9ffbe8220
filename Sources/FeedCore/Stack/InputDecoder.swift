import Foundation

/// One input of the stacker: a `MediaReader` decoding on its own thread into a small queue of
/// pictures, so the two inputs and the encoder keep both cores busy and memory does not grow with
/// the clip's length.
final class InputDecoder: @unchecked Sendable {
    /// What the decode thread hands over.
    enum Item: Sendable {
        case picture(Picture)
        case end
        case failure(MediaError)
    }

    let path: String
    let info: MediaInfo
    let queue: FrameQueue<Item>
    private var thread: JoinableThread?
    /// The reader moves to the decode thread at `start()` and is used only there after that.
    private nonisolated(unsafe) var reader: MediaReader?

    /// Opens the file (errors surface here, before any thread starts).
    init(path: String, threads: Int, capacity: Int = 4) throws(MediaError) {
        let reader = try MediaReader(path: path, video: true, audio: false, threads: threads)
        self.path = path
        self.info = reader.info
        self.reader = reader
        self.queue = FrameQueue(capacity: capacity)
    }

    /// Starts decoding on a new thread.
    func start() {
        thread = JoinableThread(name: "feed.decode") { [self] in decodeAll() }
    }

    private func decodeAll() {
        guard let reader else { return }
        defer { self.reader = nil }
        do {
            while let picture = try reader.nextPicture() {
                if !queue.push(.picture(picture)) { return }
            }
            queue.push(.end)
        } catch {
            queue.push(.failure(error))
        }
    }

    /// Stops the thread (if running) and waits for it, releasing the reader.
    func stop() {
        queue.close()
        thread?.join()
        thread = nil
        reader = nil
    }
}
