/// Thrown inside decoding to stop at the first error (``FeedLoader/load(bytes:source:format:)``).
struct StopDecoding: Error {}
