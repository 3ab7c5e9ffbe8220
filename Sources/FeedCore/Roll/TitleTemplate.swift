import Foundation

/// A recording's title given as a template: `{name}` stands for the added file's name without
/// its extension, so one `--title "Trip: {name}"` gives each of several files its own title.
public enum TitleTemplate {
    /// The placeholder.
    public static let name = "{name}"

    /// Whether `template` gives different files different titles.
    public static func isPerFile(_ template: String) -> Bool {
        template.contains(name)
    }

    /// `template` with every `{name}` replaced by `file`'s last path component without its
    /// extension; nil stays nil.
    public static func title(_ template: String?, for file: URL) -> String? {
        guard let template else { return nil }
        guard isPerFile(template) else { return template }
        return template.replacingOccurrences(of: name, with: file.deletingPathExtension().lastPathComponent)
    }
}
