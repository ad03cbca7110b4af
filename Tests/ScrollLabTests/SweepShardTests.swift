import ScrollCore
import ScrollLab
import Testing

/// `--shard K/N` and `simulate merge`: the slices of a sweep join into exactly the result of one run.
struct SweepShardTests {
    static func sweep() throws -> Sweep {
        var base = Simulation()
        base.seconds = 8
        base.config.jitterMs = 100
        return try Sweep(
            base: base,
            axes: [
                try SweepAxis(parsing: "bottomThreshold=0:1000:250"), try SweepAxis(parsing: "gesture=skim,toEnd"),
            ], runs: 2)
    }

    @Test func fourShardsMergedEqualTheUnshardedRunExactly() throws {
        let sweep = try Self.sweep()
        let whole = sweep.run(threads: 2)
        // Each slice goes through its file's text, as a job runner hands it over.
        let shards = try (1...4).map { k in
            try SweepShard(parsing: try JSONParser.parse(sweep.run(shard: k, of: 4, threads: 1).json.jsonString))
        }
        #expect(shards.map(\.rows.count) == [3, 3, 2, 2])
        let merged = try SweepShard.merge(shards.reversed())
        #expect(merged == whole)
        #expect(merged.table() == whole.table())
        #expect(merged.csv() == whole.csv())
        #expect(merged.json() == whole.json())
        #expect(
            try SweepPlot(result: merged, metric: "stallP95Ms").svg()
                == SweepPlot(result: whole, metric: "stallP95Ms").svg())
    }

    @Test func shardsOfAnotherSweepOrAMissingOneAreRefused() throws {
        let sweep = try Self.sweep()
        let shards = (1...3).map { sweep.run(shard: $0, of: 3, threads: 1) }
        #expect(throws: LabError.badShard("missing shard(s) 2 of 3")) { try SweepShard.merge([shards[0], shards[2]]) }
        #expect(throws: LabError.badShard("shard 2/3 is given twice")) {
            try SweepShard.merge([shards[0], shards[1], shards[1]])
        }
        var other = sweep
        other.runs = 1
        #expect(throws: LabError.badShard("shard 2/3 is of another sweep than shard 1/3")) {
            try SweepShard.merge([shards[0], other.run(shard: 2, of: 3, threads: 1), shards[2]])
        }
        #expect(throws: LabError.self) { try SweepShard(parsing: ["kind": "sweepShard", "shard": 1.5, "of": 2]) }
        #expect(SweepShard.parseSlice("0/4") == nil && SweepShard.parseSlice("5/4") == nil)
        #expect(SweepShard.parseSlice("2/4")! == (2, 4))
    }
}
