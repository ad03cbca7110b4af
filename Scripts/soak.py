#!/usr/bin/env python3
"""Soak and churn checks for the playground server (`make soak`), on loopback only.

Starts the server on a free port and runs three bounded phases, printing the figures:

1. churn: CYCLES connect / hello / close cycles (a third cut abruptly in the middle of a frame) from a few
   threads; then /api/sessions must return to 0 active and 0 kept (a short --resume-grace expires the
   resumable ones) and the server's RSS must be back within 10% of its baseline. The baseline is taken
   after a warm-up that fills the 10,000-event ring of /api/events (bounded by design), so that what is
   compared is what sessions leave behind.
2. slow reader: a client that never reads makes the server push (60 KB pongs and page loads, 12 MB/s)
   for a while, reconnecting by resume each time it is cut off with 1008; the server's RSS must grow by no
   more than the outbound cap (plus 1 MiB for buffers in flight), nothing may be lost, and another
   session's ping round trip is measured before and during (p50 / p99).
3. geometry flood: one client sends 10,000 geometry messages a second; they must be coalesced (far fewer
   states than messages), warned (about one rate_limited a second), acked up to the last one, and the
   other session's round trip is measured meanwhile.
4. crash consistency: KILLS `kill -9`s at random moments under CRASH_SESSIONS sessions at 60 Hz, each restart
   on the same log folder; then every trace must replay with no differences, and events.jsonl must hold whole
   lines only, no session opened twice and no seq going back.

The abusive clients run in their own processes, so the measuring client's timings are not theirs.

Exits 1 if a check fails. Standard library only.
"""

import argparse
import json
import multiprocessing
import os
import socket
import statistics
import struct
import subprocess
import sys
import threading
import time

HELLO = json.dumps({"type": "hello", "version": 1, "config": {"loadLatencyMs": 5}})


class Failure(Exception):
    pass


