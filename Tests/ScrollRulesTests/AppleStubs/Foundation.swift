// A stand-in for Apple's Foundation (and the CoreGraphics types it brings) with exactly what ScrollRulesUI and
// docs/swiftui.md use, each with Apple's signature and availability and its documentation page. It exists so
// that AppleTargetTests can compile the library for iOS and macOS on Linux against the toolchain's own
// standard library rebuilt for those targets. Nothing here runs. (CGFloat is Double here: on Apple's 64-bit
// platforms it is a struct wrapping a Double, which the library only converts with `Double(_:)`.)

/// https://developer.apple.com/documentation/corefoundation/cgfloat
public typealias CGFloat = Double

/// https://developer.apple.com/documentation/corefoundation/cgpoint
@frozen public struct CGPoint: Equatable, Sendable {
    public var x: CGFloat
    public var y: CGFloat
    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }
    public static let zero = CGPoint(x: 0, y: 0)
}

/// https://developer.apple.com/documentation/corefoundation/cgsize
@frozen public struct CGSize: Equatable, Sendable {
    public var width: CGFloat
    public var height: CGFloat
    public init(width: CGFloat, height: CGFloat) {
        self.width = width
        self.height = height
    }
    public static let zero = CGSize(width: 0, height: 0)
}

/// https://developer.apple.com/documentation/corefoundation/cgrect (`minX`, `minY`, `width`, `height`)
@frozen public struct CGRect: Equatable, Sendable {
    public var origin: CGPoint
    public var size: CGSize
    public init(origin: CGPoint, size: CGSize) {
        self.origin = origin
        self.size = size
    }
    public var minX: CGFloat { origin.x }
    public var minY: CGFloat { origin.y }
    public var width: CGFloat { size.width }
    public var height: CGFloat { size.height }
    public static let zero = CGRect(origin: .zero, size: .zero)
}

/// https://developer.apple.com/documentation/corefoundation/cgvector
@frozen public struct CGVector: Equatable, Sendable {
    public var dx: CGFloat
    public var dy: CGFloat
}

/// https://developer.apple.com/documentation/foundation/url (`init?(string: String)`)
public struct URL: Hashable, Sendable {
    public init?(string: String) {}
}

/// https://developer.apple.com/documentation/foundation/urlsession (`class var shared: URLSession { get }`,
/// `func webSocketTask(with url: URL, protocols: [String]) -> URLSessionWebSocketTask`, iOS 13)
open class URLSession: @unchecked Sendable {
    public class var shared: URLSession { URLSession() }
    init() {}
    @available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
    open func webSocketTask(with url: URL, protocols: [String]) -> URLSessionWebSocketTask { URLSessionWebSocketTask() }
}

/// https://developer.apple.com/documentation/foundation/urlsessiontask (`func resume()`), `@unchecked Sendable`
open class URLSessionTask: @unchecked Sendable {
    open func resume() {}
}

/// https://developer.apple.com/documentation/foundation/urlsessionwebsockettask (iOS 13)
@available(iOS 13.0, macOS 10.15, tvOS 13.0, watchOS 6.0, *)
open class URLSessionWebSocketTask: URLSessionTask, @unchecked Sendable {
    /// https://developer.apple.com/documentation/foundation/urlsessionwebsockettask/message
    public enum Message: Sendable {
        case data(Data)
        case string(String)
    }
    /// https://developer.apple.com/documentation/foundation/urlsessionwebsockettask/closecode
    public enum CloseCode: Int, Sendable {
        case invalid = 0
        case normalClosure = 1000
        case goingAway = 1001
    }
    /// https://developer.apple.com/documentation/foundation/urlsessionwebsockettask/send(_:completionhandler:)
    open func send(_ message: Message, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {}
    /// https://developer.apple.com/documentation/foundation/urlsessionwebsockettask/receive(completionhandler:)
    open func receive(completionHandler: @escaping @Sendable (Result<Message, any Error>) -> Void) {}
    /// https://developer.apple.com/documentation/foundation/urlsessionwebsockettask/cancel(with:reason:)
    open func cancel(with closeCode: CloseCode, reason: Data?) {}
    /// https://developer.apple.com/documentation/foundation/urlsessionwebsockettask/closecode-swift.property
    open var closeCode: CloseCode { .invalid }
}

/// https://developer.apple.com/documentation/foundation/data
public struct Data: Sendable {}

/// https://developer.apple.com/documentation/foundation/timeinterval (`typealias TimeInterval = Double`)
public typealias TimeInterval = Double

/// https://developer.apple.com/documentation/foundation/date (`struct Date`; `static var now: Date { get }`,
/// iOS 15)
public struct Date: Hashable, Sendable {
    public var timeIntervalSinceReferenceDate: TimeInterval
    public init(timeIntervalSinceReferenceDate: TimeInterval) {
        self.timeIntervalSinceReferenceDate = timeIntervalSinceReferenceDate
    }
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    public static var now: Date { Date(timeIntervalSinceReferenceDate: 0) }
}

/// https://developer.apple.com/documentation/objectivec/nsobject-swift.class (`class NSObject`; here a plain
/// Swift class: nothing is sent to the Objective-C runtime in a compile-only check)
open class NSObject {
    public init() {}
}

/// https://developer.apple.com/documentation/foundation/nskeyvalueobservingoptions
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let new = NSKeyValueObservingOptions(rawValue: 1)
    public static let old = NSKeyValueObservingOptions(rawValue: 2)
    public static let initial = NSKeyValueObservingOptions(rawValue: 4)
}

/// https://developer.apple.com/documentation/foundation/nskeyvalueobservedchange
public struct NSKeyValueObservedChange<Value> {
    public let newValue: Value?
    public let oldValue: Value?
}

/// https://developer.apple.com/documentation/foundation/nskeyvalueobservation (`@objc(_NSKeyValueObservation)
/// class NSKeyValueObservation`; `func invalidate()`)
open class NSKeyValueObservation: @unchecked Sendable {
    init() {}
    open func invalidate() {}
}

/// https://developer.apple.com/documentation/swift/_keyvaluecodingandobserving
public protocol _KeyValueCodingAndObserving {}

extension NSObject: _KeyValueCodingAndObserving {}

extension _KeyValueCodingAndObserving {
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/observe(_:options:changehandler:)
    /// (`@preconcurrency func observe<Value>(_ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions
    /// = [], changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void) ->
    /// NSKeyValueObservation`)
    @preconcurrency public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>, options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping @Sendable (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation { NSKeyValueObservation() }
}

/// https://developer.apple.com/documentation/foundation/nscoder (`class NSCoder`)
open class NSCoder: NSObject {}
