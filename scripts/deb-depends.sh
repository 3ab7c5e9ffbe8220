#!/usr/bin/env bash
# Prints the Depends: value of feed's .deb for a built binary, derived from this machine:
#
#   scripts/deb-depends.sh .build/release/feed
#   → libavcodec59, …, libc6 (>= 2.34), libfftw3-single3 (>= 3.3.5), …
#
# Two sources, merged and sorted:
#   - the libraries the binary links (its DT_NEEDED entries): dpkg-shlibdeps maps each to the
#     package that ships it, with the lowest version that has every symbol the binary uses;
#   - the FFmpeg libraries the shim dlopens at first use (CFFmpeg/loader.c), which no tool can
#     see in the binary: their sonames are read from Sources/CFFmpeg/symbols.h, resolved with
#     ldconfig and mapped to their package with dpkg -S. They carry no version: the soname is
#     the ABI, and the loader checks every symbol it needs when it opens them.
# Fails if a library is not from a Debian package (e.g. a Swift runtime library, which the
# static build must not need).
set -euo pipefail

binary=${1:?usage: scripts/deb-depends.sh BINARY}
root=$(cd "$(dirname "$0")/.." && pwd)
binary=$(realpath "$binary")

work=$(mktemp -d /tmp/feed-depends.XXXXXX)
trap 'rm -rf "$work"' EXIT

# dpkg-shlibdeps wants a debian/control naming the package it computes for.
mkdir -p "$work/debian"
printf 'Source: feed\n\nPackage: feed\nArchitecture: any\n' >"$work/debian/control"
linked=$(cd "$work" && dpkg-shlibdeps -O -e"$binary" 2>"$work/err") \
  || { cat "$work/err" >&2; echo "deb-depends: dpkg-shlibdeps failed on $binary" >&2; exit 1; }
linked=${linked#shlibs:Depends=}

sonames=$(grep -o '"lib[a-z0-9_]*\.so\.[0-9]*"' "$root/Sources/CFFmpeg/symbols.h" | tr -d '"')
[ -n "$sonames" ] || { echo "deb-depends: no sonames found in Sources/CFFmpeg/symbols.h" >&2; exit 1; }
loaded=()
for soname in $sonames; do
  # awk reads to the end: leaving early would kill ldconfig with SIGPIPE, which pipefail reports.
  path=$(ldconfig -p | awk -v s="$soname" '$1 == s && path == "" { path = $NF } END { print path }')
  [ -n "$path" ] || { echo "deb-depends: $soname is not installed (make deps)" >&2; exit 1; }
  # dpkg records the /usr path; on merged-/usr systems ldconfig may report /lib.
  package=$(dpkg -S "$(realpath "$path")" 2>/dev/null || dpkg -S "/usr$(realpath "$path")" 2>/dev/null) \
    || { echo "deb-depends: no package ships $path" >&2; exit 1; }
  package=${package%%:*}
  loaded+=("$package")
done

{ tr ',' '\n' <<<"$linked"; printf '%s\n' "${loaded[@]}"; } \
  | sed 's/^ *//; s/ *$//' | grep -v '^$' | sort -u | paste -sd, - | sed 's/,/, /g'
