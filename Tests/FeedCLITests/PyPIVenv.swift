import FeedTestSupport
import Foundation

/// A tool from PyPI in a virtual environment of its own under `.build/` (`python3 -m venv`,
/// then `pip install`), made once per test process by the first test that asks, and reused by
/// later runs while `probe` still succeeds in it.
struct PyPIVenv: Sendable {
    /// The folder, `.build/<name>`.
    let folder: URL
    /// What `pip install` gets.
    let package: String
    /// Arguments to the venv's `bin/python` that exit 0 once the package works.
    let probe: [String]

    init(name: String, package: String, probe: [String]) {
        folder = RepositoryFiles.root.appendingPathComponent(".build/\(name)")
        self.package = package
        self.probe = probe
    }

    /// The venv's `bin/NAME`.
    func bin(_ name: String) -> String { folder.appendingPathComponent("bin/\(name)").path }

    /// Makes the venv unless `probe` already succeeds in it.
    func make() async -> Result<Void, SetupError> {
        let python = bin("python")
        if (try? await Tool.run(python, probe, limited: false))?.status == 0 { return .success(()) }
        do {
            let made = try await Tool.run("/usr/bin/env", ["python3", "-m", "venv", "--clear", folder.path], limited: false)
            guard made.status == 0 else { return .failure(SetupError(text: "python3 -m venv: \(made.stderr)")) }
            let pip = try await Tool.run(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", package], limited: false)
            guard pip.status == 0 else { return .failure(SetupError(text: "pip install \(package): \(pip.stderr)")) }
        } catch {
            return .failure(SetupError(text: "\(error)"))
        }
        return .success(())
    }

    /// Why a tool could not be set up.
    struct SetupError: Error, CustomStringConvertible { let text: String; var description: String { text } }
}
