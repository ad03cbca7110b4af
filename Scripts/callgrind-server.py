#!/usr/bin/env python3
"""User-space instructions the server spends per geometry message (BENCHMARKS.md).

Runs the server under valgrind's callgrind (instruction counts are repeatable where times are not)
while `scroll-bench load` drives 10 sessions × 30 Hz, once for a short and once for a long run; the
difference of the two totals over the difference of the geometry sent leaves out start-up and
connecting. Several servers may be named: they are measured one after another, the same way.

With --parts it also splits the instructions per message into the server's parts (Scripts/callgrind_parts.py:
state encode, JSON decode, trace file, reducer, the transport's Swift side, host glue, libwebsockets + libev)
and counts runtime costs inside them (memcpy, exclusivity checks, retain/release, allocation, hashing) and
calls per message (epoll_wait, swift_beginAccess). `make callgrind` runs it with and without --log-dir.

    Scripts/callgrind-server.py [--short 10] [--long 30] [--bench PATH] [--log-dir] [--parts] SERVER [SERVER...]
"""
import argparse
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import callgrind_parts  # noqa: E402


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(port, deadline_s=60):
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer on port {port}")


def one_run(server, bench, duration, with_log_dir, parts=False):
    """Total instructions of the server process (its parts with `parts`), and geometry messages the bench sent."""
    port = free_port()
    work = tempfile.mkdtemp(prefix="callgrind-")
    out = os.path.join(work, "callgrind.out")
    arguments = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", server,
                 "--port", str(port), "--log-format", "json"]
    if with_log_dir:
        arguments += ["--log-dir", os.path.join(work, "logs")]
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_up(port)
        report = subprocess.run(
            [bench, "load", "--url", f"ws://127.0.0.1:{port}/ws", "--sessions", "10", "--rate", "30",
             "--duration", str(duration), "--warmup", "2", "--json"],
            check=True, capture_output=True, text=True).stdout
    finally:
        process.terminate()
        process.wait(timeout=60)
    metrics = json.loads(report)
    run = metrics["runs"][0] if "runs" in metrics else metrics
    values = run.get("metrics", run)
    sent = values["geometryPerSecond"] * duration
    with open(out) as file:
        totals = [int(match.group(1)) for match in re.finditer(r"^(?:summary|totals): (\d+)", file.read(), re.M)]
    split = callgrind_parts.read(out) if parts else None
    shutil.rmtree(work, ignore_errors=True)
    if parts:
        return max(totals), sent, split
    return max(totals), sent


def print_parts(server, short, long, sent, recording):
    """The per-part table of one server: the long run minus the short one, per geometry message sent."""
    def per_message(group, name):
        return (long[group][name] - short[group][name]) / sent
    print(f"\n{server}{' with --log-dir' if recording else ''}: instructions per geometry message, by part\n")
    print("| part | instructions |\n|---|---:|")
    for name in callgrind_parts.PART_NAMES:
        print(f"| {name} | {per_message('parts', name):,.0f} |")
    print(f"| **total** | **{(long['total'] - short['total']) / sent:,.0f}** |")
    print("\n| runtime cost inside the parts | instructions |\n|---|---:|")
    for name in long["runtime"]:
        print(f"| {name} | {per_message('runtime', name):,.0f} |")
    print("\n| calls | per geometry message |\n|---|---:|")
    for name in long["calls"]:
        print(f"| {name} | {per_message('calls', name):,.2f} |")
    sys.stdout.flush()


def print_top(short, long, sent, count):
    """The functions with the most self cost per message (the long run minus the short one)."""
    names = set(long["functions"]) | set(short["functions"])
    rows = sorted(((long["functions"].get(name, 0) - short["functions"].get(name, 0)) / sent, name) for name in names)
    print(f"\n| self instructions per message | function |\n|---:|---|")
    for cost, name in reversed(rows[-count:]):
        print(f"| {cost:,.0f} | `{name[:160]}` |")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("servers", nargs="+")
    parser.add_argument("--bench", default=".build/release/scroll-bench")
    parser.add_argument("--short", type=int, default=10)
    parser.add_argument("--long", type=int, default=30)
    parser.add_argument("--log-dir", action="store_true", help="record sessions (as make run does)")
    parser.add_argument("--parts", action="store_true", help="split the instructions into the server's parts")
    parser.add_argument("--top", type=int, default=0, metavar="N",
                        help="with --parts, also list the N functions with the most self cost per message")
    options = parser.parse_args()
    for server in options.servers:
        if options.parts:
            short_total, short_sent, short_split = one_run(server, options.bench, options.short, options.log_dir, True)
            long_total, long_sent, long_split = one_run(server, options.bench, options.long, options.log_dir, True)
        else:
            short_total, short_sent = one_run(server, options.bench, options.short, options.log_dir)
            long_total, long_sent = one_run(server, options.bench, options.long, options.log_dir)
        per_message = (long_total - short_total) / (long_sent - short_sent)
        print(f"{server}: {per_message:,.0f} instructions per geometry message "
              f"({long_total - short_total:,} over {long_sent - short_sent:,.0f} messages"
              f"{', recording' if options.log_dir else ''})")
        sys.stdout.flush()
        if options.parts:
            print_parts(server, short_split, long_split, long_sent - short_sent, options.log_dir)
            if options.top:
                print_top(short_split, long_split, long_sent - short_sent, options.top)


if __name__ == "__main__":
    main()
