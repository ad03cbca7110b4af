/// The library's version, as its release is tagged (`CHANGELOG.md`): depend on it with
/// `.package(url: …, from: "\(ScrollRulesVersion.current)")`. Semantic versioning over the API in `api/`: a
/// patch fixes, a minor adds, a major removes or changes what an app calls.
public enum ScrollRulesVersion {
    /// The version this source is (the newest entry of `CHANGELOG.md`).
    public static let current = "1.0.0"
}
