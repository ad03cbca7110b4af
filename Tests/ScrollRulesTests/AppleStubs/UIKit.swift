// A stand-in for the part of UIKit the iOS 17 scroll view probe uses: each declaration with the signature,
// isolation and availability of Apple's iOS 18 SDK, its documentation page beside it. Compiled for the iOS
// targets only (macOS has no UIKit). Nothing here runs.

@_exported import Foundation

/// https://developer.apple.com/documentation/uikit/uiedgeinsets (`struct UIEdgeInsets`)
public struct UIEdgeInsets: Equatable, Sendable {
    public var top: CGFloat
    public var left: CGFloat
    public var bottom: CGFloat
    public var right: CGFloat
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
}

/// https://developer.apple.com/documentation/uikit/uiresponder (`@MainActor class UIResponder`)
@MainActor open class UIResponder: NSObject {}

/// https://developer.apple.com/documentation/uikit/uiview (`@MainActor class UIView`)
@MainActor open class UIView: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:)
    public init(frame: CGRect) {}
    /// https://developer.apple.com/documentation/uikit/uiview/init(coder:) (`required init?(coder: NSCoder)`)
    public required init?(coder: NSCoder) {}
    /// https://developer.apple.com/documentation/uikit/uiview/superview (`var superview: UIView? { get }`)
    open var superview: UIView? { nil }
    /// https://developer.apple.com/documentation/uikit/uiview/window (`var window: UIWindow? { get }`)
    open var window: UIWindow? { nil }
    /// https://developer.apple.com/documentation/uikit/uiview/bounds (`var bounds: CGRect { get set }`)
    open var bounds: CGRect = .zero
    /// https://developer.apple.com/documentation/uikit/uiview/didmovetowindow() (`func didMoveToWindow()`)
    open func didMoveToWindow() {}
    /// https://developer.apple.com/documentation/uikit/uiview/isuserinteractionenabled
    open var isUserInteractionEnabled: Bool = true
}

/// https://developer.apple.com/documentation/uikit/uiwindow (`@MainActor class UIWindow`)
@MainActor open class UIWindow: UIView {}

/// https://developer.apple.com/documentation/uikit/uiscrollview (`@MainActor class UIScrollView`)
@MainActor open class UIScrollView: UIView {
    /// https://developer.apple.com/documentation/uikit/uiscrollview/contentoffset (`var contentOffset: CGPoint`)
    open var contentOffset: CGPoint = .zero
    /// https://developer.apple.com/documentation/uikit/uiscrollview/contentsize (`var contentSize: CGSize`)
    open var contentSize: CGSize = .zero
    /// https://developer.apple.com/documentation/uikit/uiscrollview/adjustedcontentinset
    /// (`var adjustedContentInset: UIEdgeInsets { get }`, iOS 11)
    open var adjustedContentInset: UIEdgeInsets { UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 0) }
    /// https://developer.apple.com/documentation/uikit/uiscrollview/istracking (`var isTracking: Bool { get }`)
    open var isTracking: Bool { false }
    /// https://developer.apple.com/documentation/uikit/uiscrollview/isdragging (`var isDragging: Bool { get }`)
    open var isDragging: Bool { false }
    /// https://developer.apple.com/documentation/uikit/uiscrollview/isdecelerating
    /// (`var isDecelerating: Bool { get }`)
    open var isDecelerating: Bool { false }
}
