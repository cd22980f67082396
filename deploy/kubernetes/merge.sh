#!/bin/sh
# The merge pod (merge-job.yaml): every $ECW_OUT/partials/shard-K/ into $ECW_OUT/merged/.
set -eu
fail() { echo "merge.sh: $*" >&2; exit 2; }
: "${ECW_OUT:?}"
sim=${ECW_SIM:-ecw-sim}
set -- "$ECW_OUT"/partials/shard-*
[ -e "$1" ] || fail "no partial results in $ECW_OUT/partials/"
echo "merging $# shard folders of $ECW_OUT into $ECW_OUT/merged ($("$sim" --version))"
exec "$sim" merge "$@" --out "$ECW_OUT/merged"
