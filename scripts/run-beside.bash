# scripts/run-beside.bash — sourced by with-postgres.sh and with-s3.sh (not run itself).
#
# run_beside COMMAND…  runs the command and exits with its status. The command runs in the
# background, so a SIGINT or SIGTERM to the script reaches it at once (bash runs a trap only
# between commands); the caller's EXIT trap then stops its server. Bash starts a background
# command with SIGINT and SIGQUIT ignored and standard input from /dev/null: the trap and <&0
# undo that (so a forwarded SIGINT counts, and `with-s3.sh python3 - <<EOF` reads its input).
run_beside() {
  set +e
  (trap - INT QUIT; exec "$@") <&0 &
  child=$!
  trap 'kill -INT "$child" 2>/dev/null' INT
  trap 'kill -TERM "$child" 2>/dev/null' TERM
  wait "$child"
  while kill -0 "$child" 2>/dev/null; do wait "$child"; done
  # A trap cuts a wait short (status 128+N); once the command has ended, wait gives its own status.
  wait "$child"
  exit $?
}
