/// The layout of a contact sheet: the camera-roll grid as one picture.
///
/// Cells of ``cellWidth``×``cellHeight`` (the thumbnail, letterboxed on dark grey) sit
/// above a ``labelHeight`` strip with `#id duration`, ``gap`` pixels apart and around.
public enum ContactSheet {
    /// Thumbnail box width in pixels (9:16, a phone recording's shape).
    public static let cellWidth = 180
    /// Thumbnail box height in pixels.
    public static let cellHeight = 320
    /// Height of the label strip under each thumbnail.
    public static let labelHeight = 22
    /// Space between and around cells.
    public static let gap = 8

    /// Pixel size of a sheet of `count` recordings in `columns` columns.
    public static func size(count: Int, columns: Int) -> (width: Int, height: Int) {
        let columns = max(1, columns)
        let rows = max(1, (count + columns - 1) / columns)
        return (gap + columns * (cellWidth + gap), gap + rows * (cellHeight + labelHeight + gap))
    }

    /// Top-left corner of the thumbnail box of cell `index`.
    public static func origin(of index: Int, columns: Int) -> (x: Int, y: Int) {
        (gap + (index % columns) * (cellWidth + gap), gap + (index / columns) * (cellHeight + labelHeight + gap))
    }

    /// The label of a recording: `#12 4.0s` (or `#12 1:02.5`).
    public static func label(id: Int64, duration: Double) -> String {
        let time = duration < 60 ? String(format: "%.1fs", duration)
            : String(format: "%d:%04.1f", Int(duration) / 60, duration.truncatingRemainder(dividingBy: 60))
        return "#\(id) \(time)"
    }
}
