#!/bin/sh
# plan-roundtrip.sh FILE.mlir TMP [FORM-KERNELS OPTIONS]
# The fusion plan round trip: form-kernels{plan-out=TMP.json} and then
# form-kernels{plan=TMP.json} (same options) give byte-identical IR, and so do
# `braze compile --emit=mlir` with and without --fusion-plan.
set -e
in=$1 t=$2 opts=$3
front='graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized'
braze-opt "$in" --pass-pipeline="builtin.module($front,form-kernels{$opts plan-out=$t.json})" -o "$t.greedy.mlir"
braze-opt "$in" --pass-pipeline="builtin.module($front,form-kernels{$opts plan=$t.json})" -o "$t.plan.mlir"
grep -q '"kernels": \[' "$t.json"
grep -q 'kernel.kind' "$t.plan.mlir"
cmp "$t.greedy.mlir" "$t.plan.mlir"
if [ -z "$opts" ]; then
  # braze compile runs cpu-default: its plan comes from form-kernels with that
  # pipeline's options (horizontal-templates)
  root=$(cd "$(dirname "$0")/../../../../.." && pwd)
  cpu_opts=$(sed -n 's/^form-kernels{\(.*\)},*$/\1/p' "$root/pipelines/cpu-default.pipeline")
  braze-opt "$in" --pass-pipeline="builtin.module($front,form-kernels{$cpu_opts plan-out=$t.cpu.json})" -o /dev/null
  braze compile "$in" --emit=mlir -o "$t.compiled.mlir"
  braze compile "$in" --emit=mlir --fusion-plan="$t.cpu.json" -o "$t.compiled-plan.mlir"
  cmp "$t.compiled.mlir" "$t.compiled-plan.mlir"
fi
