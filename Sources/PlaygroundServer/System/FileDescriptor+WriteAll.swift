import Foundation

/// Writes all of `bytes` to `descriptor`, blocking as long as it does, resuming after a signal; false if
/// the descriptor fails (closed, disk full) before everything is written.
@discardableResult
func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    bytes.withUnsafeBufferPointer { buffer in
        var written = 0
        while written < buffer.count {
            let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            if result > 0 {
                written += result
            } else if result < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
