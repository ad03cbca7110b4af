/// Why a ``WebServer`` could not start.
public enum WebServerError: Error, Equatable, CustomStringConvertible {
    /// libwebsockets could not create its context (out of memory, bad options).
    case contextCreationFailed
    /// The listening socket could not be bound (port in use, address not local).
    case cannotListen(host: String, port: Int)
    /// The public directory does not exist or is not a directory.
    case publicDirectoryMissing(String)
    /// A configuration value is out of range; the string says which.
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .contextCreationFailed: "cannot create the libwebsockets context"
        case .cannotListen(let host, let port): "cannot listen on \(host):\(port)"
        case .publicDirectoryMissing(let path): "public directory not found: \(path)"
        case .invalidConfiguration(let what): "invalid server configuration: \(what)"
        }
    }
}
