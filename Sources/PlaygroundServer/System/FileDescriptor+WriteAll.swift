import Foundation
import SystemCalls

/// Writes all of `bytes` to `descriptor` (``Syscall/writeAll(_:_:)``); the failure that stopped it short.
@discardableResult
func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Result<Void, Errno> {
    bytes.withUnsafeBytes { Syscall.writeAll(descriptor, $0) }
}
