#!/bin/sh
# server.sh KIND PORT — the servers of item 1 of BENCHMARKS.md as one
# command target (bench/host.toml), so they are measured side by side in
# one sweep run. exec keeps the PID that sweep started (and pinned), so
# sweep's probe reads the server itself.
#
#   host  sweep's built-in host with the argv the driver gives a builtin
#         target for configs/grid.toml's baseline (workload plugin,
#         touch = 64KiB, keep_resident = 0, timeout 5s)
#   noop  bench/noop: net/http with a handler that only sends the same
#         empty 200 response
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
case "${1:-}" in
host) exec "$root/bin/sweep" serve -listen "127.0.0.1:$2" -plugin workload \
	-settings-json '{"linear_memory_keep_resident":"0","touch":"64KiB"}' -timeout 5s -log-level warn ;;
noop) exec "$root/bin/bench-noop" -listen "127.0.0.1:$2" ;;
*) echo "usage: server.sh host|noop PORT" >&2; exit 2 ;;
esac