class Client:
    """A minimal WebSocket client on a blocking socket (text frames, masked as clients must)."""

    def __init__(self, port, rcvbuf=None, timeout=10.0):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        self.buffer = b""
        self.sock.sendall(
            (
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Protocol: scroll-playground.v1\r\n\r\n"
            ).encode()
        )
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        status = head.split(b" ", 2)[1]
        if status != b"101":
            raise Failure(f"upgrade answered {status.decode()}")

    @staticmethod
    def frame(payload, opcode=0x1):
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload)) if n < 4096 else _mask_fast(payload, mask)
        return header + mask + masked

    def send(self, text):
        self.sock.sendall(self.frame(text.encode()))

    def send_many(self, texts):
        self.sock.sendall(b"".join(self.frame(t.encode()) for t in texts))

    def send_partial(self, text, count):
        self.sock.sendall(self.frame(text.encode())[:count])

    def send_close(self, code=1000):
        self.sock.sendall(self.frame(struct.pack(">H", code), opcode=0x8))

    def _fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise Failure("connection closed by the server")
        self.buffer += data

    def _take(self, n):
        while len(self.buffer) < n:
            self._fill()
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def receive(self):
        """The next whole message: ('text', str) or ('close', code)."""
        assembled = b""
        while True:
            b0, b1 = self._take(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._take(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._take(8))[0]
            payload = self._take(n)
            opcode = b0 & 0x0F
            if opcode == 0x8:
                return ("close", struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else None)
            if opcode in (0x9, 0xA):
                continue
            assembled += payload
            if b0 & 0x80:
                return ("text", assembled.decode("utf-8", "replace"))

    def receive_until(self, predicate, limit=100_000):
        for _ in range(limit):
            kind, value = self.receive()
            if kind == "close":
                raise Failure(f"closed with {value} while waiting")
            message = json.loads(value)
            if predicate(message):
                return message
        raise Failure("message not found")

    def drop(self, reset=False):
        if reset:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


def _mask_fast(payload, mask):
    repeated = (mask * (len(payload) // 4 + 1))[: len(payload)]
    return (int.from_bytes(payload, "big") ^ int.from_bytes(repeated, "big")).to_bytes(len(payload), "big")


class Server:
    def __init__(self, binary, public, extra):
        self.process = subprocess.Popen(
            [binary, "--port", "0", "--public", public, "--log-format", "json"] + extra,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.port = None
        self.lines = []
        self.lock = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        with self.lock:
            if not self.lock.wait_for(lambda: self.port is not None or self.process.poll() is not None, timeout=20):
                raise Failure("the server printed no start line")
        if self.port is None:
            raise Failure("the server exited at start")

    def _read(self):
        # The terminal log gets a line per event: it must be drained or the server would block on it.
        for line in self.process.stdout:
            with self.lock:
                if self.port is None and line.startswith("Scroll Playground on http://"):
                    self.port = int(line.strip().rsplit(":", 1)[1])
                elif line.startswith("{") and '"sessionClosed"' in line:
                    self.lines.append(line)
                self.lock.notify_all()

    def _drain_stderr(self):
        for line in self.process.stderr:
            if "Sanitizer" in line or "Fatal" in line:
                sys.stderr.write("server: " + line)

    def closes(self):
        with self.lock:
            return list(self.lines)

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        raise Failure("no VmRSS")

    def get(self, path):
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        return json.loads(data.split(b"\r\n\r\n", 1)[1])

    def wait_for_sessions(self, condition, timeout):
        deadline = time.monotonic() + timeout
        while True:
            sessions = self.get("/api/sessions")
            if condition(sessions) or time.monotonic() > deadline:
                return sessions
            time.sleep(0.1)

    def stop(self):
        self.process.terminate()
        try:
            return self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return None


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Prober:
    """Another session measuring ping round trips in the background."""

    def __init__(self, port):
        self.client = Client(port)
        self.client.send(HELLO)
        self.client.receive_until(lambda m: m.get("type") == "state")

    def measure(self, count, stop=None):
        samples = []
        for i in range(count):
            if stop is not None and stop.is_set():
                break
            started = time.perf_counter()
            self.client.send(json.dumps({"type": "ping", "id": i}))
            self.client.receive_until(lambda m: m.get("type") == "pong" and m.get("id") == i)
            samples.append((time.perf_counter() - started) * 1000)
        return samples


def probe(port, count, seconds, results):
    """In its own process (no other Python thread can hold the interpreter lock when a pong arrives):
    `count` ping round trips on another session, or as many as fit in `seconds`."""
    prober = Prober(port)
    prober.measure(200)
    samples = []
    started = time.monotonic()
    while len(samples) < count and (seconds is None or time.monotonic() - started < seconds):
        samples += prober.measure(100)
    results.put(samples)


def start_probe(port, count=10**9, seconds=None):
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    process = context.Process(target=probe, args=(port, count, seconds, results))
    process.start()
    return lambda: (results.get(timeout=(seconds or 60) + 60), process.join(30))[0]


def describe(samples):
    return f"p50 {percentile(samples, 50):.2f} ms, p99 {percentile(samples, 99):.2f} ms ({len(samples)} pings)"


# MARK: Phases


def churn(server, cycles, warmup, threads, grace):
    def run(count, errors):
        for i in range(count):
            try:
                client = Client(server.port)
                client.send(HELLO)
                client.receive_until(lambda m: m.get("type") == "state")
                if i % 3 == 0:
                    client.send_partial('{"type":"geometry","seq":1,"t":0,"contentOffset":{"x":0,"y":1}}', 20)
                    client.drop(reset=(i % 6 == 0))
                else:
                    client.send_close()
                    while client.receive()[0] != "close":
                        pass
                    client.drop()
            except (OSError, Failure) as error:
                errors.append(str(error))

    def round_of(total):
        errors = []
        workers = [threading.Thread(target=run, args=(total // threads, errors)) for _ in range(threads)]
        started = time.monotonic()
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        return time.monotonic() - started, errors

    fresh = server.rss_kib()
    round_of(warmup)  # the allocator's pools, lws's tables, the event ring
    settled = server.wait_for_sessions(lambda s: s["active"] == 0 and not s["sessions"], grace + 30)
    baseline = server.rss_kib()
    peak = [baseline]
    sampling = threading.Event()

    def sample():
        while not sampling.is_set():
            peak[0] = max(peak[0], server.rss_kib())
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    elapsed, errors = round_of(cycles)
    kept_at_end = server.get("/api/sessions")
    settled = server.wait_for_sessions(lambda s: s["active"] == 0 and not s["sessions"], grace + 60)
    sampling.set()
    sampler.join()
    after = server.rss_kib()
    closes = server.closes()
    print("churn")
    print(f"  cycles                 {cycles} in {elapsed:.1f} s ({cycles / elapsed:.0f}/s, {threads} threads), "
          f"{len(errors)} client errors{': ' + errors[0] if errors else ''}")
    print(f"  sessionClosed logged   {len(closes)} (drops without a close code: "
          f"{sum(1 for line in closes if json.loads(line)['data'].get('code') is None)})")
    print(f"  at the end             {kept_at_end['active']} active, {len(kept_at_end['sessions'])} kept for resume")
    print(f"  after the grace        {settled['active']} active, {len(settled['sessions'])} kept")
    print(f"  RSS                    fresh {fresh / 1024:.1f} MiB, baseline {baseline / 1024:.1f} MiB, "
          f"peak {peak[0] / 1024:.1f} MiB, after {after / 1024:.1f} MiB ({(after - baseline) / baseline * 100:+.1f}%)")
    failures = []
    if settled["active"] != 0 or settled["sessions"]:
        failures.append("churn: sessions did not return to 0")
    if after > baseline * 1.10:
        failures.append("churn: RSS did not return within 10% of the baseline")
    if errors:
        failures.append(f"churn: {len(errors)} cycles failed")
    return failures


def slow_reader(server, seconds, cap_bytes):
    before = start_probe(server.port, count=3000)()
    baseline = server.rss_kib()

    context = multiprocessing.get_context("fork")
    stop = context.Event()
    results = context.Queue()
    abuser = context.Process(target=never_read, args=(server.port, stop, results, 200))
    peak = [baseline]
    sampling = threading.Event()

    def sample():
        while not sampling.is_set():
            peak[0] = max(peak[0], server.rss_kib())
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    abuser.start()
    sampler.start()
    during = start_probe(server.port, seconds=seconds)()
    stop.set()
    stats = results.get(timeout=30)
    abuser.join(30)
    sampling.set()
    sampler.join()
    closes = [c for c in map(json.loads, server.closes()) if c.get("session") == stats["session"]]
    cut = [c for c in closes if c["data"].get("code") == 1008 and c["data"].get("resumable") is True]

    # Nothing lost: resuming once more delivers every item, numbered without gaps.
    check = Client(server.port)
    check.send(json.dumps({"type": "hello", "version": 1, "resume": stats["token"]}))
    items = check.receive_until(lambda m: m.get("type") == "items")
    state = check.receive_until(lambda m: m.get("type") == "state")
    ids = [item["id"] for item in items["items"]]
    contiguous = ids == [f"item-{n}" for n in range(1, len(ids) + 1)]
    check.drop()

    growth = (peak[0] - baseline) * 1024
    print("slow reader")
    print(f"  made it push           {stats['sent_bytes'] / 1e6:.0f} MB of pongs in {seconds} s over "
          f"{stats['connections']} connections; closed 1008 (resumable) {len(cut)} times")
    print(f"  server RSS             baseline {baseline / 1024:.1f} MiB, peak {peak[0] / 1024:.1f} MiB: "
          f"+{growth / 2**20:.2f} MiB against a {cap_bytes / 2**20:.0f} MiB outbound cap")
    print(f"  other session's ping   before: {describe(before)}")
    print(f"                         during: {describe(during)}")
    print(f"  after resume           {state['itemCount']} items, ids contiguous: {contiguous}")
    failures = []
    if growth > cap_bytes + 2**20:
        failures.append("slow reader: server memory grew past the outbound cap")
    if not cut:
        failures.append("slow reader: never closed with 1008")
    if not contiguous or len(ids) != state["itemCount"]:
        failures.append("slow reader: items lost")
    return failures


def never_read(port, stop, results, per_second):
    """In its own process: a client that never reads, asking for 60 KB pongs and page loads at
    `per_second`, coming back by resume whenever the server cuts it off."""
    stats = {"connections": 0, "sent_bytes": 0, "token": None, "session": None}
    pad = "p" * 60_000
    ping = json.dumps({"type": "ping", "id": pad})
    tick = time.monotonic()
    while not stop.is_set():
        client = Client(port, rcvbuf=4096)
        stats["connections"] += 1
        if stats["token"] is None:
            client.send(HELLO)
            welcome = client.receive_until(lambda m: m.get("type") == "welcome")
            stats["token"], stats["session"] = welcome["resume"], welcome["session"]
        else:
            client.send(json.dumps({"type": "hello", "version": 1, "resume": stats["token"], "lastRev": 1}))
        # From here it never reads.
        try:
            while not stop.is_set():
                client.send_many(['{"type":"loadMore"}', ping])
                stats["sent_bytes"] += len(ping)
                tick += 1 / per_second
                delay = tick - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
        except OSError:
            pass  # cut off by the server: come back by resume
        client.drop()
    results.put(stats)


def flood(port, seconds, rate, results):
    """In its own process: geometry at `rate` a second for `seconds`, reading what comes back."""
    flooder = Client(port)
    flooder.send(HELLO)
    flooder.receive_until(lambda m: m.get("type") == "state")
    counts = {"states": 0, "rate_limited": 0, "last_ack": None, "acks": set()}
    done = threading.Event()

    def read():
        try:
            while True:
                kind, value = flooder.receive()
                if kind == "close":
                    return
                message = json.loads(value)
                if message.get("type") == "state":
                    counts["states"] += 1
                    counts["last_ack"] = message.get("ack")
                    counts["acks"].add(message.get("ack"))
                elif message.get("type") == "error" and message.get("code") == "rate_limited":
                    counts["rate_limited"] += 1
                elif message.get("type") == "pong" and message.get("id") == "end":
                    done.set()
        except (OSError, Failure):
            return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    seq = 0
    batch = rate // 100
    started = time.monotonic()
    tick = started
    while time.monotonic() - started < seconds:
        frames = []
        for _ in range(batch):
            seq += 1
            frames.append(
                '{"type":"geometry","seq":%d,"t":%d,"contentOffset":{"x":0,"y":%d},'
                '"contentSize":{"width":390,"height":3000},"containerSize":{"width":390,"height":700},'
                '"phase":"decelerating"}' % (seq, seq, seq % 2000)
            )
        flooder.send_many(frames)
        tick += 0.01
        delay = tick - time.monotonic()
        if delay > 0:
            time.sleep(delay)
    elapsed = time.monotonic() - started
    flooder.send(json.dumps({"type": "ping", "id": "end"}))
    done.wait(30)
    # The last geometry was held and is applied on the pacer's timer, just after.
    deadline = time.monotonic() + 5
    while counts["last_ack"] != seq and time.monotonic() < deadline:
        time.sleep(0.01)
    flooder.drop()
    results.put({
        "sent": seq, "elapsed": elapsed, "states": counts["states"], "applied": len(counts["acks"]),
        "rate_limited": counts["rate_limited"], "last_ack": counts["last_ack"], "answered": done.is_set(),
    })


def geometry_flood(server, seconds, rate):
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    flooder = context.Process(target=flood, args=(server.port, seconds, rate, results))
    flooder.start()
    during = start_probe(server.port, seconds=seconds)()
    figures = results.get(timeout=seconds + 60)
    flooder.join(30)
    sent, elapsed = figures["sent"], figures["elapsed"]
    print("geometry flood")
    print(f"  sent                   {sent} geometry messages in {elapsed:.1f} s ({sent / elapsed:.0f}/s)")
    print(f"  applied                {figures['applied']} distinct acks, {figures['states']} states "
          f"({figures['applied'] / elapsed:.0f}/s); last ack {figures['last_ack']} (last sent {sent})")
    print(f"  warned                 {figures['rate_limited']} rate_limited errors")
    print(f"  other session's ping   during: {describe(during)}")
    failures = []
    if figures["last_ack"] != sent:
        failures.append("flood: the last geometry was not acked")
    if not 1 <= figures["rate_limited"] <= int(elapsed) + 2:
        failures.append("flood: not one rate_limited warning a second")
    if figures["applied"] > sent / 4:
        failures.append("flood: geometry was not coalesced")
    if not figures["answered"]:
        failures.append("flood: the server did not answer the final ping")
    return failures


def crash_consistency(binary, public, kills, sessions):
    """`kill -9` at random moments under load, restarting on the same log folder each time; then every trace
    must replay with no differences and events.jsonl must hold whole lines only, no session opened twice and
    no seq going back."""
    import random
    import shutil
    import tempfile

    failures = []
    folder = tempfile.mkdtemp(prefix="soak-crash-")
    try:
        for _ in range(kills):
            server = Server(binary, public, ["--log-dir", folder])
            stop = threading.Event()

            def page(port):
                try:
                    client = Client(port)
                    client.send(json.dumps({"type": "hello", "version": 1, "config": {"loadLatencyMs": 20, "maxItems": 0}}))
                    seq = 0
                    while not stop.is_set():
                        seq += 1
                        client.send(
                            '{"type":"geometry","seq":%d,"t":%d,"contentOffset":{"x":0,"y":%d},'
                            '"contentSize":{"width":390,"height":3000},"containerSize":{"width":390,"height":700},'
                            '"phase":"decelerating"}' % (seq, seq * 16, seq * 37 % 2600)
                        )
                        if seq % 7 == 0:
                            client.send('{"type":"loadMore"}')
                        time.sleep(1 / 60)
                except (OSError, Failure):
                    return  # the server was killed

            threads = [threading.Thread(target=page, args=(server.port,), daemon=True) for _ in range(sessions)]
            for thread in threads:
                thread.start()
            time.sleep(random.uniform(0.3, 2.0))
            server.process.kill()
            server.process.wait()
            stop.set()
            for thread in threads:
                thread.join(10)
        traces = sorted(os.listdir(os.path.join(folder, "traces")))
        replayed = 0
        for name in traces:
            result = subprocess.run(
                [binary, "replay", os.path.join(folder, "traces", name), "--diff"], capture_output=True, text=True
            )
            if result.returncode != 0 or "no differences" not in result.stdout:
                failures.append(f"crash: {name} does not replay: {(result.stdout + result.stderr)[-300:]}")
            else:
                replayed += 1
        with open(os.path.join(folder, "events.jsonl"), encoding="utf-8") as events:
            text = events.read()
        if text and not text.endswith("\n"):
            failures.append("crash: events.jsonl ends in a torn line")
        last_seq, opened, lines = 0, set(), 0
        for line in text.splitlines():
            lines += 1
            try:
                record = json.loads(line)
            except ValueError:
                failures.append(f"crash: a torn line in events.jsonl: {line[:120]}")
                continue
            if record.get("seq", 0) <= last_seq:
                failures.append(f"crash: seq went back: {record.get('seq')} after {last_seq}")
            last_seq = record.get("seq", last_seq)
            name = record.get("name") or (record.get("event") or {}).get("name")
            if name == "sessionOpened":
                if record.get("session") in opened:
                    failures.append(f"crash: {record.get('session')} opened twice")
                opened.add(record.get("session"))
        print(
            f"crash: {kills} kill -9 under {sessions} sessions at 60 Hz: {replayed} of {len(traces)} traces replay "
            f"with no differences; events.jsonl {lines} whole lines, {len(opened)} sessions opened once each"
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return failures


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", default=os.path.join(root, ".build/release/scroll-playground"))
    parser.add_argument("--public", default=os.path.join(root, "Public"))
    parser.add_argument("--cycles", type=int, default=10_000)
    parser.add_argument("--warmup", type=int, default=6_000, help="cycles before the baseline (fills the event ring)")
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--grace", type=float, default=1.0, help="--resume-grace for the server, seconds")
    parser.add_argument("--slow-seconds", type=float, default=10)
    parser.add_argument("--flood-seconds", type=float, default=5)
    parser.add_argument("--flood-rate", type=int, default=10_000)
    parser.add_argument("--kills", type=int, default=20, help="kill -9s of the crash-consistency phase")
    parser.add_argument("--crash-sessions", type=int, default=100)
    args = parser.parse_args()

    cap = 4 * 1024 * 1024
    server = Server(args.binary, args.public, ["--resume-grace", str(args.grace), "--max-outbound", str(cap)])
    print(f"server pid {server.process.pid} on 127.0.0.1:{server.port} ({args.binary})")
    failures = []
    try:
        failures += churn(server, args.cycles, args.warmup, args.threads, args.grace)
        failures += slow_reader(server, args.slow_seconds, cap)
        failures += geometry_flood(server, args.flood_seconds, args.flood_rate)
    finally:
        status = server.stop()
    print(f"server exit status {status}")
    if status != 0:
        failures.append(f"server exited with {status}")
    failures += crash_consistency(args.binary, args.public, args.kills, args.crash_sessions)
    for failure in failures:
        print("FAIL " + failure)
    print("soak: " + ("FAILED" if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
