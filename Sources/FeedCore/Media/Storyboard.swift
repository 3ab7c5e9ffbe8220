import Foundation

/// A storyboard for timeline scrubbing, in Mux's format: one JPEG sprite of evenly spaced
/// tiles (``storyboard.jpg``) and a WebVTT file (``storyboard.vtt``) whose cues, one per tile,
/// cover the whole duration and point into the sprite with a media fragment:
/// `storyboard.jpg#xywh=X,Y,W,H`. A player shows the tile of the cue under the pointer.
public struct Storyboard: Sendable, Equatable {
    /// One tile: the time span it stands for and where it is in the sprite.
    public struct Tile: Sendable, Equatable {
        public var start: Double
        public var end: Double
        public var x: Int
        public var y: Int
    }

    /// The sprite's file name, which the cues name.
    public static let imageName = "storyboard.jpg"
    /// The cue file's name.
    public static let cuesName = "storyboard.vtt"
    /// The longest side of a tile by default, in pixels.
    public static let defaultTileSide = 160
    /// The most tiles by default (one a second below that).
    public static let defaultMaxTiles = 100

    public let tiles: [Tile]
    public let columns: Int
    public let tileWidth: Int
    public let tileHeight: Int
    /// The sprite's size.
    public var width: Int { columns * tileWidth }
    public var height: Int { ((tiles.count + columns - 1) / columns) * tileHeight }

    /// The layout for a video of `duration` seconds shown at `width`×`height`: a tile a second
    /// (at most `maxTiles`, at least one), each at the middle of its span, tiles whose longest
    /// side is `tileSide` (even sizes), in a grid about as wide as it is tall.
    public init(duration: Double, width: Int, height: Int, tileSide: Int = defaultTileSide, maxTiles: Int = defaultMaxTiles) {
        let count = max(1, min(max(1, maxTiles), Int(duration.rounded(.up))))
        let scale = Double(max(2, tileSide)) / Double(max(1, max(width, height)))
        tileWidth = max(2, Int((Double(max(1, width)) * scale / 2).rounded()) * 2)
        tileHeight = max(2, Int((Double(max(1, height)) * scale / 2).rounded()) * 2)
        columns = max(1, Int(Double(count).squareRoot().rounded(.up)))
        let span = max(duration, 0) / Double(count)
        let (columns, tileWidth, tileHeight) = (self.columns, self.tileWidth, self.tileHeight)
        tiles = (0..<count).map { index in
            Tile(start: Double(index) * span, end: index == count - 1 ? max(duration, 0) : Double(index + 1) * span,
                 x: (index % columns) * tileWidth, y: (index / columns) * tileHeight)
        }
    }

    /// The WebVTT text, each cue pointing at `image` (the sprite's URL, relative or absolute).
    public func vtt(image: String = Storyboard.imageName) -> String {
        var out = "WEBVTT\n"
        for tile in tiles {
            out += "\n\(Self.timestamp(tile.start)) --> \(Self.timestamp(tile.end))\n"
            out += "\(image)#xywh=\(tile.x),\(tile.y),\(tileWidth),\(tileHeight)\n"
        }
        return out
    }

    /// `HH:MM:SS.mmm`.
    static func timestamp(_ seconds: Double) -> String {
        let millis = Int((max(0, seconds) * 1000).rounded())
        return String(format: "%02d:%02d:%02d.%03d", millis / 3_600_000, millis / 60_000 % 60, millis / 1000 % 60, millis % 1000)
    }

