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

# wrk_summary WRK-OUTPUT WHO CASE CPU-µs -> "req/s p99-ms cpu-µs/req" from wrk --latency's output,
# CPU-µs being the server's CPU over the run; warns on stderr of non-2xx/3xx answers and socket
# errors (what bench/serve.sh and bench/comments.sh both read of a wrk run).
wrk_summary() {
  awk -v cpu="$4" -v who="$2" -v what="$3" '
    function ms(v,   n) { n = v + 0; if (v ~ /us$/) return n / 1000; if (v ~ /ms$/) return n; if (v ~ /m$/) return n * 60000; return n * 1000 }
    / requests in / { n = $1 }
    /Requests\/sec:/ { rps = $2 }
    $1 == "99%" { p99 = ms($2) }
    /Non-2xx or 3xx responses:/ { bad = $NF }
    /Socket errors:/ { errors = $0 }
    END {
      if (bad) printf "  warning: %s %s: %d responses not 2xx/3xx\n", who, what, bad > "/dev/stderr"
      if (errors) printf "  warning: %s %s:%s\n", who, what, errors > "/dev/stderr"
      printf "%s %s %s\n", rps, p99, (n ? cpu / n : 0)
    }' "$1"
}

# nginx_main DIR -> the top of an nginx.conf (stdout) for a foreground master run as this user,
# its pid file and error log in DIR, as many workers as cores; the caller writes the http block.
nginx_main() {
  cat <<NGINX
daemon off;
master_process on;
worker_processes auto;
user $(id -un) $(id -gn);
pid $1/nginx.pid;
error_log $1/error.log warn;
events { worker_connections 1024; }
NGINX
}
