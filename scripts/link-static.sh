#!/usr/bin/env bash
# Links an already compiled `feed` again, with the Swift runtime (stdlib, Foundation, Dispatch)
# inside, as `swift build --static-swift-stdlib` links the release one:
#
#   scripts/link-static.sh debug .build/debug/feed-static
#
# `make test` packages this binary (FEED=.build/debug/feed-static) so that the tree compiles
# once, for the tests, and not a second time for the install checks: relinking takes seconds,
# a static release build 7 minutes on 2 cores. The link is SwiftPM's own (read from
# .build/CONFIG.yaml) with -static-stdlib added, plus the static Foundation's own libraries:
# objects compiled for the shared runtime do not ask for them (those compiled with
# --static-swift-stdlib do). The output is written beside OUT and renamed into place.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# = 2 ] || { echo "usage: scripts/link-static.sh CONFIG OUT" >&2; exit 64; }
config=$1 out=$2
plan=.build/$config.yaml
[ -f "$plan" ] || { echo "link-static: no $plan: run 'swift build -c $config' first" >&2; exit 66; }

# The link command of the feed executable: the JSON array after `args:` in its block.
mapfile -d '' args < <(python3 - "$plan" "$config" <<'PY'
import json, re, sys
plan, config = sys.argv[1], sys.argv[2]
text = open(plan).read()
block = re.search(r'^  "C\.feed-[^"]*-' + re.escape(config) + r'\.exe":\n(.*?)(?=^  "|\Z)', text, re.M | re.S)
if not block:
    sys.exit(f"link-static: {plan} has no link command for feed")
line = re.search(r'^    args: (\[.*\])$', block.group(1), re.M)
if not line:
    sys.exit(f"link-static: {plan}: the link command of feed has no args")
for arg in json.loads(line.group(1)):
    sys.stdout.write(arg + "\0")
PY
)
[ "${#args[@]}" -gt 0 ] || { echo "link-static: no link command for feed in $plan" >&2; exit 1; }

tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
command=()
for ((i = 0; i < ${#args[@]}; i++)); do
  arg=${args[i]}
  if [ "$arg" = -o ]; then command+=(-o "$tmp"); i=$((i + 1)); continue; fi
  # The shared runtime's search path ($ORIGIN) has no use in a static binary.
  if [ "$arg" = -Xlinker ] && [ "${args[i + 1]:-}" = '-rpath=$ORIGIN' ]; then i=$((i + 1)); continue; fi
  command+=("$arg")
done
command+=(-static-stdlib -lCoreFoundation -l_FoundationCShims -l_FoundationCollections -l_FoundationICU)
"${command[@]}"
mv -f "$tmp" "$out"
trap - EXIT
