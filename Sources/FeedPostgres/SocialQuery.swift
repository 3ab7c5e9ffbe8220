import PostgresNIO

/// A PostgreSQL statement built from fragments, each value a bind (`$n`): what
/// `PostgresQuery`'s interpolation does for one literal, for statements assembled from pieces
/// (the visibility rule, a page's order), as GRDB's `SQL` is on the SQLite side.
struct SocialQuery: ExpressibleByStringInterpolation, Sendable {
    /// Text, or a value to bind.
    fileprivate enum Piece: Sendable {
        case text(String)
        case value(PostgresData)
    }

    private var pieces: [Piece] = []

    init(stringLiteral value: String) { pieces = [.text(value)] }

    init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.pieces }

    /// The statement to run: the values numbered `$1`, `$2`, … in order.
    var query: PostgresQuery {
        var sql = "", binds = PostgresBindings(), count = 0
        for piece in pieces {
            switch piece {
            case .text(let text): sql += text
            case .value(let data):
                binds.append(data)
                count += 1
                sql += "$\(count)"
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    static func + (lhs: SocialQuery, rhs: SocialQuery) -> SocialQuery {
        var out = lhs
        out.pieces += rhs.pieces
        return out
    }

    static func += (lhs: inout SocialQuery, rhs: SocialQuery) { lhs.pieces += rhs.pieces }

    struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var pieces: [Piece] = []

        init(literalCapacity: Int, interpolationCount: Int) {}

        mutating func appendLiteral(_ literal: String) { pieces.append(.text(literal)) }

        /// A value, bound.
        mutating func appendInterpolation<Value: PostgresEncodable & Sendable>(_ value: Value) {
            var buffer = ByteBuffer()
            // Encoding a string, number or Bool never fails.
            try? value.encode(into: &buffer, context: .default)
            pieces.append(.value(PostgresData(type: Value.psqlType, formatCode: Value.psqlFormat, value: buffer)))
        }

        /// An optional value: bound, or NULL.
        mutating func appendInterpolation<Value: PostgresEncodable & Sendable>(_ value: Value?) {
            if let value { appendInterpolation(value) } else { pieces.append(.text("NULL")) }
        }

        /// Text written as it is: a column name, an order (never a caller's value).
        mutating func appendInterpolation(raw text: String) { pieces.append(.text(text)) }

        /// Another fragment, with its values.
        mutating func appendInterpolation(_ fragment: SocialQuery) { pieces += fragment.pieces }
    }
}
