#!/usr/bin/env bash
# Fuzz/build.sh [target …] — builds the libFuzzer targets (default: feed-loader-fuzz,
# media-reader-fuzz, mp4-box-fuzz, rtmp-fuzz, live-packaging-fuzz and html-page-fuzz) with SwiftPM
# and links each to .build-fuzz/<target>.
#
# The harnesses are targets of the package (Package.swift's last block): FeedLoaderFuzz,
# MediaReaderFuzz, MP4BoxFuzz, RTMPFuzz and LivePackagingFuzz over FeedCore, HTMLPageFuzz (C) over
# the CHTML shim. Ordinary builds compile them as library targets, which is how `make test`
# notices a harness that no longer compiles.
# With FEED_FUZZ=1 they become executables (no main: libFuzzer's calls LLVMFuzzerTestOneInput)
# and this script builds them in release with the fuzzer and address sanitizers on every target
# of their graph (FeedCore, its C shims, GRDB, swift-crypto …), in a scratch path of their own,
# so .build is never touched. FFmpeg and gumbo are Debian's, uninstrumented: the CFFmpeg shim
# dlopens FFmpeg at first use, as in the package.
#
# The sanitizer flags work around two SwiftPM behaviours:
# - `--sanitize=fuzzer --sanitize=address` reach swiftc as two -sanitize= options, and the driver
#   keeps only the last for each compile, so Swift code gets one of the two; which one is random,
#   as is their order in every command (SwiftPM keeps them in a Set), so each new build plan
#   rebuilds everything. So SwiftPM is given one sanitizer, the fuzzer (its link flags and C
#   flags), and address comes as flags: `-Xswiftc -sanitize=fuzzer,address` (after SwiftPM's own
#   -sanitize=, so it wins for Swift; the link takes the union) and `-Xcc -fsanitize=address`.
# - `-Xswiftc -enable-testing`: the feed and live packaging harnesses' `@testable import FeedCore`
#   (release builds are not testable by default).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/.build-fuzz
flags=(-c release --scratch-path "$out/swiftpm" --sanitize=fuzzer
       -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=address -Xswiftc -enable-testing)
export FEED_FUZZ=1

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(feed-loader-fuzz media-reader-fuzz mp4-box-fuzz rtmp-fuzz live-packaging-fuzz html-page-fuzz)
for target in "${targets[@]}"; do
  case $target in
    feed-loader-fuzz | media-reader-fuzz | mp4-box-fuzz | rtmp-fuzz | live-packaging-fuzz | html-page-fuzz) ;;
    *) echo "build.sh: unknown target $target (feed-loader-fuzz, media-reader-fuzz, mp4-box-fuzz, rtmp-fuzz," \
            "live-packaging-fuzz, html-page-fuzz)" >&2; exit 64 ;;
  esac
done

cd "$root"
mkdir -p "$out"
bin=$(swift build "${flags[@]}" --show-bin-path)
for target in "${targets[@]}"; do
  swift build "${flags[@]}" --product "$target"
  ln -sfn "$bin/$target" "$out/$target"
  echo "built $out/$target" >&2
done
