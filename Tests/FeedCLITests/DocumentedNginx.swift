import FeedTestSupport
import Foundation
import Testing

/// nginx running one of packaging/nginx's files as the docs give it, with a throwaway
/// certificate: its `listen 443 ssl;`, certificate paths and upstream replaced, in an `http`
/// block (`feed-tls.conf`) or at the top with the stream module loaded (`feed-rtmps.conf`, which
/// holds its own `stream` block). Each replaced text must still be in the file, so a test fails
/// when the docs' file changes under it. Waiting until it serves is the caller's (over TLS, to
/// what it proxies).
struct DocumentedNginx {
    /// Where the file goes in nginx's configuration.
    enum Context { case http, stream }

    let process: ChildProcess
    /// The loopback port it listens on with TLS.
    let port: String
    /// Its folder: configuration, pid file, error log.
    let folder: String

    /// nginx's error log so far, for a failure's message.
    var errorLog: String { (try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? "" }

    /// Starts nginx with `packaging/nginx/NAME`, `upstream` (the text to find, what it becomes)
    /// replaced too, in `scratch`.
    static func start(_ name: String, in context: Context, upstream: (String, String), scratch: ScratchFolder) async throws -> DocumentedNginx {
        let cert = scratch.path("cert.pem"), key = scratch.path("key.pem")
        let made = try await Tool.run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                                                           "-days", "1", "-subj", "/CN=127.0.0.1"])
        try #require(made.status == 0, "\(made.stderr)")
        let port = try await Tool.run("/usr/bin/python3", ["-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"])
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        var site = try String(contentsOf: RepositoryFiles.root.appendingPathComponent("packaging/nginx/" + name), encoding: .utf8)
        for (from, to) in [("listen 443 ssl;", "listen 127.0.0.1:\(port) ssl;"), ("/etc/ssl/certs/feed.example.com.pem", cert),
                           ("/etc/ssl/private/feed.example.com.key", key), upstream] {
            #expect(site.contains(from), "\(name) no longer has \(from)")
            site = site.replacingOccurrences(of: from, with: to)
        }
        let nginx = scratch.path("nginx")
        try FileManager.default.createDirectory(atPath: nginx, withIntermediateDirectories: true)
        try site.write(toFile: nginx + "/site.conf", atomically: true, encoding: .utf8)
        let user = try await Tool.run("/usr/bin/id", ["-un"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let main = """
            daemon off;
            master_process off;
            user \(user);
            pid \(nginx)/nginx.pid;
            error_log \(nginx)/error.log warn;
            events { worker_connections 64; }
            """
        let body = switch context {
        case .http:
            """
            http {
              access_log off;
              client_body_temp_path \(nginx)/body;
              proxy_temp_path \(nginx)/proxy;
              fastcgi_temp_path \(nginx)/fastcgi;
              uwsgi_temp_path \(nginx)/uwsgi;
              scgi_temp_path \(nginx)/scgi;
              include \(nginx)/site.conf;
            }
            """
        case .stream:
            "include \(nginx)/site.conf;"
        }
        let modules = context == .stream ? "load_module /usr/lib/nginx/modules/ngx_stream_module.so;\n" : ""
        try (modules + main + "\n" + body + "\n").write(toFile: nginx + "/nginx.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-e", nginx + "/error.log", "-p", nginx, "-c", nginx + "/nginx.conf"]
        process.standardInput = FileHandle.nullDevice
        return DocumentedNginx(process: try ChildProcess(process), port: port, folder: nginx)  // long-lived: no permit of the limiter
    }
}
