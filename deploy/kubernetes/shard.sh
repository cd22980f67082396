#!/bin/sh
# One shard, in a pod of the Indexed Job ecw-sim-shards (shards-job.yaml): pod index
# JOB_COMPLETION_INDEX (from 0) fights shard K = JOB_COMPLETION_INDEX + 1 of ECW_SHARDS
# (`--shard K/M` counts from 1) into its own folder, $ECW_OUT/partials/shard-K/.
# Parameters come from the ConfigMap ecw-sim-study (kustomization.yaml).
set -eu
fail() { echo "shard.sh: $*" >&2; exit 2; }
[ -n "${JOB_COMPLETION_INDEX:-}" ] || fail "JOB_COMPLETION_INDEX is unset: run me in an Indexed Job"
: "${ECW_SCENARIO:?}" "${ECW_BATTLES:?}" "${ECW_SEED:?}" "${ECW_SHARDS:?}" "${ECW_OUT:?}"
sim=${ECW_SIM:-ecw-sim}
k=$((JOB_COMPLETION_INDEX + 1))
[ "$k" -le "$ECW_SHARDS" ] ||
  fail "pod index $JOB_COMPLETION_INDEX is shard $k, but ECW_SHARDS=$ECW_SHARDS: set the Job's completions to $ECW_SHARDS"
if [ -n "${ECW_ONLY:-}" ]; then
  case ",$(echo "$ECW_ONLY" | tr -d ' ')," in
    *",$k,"*) ;;
    *) echo "shard $k/$ECW_SHARDS: not in ECW_ONLY=$ECW_ONLY, left as it is"; exit 0 ;;
  esac
fi
out="$ECW_OUT/partials/shard-$k"
echo "shard $k/$ECW_SHARDS of $ECW_SCENARIO, $ECW_BATTLES battles, seed $ECW_SEED, ${ECW_THREADS:-1} threads, into $out ($("$sim" --version))"
# shellcheck disable=SC2086 # ECW_ARGS is split into arguments on purpose
exec "$sim" run "$ECW_SCENARIO" --battles "$ECW_BATTLES" --seed "$ECW_SEED" \
  --shard "$k/$ECW_SHARDS" --threads "${ECW_THREADS:-1}" --out "$out" --quiet ${ECW_ARGS:-}
