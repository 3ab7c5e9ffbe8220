extension HostileMedia {
    /// The H.264 sequence parameter set NAL unit `sps` (header byte included, emulation
    /// prevention bytes in place) with its picture size changed to `width`x`height`, multiples
    /// of 16, and frame cropping turned off. Every other field is copied bit for bit.
    static func resizedSPS(_ sps: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        guard width % 16 == 0, height % 16 == 0, width > 0, height > 0 else {
            throw Failure(description: "\(width)x\(height) is not a whole number of macroblocks")
        }
        var reader = BitReader(bytes: unescape(Array(sps.dropFirst())))
        var writer = BitWriter()
        let profile = try reader.bits(8)
        writer.put(profile, 8)
        writer.put(try reader.bits(16), 16)   // constraint flags, level
        writer.ue(try reader.ue())             // seq_parameter_set_id
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            let chroma = try reader.ue()
            writer.ue(chroma)
            if chroma == 3 { writer.put(try reader.bits(1), 1) }
            writer.ue(try reader.ue())         // bit_depth_luma_minus8
            writer.ue(try reader.ue())         // bit_depth_chroma_minus8
            writer.put(try reader.bits(1), 1)  // qpprime_y_zero_transform_bypass_flag
            let scaling = try reader.bits(1)
            guard scaling == 0 else { throw Failure(description: "SPS with scaling matrices") }
            writer.put(0, 1)
        }
        writer.ue(try reader.ue())             // log2_max_frame_num_minus4
        let order = try reader.ue()
        writer.ue(order)
        if order == 0 {
            writer.ue(try reader.ue())
        } else if order == 1 {
            writer.put(try reader.bits(1), 1)
            writer.ue(try reader.ue())
            writer.ue(try reader.ue())
            let cycle = try reader.ue()
            writer.ue(cycle)
            for _ in 0..<cycle { writer.ue(try reader.ue()) }
        }
        writer.ue(try reader.ue())             // max_num_ref_frames
        writer.put(try reader.bits(1), 1)      // gaps_in_frame_num_value_allowed_flag
        _ = try reader.ue()
        _ = try reader.ue()
        let frameOnly = try reader.bits(1)
        guard frameOnly == 1 else { throw Failure(description: "interlaced SPS") }
        writer.ue(width / 16 - 1)
        writer.ue(height / 16 - 1)
        writer.put(1, 1)
        writer.put(try reader.bits(1), 1)      // direct_8x8_inference_flag
        if try reader.bits(1) == 1 {
            for _ in 0..<4 { _ = try reader.ue() }
        }
        writer.put(0, 1)                       // no frame cropping
        // The rest (VUI) up to and including the stop bit, then zeros to the byte.
        let stop = try reader.lastOneBit()
        while reader.position <= stop { writer.put(try reader.bits(1), 1) }
        while writer.count % 8 != 0 { writer.put(0, 1) }
        return [sps[0]] + escape(writer.bytes)
    }

    /// Removes emulation prevention bytes (00 00 03 → 00 00).
    static func unescape(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], zeros = 0
        for byte in bytes {
            if zeros >= 2 && byte == 3 { zeros = 0; continue }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }

    /// Inserts emulation prevention bytes where 00 00 is followed by 00…03.
    static func escape(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [], zeros = 0
        for byte in bytes {
            if zeros >= 2 && byte <= 3 { out.append(3); zeros = 0 }
            out.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return out
    }

    struct BitReader {
        let bytes: [UInt8]
        var position = 0

        mutating func bits(_ count: Int) throws -> Int {
            var value = 0
            for _ in 0..<count {
                guard position < bytes.count * 8 else { throw Failure(description: "SPS ends early") }
                value = value << 1 | Int(bytes[position / 8] >> (7 - position % 8) & 1)
                position += 1
            }
            return value
        }

        /// Exp-Golomb unsigned.
        mutating func ue() throws -> Int {
            var zeros = 0
            while try bits(1) == 0 { zeros += 1 }
            return (1 << zeros) - 1 + (try bits(zeros))
        }

        /// The index of the last 1 bit: the rbsp_stop_one_bit.
        func lastOneBit() throws -> Int {
            guard let index = bytes.lastIndex(where: { $0 != 0 }) else { throw Failure(description: "SPS without a stop bit") }
            return index * 8 + 7 - bytes[index].trailingZeroBitCount
        }
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        var count = 0

        mutating func put(_ value: Int, _ width: Int) {
            for shift in stride(from: width - 1, through: 0, by: -1) {
                if count % 8 == 0 { bytes.append(0) }
                bytes[bytes.count - 1] |= UInt8((value >> shift) & 1) << (7 - count % 8)
                count += 1
            }
        }

        /// Exp-Golomb unsigned.
        mutating func ue(_ value: Int) {
            let code = value + 1
            let length = Int.bitWidth - code.leadingZeroBitCount
            put(0, length - 1)
            put(code, length)
        }
    }
}
