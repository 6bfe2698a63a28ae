#!/bin/bash
# Trains and evaluates DIVE, truncation, PCA and the adaptor-family trainers through the CLI, on the
# held-out split of each data set (scifact test, nfcorpus dev), printing the evaluation tables (ratios to
# the frozen 384-d float baseline of the same run). nfcorpus has 110k judged pairs, so its runs cap the
# triplets per epoch (4096) and the epochs (12, patience 4). Query masks: bench/masks.sh.
# Usage: [MODEL=all-MiniLM-L6-v2] [DIVE_SEEDS="0 1 2"] bench/trainers.sh [scifact] [nfcorpus]
#   (from the repository root, after mvn -q compile; MODEL defaults to bge-small-en-v1.5)
# Copy target/classes elsewhere first if you compile while it runs (a JVM loading half-written classes fails).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f target/cp.txt ] || mvn -q -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt
JAVA=${JAVA:-java}
CLASSES=${CLASSES:-target/classes}
run() {
  OMP_WAIT_POLICY=PASSIVE "$JAVA" -Xmx3g -Dai.djl.offline=true -DDJL_CACHE_DIR="${DJL_CACHE_DIR:-target/djl-cache}" \
    -cp "$CLASSES":"$(cat target/cp.txt)" dev.compress.training.cli.TrainCli train "$@"
}
MODEL=${MODEL:-bge-small-en-v1.5}
OUT=${OUT:-target/bench-trainers/$MODEL}
mkdir -p "$OUT"
for ds in "${@:-scifact}"; do
  cap=()
  [ "$ds" = nfcorpus ] && cap=(--max-triplets 4096 --epochs 12 --patience 4)
  for seed in ${DIVE_SEEDS:-0}; do
    run --dataset "$ds" --model "$MODEL" --method dive --dims 64,128 --centred-bits --seed "$seed" "${cap[@]}" \
      --report "$OUT/$ds-dive-seed$seed.json"
  done
  for m in truncation pca; do
    run --dataset "$ds" --model "$MODEL" --method "$m" --dims 64,128 --report "$OUT/$ds-$m.json"
  done
  for m in matryoshka_adaptor temperature_mrl; do
    run --dataset "$ds" --model "$MODEL" --method "$m" --dims 64,128 "${cap[@]}" --report "$OUT/$ds-$m.json"
  done
  run --dataset "$ds" --model "$MODEL" --method search_adaptor --dims 64,128,384 "${cap[@]}" --report "$OUT/$ds-search_adaptor.json"
  smec=(--epochs 10)
  [ "$ds" = nfcorpus ] && smec=(--max-triplets 4096 --epochs 5 --patience 3)
  run --dataset "$ds" --model "$MODEL" --method smec --dims 64 "${smec[@]}" --report "$OUT/$ds-smec.json"
done
