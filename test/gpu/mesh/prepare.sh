#!/bin/sh
# Build the 2-GPU mesh cases on the development machine (no GPU needed):
#   test/gpu/mesh/prepare.sh OUTDIR [BUILD]
# For each case: OUTDIR/CASE/lib.so (braze compile --target=cuda --mesh=tp:2: one rank's
# program, its collectives over NCCL), OUTDIR/CASE/FUNC/in*.npy (the global inputs,
# seeded) and out*.npy (the reference interpreter's outputs of the unpartitioned
# function), and OUTDIR/CASE/FUNC/split.txt: per argument, then per result, the dim
# split over tp (-1: replicated), as the function's braze.sharding says. Cases: the
# mesh tests of test/tools/mesh/ (ffn: one all_reduce; attention: heads split, one
# all_reduce), ffn in bf16 (checked norm-wise: a K split rounds each partial to bf16),
# and every collective kind the partition inserts (collectives.mlir: all_slice,
# all_gather along dim 1 through staging, reduce_scatter, all_to_all, all_reduce); and
# ffn-chunked: ffn with its tokens in chunks by shard-chunk (three uneven chunks, each
# all_reduce on the second stream while the next chunk computes).
# Then, on the 2-GPU machine: python3 test/gpu/mesh/run.py OUTDIR
set -eu
out=$1
build=${2:-build}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
mkdir -p "$out/generated"
sed 's/f32>/bf16>/g' "$root/test/tools/mesh/ffn.mlir" >"$out/generated/ffn-bf16.mlir"
# case FILE CASE FUNC SPLITS...
case_of() {
  file=$1 name=$2 fn=$3
  shift 3
  d="$out/$name"
  mkdir -p "$d/$fn"
  [ -f "$d/lib.so" ] || "$build/braze" compile "$file" --target=cuda --mesh=tp:2 ${pipeline:+--pipeline="$pipeline"} \
    --no-header -o "$d/lib.so"
  "$build/braze" run "$file" --func "$fn" --seed 0 --quiet --save-inputs "$d/$fn" --save-outputs "$d/$fn"
  echo "$@" >"$d/$fn/split.txt"
}
case_of "$root/test/tools/mesh/ffn.mlir" ffn ffn "-1 1 0 0 ; -1"
case_of "$root/test/tools/mesh/attention.mlir" attention attention "-1 1 1 1 0 ; -1"
case_of "$out/generated/ffn-bf16.mlir" ffn-bf16 ffn "-1 1 0 0 ; -1"
echo norm >"$out/ffn-bf16/metric.txt"
coll="$root/test/passes/shard/shard-partition/collectives.mlir"
case_of "$coll" collectives reshards "1 -1 0 ; 0 0 -1"
case_of "$coll" collectives grid "-1 1 ; 1 -1"
sed 's/^shard-chunk,$/shard-chunk{sizes=2,2,4 min-bytes=0},/' "$root/pipelines/cuda-default.pipeline" \
  >"$out/generated/chunked.pipeline"
pipeline="$out/generated/chunked.pipeline" case_of "$root/test/tools/mesh/ffn.mlir" ffn-chunked ffn "-1 1 0 0 ; -1"
rm -rf "$out/generated"
echo "prepared $out: $(du -sh "$out" | cut -f1)"
