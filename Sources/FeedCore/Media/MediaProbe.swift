/// Reads what a media file holds without decoding it.
public enum MediaProbe {
    /// The file's `MediaInfo`. Throws like `MediaReader.init`.
    public static func probe(path: String, allowNetwork: Bool = false) throws(MediaError) -> MediaInfo {
        try MediaReader(path: path, allowNetwork: allowNetwork, video: false, audio: false).info
    }
}
