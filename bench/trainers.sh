#!/bin/bash
# Trains and evaluates the adaptor-family trainers and the query-mask predictor through the CLI, on the
# held-out split of each data set (scifact test, nfcorpus dev), printing the evaluation tables.
# Usage: bench/trainers.sh [scifact|nfcorpus ...]   (from the repository root, after mvn -q compile)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f target/cp.txt ] || mvn -q -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt
JAVA=${JAVA:-java}
run() {
  OMP_WAIT_POLICY=PASSIVE "$JAVA" -Xmx3g -Dai.djl.offline=true -DDJL_CACHE_DIR="${DJL_CACHE_DIR:-target/djl-cache}" \
    -cp target/classes:"$(cat target/cp.txt)" dev.compress.training.cli.TrainCli train "$@"
}
OUT=${OUT:-target/bench-trainers}
mkdir -p "$OUT"
for ds in "${@:-scifact}"; do
  for m in matryoshka_adaptor search_adaptor temperature_mrl; do
    run --dataset "$ds" --model bge-small-en-v1.5 --method "$m" --dims 64,128 --report "$OUT/$ds-$m.json"
  done
  run --dataset "$ds" --model bge-small-en-v1.5 --method smec --dims 64 --epochs 10 --report "$OUT/$ds-smec.json"
  run --dataset "$ds" --model bge-small-en-v1.5 --method query_mask --ratios 0.3 --report "$OUT/$ds-query_mask.json"
done
