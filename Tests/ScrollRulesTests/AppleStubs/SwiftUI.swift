// A stand-in for SwiftUI with exactly the API ScrollRulesUI, docs/swiftui.md and the snippet `export` prints
// use: each declaration with the signature, isolation (`nonisolated`, `@MainActor`, `@Sendable`) and
// availability of Apple's iOS 18 SDK, its documentation page beside it. AppleTargetTests compiles the
// library against it for iOS 17, iOS 18 and macOS 14, so an iOS 18 API used without `@available` fails there
// as it does in Xcode. Nothing here runs; a difference between this file and the real SDK slips through.

@_exported import Foundation
@_exported import Observation

/// https://developer.apple.com/documentation/swiftui/view (iOS 13)
@MainActor @preconcurrency public protocol View {
    associatedtype Body: View
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/never (`extension Never : View`)
extension Never: View {
    public var body: Never { fatalError() }
}

/// What the stub's views and modifiers return (the real ones are SwiftUI's own types).
public struct _StubView: View {
    public var body: Never { fatalError() }
    nonisolated public init() {}
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder (iOS 13)
@resultBuilder public struct ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:) (iOS 17, parameter packs)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<
        (repeat each Content)
    > {
        TupleView()
    }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { _ConditionalContent() }
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { _ConditionalContent() }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildlimitedavailability(_:) (iOS 14)
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

extension Optional: View where Wrapped: View {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/emptyview
@frozen public struct EmptyView: View {
    nonisolated public init() {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/tupleview
@frozen public struct TupleView<T>: View {
    nonisolated init() {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/_conditionalcontent
@frozen public struct _ConditionalContent<TrueContent, FalseContent>: View {
    nonisolated init() {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/anyview (`init<V>(_ view: V) where V : View`)
@frozen public struct AnyView: View {
    nonisolated public init<V: View>(_ view: V) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/viewmodifier (iOS 13)
@MainActor @preconcurrency public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body
}

/// https://developer.apple.com/documentation/swiftui/viewmodifier/content
public struct _ViewModifier_Content<Modifier>: View where Modifier: ViewModifier {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/modifiedcontent
@frozen public struct ModifiedContent<Content, Modifier> {}
extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/dynamicproperty
public protocol DynamicProperty {}

/// https://developer.apple.com/documentation/swiftui/state (iOS 13; `projectedValue: Binding<Value>`)
@frozen @propertyWrapper public struct State<Value>: DynamicProperty {
    private let value: Value
    /// https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
    public init(wrappedValue value: Value) { self.value = value }
    /// https://developer.apple.com/documentation/swiftui/state/init(initialvalue:)
    public init(initialValue value: Value) { self.value = value }
    /// https://developer.apple.com/documentation/swiftui/state/wrappedvalue
    public var wrappedValue: Value {
        get { value }
        nonmutating set {}
    }
    /// https://developer.apple.com/documentation/swiftui/state/projectedvalue
    public var projectedValue: Binding<Value> { Binding(get: { value }, set: { _ in }) }
}

extension State where Value: ExpressibleByNilLiteral {
    /// https://developer.apple.com/documentation/swiftui/state/init() (`init()` where Value is Optional)
    public init() { self.init(wrappedValue: nil) }
}

/// https://developer.apple.com/documentation/swiftui/binding (iOS 13)
@frozen @propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
    private let get: () -> Value
    private let set: (Value) -> Void
    /// https://developer.apple.com/documentation/swiftui/binding/init(get:set:)
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
    public var projectedValue: Binding<Value> { self }
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(get: { fatalError() }, set: { _ in })
    }
}

/// https://developer.apple.com/documentation/swiftui/edgeinsets (iOS 13)
@frozen public struct EdgeInsets: Equatable, Sendable {
    public var top: CGFloat
    public var leading: CGFloat
    public var bottom: CGFloat
    public var trailing: CGFloat
}

/// https://developer.apple.com/documentation/swiftui/scrollgeometry (iOS 18)
@available(iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0, watchOS 11.0, *)
public struct ScrollGeometry: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/scrollgeometry/contentoffset
    public var contentOffset: CGPoint
    /// https://developer.apple.com/documentation/swiftui/scrollgeometry/contentsize
    public var contentSize: CGSize
    /// https://developer.apple.com/documentation/swiftui/scrollgeometry/contentinsets
    public var contentInsets: EdgeInsets
    /// https://developer.apple.com/documentation/swiftui/scrollgeometry/containersize
    public var containerSize: CGSize
    /// https://developer.apple.com/documentation/swiftui/scrollgeometry/visiblerect
    public var visibleRect: CGRect { .zero }
    /// https://developer.apple.com/documentation/swiftui/scrollgeometry/bounds
    public var bounds: CGRect { .zero }
}

/// https://developer.apple.com/documentation/swiftui/scrollphase (`@frozen enum ScrollPhase`, iOS 18)
@available(iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0, watchOS 11.0, *)
@frozen public enum ScrollPhase: Equatable, Sendable {
    case idle
    case tracking
    case interacting
    case decelerating
    case animating
    /// https://developer.apple.com/documentation/swiftui/scrollphase/isscrolling
    public var isScrolling: Bool { self != .idle }
}

/// https://developer.apple.com/documentation/swiftui/scrollphasechangecontext (iOS 18)
@available(iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0, watchOS 11.0, *)
public struct ScrollPhaseChangeContext {
    /// https://developer.apple.com/documentation/swiftui/scrollphasechangecontext/geometry
    public var geometry: ScrollGeometry { fatalError() }
    /// https://developer.apple.com/documentation/swiftui/scrollphasechangecontext/velocity
    public var velocity: CGVector? { nil }
}

/// https://developer.apple.com/documentation/swiftui/preferencekey (iOS 13)
public protocol PreferenceKey {
    associatedtype Value
    static var defaultValue: Self.Value { get }
    static func reduce(value: inout Self.Value, nextValue: () -> Self.Value)
}

/// https://developer.apple.com/documentation/swiftui/coordinatespaceprotocol (iOS 17)
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public protocol CoordinateSpaceProtocol {}

/// https://developer.apple.com/documentation/swiftui/namedcoordinatespace (iOS 17)
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public struct NamedCoordinateSpace: CoordinateSpaceProtocol, Equatable {
    /// https://developer.apple.com/documentation/swiftui/coordinatespaceprotocol/named(_:)
    public static func named(_ name: some Hashable) -> NamedCoordinateSpace { NamedCoordinateSpace() }
}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension CoordinateSpaceProtocol where Self == NamedCoordinateSpace {
    /// https://developer.apple.com/documentation/swiftui/coordinatespaceprotocol/named(_:)
    public static func named(_ name: some Hashable) -> NamedCoordinateSpace { NamedCoordinateSpace() }
}

/// https://developer.apple.com/documentation/swiftui/localcoordinatespace (iOS 17)
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
public struct LocalCoordinateSpace: CoordinateSpaceProtocol {}

@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
extension CoordinateSpaceProtocol where Self == LocalCoordinateSpace {
    /// https://developer.apple.com/documentation/swiftui/coordinatespaceprotocol/local
    public static var local: LocalCoordinateSpace { LocalCoordinateSpace() }
}

/// https://developer.apple.com/documentation/swiftui/geometryproxy (iOS 13)
public struct GeometryProxy {
    /// https://developer.apple.com/documentation/swiftui/geometryproxy/size
    public var size: CGSize { .zero }
    /// https://developer.apple.com/documentation/swiftui/geometryproxy/safeareainsets
    public var safeAreaInsets: EdgeInsets { fatalError() }
    /// https://developer.apple.com/documentation/swiftui/geometryproxy/frame(in:)-6n2ij (iOS 17)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    public func frame(in coordinateSpace: some CoordinateSpaceProtocol) -> CGRect { .zero }
}

/// https://developer.apple.com/documentation/swiftui/geometryreader (iOS 13)
@frozen public struct GeometryReader<Content: View>: View {
    /// `init(@ViewBuilder content: @escaping (GeometryProxy) -> Content)`
    nonisolated public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/color (`static let clear: Color`, iOS 13)
@frozen public struct Color: View, Sendable {
    public static let clear = Color()
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/text (`init<S>(_ content: S) where S : StringProtocol`)
@frozen public struct Text: View {
    nonisolated public init<S: StringProtocol>(_ content: S) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/progressview (`init()` where Label == EmptyView, iOS 14)
public struct ProgressView: View {
    nonisolated public init() {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/button (`init<S>(_ title: S, action: @escaping @MainActor () -> Void)`)
public struct Button: View {
    nonisolated public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/scrollview
/// (`init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content)`, iOS 13)
public struct ScrollView<Content: View>: View {
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/lazyvstack (iOS 14)
public struct LazyVStack<Content: View>: View {
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/foreach
/// (`init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content)` where the elements are `Identifiable`)
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View {
    public var body: Never { fatalError() }
}

extension ForEach where ID == Data.Element.ID, Data.Element: Identifiable {
    nonisolated public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/gesture (iOS 13)
@MainActor @preconcurrency public protocol Gesture {
    associatedtype Value
}

/// https://developer.apple.com/documentation/swiftui/gesturemask
public struct GestureMask: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let all = GestureMask(rawValue: 3)
}

/// https://developer.apple.com/documentation/swiftui/draggesture (iOS 13)
public struct DragGesture: Gesture {
    /// https://developer.apple.com/documentation/swiftui/draggesture/value
    public struct Value: Equatable, Sendable {
        public var translation: CGSize
        public var location: CGPoint
        public var startLocation: CGPoint
        /// https://developer.apple.com/documentation/swiftui/draggesture/value/velocity (iOS 17)
        @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
        public var velocity: CGSize { .zero }
    }
    /// https://developer.apple.com/documentation/swiftui/draggesture/init(minimumdistance:coordinatespace:)-3m9wd (iOS 17)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public init(minimumDistance: CGFloat = 10, coordinateSpace: some CoordinateSpaceProtocol = .local) {}
}

/// https://developer.apple.com/documentation/swiftui/_changedgesture, /_endedgesture
public struct _ChangedGesture<Content: Gesture>: Gesture {
    public typealias Value = Content.Value
}
public struct _EndedGesture<Content: Gesture>: Gesture {
    public typealias Value = Content.Value
}

extension Gesture where Value: Equatable {
    /// https://developer.apple.com/documentation/swiftui/gesture/onchanged(_:)
    public func onChanged(_ action: @escaping (Value) -> Void) -> _ChangedGesture<Self> { _ChangedGesture() }
}

extension Gesture {
    /// https://developer.apple.com/documentation/swiftui/gesture/onended(_:)
    public func onEnded(_ action: @escaping (Value) -> Void) -> _EndedGesture<Self> { _EndedGesture() }
}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/modifier(_:)
    nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> { ModifiedContent() }

    /// https://developer.apple.com/documentation/swiftui/view/onscrollgeometrychange(for:of:action:) (iOS 18)
    @available(iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0, watchOS 11.0, *)
    nonisolated public func onScrollGeometryChange<T>(
        for type: T.Type, of transform: @escaping (ScrollGeometry) -> T, action: @escaping (T, T) -> Void
    ) -> some View where T: Equatable { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/onscrollphasechange(_:) (iOS 18)
    @available(iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0, watchOS 11.0, *)
    nonisolated public func onScrollPhaseChange(_ action: @escaping (ScrollPhase, ScrollPhase) -> Void) -> some View {
        _StubView()
    }

    /// https://developer.apple.com/documentation/swiftui/view/onscrollphasechange(_:) (the overload with the
    /// context, iOS 18)
    @available(iOS 18.0, macOS 15.0, tvOS 18.0, visionOS 2.0, watchOS 11.0, *)
    nonisolated public func onScrollPhaseChange(
        _ action: @escaping (ScrollPhase, ScrollPhase, ScrollPhaseChangeContext) -> Void
    ) -> some View { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/refreshable(action:) (iOS 15)
    nonisolated public func refreshable(action: @escaping @Sendable () async -> Void) -> some View { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/task(priority:_:) (iOS 15; the iOS 18 SDK's
    /// `@isolated(any) @Sendable` action; the SDK's interface also has `@_inheritActorContext`, which the
    /// documentation page leaves out: the action runs on the view's main actor)
    nonisolated public func task(
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: @escaping @isolated(any) @Sendable () async -> Void
    ) -> some View { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/onappear(perform:) (iOS 13)
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/ondisappear(perform:) (iOS 13)
    nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/background(_:alignment:) (iOS 13)
    nonisolated public func background<Background: View>(_ background: Background) -> some View { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/preference(key:value:) (iOS 13)
    nonisolated public func preference<K: PreferenceKey>(key: K.Type = K.self, value: K.Value) -> some View {
        _StubView()
    }

    /// https://developer.apple.com/documentation/swiftui/view/onpreferencechange(_:perform:) (iOS 13)
    nonisolated public func onPreferenceChange<K: PreferenceKey>(
        _ key: K.Type = K.self, perform action: @escaping (K.Value) -> Void
    ) -> some View where K.Value: Equatable { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/coordinatespace(_:) (iOS 17)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func coordinateSpace(_ name: NamedCoordinateSpace) -> some View { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/simultaneousgesture(_:including:) (iOS 13)
    nonisolated public func simultaneousGesture<T: Gesture>(_ gesture: T, including mask: GestureMask = .all)
        -> some View
    { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/onchange(of:initial:_:) (iOS 17)
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func onChange<V: Equatable>(
        of value: V, initial: Bool = false, _ action: @escaping (V, V) -> Void
    ) -> some View { _StubView() }
}

/// https://developer.apple.com/documentation/swiftui/transaction (iOS 13)
@frozen public struct Transaction {
    public init() {}
}

/// https://developer.apple.com/documentation/swiftui/gesturestate (`@propertyWrapper @frozen struct
/// GestureState<Value>`, iOS 13): resets to its initial value when the gesture ends or is cancelled.
@propertyWrapper @frozen public struct GestureState<Value>: DynamicProperty {
    private let initial: Value
    /// https://developer.apple.com/documentation/swiftui/gesturestate/init(wrappedvalue:)
    public init(wrappedValue: Value) { initial = wrappedValue }
    /// https://developer.apple.com/documentation/swiftui/gesturestate/wrappedvalue (`var wrappedValue: Value { get }`)
    public var wrappedValue: Value { initial }
    /// https://developer.apple.com/documentation/swiftui/gesturestate/projectedvalue
    /// (`var projectedValue: GestureState<Value> { get }`)
    public var projectedValue: GestureState<Value> { self }
}

/// https://developer.apple.com/documentation/swiftui/gesturestategesture (`@frozen nonisolated struct
/// GestureStateGesture<Base, State> where Base : Gesture`, iOS 13)
@frozen public struct GestureStateGesture<Base: Gesture, State>: Gesture {
    public typealias Value = Base.Value
}

extension Gesture {
    /// https://developer.apple.com/documentation/swiftui/gesture/updating(_:body:) (`@MainActor @preconcurrency
    /// func updating<State>(_ state: GestureState<State>, body: @escaping (Self.Value, inout State, inout
    /// Transaction) -> Void) -> GestureStateGesture<Self, State>`, iOS 13)
    @MainActor @preconcurrency public func updating<State>(
        _ state: GestureState<State>, body: @escaping (Self.Value, inout State, inout Transaction) -> Void
    ) -> GestureStateGesture<Self, State> { GestureStateGesture() }
}

/// https://developer.apple.com/documentation/swiftui/timelineschedule (`protocol TimelineSchedule`, iOS 15)
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
public protocol TimelineSchedule {
    associatedtype Entries: Sequence where Self.Entries.Element == Date
    /// https://developer.apple.com/documentation/swiftui/timelineschedule/entries(from:mode:)
    func entries(from startDate: Date, mode: TimelineScheduleMode) -> Self.Entries
}

/// https://developer.apple.com/documentation/swiftui/timelineschedulemode (iOS 15)
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
public enum TimelineScheduleMode: Sendable {
    case normal, lowFrequency
}

/// https://developer.apple.com/documentation/swiftui/periodictimelineschedule (iOS 15)
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
public struct PeriodicTimelineSchedule: TimelineSchedule, Sendable {
    /// https://developer.apple.com/documentation/swiftui/periodictimelineschedule/init(from:by:)
    public init(from startDate: Date, by interval: TimeInterval) {}
    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> [Date] { [] }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
extension TimelineSchedule where Self == PeriodicTimelineSchedule {
    /// https://developer.apple.com/documentation/swiftui/timelineschedule/periodic(from:by:)
    /// (`static func periodic(from startDate: Date, by interval: TimeInterval) -> PeriodicTimelineSchedule`)
    public static func periodic(from startDate: Date, by interval: TimeInterval) -> PeriodicTimelineSchedule {
        PeriodicTimelineSchedule(from: startDate, by: interval)
    }
}

/// https://developer.apple.com/documentation/swiftui/timelineviewdefaultcontext (iOS 15: `TimelineView.Context`
/// with `date` and `cadence`)
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
public struct TimelineViewDefaultContext {
    public let date: Date
}

/// https://developer.apple.com/documentation/swiftui/timelineview (`struct TimelineView<Schedule, Content>
/// where Schedule : TimelineSchedule`; `init(_ schedule: Schedule, @ViewBuilder content: @escaping
/// (TimelineViewDefaultContext) -> Content)`, iOS 15)
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
public struct TimelineView<Schedule: TimelineSchedule, Content>: View {
    public var body: Never { fatalError() }
    nonisolated public init(
        _ schedule: Schedule, @ViewBuilder content: @escaping (TimelineViewDefaultContext) -> Content
    ) where Content: View {}
}

/// https://developer.apple.com/documentation/swiftui/environmentkey (`protocol EnvironmentKey`, iOS 13)
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Self.Value { get }
}

/// https://developer.apple.com/documentation/swiftui/environmentvalues (`struct EnvironmentValues`,
/// `subscript<K>(key: K.Type) -> K.Value where K : EnvironmentKey`, iOS 13)
public struct EnvironmentValues {
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { K.defaultValue }
        set {}
    }
}

/// https://developer.apple.com/documentation/swiftui/environment (`@frozen @propertyWrapper struct
/// Environment<Value>`; `init(_ keyPath: KeyPath<EnvironmentValues, Value>)`, iOS 13)
@frozen @propertyWrapper public struct Environment<Value>: DynamicProperty {
    private let keyPath: KeyPath<EnvironmentValues, Value>
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }
    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/environment(_:_:) (`nonisolated func
    /// environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View`, iOS 13)
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        _StubView()
    }
}

#if canImport(UIKit)
    import UIKit

    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext (iOS 13)
    @MainActor @preconcurrency public struct UIViewRepresentableContext<Representable: UIViewRepresentable> {}

    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable (`@MainActor @preconcurrency
    /// protocol UIViewRepresentable : View where Self.Body == Never`, iOS 13)
    @MainActor @preconcurrency public protocol UIViewRepresentable: View where Self.Body == Never {
        associatedtype UIViewType: UIView
        typealias Context = UIViewRepresentableContext<Self>
        /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/makeuiview(context:)
        @MainActor @preconcurrency func makeUIView(context: Self.Context) -> Self.UIViewType
        /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/updateuiview(_:context:)
        @MainActor @preconcurrency func updateUIView(_ uiView: Self.UIViewType, context: Self.Context)
    }

    extension UIViewRepresentable where Self.Body == Never {
        public var body: Never { fatalError() }
    }
#endif

// MARK: What Examples/FeedApp.swiftpm uses besides

/// https://developer.apple.com/documentation/swiftui/app (`@MainActor @preconcurrency protocol App`, iOS 14;
/// `static func main()`)
@MainActor @preconcurrency public protocol App {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    @MainActor @preconcurrency init()
}

extension App {
    /// https://developer.apple.com/documentation/swiftui/app/main()
    @MainActor @preconcurrency public static func main() {}
}

/// https://developer.apple.com/documentation/swiftui/scene (`@MainActor @preconcurrency protocol Scene`, iOS 14)
@MainActor @preconcurrency public protocol Scene {}

/// https://developer.apple.com/documentation/swiftui/scenebuilder (iOS 14)
@resultBuilder public struct SceneBuilder {
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// https://developer.apple.com/documentation/swiftui/windowgroup (`init(@ViewBuilder content: () -> Content)`,
/// iOS 14)
public struct WindowGroup<Content: View>: Scene {
    nonisolated public init(@ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/tabview (`init(@ViewBuilder content: () -> Content)`
/// where SelectionValue == Int, iOS 13)
public struct TabView<Content: View>: View {
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/navigationstack (`init(@ViewBuilder root: () -> Root)`,
/// iOS 16)
@available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
public struct NavigationStack<Root: View>: View {
    nonisolated public init(@ViewBuilder root: () -> Root) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/vstack (`init(alignment:spacing:content:)`, iOS 13)
@frozen public struct VStack<Content: View>: View {
    nonisolated public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/toggle (`init<S>(_ title: S, isOn: Binding<Bool>) where S :
/// StringProtocol`, iOS 13)
public struct Toggle: View {
    nonisolated public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {}
    public var body: Never { fatalError() }
}

/// https://developer.apple.com/documentation/swiftui/unitpoint (iOS 13)
@frozen public struct UnitPoint: Hashable, Sendable {
    public var x: CGFloat
    public var y: CGFloat
    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }
    public static let bottom = UnitPoint(x: 0.5, y: 1)
}

/// https://developer.apple.com/documentation/swiftui/scrollviewproxy (`func scrollTo<ID>(_ id: ID, anchor:
/// UnitPoint? = nil) where ID : Hashable`, iOS 14)
public struct ScrollViewProxy {
    public func scrollTo<ID: Hashable>(_ id: ID, anchor: UnitPoint? = nil) {}
}

/// https://developer.apple.com/documentation/swiftui/scrollviewreader (`init(@ViewBuilder content: @escaping
/// (ScrollViewProxy) -> Content)`, iOS 14)
@frozen public struct ScrollViewReader<Content: View>: View {
    nonisolated public init(@ViewBuilder content: @escaping (ScrollViewProxy) -> Content) {}
    public var body: Never { fatalError() }
}

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/tabitem(_:) (`nonisolated func tabItem<V>(@ViewBuilder
    /// _ label: () -> V) -> some View where V : View`, iOS 13)
    nonisolated public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> some View { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/navigationtitle(_:)-5di1u (`nonisolated func
    /// navigationTitle<S>(_ title: S) -> some View where S : StringProtocol`, iOS 14)
    nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { _StubView() }

    /// https://developer.apple.com/documentation/swiftui/view/id(_:) (`nonisolated func id<ID>(_ id: ID) -> some View
    /// where ID : Hashable`, iOS 13)
    nonisolated public func id<ID: Hashable>(_ id: ID) -> some View { _StubView() }

}
