import Foundation
import ScrollCore
import ScrollLab
import Testing

@testable import PlaygroundServer

/// `tryHand`: the page's "Try this hand under…", run on the server. Every input is hostile.
struct HandTrialTests {
    static let trace: [UInt8] = {
        let file = ServerProcess.packageRoot.appendingPathComponent("Examples/traces/ios-lazy-estimate-prefetch.jsonl")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return Array(text.utf8)
    }()

    static func run(_ request: String, upload: [UInt8] = trace, maxLines: Int = 50_000) -> Result<
        JSONValue, ProtocolError
    > {
        HandTrial.answer(
            upload: upload, request: Array(request.utf8), limits: HandTrial.Limits(maxLines: maxLines, maxItems: 10_000)
        )
    }

    @Test func asRecordedTheRowsAgreeAndOtherSettingsShowTheStall() throws {
        let own = try Self.run(#"{"type":"tryHand"}"#).get()
        #expect(own["same"] == .bool(true))
        #expect(own["recorded"]?.array?.count == 3)
        #expect(own["settings"] == .object([:]))
        let other = try Self.run(#"{"type":"tryHand","settings":{"bottomThreshold":0,"loadLatencyMs":"600"}}"#).get()
        #expect(other["same"] == .bool(false))
        #expect(other["simulated"]?.array?.count == 1)
        #expect(other["report"]?["stallTotalMs"] == .number(600))
        #expect(other["settings"] == ["bottomThreshold": 0, "loadLatencyMs": 600])
    }

    /// Another preset reports only what the request changed, not the preset's own defaults; the export and the
    /// Swift carry the same settings, the recording's latencies included (issue 40 §7).
    @Test func anotherPresetReportsOnlyWhatChangedAndBothExportsAgree() throws {
        let result = try Self.run(
            #"{"type":"tryHand","preset":"refreshOffsetObservable","settings":{"bottomThreshold":10}}"#
        ).get()
        #expect(result["preset"] == "refreshOffsetObservable")
        #expect(result["settings"] == ["bottomThreshold": 10])
        let export = try #require(result["export"]?.object)
        let swift = try #require(result["swift"]?.string)
        #expect(export["preset"] == "refreshOffsetObservable")
        #expect(export["bottomThreshold"] == 10)
        #expect(export["pullThreshold"] == nil, "the preset's own default")
        #expect(export.count > 2, "the recording's own settings: \(export)")
        for (name, value) in export where name != "preset" {
            let text = value.string ?? value.jsonString
            #expect(
                swift.contains("settings.\(name) = ") || swift.contains("\(name)=\(text)"),
                "\(name) is not in the Swift: \(swift)")
        }
    }

    @Test(arguments: [
        (#"[1]"#, "tryHand must be a JSON object"),
        (#"{"type":"tryHand","preset":7}"#, #"field "preset" must be a string"#),
        (#"{"type":"tryHand","settings":[]}"#, #"field "settings" must be an object"#),
        (#"{"type":"tryHand","settings":{"nope":1}}"#, #"unknown setting "nope""#),
        (#"{"type":"tryHand","settings":{"gesture":"skim"}}"#, #"unknown setting "gesture""#),
        (#"{"type":"tryHand","settings":{"loadLatencyMs":-5}}"#, "loadLatencyMs"),
        (#"{"type":"tryHand","settings":{"bottomThreshold":{"a":1}}}"#, "must be a string, number or boolean"),
    ])
    func aBadRequestIsRefusedNamingWhy(request: String, reason: String) {
        guard case .failure(let error) = Self.run(request) else {
            Issue.record("accepted \(request)")
            return
        }
        #expect(error.message.contains(reason), "\(error.message)")
    }

    @Test func aBadTraceIsRefused() {
        for upload in ["not a trace", #"{"kind":"header","format":1}"#] {
            guard case .failure(let error) = Self.run(#"{"type":"tryHand"}"#, upload: Array(upload.utf8)) else {
                Issue.record("accepted \(upload)")
                continue
            }
            #expect(error.message.hasPrefix("the trace gives no hand"), "\(error.message)")
        }
        guard case .failure(let error) = Self.run(#"{"type":"tryHand"}"#, maxLines: 10) else {
            Issue.record("accepted a trace past the line limit")
            return
        }
        #expect(error.message.contains("limited to 10 lines"))
    }
}
