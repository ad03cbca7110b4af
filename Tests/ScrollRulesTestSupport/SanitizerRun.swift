import Foundation
import Testing

/// `make test-asan` and `make test-tsan` set `SCROLL_PLAYGROUND_SANITIZER`. Under a sanitizer the rules run
/// several times slower, and the tests that only drive the toolchain (a package build, a type check) give it
/// nothing to see while they hold the machine's cores from the timed server tests.
public enum SanitizerRun {
    public static let isActive = ProcessInfo.processInfo.environment["SCROLL_PLAYGROUND_SANITIZER"] != nil
    public static let onlyTheToolchain: Comment = "compiles with the toolchain, which no sanitizer instruments"
}
