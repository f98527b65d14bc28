# shellcheck shell=bash
# Sets podman up so that testcontainers can run the NATS tests in a container
# (see tests/natsserver.py). Meant to be sourced by .ci/run before `make test`:
#
#     source .ci/podman.sh
#     make test
#
# It installs podman and runc from Debian if they are missing, starts
# `podman system service` on ./.podman.sock with the project's .ci/containers.conf,
# exports DOCKER_HOST, TESTCONTAINERS_RYUK_DISABLED, TESTCONTAINERS_CONNECTION_MODE and
# CONTAINERS_CONF, and stops the service (and removes the test containers it left) when the
# sourcing shell exits. It never aborts the shell that sources it, even under `set -euo pipefail`:
# when podman cannot be set up it says so, exports nothing, and the tests fall back to a
# nats-server subprocess. Sourcing it twice is harmless. Run directly (`bash .ci/podman.sh`) it
# only checks that the setup works, then stops the service again.

_maumau_podman_log() { printf '[podman.sh] %s\n' "$*" >&2; }

# Answers 0 when the Docker-compatible API on unix socket $1 replies to /_ping.
_maumau_podman_ping() {
  [ -S "$1" ] || return 1
  if command -v curl >/dev/null 2>&1; then
    [ "$(curl -s --max-time 2 --unix-socket "$1" http://d/_ping 2>/dev/null)" = "OK" ]
  else
    python3 - "$1" <<'PY' >/dev/null 2>&1
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(2)
s.connect(sys.argv[1])
s.sendall(b"GET /_ping HTTP/1.0\r\nHost: d\r\n\r\n")
sys.exit(0 if b"200" in s.recv(200).split(b"\r\n")[0] else 1)
PY
  fi
}

# Stops what _maumau_podman_setup started; installed as an EXIT trap.
_maumau_podman_stop() {
  local pid="${MAUMAU_PODMAN_PID:-}"
  [ -n "$pid" ] || return 0
  if command -v podman >/dev/null 2>&1; then
    # Containers of tests/natsserver.py that a killed test run left behind (Ryuk is disabled).
    local ids
    ids="$(podman ps -aq --filter label=maumau.test=nats 2>/dev/null || true)"
    if [ -n "$ids" ]; then
      _maumau_podman_log "removing leftover test containers: $(echo "$ids" | tr '\n' ' ')"
      # shellcheck disable=SC2086
      podman rm -f $ids >/dev/null 2>&1 || true
    fi
  fi
  if kill -0 "$pid" 2>/dev/null; then
    _maumau_podman_log "stopping podman system service (pid $pid)"
    kill "$pid" 2>/dev/null || true
    local i
    for i in 1 2 3 4 5 6 7 8 9 10; do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "${MAUMAU_PODMAN_SOCK:-}"
  unset MAUMAU_PODMAN_PID
  return 0
}

_maumau_podman_setup() {
  local root sock conf logdir
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" || return 1
  sock="$root/.podman.sock"
  conf="$root/.ci/containers.conf"
  logdir="$root/.podman"

  if [ -n "${MAUMAU_PODMAN_PID:-}" ] && kill -0 "$MAUMAU_PODMAN_PID" 2>/dev/null \
     && _maumau_podman_ping "$sock"; then
    _maumau_podman_log "podman service already running (pid $MAUMAU_PODMAN_PID), DOCKER_HOST=${DOCKER_HOST:-}"
    return 0
  fi

  if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
      _maumau_podman_log "podman/runc missing and cannot apt-get install them here"
      return 1
    fi
    _maumau_podman_log "installing podman and runc: apt-get update && apt-get install -y podman runc"
    if ! DEBIAN_FRONTEND=noninteractive apt-get update -qq >"/tmp/maumau-apt.log" 2>&1 \
       || ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc >>"/tmp/maumau-apt.log" 2>&1; then
      _maumau_podman_log "apt-get failed (last lines of /tmp/maumau-apt.log follow)"
      tail -n 5 /tmp/maumau-apt.log >&2 || true
      return 1
    fi
  else
    _maumau_podman_log "podman and runc already installed"
  fi
  _maumau_podman_log "$(podman --version 2>&1), $(runc --version 2>&1 | head -n 1)"

  if [ ! -f "$conf" ]; then
    _maumau_podman_log "missing $conf"
    return 1
  fi
  export CONTAINERS_CONF="$conf"
  _maumau_podman_log "CONTAINERS_CONF=$CONTAINERS_CONF (runc, cgroupfs, lowered ulimits)"

  mkdir -p "$logdir" || return 1
  rm -f "$sock"
  _maumau_podman_log "starting: podman system service --time=0 unix://$sock (log: $logdir/service.log)"
  podman system service --time=0 "unix://$sock" >"$logdir/service.log" 2>&1 &
  MAUMAU_PODMAN_PID=$!
  MAUMAU_PODMAN_SOCK="$sock"
  export MAUMAU_PODMAN_PID MAUMAU_PODMAN_SOCK

  local i ok=""
  for i in $(seq 1 50); do
    if _maumau_podman_ping "$sock"; then ok=1; break; fi
    kill -0 "$MAUMAU_PODMAN_PID" 2>/dev/null || break
    sleep 0.2
  done
  if [ -z "$ok" ]; then
    _maumau_podman_log "podman service did not answer on $sock (last lines of its log follow)"
    tail -n 5 "$logdir/service.log" >&2 || true
    _maumau_podman_stop
    unset CONTAINERS_CONF
    return 1
  fi

  # Stop the service when the sourcing shell exits, keeping any EXIT trap set before.
  local previous
  previous="$(trap -p EXIT | sed -e "s/^trap -- '\(.*\)' EXIT\$/\1/")"
  case "$previous" in
    *_maumau_podman_stop*) ;;
    "") trap '_maumau_podman_stop' EXIT ;;
    *) trap "_maumau_podman_stop; $previous" EXIT ;;
  esac

  export DOCKER_HOST="unix://$sock"
  export TESTCONTAINERS_RYUK_DISABLED=true        # Ryuk's image cannot be pulled here
  export TESTCONTAINERS_CONNECTION_MODE=docker_host  # /.dockerenv exists; the default mode fails on podman
  _maumau_podman_log "podman service ready (pid $MAUMAU_PODMAN_PID): DOCKER_HOST=$DOCKER_HOST" \
    "TESTCONTAINERS_RYUK_DISABLED=$TESTCONTAINERS_RYUK_DISABLED" \
    "TESTCONTAINERS_CONNECTION_MODE=$TESTCONTAINERS_CONNECTION_MODE"
  return 0
}

# Called in an `if`, so a failing command inside never trips the caller's `set -e`.
if _maumau_podman_setup; then
  _maumau_podman_log "NATS tests will run nats-server in a podman container"
else
  _maumau_podman_log "podman could not be set up: NATS tests fall back to a nats-server subprocess"
fi

# Run directly rather than sourced: the check above is all it does (the EXIT trap stops the service).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  _maumau_podman_log "run directly: nothing is exported; use 'source .ci/podman.sh' before 'make test'"
fi
true
