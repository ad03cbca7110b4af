#!/bin/bash
# bench-peers.sh PEERS OUT: makes the two reference peers of `scroll-bench compare` ready to run, installing
# what they need: Debian's golang-go and golang-github-gorilla-websocket-dev, goref built from PEERS/goref
# into OUT/goref (an offline GOPATH build, by the peer's own build.sh), and a venv OUT/venv with the pinned
# Python `websockets` (Scripts/bench-requirements.txt) for PEERS/pyref/server.py. Nothing of the peers is
# copied into the repository: PEERS is read only (CI has a read-only copy of shared/ beside the clone).
set -euo pipefail
peers=${1:?usage: bench-peers.sh PEERS OUT}
out=${2:?usage: bench-peers.sh PEERS OUT}
mkdir -p "$out" && out=$(cd "$out" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
requirements=$here/bench-requirements.txt
sudo=; [ "$(id -u)" = 0 ] || sudo=sudo

for file in "$peers/goref/build.sh" "$peers/pyref/server.py"; do
  [ -f "$file" ] || { echo "bench-peers: no $file (set PEERS=/path/to/shared/peers)" >&2; exit 1; }
done

missing=()
command -v go >/dev/null || missing+=(golang-go)
[ -d /usr/share/gocode/src/github.com/gorilla/websocket ] || missing+=(golang-github-gorilla-websocket-dev)
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
  echo "bench-peers: installing ${missing[*]}"
  $sudo apt-get update -q
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# goref: rebuilt when its source is newer than the binary.
if [ ! -x "$out/goref" ] || [ -n "$(find "$peers/goref" -newer "$out/goref" -name '*.go' | head -1)" ]; then
  GOCACHE="$out/gocache" bash "$peers/goref/build.sh" "$out/goref"
fi

# pyref's venv: remade when the pinned requirements change.
if [ ! -f "$out/venv/.installed" ] || [ "$requirements" -nt "$out/venv/.installed" ]; then
  rm -rf "$out/venv"
  python3 -m venv "$out/venv"
  "$out/venv/bin/pip" install -q --disable-pip-version-check -r "$requirements"
  touch "$out/venv/.installed"
fi
echo "bench-peers: $out/goref, $out/venv/bin/python $peers/pyref/server.py"
