import Foundation

/// An append-only text file of lines, each written out whole as soon as it ends (line-buffered), so a
/// reader or a crash sees whole lines.
final class LogFile {
    private let file: UnsafeMutablePointer<FILE>

    init(path: String) throws {
        guard let file = fopen(path, "ae") else {
            throw ServerStartError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        self.file = file
        setvbuf(file, nil, _IOLBF, 0)
    }

    func writeLine(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, file) }
        fputc(0x0A, file)
    }

    func flush() {
        fflush(file)
    }

    deinit {
        fclose(file)
    }
}
