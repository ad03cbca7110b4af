#!/usr/bin/env bash
# Builds the ScrollCore libFuzzer target and runs it.
#
#   Fuzz/fuzz.sh build          compile .build/fuzz/scroll-core-fuzz (-sanitize=fuzzer,address)
#   Fuzz/fuzz.sh run SECONDS    build, then fuzz for SECONDS (default 30) on one core
#                               (SCROLL_FUZZ_DECODER_ONLY=1: the decoder alone, many more inputs a second)
#   Fuzz/fuzz.sh regressions    build, then run every saved input under Fuzz/Regressions once
#   Fuzz/fuzz.sh trace SECONDS  build .build/fuzz/trace-fuzz (Fuzz/TraceFuzz.swift: the trace reader and a
#                               fork's rebuild), then fuzz it for SECONDS (default 30), seeded with
#                               Examples/traces/*.jsonl whole; its saved crashes live in Fuzz/TraceRegressions
#   Fuzz/fuzz.sh hand SECONDS   build .build/fuzz/hand-fuzz (Fuzz/HandTrialFuzz.swift: a tryHand end to end,
#                               its message on the first line, the uploaded trace after it), then fuzz it for
#                               SECONDS (default 30), seeded with each example trace under a few settings; its
#                               saved crashes live in Fuzz/HandRegressions
#
# The target is compiled outside SwiftPM: every .swift under Sources/ScrollCore and Fuzz/ScrollCoreFuzz.swift become
# one module. The working corpus lives in .build/fuzz/corpus, seeded from Fuzz/Seeds, Fuzz/Regressions
# and, when present, the input messages of Examples/traces/*.jsonl. Crashing inputs land in
# .build/fuzz/artifacts; copy one to Fuzz/Regressions once its bug is fixed.
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
OUT=.build/fuzz
BIN=$OUT/scroll-core-fuzz
TRACE_BIN=$OUT/trace-fuzz
HAND_BIN=$OUT/hand-fuzz

# compile BINARY ENTRY.swift: ScrollRules' and ScrollCore's sources and the entry point as one module, unless
# up to date. ScrollCore's re-export of ScrollRules is left out: in one module there is nothing to import.
# `-package-name` as SwiftPM gives one, for the sources' `package` declarations.
# Further arguments are more sources of the same module (the hand trial's ScrollLab copies).
compile() {
    local binary=$1 entry=$2 sources
    shift 2
    mkdir -p "$OUT"
    sources=($(find Sources/ScrollRules Sources/ScrollCore -name '*.swift' ! -name 'ScrollRules+Export.swift' | sort))
    # Up to date when nothing it is made of is newer (find, not `ls -t | head`: head's early exit fails the
    # pipe under pipefail).
    if [[ -x "$binary" && -z "$(find "${sources[@]}" "$entry" Fuzz/fuzz.sh -newer "$binary" -print -quit)" ]]; then
        return
    fi
    echo "fuzz: compiling $binary"
    local extra=()
    for file in "$@"; do [[ "$file" == "$entry" ]] || extra+=("$file"); done
    swiftc -swift-version 6 -O -g -parse-as-library -sanitize=fuzzer,address -use-ld=lld \
        -package-name scroll_playground -module-name "$(basename "$entry" .swift)" -o "$binary" "${sources[@]}" \
        "${extra[@]}" "$entry"
}

build() {
    compile "$BIN" Fuzz/ScrollCoreFuzz.swift
}

# The hand trial's target also needs ScrollLab, whose files import ScrollCore: in one module there is nothing to
# import, so they are compiled from copies without that line.
compile_hand() {
    local lab=$OUT/hand-lab
    if [[ -x "$HAND_BIN" && -z "$(find Sources/ScrollLab Sources/ScrollCore Sources/ScrollRules \
        Fuzz/HandTrialFuzz.swift Fuzz/fuzz.sh -newer "$HAND_BIN" -print -quit)" ]]; then
        return
    fi
    rm -rf "$lab" && mkdir -p "$lab"
    for file in $(find Sources/ScrollLab -name '*.swift'); do
        grep -v '^import ScrollCore$' "$file" >"$lab/$(basename "$file")"
    done
    cp Fuzz/HandTrialFuzz.swift "$lab/HandTrialFuzz.swift"
    rm -f "$HAND_BIN"
    compile "$HAND_BIN" "$lab/HandTrialFuzz.swift" "$lab"/*.swift
}

# A trace as a hand trial's input: a tryHand message on the first line, the trace after it.
seed_hand_corpus() {
    mkdir -p "$OUT/hand-corpus" "$OUT/hand-artifacts"
    if compgen -G "Fuzz/HandRegressions/*" >/dev/null; then cp -n Fuzz/HandRegressions/* "$OUT/hand-corpus/"; fi
    local request index=0
    for path in Examples/traces/*.jsonl; do
        for request in '{"type":"tryHand"}' '{"type":"tryHand","preset":"chat","settings":{"loadLatencyMs":"50"}}' \
            '{"type":"tryHand","settings":{"bottomThreshold":0,"windowSize":60,"maxItems":0}}'; do
            index=$((index + 1))
            [[ -e "$OUT/hand-corpus/seed-$index" ]] || { echo "$request"; cat "$path"; } >"$OUT/hand-corpus/seed-$index"
        done
    done
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
    if compgen -G "Fuzz/TraceRegressions/*" >/dev/null; then
        compile "$TRACE_BIN" Fuzz/TraceFuzz.swift
        "$TRACE_BIN" Fuzz/TraceRegressions/*
    fi
    if compgen -G "Fuzz/HandRegressions/*" >/dev/null; then
        compile_hand
        "$HAND_BIN" Fuzz/HandRegressions/*
    fi
    ;;
trace)
    seconds="${2:-30}"
    compile "$TRACE_BIN" Fuzz/TraceFuzz.swift
    mkdir -p "$OUT/trace-corpus" "$OUT/trace-artifacts"
    cp -n Examples/traces/*.jsonl "$OUT/trace-corpus/" 2>/dev/null || true
    if compgen -G "Fuzz/TraceRegressions/*" >/dev/null; then cp -n Fuzz/TraceRegressions/* "$OUT/trace-corpus/"; fi
    "$TRACE_BIN" "$OUT/trace-corpus" -dict=Fuzz/trace.dict -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
        -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$OUT/trace-artifacts/"
    ;;
hand)
    seconds="${2:-30}"
    compile_hand
    seed_hand_corpus
    "$HAND_BIN" "$OUT/hand-corpus" -dict=Fuzz/trace.dict -max_len=65536 -timeout=20 -rss_limit_mb=2048 \
        -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$OUT/hand-artifacts/"
    ;;
*)
    echo "usage: Fuzz/fuzz.sh build | run [SECONDS] | regressions | trace [SECONDS] | hand [SECONDS]" >&2
    exit 2
    ;;
esac
