#!/bin/bash
# Table 1 of "Learning to Select: Query-Aware Adaptive Dimension Selection for Dense Retrieval" in one command:
# cutoff, norm, DIME-PRF, Eclipse-PRF and learned query masks on scifact
# test and nfcorpus dev, for bge-small-en-v1.5 and all-MiniLM-L6-v2, at 30% of the dimensions and at the best
# ratio of a 2%-step sweep (chosen on the test queries: an oracle upper bound). Learned masks: one predictor
# per seed (0, 1, 2), tau fixed at 0.1 (pass TAUS, e.g. TAUS=0.01,0.03,0.1,0.3, to choose it by the tau grid).
# Usage: bench/masks.sh   (from the repository root, after mvn -q compile; writes target/bench-masks/)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f target/cp.txt ] || mvn -q -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=runtime
OUT=${OUT:-target/bench-masks}
mkdir -p "$OUT"
OMP_WAIT_POLICY=PASSIVE "${JAVA:-java}" --add-modules jdk.incubator.vector -Xmx3g -Dai.djl.offline=true \
  -Dai.djl.pytorch.num_threads=1 -DDJL_CACHE_DIR="${DJL_CACHE_DIR:-target/djl-cache}" \
  -cp "${CLASSES:-target/classes}":"$(cat target/cp.txt)" dev.compress.training.cli.TrainCli mask-table \
  --datasets scifact,nfcorpus --models bge-small-en-v1.5,all-MiniLM-L6-v2 --seeds 0,1,2 --ratio 0.3 --step 0.02 \
  --taus "${TAUS:-0.1}" --out "$OUT/table.md" --report "$OUT/table.json"
