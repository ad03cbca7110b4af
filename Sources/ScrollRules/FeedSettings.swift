/// The settings one feed's rules read: the preset and what you tuned on top of its defaults. The names
/// are the playground's settings (`scroll-playground --set KEY=VALUE`), so an exported snippet reads the same.
public struct FeedSettings: Equatable, Hashable, Sendable {
    /// Which design's rules decide.
    public var preset: Preset {
        didSet { behavior = preset.behavior }
    }
    /// `preset.behavior`, kept with the preset: the rules and the session read it several times a geometry
    /// message, and building it each time cost about 430 instructions a message.
    package private(set) var behavior: PresetBehavior
    /// The scroll axis the rules observe.
    public var axis: ScrollAxis = .vertical
    /// How close to the end counts as the bottom, in points.
    public var bottomThreshold: Double = 50
    /// How close to the start counts as the top, in points (a two-way feed loads the previous page there).
    public var topThreshold: Double = 50
    /// `backoff`: the first retry's delay, in milliseconds; each further retry doubles it.
    public var retryBaseMs: Int = 1000
    /// `backoff`: the longest delay between retries, in milliseconds.
    public var retryMaxMs: Int = 30_000
    /// `backoff`: automatic retries of one page before giving up.
    public var retryMax: Int = 5
    /// How long `refreshOffsetObservable` keeps its indicator, whatever the refresh does, in milliseconds.
    public var refreshHoldMs: Int = 2000

    /// The pull threshold when set; nil follows the preset's default.
    public var explicitPullThreshold: Double?
    /// The retry policy when set; nil follows the preset's default.
    public var explicitRetryPolicy: RetryPolicy?
    /// Whether the top rule runs when set; nil follows the preset (`PresetBehavior.loadsPrevious`).
    public var explicitLoadsPrevious: Bool?

    /// `preset`'s defaults.
    public init(preset: Preset = .playground) {
        self.preset = preset
        behavior = preset.behavior
    }

    /// The pull distance that arms a refresh, in points: the one set, else the preset's default.
    public var pullThreshold: Double {
        get { explicitPullThreshold ?? behavior.defaultPullThreshold }
        set { explicitPullThreshold = newValue }
    }

    /// What happens after a page load fails: the policy set, else the preset's default.
    public var retryPolicy: RetryPolicy {
        get { explicitRetryPolicy ?? behavior.defaultRetryPolicy }
        set { explicitRetryPolicy = newValue }
    }

    /// Whether the top rule loads previous pages: as set, else as the preset does.
    public var loadsPrevious: Bool {
        get { explicitLoadsPrevious ?? behavior.loadsPrevious }
        set { explicitLoadsPrevious = newValue }
    }
}
