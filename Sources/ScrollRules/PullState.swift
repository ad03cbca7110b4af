/// The pull-to-refresh gesture as a preset's rules see it.
public struct PullState: Equatable, Hashable, Sendable {
    /// How far the content is pulled, in points.
    public var distance: Double = 0
    /// `distance` relative to the pull threshold, 0…1.
    public var progress: Double = 0
    /// Whether releasing now (or, for some presets, having released) starts a refresh.
    public var eligible: Bool = false

    /// A pull of `distance` points, `progress` of the threshold, armed or not.
    public init(distance: Double = 0, progress: Double = 0, eligible: Bool = false) {
        self.distance = distance
        self.progress = progress
        self.eligible = eligible
    }
}
