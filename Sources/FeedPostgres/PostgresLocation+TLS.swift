import FeedCore
import NIOSSL

extension PostgresLocation {
    /// The TLS settings of ``tls``, as libpq applies `sslmode`: `prefer` and `require` encrypt
    /// and check nothing; `verify-ca` checks the chain against ``rootCertificates`` (or the
    /// system's roots); `verify-full` checks the host name as well. Nil for `disable`.
    /// - Throws: ``RollError/database(path:reason:)`` when `sslrootcert` cannot be read.
    func tlsConfiguration() throws(RollError) -> TLSConfiguration? {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tls {
        case .disable: return nil
        case .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let file = rootCertificates, tls == .verifyCA || tls == .verifyFull {
            do {
                configuration.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(file))
            } catch {
                throw .database(path: description, reason: "sslrootcert \(file): cannot be read as PEM certificates (\(error))")
            }
        }
        return configuration
    }
}