    /// The storyboard of the video at `path` and its sprite as JPEG: each tile the first picture
    /// at or after the middle of its span (the last picture when that is past the end), upright.
    /// `isCancelled` is asked before every tile; a true answer stops with ``MediaError/interrupted(path:)``.
    /// - Throws: ``MediaError`` when the file cannot be opened or decoded.
    public static func make(path: String, tileSide: Int = defaultTileSide, maxTiles: Int = defaultMaxTiles,
                            isCancelled: () -> Bool = { false }) throws(MediaError) -> (Storyboard, jpeg: [UInt8]) {
        let reader = try MediaReader(path: path)
        let info = reader.info
        let board = Storyboard(duration: info.duration, width: info.displayWidth, height: info.displayHeight,
                               tileSide: tileSide, maxTiles: maxTiles)
        var sprite = RGBCanvas(width: board.width, height: board.height, fill: (0, 0, 0))
        var last: Frame?
        // The time of the picture read last. A seek decodes from the key frame before its time,
        // so where no key frame lies between that picture and the next tile's (key frames further
        // apart than tiles: 60 s with one every 10 s took 15 s, not 3), decoding on is cheaper.
        var position: Double?
        for tile in board.tiles {
            if isCancelled() { throw .interrupted(path: path) }
            let time = (tile.start + tile.end) / 2
            var shown: Picture?
            if let from = position, from <= time, let key = reader.keyFrameTime(atOrBefore: time), key <= from {
                // The picture shown at `time`, as a seek finds it: the first that ends after it.
                while let picture = try reader.nextPicture() {
                    position = picture.time
                    if picture.time + picture.duration > time + 1e-6 { shown = picture; break }
                }
            } else {
                try reader.seek(to: time)
                shown = try reader.nextPicture()
                position = shown?.time
            }
            let frame = try shown.map { picture throws(MediaError) in
                try reader.videoFrame(from: picture, width: board.tileWidth, height: board.tileHeight, format: .rgb24)
            } ?? last
            guard let frame else { continue }
            last = frame
            frame.bytes.withUnsafeBufferPointer { pixels in
                sprite.blit(pixels, width: frame.width, height: frame.height, stride: frame.strides[0], x: tile.x, y: tile.y)
            }
        }
        guard last != nil else { throw .decodeFailed(path: path, reason: "no picture decodes") }
        var image = Frame(width: board.width, height: board.height, format: .rgb24)
        image.bytes = sprite.pixels
        return (board, try ImageEncoder.jpeg(image, quality: 4))
    }

    /// Writes `storyboard.jpg` and `storyboard.vtt` for the video at `path` into `folder` (made
    /// if missing), each to a temporary file renamed into place, the cues last: a folder whose
    /// `storyboard.vtt` exists holds a whole storyboard. With `replace`, the old cues are removed
    /// before the new sprite lands.
    /// `isCancelled` is asked before every tile (see ``make(path:tileSide:maxTiles:isCancelled:)``)
    /// and once more before anything is written.
    /// - Throws: ``MediaError``; ``MediaError/cannotCreate(path:reason:)`` when a file exists
    ///   and `replace` is not set, or the folder cannot be written; ``MediaError/interrupted(path:)``.
    @discardableResult
    public static func write(path: String, folder: String, tileSide: Int = defaultTileSide, maxTiles: Int = defaultMaxTiles,
                             replace: Bool = false, isCancelled: () -> Bool = { false }) throws(MediaError) -> Storyboard {
        let image = folder + "/" + imageName, cues = folder + "/" + cuesName
        if !replace {
            for file in [image, cues] where FileManager.default.fileExists(atPath: file) {
                throw .cannotCreate(path: file, reason: "the file exists (--force replaces it)")
            }
        }
        let (board, jpeg) = try make(path: path, tileSide: tileSide, maxTiles: maxTiles, isCancelled: isCancelled)
        if isCancelled() { throw .interrupted(path: path) }
        let made = !FileManager.default.fileExists(atPath: folder)
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw .cannotCreate(path: folder, reason: "cannot make the folder")
        }
        // Replacing, the old cues go first: a folder holds a whole storyboard exactly when it has
        // cues, so a replacement that fails half-way leaves none, never new tiles under old cues.
        if replace, unlink(cues) != 0, errno != ENOENT {
            throw .cannotCreate(path: cues, reason: "cannot replace it: \(String(cString: strerror(errno)))")
        }
        for (file, bytes) in [(image, jpeg), (cues, Array(board.vtt().utf8))] {
            do { try DurableFile.writeAtomically(bytes, to: URL(fileURLWithPath: file)) } catch {
                // A folder made here goes again, with the sprite if it was written: nothing is left.
                if made {
                    unlink(image)
                    rmdir(folder)
                }
                // Creating a file is 73; writing one (a full disk) is an I/O failure, 74.
                switch DurableFile.outputFailure(error, path: file) {
                case let .cannotCreate(_, reason): throw .cannotCreate(path: file, reason: reason)
                case let .io(_, reason): throw .writeFailed(path: file, reason: reason)
                default: throw .writeFailed(path: file, reason: error.description)
                }
            }
        }
        return board
    }
}
