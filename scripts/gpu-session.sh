#!/usr/bin/env bash
# What one call to the GPU machine runs: the steps named in STEPS (make targets), each logged
# to $OUT/<step>.log, then results/ and profiles/ packed into $OUT/results.tgz.
#   STEPS="test sweep-05 bench latency" NVFP4_GIT_SHA=<sha> scripts/gpu-session.sh
# with <sha> the local checkout's `git rev-parse --short=12 HEAD`, written out: the GPU machine's
# copy of .git can name an older commit (docs/methodology.md, Provenance).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
if [ -d .whl ]; then   # wheels the GPU machine lacks (torchao, nvtx), carried along
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl \
    && export PYTHONPATH=/tmp/site
fi
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
status=0
for step in ${STEPS:-test sweep-05 bench latency table}; do
  echo "=== make $step"
  make "$step" > "$OUT/$step.log" 2>&1 || { status=1; echo "make $step FAILED"; }
  tail -n 25 "$OUT/$step.log"
done
mkdir -p results profiles
tar czf "$OUT/results.tgz" results profiles attempts/*/README.md README.md docs
exit $status
