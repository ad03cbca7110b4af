#!/usr/bin/env python3
"""Mutates the example traces and runs every command that reads a trace on each: `replay`, `replay --diff`,
`simulate --gesture trace:` and `check --gestures`. A command may refuse a trace (exit 2, one line) but never
crash: an exit by signal, an exit code other than 0 or 2, or a Swift runtime failure on standard error is a
finding, saved under Fuzz/CommandRegressions (replayed first on every run).

    Fuzz/commands_fuzz.py --binary .build/debug/scroll-playground --seconds 30 [--seed N]
"""
import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REGRESSIONS = ROOT / "Fuzz" / "CommandRegressions"
HOSTILE_NUMBERS = [b"1e308", b"-1e308", b"1e19", b"-1", b"0.5", b"9007199254740993", b"0.0001", b'"x"', b"null", b"[]"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three of: a number swapped for a hostile one, lines swapped (a clock that goes back), a line
    repeated or dropped, a byte changed (invalid UTF-8 among them), the text cut short."""
    for _ in range(rng.randint(1, 3)):
        lines = data.split(b"\n")
        choice = rng.randrange(6)
        if choice == 0:
            digits = [i for i, byte in enumerate(data) if 0x30 <= byte <= 0x39]
            if digits:
                start = rng.choice(digits)
                end = start
                while end < len(data) and (0x30 <= data[end] <= 0x39 or data[end] in b".e-"):
                    end += 1
                data = data[:start] + rng.choice(HOSTILE_NUMBERS) + data[end:]
        elif choice == 1 and len(lines) > 2:
            i, j = rng.randrange(1, len(lines)), rng.randrange(1, len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
        elif choice == 2 and len(lines) > 1:
            i = rng.randrange(len(lines))
            lines.insert(i, lines[i]) if rng.random() < 0.5 else lines.pop(i)
            data = b"\n".join(lines)
        elif choice == 3 and data:
            i = rng.randrange(len(data))
            data = data[:i] + bytes([rng.choice([0xE9, 0xFF, 0x00, 0x22, 0x7B, 0x7D, rng.randrange(256)])]) + data[i + 1:]
        elif choice == 4 and data:
            data = data[: rng.randrange(len(data))]
        else:
            data = data.replace(b'"t":', b'"t":' + rng.choice(HOSTILE_NUMBERS) + b",\"u\":", 1)
    return data


def commands(binary: str, folder: Path, file: Path) -> list:
    return [
        [binary, "replay", str(file)],
        [binary, "replay", str(file), "--diff"],
        [binary, "simulate", "--gesture", f"trace:{file}"],
        [binary, "check", "--gestures", str(folder), "--scenarios", "1", "--out", str(folder / "out")],
    ]


def crash(binary: str, data: bytes, work: Path):
    """The first command that crashes on `data`, with what it said; None when every command held."""
    folder = work / "case"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    file = folder / "trace.jsonl"
    file.write_bytes(data)
    for command in commands(binary, folder, file):
        try:
            run = subprocess.run(command, capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            return command, "timed out after 60 s"
        said = run.stderr.decode("utf-8", "replace")
        if run.returncode not in (0, 2) or "Fatal error" in said or "runtime failure" in said:
            return command, f"exit {run.returncode}: {said[-600:]}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build/debug/scroll-playground"))
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    args = parser.parse_args()
    seeds = [path.read_bytes() for path in sorted((ROOT / "Examples" / "traces").glob("*.jsonl"))]
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        regressions = sorted(REGRESSIONS.glob("*")) if REGRESSIONS.exists() else []
        for path in regressions:
            found = crash(args.binary, path.read_bytes(), work)
            if found:
                print(f"commands fuzz: regression {path.name} crashes {found[0][1:]}: {found[1]}")
                return 1
        deadline = time.monotonic() + args.seconds
        runs = 0
        while time.monotonic() < deadline:
            data = mutate(rng.choice(seeds), rng)
            found = crash(args.binary, data, work)
            runs += 1
            if found:
                REGRESSIONS.mkdir(exist_ok=True)
                saved = REGRESSIONS / f"crash-{args.seed}-{runs}"
                saved.write_bytes(data)
                print(f"commands fuzz: {found[0][1:]} crashed ({found[1]}); input saved as {saved}")
                return 1
        print(f"commands fuzz: {len(regressions)} regressions and {runs} mutated traces (seed {args.seed}), no crash")
    return 0


if __name__ == "__main__":
    sys.exit(main())
