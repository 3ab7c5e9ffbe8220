# bench/lib.bash — sourced by every bench/*.sh (not a benchmark itself).
#
# bench_setup TOOL…  sets $root (the repository) and $feed, and exits 69 naming the first TOOL
# that is missing. $feed is $FEED when set, else the release binary, built first when it is
# missing or older than the sources: benchmarks never measure a debug build by accident.
bench_setup() {
  root=$(cd "$(dirname "${BASH_SOURCE[1]}")/.." && pwd)
  local name tool
  name=bench/$(basename "${BASH_SOURCE[1]}")
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$name: $tool is missing (apt-get install ${tool##*/})" >&2; exit 69; }
  done
  feed=${FEED:-$root/.build/release/feed}
  if [ -z "${FEED:-}" ] && { [ ! -x "$feed" ] || [ -n "$(find "$root/Sources" "$root/Package.swift" -newer "$feed" -print -quit)" ]; }; then
    echo "building release…" >&2
    # The Makefile's release build (make release): the same flags, so neither rebuilds the other.
    (cd "$root" && swift build -c release --static-swift-stdlib --product feed >&2)
  fi
}
