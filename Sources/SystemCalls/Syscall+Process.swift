#if canImport(Glibc)
    import Glibc
#endif

/// Processes and standard streams, for scroll-bench (which starts servers and reports on its streams).
extension Syscall {
    /// Starts `command` (an executable path and its arguments) with the environment of this process, its
    /// standard output and error on `output` and `errors`; every other close-on-exec descriptor closes at
    /// exec. The corresponding C function is posix_spawn(3).
    package static func spawn(_ command: [String], output: Int32, errors: Int32) -> Result<pid_t, Errno> {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the child's 1 and 2.
        posix_spawn_file_actions_adddup2(&actions, output, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, errors, STDERR_FILENO)
        var arguments: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { for pointer in arguments { Glibc.free(pointer) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, command[0], &actions, nil, &arguments, environ)
        return result == 0 ? .success(child) : .failure(Errno(code: result))
    }

    /// Makes `fd` close at exec (`fcntl(F_SETFD)`).
    package static func setCloseOnExec(_ fd: Int32) {
        _ = retryingInterrupts { fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    /// Sends `signal` to `pid`. The corresponding C function is kill(2).
    package static func signal(_ pid: pid_t, _ signal: Int32) {
        _ = kill(pid, signal)
    }

    /// Whether `pid` has exited, reaping it if so; `blocking` waits for it. The corresponding C function is
    /// waitpid(2).
    @discardableResult
    package static func reap(_ pid: pid_t, blocking: Bool) -> Bool {
        var status: Int32 = 0
        let result = retryingInterrupts { waitpid(pid, &status, blocking ? 0 : WNOHANG) }
        if case .success(let reaped) = result { return reaped != 0 }
        return true  // ECHILD: nothing left to wait for
    }

    /// The path a symbolic link points to, nil if it cannot be read. The corresponding C function is readlink(2).
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs `handler` on `signal` (it may make only async-signal-safe calls). The corresponding C function is
    /// signal(2).
    package static func handle(_ signal: Int32, with handler: @convention(c) (Int32) -> Void) {
        Glibc.signal(signal, handler)
    }

    /// Lets SIGTERM end this process, whatever it inherited: a parent that spawned it from a thread blocking
    /// signals (a test runner's) passes that mask on through exec. The corresponding C functions are
    /// sigprocmask(2) and signal(2).
    package static func takeDefaultTermination() {
        var all = sigset_t()
        sigfillset(&all)
        sigprocmask(SIG_UNBLOCK, &all, nil)
        Glibc.signal(SIGTERM, SIG_DFL)
        Glibc.signal(SIGINT, SIG_DFL)
    }

    /// The standard streams' descriptors (`STDIN_FILENO`, `STDOUT_FILENO`, `STDERR_FILENO`).
    package static let standardInput: Int32 = STDIN_FILENO
    package static let standardOutput: Int32 = STDOUT_FILENO
    package static let standardError: Int32 = STDERR_FILENO

    /// This process's id (getpid(2)).
    package static var processID: pid_t { getpid() }

    /// The environment variable `name`, nil if unset (getenv(3)).
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Ends this process with `status` after flushing stdio and running exit handlers (exit(3)).
    package static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Ends this process with `status` at once, async-signal-safe (for a signal handler). The corresponding C
    /// function is _exit(2).
    package static func exitImmediately(_ status: Int32) -> Never {
        Glibc._exit(status)
    }
}

/// A process id (`pid_t`), so callers need not import the C library for the type.
package typealias ProcessID = pid_t
