import Foundation

extension Roll {
    /// A contact sheet drawn by ``contactSheet(columns:limit:)``.
    public struct SheetImage: Sendable {
        /// The pixels.
        public var canvas: RGBCanvas
        /// How many recordings it shows.
        public var count: Int
        /// Width in pixels.
        public var width: Int { canvas.width }
        /// Height in pixels.
        public var height: Int { canvas.height }
    }

    /// Draws the newest `limit` recordings (nil = all), newest first, `columns` per row:
    /// each a poster at 10 % of its duration, letterboxed into its cell and labelled with
    /// ``ContactSheet/label(id:duration:)``. A recording that cannot be decoded gets an
    /// empty cell with its label, so one bad file does not spoil the sheet.
    /// - Throws: ``RollError/emptyRoll`` when there is nothing to draw.
    public func contactSheet(columns: Int = 2, limit: Int? = nil) async throws(RollError) -> SheetImage {
        guard columns >= 1 else { throw RollError.invalidOption("columns", problem: "must be 1 or more") }
        let recordings = try await self.recordings(limit: limit)
        guard !recordings.isEmpty else { throw RollError.emptyRoll }
        let size = ContactSheet.size(count: recordings.count, columns: columns)
        var canvas = RGBCanvas(width: size.width, height: size.height, fill: (16, 16, 16))
        for (index, recording) in recordings.enumerated() {
            let origin = ContactSheet.origin(of: index, columns: columns)
            canvas.fillRect(x: origin.x, y: origin.y, width: ContactSheet.cellWidth, height: ContactSheet.cellHeight, color: (40, 40, 40))
            let media = recording.media
            let fit = Roll.fit(width: media.width, height: media.height,
                               maxWidth: ContactSheet.cellWidth, maxHeight: ContactSheet.cellHeight)
            // Scale up small videos too: every cell is filled the same way.
            let scale = min(Double(ContactSheet.cellWidth) / Double(max(media.width, 1)),
                            Double(ContactSheet.cellHeight) / Double(max(media.height, 1)))
            let w = media.width > 0 ? max(1, min(ContactSheet.cellWidth, Int((Double(media.width) * scale).rounded()))) : fit.width
            let h = media.height > 0 ? max(1, min(ContactSheet.cellHeight, Int((Double(media.height) * scale).rounded()))) : fit.height
            if let frame = try? posterFrame(of: recording, at: media.duration * 0.1, width: w, height: h) {
                let x = origin.x + (ContactSheet.cellWidth - frame.width) / 2
                let y = origin.y + (ContactSheet.cellHeight - frame.height) / 2
                frame.bytes.withUnsafeBufferPointer { pixels in
                    canvas.blit(pixels, width: frame.width, height: frame.height, stride: frame.strides[0], x: x, y: y)
                }
            }
            let label = ContactSheet.label(id: recording.id, duration: media.duration)
            let labelY = origin.y + ContactSheet.cellHeight + (ContactSheet.labelHeight - BitmapFont.height * 2) / 2
            canvas.draw(label, x: origin.x + 2, y: labelY, scale: 2, color: (235, 235, 235))
        }
        return SheetImage(canvas: canvas, count: recordings.count)
    }

    /// Draws the sheet (see ``contactSheet(columns:limit:)``) and writes it to `path` as a PNG.
    /// - Throws: ``RollError/cannotCreate(path:reason:)`` when the file cannot be written.
    @discardableResult
    public func saveContactSheet(to path: String, columns: Int = 2, limit: Int? = nil) async throws(RollError) -> SheetImage {
        let sheet = try await contactSheet(columns: columns, limit: limit)
        var frame = Frame(width: sheet.width, height: sheet.height, format: .rgb24)
        frame.bytes = sheet.canvas.pixels
        let png: [UInt8]
        do { png = try ImageEncoder.png(frame) } catch {
            if case .unavailable = error { throw RollError.media(error) }
            throw RollError.cannotCreate(path: path, reason: MediaRecordingProber.reason(error))
        }
        do { try DurableFile.writeAtomically(png, to: Roll.absolute(path)) } catch {
            throw DurableFile.outputFailure(error, path: path)
        }
        return sheet
    }
}
