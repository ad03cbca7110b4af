#!/usr/bin/env bash
# Builds the ScrollCore libFuzzer target and runs it.
#
#   Fuzz/fuzz.sh build          compile .build/fuzz/scroll-core-fuzz (-sanitize=fuzzer,address)
#   Fuzz/fuzz.sh run SECONDS    build, then fuzz for SECONDS (default 30) on one core
#                               (SCROLL_FUZZ_DECODER_ONLY=1: the decoder alone, many more inputs a second)
#   Fuzz/fuzz.sh regressions    build, then run every saved input under Fuzz/Regressions once
#
# The target is compiled outside SwiftPM: Sources/ScrollCore/*.swift and Fuzz/ScrollCoreFuzz.swift become
# one module. The working corpus lives in .build/fuzz/corpus, seeded from Fuzz/Seeds, Fuzz/Regressions
# and, when present, the input messages of Examples/traces/*.jsonl. Crashing inputs land in
# .build/fuzz/artifacts; copy one to Fuzz/Regressions once its bug is fixed.
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
OUT=.build/fuzz
BIN=$OUT/scroll-core-fuzz

build() {
    mkdir -p "$OUT"
    local newest
    newest=$(ls -t Sources/ScrollCore/*.swift Fuzz/ScrollCoreFuzz.swift | head -n 1)
    if [[ -x "$BIN" && "$BIN" -nt "$newest" && "$BIN" -nt Fuzz/fuzz.sh ]]; then return; fi
    echo "fuzz: compiling $BIN"
    swiftc -swift-version 6 -O -g -parse-as-library -sanitize=fuzzer,address -use-ld=lld \
        -module-name ScrollCoreFuzz -o "$BIN" Sources/ScrollCore/*.swift Fuzz/ScrollCoreFuzz.swift
}

seed_corpus() {
    mkdir -p "$OUT/corpus" "$OUT/artifacts"
    cp -n Fuzz/Seeds/* "$OUT/corpus/" 2>/dev/null || true
    if compgen -G "Fuzz/Regressions/*" >/dev/null; then cp -n Fuzz/Regressions/* "$OUT/corpus/"; fi
    # A recorded trace becomes one session script (its input messages, one per line) and, per message,
    # one single-frame input.
    if compgen -G "Examples/traces/*.jsonl" >/dev/null; then
        python3 - "$OUT/corpus" Examples/traces/*.jsonl <<'PY'
import json, sys, os
corpus, traces = sys.argv[1], sys.argv[2:]
for path in traces:
    name = os.path.basename(path).replace('.jsonl', '')
    lines = []
    for raw in open(path, encoding='utf-8'):
        try:
            record = json.loads(raw)
        except ValueError:
            continue
        if record.get('kind') == 'input' and 'message' in record:
            lines.append(json.dumps(record['message'], separators=(',', ':')))
        elif record.get('kind') == 'timer':
            lines.append('!1')
    with open(os.path.join(corpus, f'trace-{name}.txt'), 'w') as out:
        out.write('\n'.join(lines[:400]) + '\n')
    for index, line in enumerate(lines[:50]):
        with open(os.path.join(corpus, f'trace-{name}-{index}.json'), 'w') as out:
            out.write(line)
PY
    fi
}

case "${1:-run}" in
build)
    build
    ;;
run)
    seconds="${2:-30}"
    build
    seed_corpus
    "$BIN" "$OUT/corpus" -dict=Fuzz/scroll.dict -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
        -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$OUT/artifacts/"
    ;;
regressions)
    build
    if compgen -G "Fuzz/Regressions/*" >/dev/null; then "$BIN" Fuzz/Regressions/*; else echo "fuzz: no regressions saved"; fi
    ;;
*)
    echo "usage: Fuzz/fuzz.sh build | run [SECONDS] | regressions" >&2
    exit 2
    ;;
esac
