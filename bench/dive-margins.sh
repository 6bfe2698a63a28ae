#!/bin/bash
# DIVE's self-limiting mechanism against its margin: rho(t), the share of triplets still inside the hinge's
# margin, and the best validation nDCG@10 (the training split's 10% validation slice; no held-out judgments),
# for the default absolute margin and for margins in units of the start's mean score gap (margin_scale:
# score_gap). scifact, bge-small-en-v1.5, 64 dimensions, 40 epochs without early stopping, seed 0.
# Usage: bench/dive-margins.sh   (from the repository root, after mvn -q compile; writes target/bench-dive-margins/)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f target/cp.txt ] || mvn -q -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt
OUT=${OUT:-target/bench-dive-margins}
mkdir -p "$OUT"
run() {
  OMP_WAIT_POLICY=PASSIVE "${JAVA:-java}" -Xmx3g -Dai.djl.offline=true -DDJL_CACHE_DIR="${DJL_CACHE_DIR:-target/djl-cache}" \
    -cp "${CLASSES:-target/classes}":"$(cat target/cp.txt)" dev.compress.training.cli.TrainCli train \
    --dataset scifact --model bge-small-en-v1.5 --method dive --dims 64 --epochs 40 --patience 40 --seed 0 "$@" \
    >"$OUT/last.log" 2>&1
}
echo "| margin_scale | margin | margin in score units | rho(1) | rho(5) | rho(15) | rho(40) | start validation nDCG@10 | best validation nDCG@10 (epoch) |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for spec in absolute:0.5 score_gap:0.25 score_gap:0.5 score_gap:1.0 score_gap:2.0; do
  scale=${spec%%:*} margin=${spec##*:}
  report="$OUT/$scale-$margin.json"
  run --margin-scale "$scale" --margin "$margin" --report "$report"
  jq -r --arg scale "$scale" --arg margin "$margin" '.training[0].report as $r
    | ($r.epochs | map({key: (.epoch | tostring), value: .}) | from_entries) as $e
    | ($r.epochs | map(select(.epoch > 0)) | max_by(.validationNdcg)) as $best
    | def f: if . == null then "" else (. * 1000 | round / 1000 | tostring) end;
    "| \($scale) | \($margin) | \($r.parameters.effectiveMargin | f) | \($e["1"].activeTripletRatio | f) | \($e["5"].activeTripletRatio | f) | \($e["15"].activeTripletRatio | f) | \($e["40"].activeTripletRatio | f) | \($e["0"].validationNdcg | f) | \($best.validationNdcg | f) (\($best.epoch)) |"' "$report"
done
