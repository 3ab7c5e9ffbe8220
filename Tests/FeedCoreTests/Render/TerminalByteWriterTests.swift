import Testing
@testable import FeedCore
@testable import FeedPlayer

@Suite struct TerminalByteWriterTests {
    @Test func writesDecimalsBytesAndStaticText() {
        // Given a writer over a buffer larger than needed
        var buffer = [UInt8](repeating: 0xFF, count: 128)
        let count = buffer.withUnsafeMutableBufferPointer { buffer in
            TerminalByteWriter.byteDigits.withUnsafeBufferPointer { digits in
                var writer = TerminalByteWriter(base: buffer.baseAddress!, digits: digits.baseAddress!)

                // When it writes small and large numbers between separators
                writer.bytes("\u{1B}[")
                for value in [0, 7, 10, 99, 100, 255, 256, 1000, 65_535, 1_234_567] {
                    writer.decimal(value)
                    writer.byte(UInt8(ascii: ";"))
                }
                writer.decimal(UInt8(42))
                writer.bytes("▀")
                return writer.count
            }
        }

        // Then the text is exact and nothing after it was touched
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "\u{1B}[0;7;10;99;100;255;256;1000;65535;1234567;42▀")
        #expect(buffer[count...].allSatisfy { $0 == 0xFF })
    }
}
