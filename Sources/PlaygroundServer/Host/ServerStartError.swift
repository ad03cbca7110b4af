/// A reason the server cannot start, shown as one line.
public struct ServerStartError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
