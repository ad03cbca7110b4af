/// The values one mode reads: its own, and the shared `Arguments`.
protocol BenchSettings: Sendable {
    /// The shared options and what follows `--`.
    var common: Arguments { get set }
}
