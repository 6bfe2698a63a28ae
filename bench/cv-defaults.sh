#!/bin/bash
# The defaults checked by K-fold cross-validation over the training queries alone (TrainCli cv): every judged
# training query is held out once and scored by a model trained on the other folds, beside PCA at the same
# dims; no dev or test judgment is read. Prints one table per grid: held-out nDCG@10 pooled over the folds as a
# ratio of the frozen vectors, and the paired per-query difference to PCA and to the cross-validated choice.
# Usage: bench/cv-defaults.sh   (from the repository root, after mvn -q compile; writes target/bench-cv/)
#   GRIDS="lr=3e-4,1e-3,3e-3 epochs=30,60 variant=temp_agg_mrl,temp_agg,temp_spec_mrl" DATASET=scifact MODEL=bge-small-en-v1.5 METHOD=temperature_mrl FOLDS=5
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f target/cp.txt ] || mvn -q -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt
OUT=${OUT:-target/bench-cv}
DATASET=${DATASET:-scifact} MODEL=${MODEL:-bge-small-en-v1.5} METHOD=${METHOD:-temperature_mrl} FOLDS=${FOLDS:-5}
mkdir -p "$OUT"
for grid in ${GRIDS:-lr=3e-4,1e-3,3e-3 epochs=30,60 variant=temp_agg_mrl,temp_agg,temp_spec_mrl}; do
  flag=${grid%%=*}
  report="$OUT/$DATASET-$MODEL-$METHOD-$flag.json"
  OMP_WAIT_POLICY=PASSIVE "${JAVA:-java}" --add-modules jdk.incubator.vector -Xmx3g -Dai.djl.offline=true \
    -DDJL_CACHE_DIR="${DJL_CACHE_DIR:-target/djl-cache}" -cp "${CLASSES:-target/classes}":"$(cat target/cp.txt)" \
    dev.compress.training.cli.TrainCli cv --dataset "$DATASET" --model "$MODEL" --method "$METHOD" --dims 64,128 \
    --folds "$FOLDS" --grid "$grid" --report "$report" >"$OUT/$flag.log" 2>&1
  echo "$DATASET, $MODEL, $METHOD, $FOLDS folds of $(jq .queries "$report") training queries: $flag"
  echo
  echo "| $flag | dims | held-out / frozen | PCA / frozen | vs PCA (paired) | vs the choice (paired, mean over dims) |"
  echo "| --- | --- | --- | --- | --- | --- |"
  jq -r '.chosen as $c | .results[] | . as $v | .dims[]
    | def f: (. * 10000 | round / 10000 | tostring);
    "| \($v.value)\(if $v.value == $c then " (chosen)" else "" end) | \(.dims) | \(.ratio_to_frozen | f) | \(.pca_ratio_to_frozen | f) | \(.paired_diff_to_pca | f) +- \(.paired_diff_stderr | f) | \($v.paired_diff_to_chosen | f) +- \($v.paired_diff_to_chosen_stderr | f) |"' "$report"
  echo
done
