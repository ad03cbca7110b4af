import ScrollCore
import ScrollLab
import Testing

/// The lab's properties apply where the preset's description says (issue 21 §1): the lab asks the
/// same value `welcome.presets[].properties` is written from.
struct PropertyTests {
    @Test(arguments: Preset.allCases)
    func aPropertyAppliesExactlyWhereThePresetsDescriptionListsIt(preset: Preset) {
        #expect(Property.allCases.filter { $0.applies(to: preset) } == preset.behavior.properties)
    }

    @Test func releaseGatedAppliesToTheRefreshesOnReleaseOnly() {
        #expect(
            Preset.allCases.filter { Property.releaseGated.applies(to: $0) } == [
                .refreshableLegacy, .refreshable, .playground,
            ])
    }
}
