#!/usr/bin/env bash
# Checks what `make install`, `make uninstall` and `make deb` deliver (`make test` runs it last):
#
#   scripts/test-install.sh
#
# 1. make install DESTDIR=scratch PREFIX=/usr: the binary prints the Makefile's version, every
#    command and subcommand has its man page (feed-roll-add.1) and no other page is there (an
#    earlier install's pages are replaced), whatis can read each one's NAME, every
#    cross-reference names a page, `man feed roll` finds feed-roll.1, the three completion
#    scripts are there and the bash one completes `feed li` to `list`; make uninstall then leaves
#    no file behind.
# 2. make deb: the package's version, architecture and Depends (the five FFmpeg libraries the
#    shim dlopens among them), its files, and a binary that needs no Swift runtime library.
# 3. As root, and only when no feed package is installed already: dpkg -i, then /usr/bin/feed
#    --version, man -w feed and bash completion through bash-completion's loader; dpkg -r feed
#    on exit, whatever happened. Otherwise the package is unpacked into a scratch root (dpkg -x)
#    and the binary and man page are checked there.
# One line per check; the first failed check ends the script with status 1.
#
# The binary packaged is FEED (a Makefile variable): by default .build/debug/feed-static, the
# test build linked with the Swift runtime inside as the release one is (scripts/link-static.sh),
# so `make test` compiles the tree once; FEED=.build/release/feed checks the release build.
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
scratch=$(mktemp -d /tmp/feed-install.XXXXXX)
installed=0
cleanup() {
  if [ "$installed" = 1 ]; then
    dpkg -r feed >"$scratch/dpkg-r.log" 2>&1 || { cat "$scratch/dpkg-r.log" >&2; echo "test-install: dpkg -r feed failed" >&2; }
  fi
  rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

pass() { echo "ok    $*"; }
fail() { echo "FAIL  $*" >&2; exit 1; }
# Runs a make target quietly; shows its output only when it fails.
feed=${FEED:-.build/debug/feed-static}
run_make() {
  local log="$scratch/make-$1.log"
  make --no-print-directory FEED="$feed" "$@" >"$log" 2>&1 || { tail -n 40 "$log" >&2; fail "make $* (FEED=$feed)"; }
  pass "make $* (FEED=$feed)"
}

version=$(make --no-print-directory -s version)
arch=$(dpkg --print-architecture)
[ -n "$version" ] || fail "make version prints the version of Sources/FeedCLI/FeedCommand.swift"

# The pages the manual has: feed, then feed-SUB, feed-SUB-SUBSUB … for every command in
# `feed --experimental-dump-help` that --help shows (hidden ones get none).
expected_pages() {
  jq -r 'def names(p): (p + [.commandName]) as $n | ($n | join("-")),
           ((.subcommands // [])[] | select(.shouldDisplay != false) | names($n));
         .command | names([])' <<<"$1" | sort
}

# Completes `feed li` with the bash completion script $1 (sourced after bash-completion's own
# functions when $2 is given) and prints the candidates.
complete_li() {
  bash -c 'set +e; [ -n "$2" ] && source "$2"; source "$1" || exit 1
           spec=$(complete -p feed) || exit 1
           fn=${spec##*-F }; fn=${fn%% *}
           COMP_WORDS=(feed li); COMP_CWORD=1; COMP_LINE="feed li"; COMP_POINT=${#COMP_LINE}
           "$fn" feed li feed; printf "%s\n" "${COMPREPLY[@]}"' _ "$1" "${2:-}" 2>/dev/null
}

# --- make install / make uninstall -----------------------------------------------------------
dest="$scratch/dest"
# Pages an earlier install left, which this one must not keep: one under the old dotted name,
# one of a command since removed.
mkdir -p "$dest/usr/share/man/man1"
echo stale >"$dest/usr/share/man/man1/feed.roll.add.1"
echo stale >"$dest/usr/share/man/man1/feed-gone.1"
run_make install DESTDIR="$dest" PREFIX=/usr

bin="$dest/usr/bin/feed"
[ -x "$bin" ] || fail "install: $bin is an executable"
got=$("$bin" --version) || fail "install: feed --version runs"
[ "$got" = "$version" ] || fail "install: feed --version prints '$got', the Makefile says '$version'"
pass "install: usr/bin/feed --version prints $version"

help=$("$bin" --experimental-dump-help) || fail "install: feed --experimental-dump-help runs"
man1="$dest/usr/share/man/man1"
missing=()
count=0
while read -r page; do
  count=$((count + 1))
  [ -s "$man1/$page.1" ] || missing+=("$page.1")
done < <(expected_pages "$help")
[ "${#missing[@]}" = 0 ] || fail "install: man pages missing from usr/share/man/man1: ${missing[*]}"
extra=$(find "$man1" -name 'feed*.1' | wc -l)
[ "$extra" = "$count" ] || fail "install: $count man pages expected, usr/share/man/man1 has $extra: $(ls "$man1")"
pass "install: $count man pages, feed.1 and one per subcommand (feed-roll-add.1), no other (the old feed.roll.add.1 and feed-gone.1 gone)"
unparsed=()
for page in "$man1"/*.1; do
  lexgrog "$page" >/dev/null 2>&1 || unparsed+=("$(basename "$page")")
done
[ "${#unparsed[@]}" = 0 ] || fail "install: whatis cannot read the NAME of: ${unparsed[*]}"
lexgrog "$man1/feed-roll-add.1" | grep -qF '"feed-roll-add - ' || fail "install: feed-roll-add.1's NAME is feed-roll-add: $(lexgrog "$man1/feed-roll-add.1")"
pass "install: whatis reads every page's NAME (feed-roll-add - …)"
dangling=()
while read -r ref; do
  [ -s "$man1/$ref.1" ] || dangling+=("$ref")
done < <(cat "$man1"/*.1 | awk '/^\.Xr feed/ { print $2 }' | sort -u)
[ "${#dangling[@]}" = 0 ] || fail "install: SEE ALSO names pages that are not installed: ${dangling[*]}"
grep -qx '\.Xr feed-roll-add 1 ,' "$man1/feed-roll.1" || fail "install: feed-roll.1's SEE ALSO names feed-roll-add(1)"
pass "install: every SEE ALSO reference names an installed page"
abstract=$(jq -r .command.abstract <<<"$help")
MANPATH="$dest/usr/share/man" man -w feed | grep -qx "$man1/feed.1" || fail "install: man -w feed finds usr/share/man/man1/feed.1"
MANWIDTH=80 man -l "$man1/feed.1" 2>/dev/null | grep -F "$abstract" >/dev/null \
  || fail "install: feed.1 renders with the command's abstract ('$abstract')"
page=$(MANPATH="$dest/usr/share/man" man -w feed roll) || fail "install: man -w feed roll finds a page"
[ "$page" = "$man1/feed-roll.1" ] || fail "install: man -w feed roll gives $page, not feed-roll.1"
pass "install: man -w feed finds feed.1, which renders; man -w feed roll finds feed-roll.1"

bash_completion="$dest/usr/share/bash-completion/completions/feed"
zsh_completion="$dest/usr/share/zsh/vendor-completions/_feed"
fish_completion="$dest/usr/share/fish/vendor_completions.d/feed.fish"
for f in "$bash_completion" "$zsh_completion" "$fish_completion"; do
  [ -s "$f" ] || fail "install: ${f#"$dest/"} is there and not empty"
done
[ "$(head -n 1 "$zsh_completion")" = "#compdef feed" ] || fail "install: _feed starts with '#compdef feed'"
grep -qE "^complete -c '?feed'? " "$fish_completion" || fail "install: feed.fish has 'complete -c feed' lines"
complete_li "$bash_completion" | grep -x list >/dev/null || fail "install: the bash completion completes 'feed li' to 'list'"
pass "install: bash, zsh and fish completions; bash completes 'feed li' to 'list'"

run_make uninstall DESTDIR="$dest" PREFIX=/usr
left=$(find "$dest" ! -type d)
[ -z "$left" ] || fail "uninstall: files left behind: $left"
pass "uninstall: no file left under DESTDIR"

# --- make deb --------------------------------------------------------------------------------
run_make deb DEB_COMPRESSION=zstd
deb="dist/feed_${version}_${arch}.deb"
[ -f "$deb" ] || fail "deb: $deb is there"
field() { dpkg-deb --field "$deb" "$1"; }
[ "$(field Package)" = feed ] || fail "deb: Package is feed"
[ "$(field Version)" = "$version" ] || fail "deb: Version is $version (found '$(field Version)')"
[ "$(field Architecture)" = "$arch" ] || fail "deb: Architecture is $arch"
pass "deb: $deb, Package feed, Version $version, Architecture $arch"
depends=$(field Depends)
for package in libavformat59 libavcodec59 libswscale6 libswresample4 libavutil57 libc6; do
  grep -qE "(^|, )$package( |,|$)" <<<"$depends" || fail "deb: Depends names $package: $depends"
done
pass "deb: Depends: $depends"
contents=$(dpkg-deb --contents "$deb" | awk '{ print $NF }')
for path in ./usr/bin/feed ./usr/share/man/man1/feed.1.gz ./usr/share/bash-completion/completions/feed \
            ./usr/share/zsh/vendor-completions/_feed ./usr/share/fish/vendor_completions.d/feed.fish; do
  grep -qx "$path" <<<"$contents" || fail "deb: contents list $path"
done
pages=$(grep -cE '^\./usr/share/man/man1/feed(-.*)?\.1\.gz$' <<<"$contents" || true)
[ "$pages" = "$count" ] || fail "deb: $count gzipped man pages (found $pages)"
pass "deb: contents: usr/bin/feed, $count man pages (.gz), 3 completions"

root="$scratch/root"
dpkg-deb -x "$deb" "$root"
swift_libs=$(ldd "$root/usr/bin/feed" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|not found' || true)
[ -z "$swift_libs" ] || fail "deb: usr/bin/feed loads no Swift runtime library and misses none: $swift_libs"
pass "deb: ldd usr/bin/feed: no Swift runtime library, nothing missing"

# --- the package installed -------------------------------------------------------------------
present=$(dpkg-query -W -f='${db:Status-Status}' feed 2>/dev/null || true)
case $present in ""|not-installed|config-files) present= ;; esac
if [ "$(id -u)" = 0 ] && [ -z "$present" ]; then
  installed=1
  dpkg -i "$deb" >"$scratch/dpkg-i.log" 2>&1 || { cat "$scratch/dpkg-i.log" >&2; fail "dpkg -i $deb"; }
  pass "dpkg -i $deb"
  got=$(/usr/bin/feed --version) || fail "dpkg: /usr/bin/feed --version runs"
  [ "$got" = "$version" ] || fail "dpkg: /usr/bin/feed --version prints '$got', not $version"
  pass "dpkg: /usr/bin/feed --version prints $version"
  page=$(man -w feed) || fail "dpkg: man -w feed finds a page"
  [ "$page" = /usr/share/man/man1/feed.1.gz ] || fail "dpkg: man -w feed gives $page, not /usr/share/man/man1/feed.1.gz"
  pass "dpkg: man -w feed gives $page"
  bash -c 'source /usr/share/bash-completion/completions/feed && complete -p feed' >/dev/null \
    || fail "dpkg: sourcing /usr/share/bash-completion/completions/feed registers 'complete -p feed'"
  if [ -f /usr/share/bash-completion/bash_completion ]; then
    # What an interactive shell does on the first Tab: bash-completion finds the file by name.
    bash -c 'source /usr/share/bash-completion/bash_completion; __load_completion feed && complete -p feed' >/dev/null 2>&1 \
      || fail "dpkg: bash-completion's loader finds the completion of feed"
    complete_li /usr/share/bash-completion/completions/feed /usr/share/bash-completion/bash_completion | grep -x list >/dev/null \
      || fail "dpkg: with bash-completion loaded, 'feed li' completes to 'list'"
    pass "dpkg: bash-completion loads feed's completion; 'feed li' completes to 'list'"
  else
    pass "dpkg: complete -p feed after sourcing the completion (bash-completion not installed: loader not checked)"
  fi
else
  if [ "$(id -u)" = 0 ]; then reason="a feed package is installed already"; else reason="not root"; fi
  got=$("$root/usr/bin/feed" --version) || fail "dpkg -x: usr/bin/feed --version runs"
  [ "$got" = "$version" ] || fail "dpkg -x: usr/bin/feed --version prints '$got', not $version"
  page=$(MANPATH="$root/usr/share/man" man -w feed) || fail "dpkg -x: man -w feed finds a page"
  [ "$page" = "$root/usr/share/man/man1/feed.1.gz" ] || fail "dpkg -x: man -w feed gives $page"
  pass "dpkg -x ($reason, so not dpkg -i): feed --version prints $version; man -w feed finds feed.1.gz"
fi

echo "test-install: all checks passed in $((SECONDS - start)) s"
