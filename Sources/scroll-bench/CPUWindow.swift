import SystemCalls

/// CPU time over a measurement window, from /proc: the server's (user and kernel), the bench's, and the
/// whole machine's busy and stolen time. `load` and `floor` report it by the same keys and labels.
struct CPUWindow {
    /// One reading of all three.
    struct Sample {
        let server: ProcessSample?
        let bench: ProcessSample?
        let machine: MachineSample?

        init(server pid: ProcessID?) {
            machine = MachineSample()
            server = pid.flatMap { ProcessSample(pid: $0) }
            bench = ProcessSample(pid: Syscall.processID)
        }
    }

    let duration: Double
    /// Server CPU seconds in the window, in all and in the kernel (nil when its pid is not known).
    let server: Double?
    let serverUser: Double?
    let serverSystem: Double?
    let bench: Double?
    let machineBusy: Double?
    let machineSteal: Double?

    init(before: Sample, after: Sample, duration: Double) {
        self.duration = duration
        server = before.server.flatMap { start in after.server.map { $0.cpuSeconds - start.cpuSeconds } }
        serverUser = before.server.flatMap { start in after.server.map { $0.userSeconds - start.userSeconds } }
        serverSystem = before.server.flatMap { start in after.server.map { $0.systemSeconds - start.systemSeconds } }
        bench = before.bench.flatMap { start in after.bench.map { $0.cpuSeconds - start.cpuSeconds } }
        machineBusy = before.machine.flatMap { start in after.machine.map { $0.busySeconds - start.busySeconds } }
        machineSteal = before.machine.flatMap { start in after.machine.map { $0.stealSeconds - start.stealSeconds } }
    }

    /// The server's and the machine's figures; per message = server CPU in the window ÷ `messages` sent in it.
    func addFigures(to report: inout RunReport, messages: Int, noun: String = "message") {
        func perMessage(_ seconds: Double?) -> Double? {
            seconds.map { messages > 0 ? $0 / Double(messages) * 1e6 : .nan }
        }
        let cores = Double(cpuCount())
        report.add("serverCPUSeconds", "server CPU in the window", .seconds, server)
        report.add("serverCPUPercent", "server CPU (% of one core)", .percent, server.map { $0 / duration * 100 })
        report.add("serverCPUPerGeometryUs", "server CPU per \(noun)", .microseconds, perMessage(server))
        report.add(
            "serverUserCPUPerGeometryUs", "  of which in the process (user)", .microseconds,
            perMessage(serverUser))
        report.add(
            "serverSystemCPUPerGeometryUs", "  of which in the kernel (syscalls)", .microseconds,
            perMessage(serverSystem))
        report.add("benchCPUPercent", "bench CPU (% of one core)", .percent, bench.map { $0 / duration * 100 })
        // What neither the server nor the bench used: other processes on this shared machine.
        report.add(
            "othersCPUPercent", "other processes' CPU (% of one core)", .percent,
            server == nil ? nil : machineBusy.map { max(0, $0 - (server ?? 0) - (bench ?? 0)) / duration * 100 })
        report.add(
            "machineIdlePercent", "machine idle (% of all cores)", .percent,
            machineBusy.map { max(0, 100 - $0 / (duration * cores) * 100) })
        report.add(
            "stealPercent", "CPU stolen by the hypervisor (% of all cores)", .percent,
            machineSteal.map { $0 / (duration * cores) * 100 })
    }
}
