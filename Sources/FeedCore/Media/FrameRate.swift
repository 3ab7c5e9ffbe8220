import CFFmpeg

/// The output rate a clip's nominal rate stands for.
public enum FrameRate {
    /// The standard rates a clip's rate is snapped to.
    public static let standardRates: [Double] = [24000.0 / 1001, 24, 25, 30000.0 / 1001, 30, 50, 60000.0 / 1001, 60]

    /// The standard rate (23.976, 24, 25, 29.97, 30, 50, 59.94, 60) within 3 % of `nominal`;
    /// 60 above 60; otherwise `nominal` itself to the thousandth (a 15 fps time-lapse stays 15
    /// rather than having its frames repeated); 30 when `nominal` is unknown (0).
    public static func standard(_ nominal: Double) -> Double {
        fs_standard_frame_rate(nominal)
    }
}
