import Foundation
import SystemCalls

/// An append-only text file of lines, each written out whole as soon as it ends (line-buffered), so a
/// reader or a crash sees whole lines.
///
/// With a size limit the file rotates: a line that would take it past the limit first renames it to the
/// rotated path (replacing what was there) and starts it anew, so the two files together hold at most
/// twice the limit, and the newest lines are always in the first.
final class LogFile {
    private let path: String
    private let rotation: (path: String, maxBytes: Int)?
    /// Nil only if the file could not be opened again after a rotation: lines are then lost.
    private var file: UnsafeMutablePointer<FILE>?
    private var size: Int

    /// Opens `path` for appending. With `rotatingTo`, a file already past `maxBytes` rotates now, and a
    /// rotated file past it (from a run with a larger limit) is removed, each said on standard error.
    init(path: String, rotatingTo rotatedPath: String? = nil, maxBytes: Int = 0) throws {
        self.path = path
        rotation = rotatedPath.map { ($0, maxBytes) }
        size = Self.size(of: path)
        if let rotation {
            if size > rotation.maxBytes {
                Syscall.rename(path, to: rotation.path)
                size = 0
            }
            let rotatedSize = Self.size(of: rotation.path)
            if rotatedSize > rotation.maxBytes, case .success = Syscall.removeFile(rotation.path) {
                StandardError.writeLine(
                    "scroll-playground: removed \(rotation.path) (\(rotatedSize) bytes): it holds more than its "
                        + "share of --max-log-bytes (\(rotation.maxBytes) bytes)")
            }
        }
        file = try Self.open(path)
    }

    func writeLine(_ bytes: [UInt8]) {
        guard file != nil else { return }
        let lineBytes = bytes.count + 1
        if let rotation {
            // A line larger than the whole file's share is left out (only under a tiny cap).
            guard lineBytes <= rotation.maxBytes else { return }
            if size + lineBytes > rotation.maxBytes { rotate(to: rotation.path) }
        }
        guard let file else { return }
        bytes.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, file) }
        fputc(0x0A, file)
        size += lineBytes
    }

    func flush() {
        if let file { fflush(file) }
    }

    /// Opens the file anew (its folder too) if it was removed while open, so events go on to a file
    /// someone can read; said once on standard error.
    func reopenIfRemoved() {
        guard let file else { return }
        guard case .success(let status) = Syscall.status(fileno(file)), status.st_nlink == 0 else { return }
        fclose(file)
        self.file = nil
        size = 0
        do {
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            self.file = try Self.open(path)
            StandardError.writeLine("scroll-playground: \(path) was removed; events go on in a new one")
        } catch {
            StandardError.writeLine(
                "scroll-playground: \(path) was removed and cannot be made again (\(error)); events are no "
                    + "longer written to a file")
        }
    }

    deinit {
        if let file { fclose(file) }
    }

    private func rotate(to rotatedPath: String) {
        if let file { fclose(file) }
        file = nil
        if case .failure(let error) = Syscall.rename(path, to: rotatedPath) {
            // Appending would pass the limit: the lines stop, said once.
            StandardError.writeLine(
                "scroll-playground: cannot rotate \(path): \(error.message); events are no "
                    + "longer written to it")
            return
        }
        size = 0
        do {
            file = try Self.open(path)
        } catch {
            StandardError.writeLine("scroll-playground: \(error); events are no longer written to it")
        }
    }

    private static func open(_ path: String) throws -> UnsafeMutablePointer<FILE> {
        guard let file = fopen(path, "ae") else {
            throw ServerStartError("cannot write \(path): \(Errno.current.message)")
        }
        setvbuf(file, nil, _IOLBF, 0)
        return file
    }

    private static func size(of path: String) -> Int {
        (try? Syscall.status(atPath: path).get()).map { Int($0.st_size) } ?? 0
    }
}
