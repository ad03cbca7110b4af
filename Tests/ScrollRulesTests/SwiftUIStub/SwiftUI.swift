// A stand-in for SwiftUI that declares exactly the API ScrollRulesUI (and an exported snippet) uses, each
// declaration's signature as Apple's documentation gives it (the page is cited beside it). It lets a test
// type-check ScrollRulesUI on Linux, where SwiftUI does not exist: a typo or a wrong signature fails
// there. It is not SwiftUI: nothing here runs, and the real SDK is not built against.

// SwiftUI re-exports CoreGraphics' CGFloat, CGPoint and CGSize; on Linux, Foundation declares them.
@_exported import Foundation

/// https://developer.apple.com/documentation/swiftui/view
/// `@MainActor @preconcurrency protocol View { associatedtype Body : View; @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get } }`
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/never (`extension Never : View`)
extension Never: View {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
/// `@resultBuilder struct ViewBuilder`; `static func buildBlock<Content>(_ content: Content) -> Content where Content : View`
@resultBuilder public struct ViewBuilder {
    public static func buildBlock<Content>(_ content: Content) -> Content where Content: View { content }
}

/// https://developer.apple.com/documentation/swiftui/viewmodifier
/// `@MainActor @preconcurrency protocol ViewModifier { associatedtype Body : View; typealias Content;
/// @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body }`
@MainActor @preconcurrency public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

/// https://developer.apple.com/documentation/swiftui/viewmodifier/content (`typealias Content = _ViewModifier_Content<Self>`)
public struct _ViewModifier_Content<Modifier>: View where Modifier: ViewModifier {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/modifiedcontent
/// `@frozen struct ModifiedContent<Content, Modifier>`, a `View` where `Content : View, Modifier : ViewModifier`
@frozen public struct ModifiedContent<Content, Modifier> {}
extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public var body: Never { fatalError() }
}

/// What the stub's modifiers return (the real ones return SwiftUI's own opaque views).
public struct _StubView: View {
    public var body: Never { fatalError() }
}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/modifier(_:)
    /// `nonisolated func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T>`
    nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { ModifiedContent() }

    /// https://developer.apple.com/documentation/swiftui/view/onscrollgeometrychange(for:of:action:)
    /// `nonisolated func onScrollGeometryChange<T>(for type: T.Type, of transform: @escaping (ScrollGeometry) -> T,
    /// action: @escaping (T, T) -> Void) -> some View where T : Equatable` (iOS 18)
    nonisolated public func onScrollGeometryChange<T>(
        for type: T.Type, of transform: @escaping (ScrollGeometry) -> T, action: @escaping (T, T) -> Void
    ) -> some View where T: Equatable { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/onscrollphasechange(_:)
    /// `nonisolated func onScrollPhaseChange(_ action: @escaping (ScrollPhase, ScrollPhase) -> Void) -> some View` (iOS 18)
    nonisolated public func onScrollPhaseChange(_ action: @escaping (ScrollPhase, ScrollPhase) -> Void) -> some View {
        _StubView()
    }
}

/// https://developer.apple.com/documentation/swiftui/scrollgeometry (`struct ScrollGeometry`, iOS 18)
public struct ScrollGeometry: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/scrollgeometry/contentoffset (`var contentOffset: CGPoint { get set }`)
    public var contentOffset: CGPoint
    /// https://developer.apple.com/documentation/swiftui/scrollgeometry/contentsize (`var contentSize: CGSize`)
    public var contentSize: CGSize
    /// https://developer.apple.com/documentation/swiftui/scrollgeometry/contentinsets (`var contentInsets: EdgeInsets`)
    public var contentInsets: EdgeInsets
    /// https://developer.apple.com/documentation/swiftui/scrollgeometry/containersize (`var containerSize: CGSize { get set }`)
    public var containerSize: CGSize
}

/// https://developer.apple.com/documentation/swiftui/scrollphase (`@frozen enum ScrollPhase`, iOS 18)
@frozen public enum ScrollPhase: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/scrollphase/idle
    case idle
    /// https://developer.apple.com/documentation/swiftui/scrollphase/tracking
    case tracking
    /// https://developer.apple.com/documentation/swiftui/scrollphase/interacting
    case interacting
    /// https://developer.apple.com/documentation/swiftui/scrollphase/decelerating
    case decelerating
    /// https://developer.apple.com/documentation/swiftui/scrollphase/animating
    case animating
}

/// https://developer.apple.com/documentation/swiftui/edgeinsets
/// `@frozen struct EdgeInsets` with `var top: CGFloat`, `var leading: CGFloat`, `var bottom: CGFloat`, `var trailing: CGFloat`
@frozen public struct EdgeInsets: Equatable, Sendable {
    public var top: CGFloat
    public var leading: CGFloat
    public var bottom: CGFloat
    public var trailing: CGFloat
}

/// https://developer.apple.com/documentation/swiftui/state
/// `@frozen @propertyWrapper struct State<Value>`; `init(initialValue value: Value)`; `var wrappedValue: Value { get nonmutating set }`
@frozen @propertyWrapper public struct State<Value> {
    private let value: Value
    public init(initialValue value: Value) { self.value = value }
    public var wrappedValue: Value {
        get { value }
        nonmutating set {}
    }
}

/// https://developer.apple.com/documentation/swiftui/binding
/// `@frozen @propertyWrapper @dynamicMemberLookup struct Binding<Value>`; `var wrappedValue: Value { get nonmutating set }`;
/// `init(get: @escaping () -> Value, set: @escaping (Value) -> Void)`
@frozen @propertyWrapper public struct Binding<Value> {
    private let get: () -> Value
    private let set: (Value) -> Void
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
}
