import Foundation

@testable import ScrollCore

/// Reads JSON text with Foundation's `JSONSerialization`, an implementation independent of ours.
func foundationJSON(_ bytes: [UInt8]) throws -> JSONValue {
    try JSONValue(foundation: JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]))
}

extension JSONValue {
    /// Converts what `JSONSerialization` returns.
    init(foundation object: Any) throws {
        switch object {
        case is NSNull:
            self = .null
        case let text as String:
            self = .string(text)
        case let number as NSNumber:
            // Foundation's booleans are NSNumbers too; their type code is "c".
            self = String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number.doubleValue)
        case let array as [Any]:
            self = .array(try array.map(JSONValue.init(foundation:)))
        case let dictionary as [String: Any]:
            self = .object(try dictionary.mapValues(JSONValue.init(foundation:)))
        default:
            throw CocoaError(.coderInvalidValue)
        }
    }
}

extension JSONValue {
    /// Equal, numbers within a few ulps: on Linux `JSONSerialization` does not always round 17-digit
    /// numbers to the nearest double (`0.30000000000000004` reads as `0.3000000000000001`), which is
    /// Foundation's inexactness, not the writer's. `JSONDecoder` is exact and is used where bits matter.
    func isClose(to other: JSONValue) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)):
            return a == b || abs(a - b) <= 4 * max(a.ulp, b.ulp)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isClose(to: $1) }
        case (.object(let a), .object(let b)):
            return a.keys == b.keys && a.allSatisfy { key, value in value.isClose(to: b[key]!) }
        default:
            return self == other
        }
    }
}
