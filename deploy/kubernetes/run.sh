#!/bin/bash
# Runs a study on Kubernetes in order: the shards Job, then (only once it is Complete) the
# merge Job, then prints the merge log. Kubernetes has no job dependencies, so this script is
# the ordering: it polls the Jobs' conditions with kubectl. Edit the study in
# kustomization.yaml (and `completions` in shards-job.yaml) first.
#
#   deploy/kubernetes/run.sh                 # in the current kubectl context and namespace
#   ECW_K8S_TIMEOUT=21600 deploy/kubernetes/run.sh
#
# Re-running deletes this study's earlier Jobs (not the volume or its results) first: a Job's
# pod template cannot be changed in place.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
timeout=${ECW_K8S_TIMEOUT:-7200}   # seconds, for each of the two Jobs

# Waits for Job $1 to be Complete (returns 0) or Failed (returns 1), or gives up after $timeout s.
wait_job() {
  local job=$1 deadline=$((SECONDS + timeout)) state
  while [ $SECONDS -lt $deadline ]; do
    state=$(kubectl get job "$job" -o jsonpath='{range .status.conditions[?(@.status=="True")]}{.type}{" "}{end}')
    case " $state " in
      *" Complete "*) echo "job/$job: Complete"; return 0 ;;
      *" Failed "*)
        echo "job/$job: Failed; failed pod indexes (shard K is index K-1):" \
          "$(kubectl get job "$job" -o jsonpath='{.status.failedIndexes}')" >&2
        return 1 ;;
    esac
    sleep 10
  done
  echo "job/$job: neither Complete nor Failed after $timeout s" >&2
  return 1
}

kubectl delete job ecw-sim-shards ecw-sim-merge --ignore-not-found --wait=true
kubectl apply -k "$here"
if ! wait_job ecw-sim-shards; then
  echo "not merging: see kubectl logs -l app=ecw-sim,step=shards; rerun failed shards with ECW_ONLY" >&2
  exit 1
fi
kubectl apply -f "$here/merge-job.yaml"
ok=0
wait_job ecw-sim-merge || ok=1
kubectl logs job/ecw-sim-merge
exit $ok
