#!/usr/bin/env bash
# Renames the pages swift-argument-parser's generate-manual writes to the names Unix tools use
# for subcommands (git-commit.1, not git.commit.1), so that `man feed-roll-add` and man-db's
# `man feed roll` find them:
#
#   scripts/man-pages.sh GENERATED_DIR OUTPUT_DIR
#
# GENERATED_DIR holds feed.1, feed.roll.1, feed.roll.add.1 …; OUTPUT_DIR (made, must be empty
# or missing) gets feed.1, feed-roll.1, feed-roll-add.1 … with the title (.Dt) and every
# cross-reference (.Xr) renamed to match. Hidden commands (named _…, absent from --help) get no
# page, and SEE ALSO lists no reference to one. Exits 1 if a reference would point to no page.
set -euo pipefail

[ $# = 2 ] || { echo "usage: scripts/man-pages.sh GENERATED_DIR OUTPUT_DIR" >&2; exit 64; }
src=$1 out=$2
[ -f "$src/feed.1" ] || { echo "man-pages: $src/feed.1: no such page" >&2; exit 1; }
mkdir -p "$out"

for page in "$src"/feed.1 "$src"/feed.*.1; do
  name=$(basename "$page" .1)
  case $name in *._*) continue ;; esac # a hidden command
  # One awk pass per page:
  # - the title (.Dt) and NAME (.Nm) become the page's name, feed-roll-add, which whatis and
  #   apropos index (a quoted "feed roll add" they cannot parse); the SYNOPSIS's bare .Nm lines
  #   and EXIT STATUS show the command as it is typed, feed roll add;
  # - SEE ALSO drops hidden commands and renames the other references, its commas mended; a
  #   section left with no reference is left out.
  awk -v name="${name//./-}" '
    function dashed(s) { gsub(/\./, "-", s); return s }
    function flush_see_also(   i) {
      if (n > 0) print header
      for (i = 1; i <= n; i++) print refs[i] (i < n ? " ," : "")
      n = 0; in_see_also = 0
    }
    in_see_also && /^\.Sh / { flush_see_also() }
    /^\.Sh "?SEE ALSO"?$/ { in_see_also = 1; header = $0; next }
    in_see_also && /^\.Xr / {
      if ($2 ~ /^feed/) {
        if ($2 ~ /\._/) next
        $2 = dashed($2)
      }
      refs[++n] = $1 " " $2 " " $3
      next
    }
    in_see_also && /^[[:space:]]*$/ { next }
    /^\.Dt / { $2 = toupper(name) }
    /^\.Nm ./ && command == "" { command = substr($0, 5); print ".Nm " name; next }
    /^\.Nm$/ && command != "" { print ".Nm " command; next }
    /^\.Ex -std$/ && command != "" { print ".Ex -std " command; next }
    { print }
    END { flush_see_also() }
  ' "$page" >"$out/${name//./-}.1"
done

# Every reference has its page.
status=0
while read -r ref; do
  [ -f "$out/$ref.1" ] || { echo "man-pages: a page refers to $ref(1), which has no page" >&2; status=1; }
done < <(grep -h '^\.Xr feed' "$out"/*.1 | awk '{ print $2 }' | sort -u)
exit "$status"
