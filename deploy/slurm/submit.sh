#!/bin/bash
# Submits a sharded ecw-sim run to Slurm: a job array of shards (shards.sbatch), then a merge
# job (merge.sbatch) that runs only if every array task succeeded (afterok), and prints the
# job ids. Run it from anywhere; every path it passes on is absolute.
#
#   ECW_SCENARIO=naseby ECW_BATTLES=1000000 ECW_SHARDS=32 ECW_CPUS=8 \
#     ECW_OUT=/shared/results/naseby-1 deploy/slurm/submit.sh
#
# Parameters (environment variables):
#   ECW_SCENARIO  built-in scenario name or scenario file          [marston_moor]
#   ECW_BATTLES   battles in the whole run (all shards together)   [100000]
#   ECW_SEED      master seed                                      [1]
#   ECW_SHARDS    M, the number of shards (array tasks)            [4]
#   ECW_OUT       the study's folder, on storage every node sees   [results/<scenario>-<seed>]
#   ECW_SIM       the ecw-sim binary                               [<repo>/target/release/ecw-sim]
#   ECW_ARGS      more `ecw-sim run` arguments, e.g. "--per-battle --set turn_limit=12"
#   ECW_CPUS      CPUs (threads) per shard                         [4]
#   ECW_TIME      time limit per shard                             [01:00:00]
#   ECW_MERGE_TIME  time limit of the merge job                    [00:10:00]
#   ECW_ARRAY     which shards to (re)run, as sbatch --array takes them, e.g. "3" or "3,7"  [1-M]
#   ECW_SBATCH_ARGS  more sbatch options for both jobs, e.g. "--partition=long --account=me"
#                 (sbatch also reads SBATCH_PARTITION, SBATCH_ACCOUNT, ... itself)
#
# The binary is copied into $ECW_OUT/bin/ecw-sim on the first submission and every job of the
# study runs that copy, so rebuilding target/ meanwhile cannot mix two engines in one study.
# A rerun (ECW_ARRAY=3) uses the same copy; naming a different ECW_SIM for it is refused.
#
# Layout: $ECW_OUT/partials/shard-K/ (one folder per shard), $ECW_OUT/merged/ (the results),
# $ECW_OUT/logs/ (one log per array task and per merge job).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
sim_given=${ECW_SIM+set}
: "${ECW_SCENARIO:=marston_moor}"
: "${ECW_BATTLES:=100000}"
: "${ECW_SEED:=1}"
: "${ECW_SHARDS:=4}"
: "${ECW_ARGS:=}"
: "${ECW_CPUS:=4}"
: "${ECW_TIME:=01:00:00}"
: "${ECW_MERGE_TIME:=00:10:00}"
: "${ECW_ARRAY:=1-$ECW_SHARDS}"
: "${ECW_SBATCH_ARGS:=}"
scenario_stem=$(basename "$ECW_SCENARIO" .toml)
: "${ECW_OUT:=results/${scenario_stem}-${ECW_SEED}}"
: "${ECW_SIM:=$repo/target/release/ecw-sim}"

fail() { echo "submit.sh: $*" >&2; exit 2; }
case $ECW_SHARDS in '' | *[!0-9]* | 0) fail "ECW_SHARDS=$ECW_SHARDS: want a whole number >= 1" ;; esac
command -v sbatch >/dev/null || fail "sbatch not found: run this on a Slurm login node"
# A scenario file is read by the jobs, maybe from another folder: pass its absolute path.
if [ -f "$ECW_SCENARIO" ]; then ECW_SCENARIO=$(cd "$(dirname "$ECW_SCENARIO")" && pwd)/$(basename "$ECW_SCENARIO"); fi
mkdir -p "$ECW_OUT/logs" "$ECW_OUT/partials" "$ECW_OUT/bin"
ECW_OUT=$(cd "$ECW_OUT" && pwd)

snapshot=$ECW_OUT/bin/ecw-sim
if [ -e "$snapshot" ]; then
  if [ -n "$sim_given" ] && ! cmp -s "$ECW_SIM" "$snapshot"; then
    fail "$ECW_OUT was started with another ecw-sim binary ($snapshot); its shards must all" \
      "come from one binary. Leave ECW_SIM unset to use that one, or choose a new ECW_OUT."
  fi
else
  [ -x "$ECW_SIM" ] || fail "no ecw-sim binary at $ECW_SIM (cargo build --release, or set ECW_SIM)"
  cp "$ECW_SIM" "$snapshot.tmp.$$" && mv "$snapshot.tmp.$$" "$snapshot"
fi
ECW_SIM=$snapshot
# The array tasks must agree with the binary on what a scenario is: check it here, once.
"$ECW_SIM" validate "$ECW_SCENARIO" >/dev/null || fail "ecw-sim cannot use scenario $ECW_SCENARIO"

export ECW_SCENARIO ECW_BATTLES ECW_SEED ECW_SHARDS ECW_OUT ECW_SIM ECW_ARGS
export ECW_ARRAY_BASE=1
# shellcheck disable=SC2086 # ECW_SBATCH_ARGS is split into options on purpose
array_job=$(sbatch --parsable --export=ALL $ECW_SBATCH_ARGS \
  --array="$ECW_ARRAY" --cpus-per-task="$ECW_CPUS" --time="$ECW_TIME" \
  --job-name="ecw-sim-${scenario_stem}" --output="$ECW_OUT/logs/shard-%a-job-%A.out" \
  "$here/shards.sbatch")
array_job=${array_job%%;*}
# shellcheck disable=SC2086
merge_job=$(sbatch --parsable --export=ALL $ECW_SBATCH_ARGS \
  --dependency="afterok:$array_job" --kill-on-invalid-dep=yes --time="$ECW_MERGE_TIME" \
  --job-name="ecw-sim-${scenario_stem}-merge" --output="$ECW_OUT/logs/merge-job-%j.out" \
  "$here/merge.sbatch")
merge_job=${merge_job%%;*}
echo "shards: job $array_job, array $ECW_ARRAY of $ECW_SHARDS shards, into $ECW_OUT/partials/shard-K"
echo "merge:  job $merge_job, once every shard has succeeded, into $ECW_OUT/merged"
echo "logs:   $ECW_OUT/logs"
