/// What feed reads from an H.264 sequence parameter set (ITU-T H.264 §7.3.2.1.1): the profile
/// and level, and the displayed picture size, which the avcC record does not carry: the coded
/// size in macroblocks minus the frame cropping. The VUI is not read.
public struct H264SequenceParameterSet: Sendable, Equatable {
    /// profile_idc: 66 baseline, 77 main, 100 high …
    public var profile: UInt8
    /// level_idc, ten times the level (31 is level 3.1).
    public var level: UInt8
    /// chroma_format_idc: 0 monochrome, 1 4:2:0, 2 4:2:2, 3 4:4:4.
    public var chromaFormat: Int
    /// The displayed width in pixels, cropping applied.
    public var width: Int
    /// The displayed height in pixels, cropping applied.
    public var height: Int

    /// The largest picture side feed accepts, in pixels (H.264's levels stop at 8192).
    public static let maximumSide = 16_384

    /// The profiles whose SPS carries chroma format, bit depths and scaling matrices.
    private static let highProfiles: Set<UInt32> = [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]

    /// Parses `nal`, a whole SPS NAL unit (its header byte first, emulation prevention bytes in
    /// place).
    /// - Throws: ``LivePackagingError/badSPS(reason:)`` when it is not an SPS, is cut short, or
    ///   holds values out of range.
    public init<Bytes: Collection<UInt8>>(nal: Bytes) throws(LivePackagingError) {
        guard let header = nal.first else { throw .badSPS(reason: "empty NAL unit") }
        guard header & 0x80 == 0, header & 0x1F == 7 else {
            throw .badSPS(reason: "NAL unit type \(header & 0x1F) is not a sequence parameter set (7)")
        }
        var reader = RBSPBitReader(RBSPBitReader.unescape(nal.dropFirst()))
        let profile = try reader.bits(8, "profile_idc")
        _ = try reader.bits(8, "constraint flags")
        let level = try reader.bits(8, "level_idc")
        guard try reader.ue("seq_parameter_set_id") <= 31 else { throw .badSPS(reason: "seq_parameter_set_id over 31") }

        var chromaFormat: UInt32 = 1
        var separateColourPlanes = false
        if Self.highProfiles.contains(profile) {
            chromaFormat = try reader.ue("chroma_format_idc")
            guard chromaFormat <= 3 else { throw .badSPS(reason: "chroma_format_idc \(chromaFormat) over 3") }
            if chromaFormat == 3 { separateColourPlanes = try reader.flag("separate_colour_plane_flag") }
            guard try reader.ue("bit_depth_luma_minus8") <= 6, try reader.ue("bit_depth_chroma_minus8") <= 6 else {
                throw .badSPS(reason: "bit depth over 14")
            }
            _ = try reader.flag("qpprime_y_zero_transform_bypass_flag")
            if try reader.flag("seq_scaling_matrix_present_flag") {
                for list in 0 ..< (chromaFormat == 3 ? 12 : 8) {
                    if try reader.flag("seq_scaling_list_present_flag") {
                        try Self.skipScalingList(size: list < 6 ? 16 : 64, reader: &reader)
                    }
                }
            }
        }
        guard try reader.ue("log2_max_frame_num_minus4") <= 12 else { throw .badSPS(reason: "log2_max_frame_num_minus4 over 12") }
        let pictureOrder = try reader.ue("pic_order_cnt_type")
        switch pictureOrder {
        case 0:
            guard try reader.ue("log2_max_pic_order_cnt_lsb_minus4") <= 12 else {
                throw .badSPS(reason: "log2_max_pic_order_cnt_lsb_minus4 over 12")
            }
        case 1:
            _ = try reader.flag("delta_pic_order_always_zero_flag")
            _ = try reader.se("offset_for_non_ref_pic")
            _ = try reader.se("offset_for_top_to_bottom_field")
            let cycle = try reader.ue("num_ref_frames_in_pic_order_cnt_cycle")
            guard cycle <= 255 else { throw .badSPS(reason: "num_ref_frames_in_pic_order_cnt_cycle \(cycle) over 255") }
            for _ in 0 ..< cycle { _ = try reader.se("offset_for_ref_frame") }
        case 2:
            break
        default:
            throw .badSPS(reason: "pic_order_cnt_type \(pictureOrder) over 2")
        }
        _ = try reader.ue("max_num_ref_frames")
        _ = try reader.flag("gaps_in_frame_num_value_allowed_flag")
        let widthInMacroblocks = Int(try reader.ue("pic_width_in_mbs_minus1")) + 1
        let heightInMapUnits = Int(try reader.ue("pic_height_in_map_units_minus1")) + 1
        let frameOnly = try reader.flag("frame_mbs_only_flag")
        if !frameOnly { _ = try reader.flag("mb_adaptive_frame_field_flag") }
        _ = try reader.flag("direct_8x8_inference_flag")

        let codedWidth = widthInMacroblocks * 16
        let codedHeight = (frameOnly ? 1 : 2) * heightInMapUnits * 16
        guard codedWidth <= Self.maximumSide, codedHeight <= Self.maximumSide else {
            throw .badSPS(reason: "coded size \(codedWidth)x\(codedHeight) over \(Self.maximumSide)")
        }
        var width = codedWidth, height = codedHeight
        if try reader.flag("frame_cropping_flag") {
            // Crop offsets count chroma samples (H.264 (7-19)–(7-22)); monochrome and separate
            // planes count luma samples.
            let chromaArrayType = separateColourPlanes ? 0 : chromaFormat
            let unitX = chromaArrayType == 1 || chromaArrayType == 2 ? 2 : 1
            let unitY = (chromaArrayType == 1 ? 2 : 1) * (frameOnly ? 1 : 2)
            let left = Int(try reader.ue("frame_crop_left_offset")), right = Int(try reader.ue("frame_crop_right_offset"))
            let top = Int(try reader.ue("frame_crop_top_offset")), bottom = Int(try reader.ue("frame_crop_bottom_offset"))
            width -= unitX * (left + right)
            height -= unitY * (top + bottom)
            guard width > 0, height > 0 else {
                throw .badSPS(reason: "cropping \(left)+\(right) by \(top)+\(bottom) leaves nothing of \(codedWidth)x\(codedHeight)")
            }
        }
        self.profile = UInt8(profile)
        self.level = UInt8(level)
        self.chromaFormat = Int(chromaFormat)
        self.width = width
        self.height = height
    }

    /// Reads past one scaling_list() of `size` coefficients (H.264 §7.3.2.1.1.1).
    private static func skipScalingList(size: Int, reader: inout RBSPBitReader) throws(LivePackagingError) {
        var last: Int64 = 8, next: Int64 = 8
        for _ in 0 ..< size {
            if next != 0 {
                let delta = try reader.se("delta_scale")
                guard (-128 ... 127).contains(delta) else { throw .badSPS(reason: "delta_scale \(delta) out of range") }
                next = (last + delta + 256) % 256
            }
            if next != 0 { last = next }
        }
    }
}
