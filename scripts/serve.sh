# `./x serve` and `./x dev`: Trunk's server, kept running. Sourced by ./x.
#
# Trunk builds, serves and rebuilds on a change to a source (Trunk.toml's [watch] lists the sources, so
# the files a build writes never reach the watcher). Should Trunk still stop on its own, say because its
# file watcher died, this says so in words and starts it again (warm, so it serves within seconds)
# instead of leaving a terminal that looks like it serves and a browser that finds nothing. A stop that
# repeats at once (a port already taken, a build that cannot start) gives up after a few tries with the
# last status, rather than looping forever. Ctrl-C ends it.

SERVE_RESTARTS_MAX=5
# A Trunk that ran at least this long was serving: its stop counts as a new failure, not a repeat.
SERVE_STEADY_SECONDS=60

serve_forever() {
  local quick_stops=0 started status
  trap 'echo; say "stopped"; exit 0' INT TERM
  while true; do
    started=$(date +%s)
    status=0
    trunk serve "$@" || status=$?
    if [ $(($(date +%s) - started)) -ge "$SERVE_STEADY_SECONDS" ]; then quick_stops=0; fi
    quick_stops=$((quick_stops + 1))
    if [ "$quick_stops" -gt "$SERVE_RESTARTS_MAX" ]; then
      echo "./x serve: trunk serve stopped $SERVE_RESTARTS_MAX times in a row (last exit status $status); giving up." >&2
      echo "Is port ${QUORUMLAB_PORT:-8080} taken? Try: QUORUMLAB_PORT=8081 ./x serve" >&2
      exit 1
    fi
    say "trunk serve stopped on its own (exit status $status); starting it again ($quick_stops of $SERVE_RESTARTS_MAX)"
    sleep 2
  done
}
