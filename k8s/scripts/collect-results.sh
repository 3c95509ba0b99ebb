#!/usr/bin/env bash
# Pulls the checkpoint statistics of one benchmark deployment on the cluster and writes the same
# report as a local run: results.json, report.md and the PNG charts. It forwards a local port to
# the deployment's REST service (kubectl port-forward) and runs the benchmark job's report
# command against it; the job may still be running or have finished (the operator keeps the job
# manager up after the job ends, and web.checkpoints.history keeps every checkpoint).
#
#   k8s/scripts/collect-results.sh <deployment> <output-dir>
#   k8s/scripts/collect-results.sh flinks3-s3-benchmark results/eks/flinks3-s3-benchmark
#
# Environment: NAMESPACE (default flink-benchmark), LOCAL_PORT (default 18081),
# JOB_JAR (default benchmark-job/target/flinks3-benchmark-job.jar, built by `mvn package`).
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <deployment> <output-dir>" >&2
  exit 2
fi
deployment=$1
output=$2
namespace=${NAMESPACE:-flink-benchmark}
port=${LOCAL_PORT:-18081}
repository=$(cd "$(dirname "$0")/../.." && pwd)
job_jar=${JOB_JAR:-"$repository/benchmark-job/target/flinks3-benchmark-job.jar"}
rest="http://localhost:${port}"

if [[ ! -f "$job_jar" ]]; then
  echo "collect-results.sh: $job_jar is missing; build it with: mvn -B package -DskipTests" >&2
  exit 1
fi

# The operator records the id of the job it submitted in the deployment's status.
job_id=$(kubectl -n "$namespace" get flinkdeployment "$deployment" -o jsonpath='{.status.jobStatus.jobId}')
if [[ -z "$job_id" ]]; then
  echo "collect-results.sh: $deployment has no job yet (kubectl -n $namespace get flinkdeployment $deployment)" >&2
  exit 1
fi

forward_log=$(mktemp)
kubectl -n "$namespace" port-forward "service/${deployment}-rest" "${port}:8081" > "$forward_log" 2>&1 &
forward=$!
trap 'kill "$forward" 2>/dev/null || true; rm -f "$forward_log"' EXIT

# Wait (at most 60 s) until the REST API answers through the tunnel.
for attempt in $(seq 60); do
  if curl -fsS -o /dev/null "${rest}/config"; then
    break
  fi
  if ! kill -0 "$forward" 2>/dev/null || [[ $attempt -eq 60 ]]; then
    echo "collect-results.sh: no REST API at ${rest}:" >&2
    cat "$forward_log" >&2
    exit 1
  fi
  sleep 1
done

mkdir -p "$output"
java -jar "$job_jar" report \
  --rest-url "$rest" \
  --job-id "$job_id" \
  --label "$deployment" \
  --output "$output"
echo "collect-results.sh: report of $deployment (job $job_id) in $output"
