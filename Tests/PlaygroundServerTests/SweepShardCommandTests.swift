import Foundation
import Testing

/// `simulate --shard K/N` and `simulate merge` through the real executable, as a job runner would use them.
@Suite(.timeLimit(.minutes(10)))
struct SweepShardCommandTests {
    @Test func fourShardFilesMergeIntoTheTableOfOneRun() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sweep = [
            "simulate", "--seconds", "5", "--sweep", "bottomThreshold=0:750:250", "--sweep", "gesture=skim,read",
        ]
        var files: [String] = []
        for k in 1...4 {
            let shard = try runToCompletion(sweep + ["--shard", "\(k)/4"])
            #expect(shard.status == 0, "\(shard.stderr)")
            let file = directory.appendingPathComponent("shard-\(k).json").path
            try Data(shard.stdout.utf8).write(to: URL(fileURLWithPath: file))
            files.append(file)
        }
        let whole = try runToCompletion(sweep + ["--format", "csv"])
        let merged = try runToCompletion(["simulate", "merge"] + files + ["--format", "csv"])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout == whole.stdout)
        #expect(merged.stdout.split(separator: "\n").count == 1 + 4 * 2)
        let incomplete = try runToCompletion(["simulate", "merge"] + files.dropLast())
        #expect(incomplete.status == 2)
        #expect(incomplete.stderr.contains("missing shard(s) 4 of 4"))
    }

    @Test(arguments: [
        ["simulate", "--shard", "0/4", "--sweep", "bottomThreshold=0,1"], ["simulate", "--shard", "2/4"],
        ["simulate", "merge"], ["simulate", "merging", "x.json"], ["simulate", "--set", "physics=android"],
        ["check", "--set", "physics=android"], ["check", "--set", "loadLatencyMs=3"],
    ])
    func badShardOrPhysicsInputIsOneLineAndExitTwo(arguments: [String]) throws {
        let result = try runToCompletion(arguments)
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}
