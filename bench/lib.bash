# bench/lib.bash — sourced by every bench/*.sh (not a benchmark itself).
#
# bench_setup TOOL…  sets $root (the repository), $feed and $bench_name (bench/NAME.sh, for
# messages), and exits 69 naming the first TOOL
# that is missing. $feed is $FEED when set, else the release binary, built first when it is
# missing or older than the sources: benchmarks never measure a debug build by accident.
bench_setup() {
  root=$(cd "$(dirname "${BASH_SOURCE[1]}")/.." && pwd)
  local tool
  bench_name=bench/$(basename "${BASH_SOURCE[1]}")
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$bench_name: $tool is missing (apt-get install ${tool##*/})" >&2; exit 69; }
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

# nginx_main DIR [CONNECTIONS] -> the top of an nginx.conf (stdout) for a foreground master run as
# this user, its pid file and error log in DIR, as many workers as cores, each taking CONNECTIONS
# (1024) at most; the caller writes the http block.
nginx_main() {
  cat <<NGINX
daemon off;
master_process on;
worker_processes auto;
user $(id -un) $(id -gn);
pid $1/nginx.pid;
error_log $1/error.log warn;
events { worker_connections ${2:-1024}; }
NGINX
}

# median -> the median of the numbers on stdin, one per line ("nan" for none).
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "nan"; exit } print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# announced NAME PID OUT ERR PREFIX [SECONDS] -> what follows PREFIX on the first line of OUT that
# starts with it, once the server NAME (process PID) prints it, waiting SECONDS (30) at most. When
# the server exits first, prints ERR (its stderr) and fails, naming it; so does a timeout. Call it
# as `url=$(announced …)`: under `set -e` the failure ends the script.
announced() {
  local name=$1 pid=$2 out=$3 err=$4 prefix=$5 seconds=${6:-30} value
  for _ in $(seq $((seconds * 10))); do
    grep -q "^$prefix" "$out" 2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || { cat "$err" >&2; echo "$bench_name: $name exited" >&2; return 1; }
    sleep 0.1
  done
  value=$(sed -n "s/^$prefix//p" "$out" | head -n 1)
  [ -n "$value" ] || { echo "$bench_name: $name printed no '$prefix' line in $seconds s" >&2; return 1; }
  echo "$value"
}
