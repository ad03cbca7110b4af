/// One value for each edge of the feed, reached by ``FeedEdge``: what the bottom and the top both have is
/// one field, not a pair of fields that must be kept in step.
package struct PerEdge<Value> {
    /// The bottom edge's value (next pages).
    public var bottom: Value
    /// The top edge's value (previous pages).
    public var top: Value

    /// Each edge with its own value.
    public init(bottom: Value, top: Value) {
        self.bottom = bottom
        self.top = top
    }

    /// Both edges start with the same value.
    public init(_ both: Value) {
        self.init(bottom: both, top: both)
    }

    /// The value at `edge`.
    public subscript(edge: FeedEdge) -> Value {
        get {
            switch edge {
            case .bottom: bottom
            case .top: top
            }
        }
        set {
            switch edge {
            case .bottom: bottom = newValue
            case .top: top = newValue
            }
        }
    }
}

extension PerEdge: Equatable where Value: Equatable {}
extension PerEdge: Sendable where Value: Sendable {}
