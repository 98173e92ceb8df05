#!/bin/sh
# Build the GPU benchmark's libraries on the development machine (no GPU needed):
#   bench/gpu/prepare.sh OUTDIR [BUILD]
# OUTDIR/G1.so .. G7.so, M1.so, M2.so (cuda-default; M1/M2: GEMMs alone), G5/G6/M2 on the
# SIMT kernel (NAME.simt.so), G5/G6/M1/M2 on cuBLASLt (NAME.extern.so) and picked per
# kernel at the first call (NAME.auto.so), and the 24-op chain C1 fused (C1.so), one kernel
# per op (C1_unfused.so) and one kernel per op replayed as a CUDA graph
# (C1_unfused_graphs.so), ResNet-18 (R1.so, R1.gather.so, R1.unaligned.so); the compile log and
# each library's kernel list go to OUTDIR/prepare.log. Then, on the GPU machine:
#   python3 bench/gpu/bench.py OUTDIR
set -eu
out=$1
build=${2:-build}
here=$(dirname "$0")
mkdir -p "$out"
log="$out/prepare.log"
: >"$log"
for w in G1 G2 G3 G4 G5 G6 G7 G8 G9 M1 M2; do
  start=$(date +%s.%N)
  "$build/braze" compile "$here/workloads/$w.mlir" --target=cuda --no-header -o "$out/$w.so" >>"$log" 2>&1
  echo "$w: compiled in $(echo "$(date +%s.%N) - $start" | bc) s" >>"$log"
done
# The contractions again on the SIMT kernel, on cuBLASLt and picked at the first call
# (NAME.simt.so, NAME.extern.so, NAME.auto.so: bench.py's "NAME simt" ... rows).
for w in G5 G6 M2; do
  "$build/braze" compile "$here/workloads/$w.mlir" --target=cuda --pipeline="$here/cuda-simt.pipeline" --no-header \
    -o "$out/$w.simt.so" >>"$log" 2>&1
done
for choice in extern auto; do
  for w in G5 G6 M1 M2; do
    "$build/braze" compile "$here/workloads/$w.mlir" --target=cuda --pipeline="$here/cuda-$choice.pipeline" --no-header \
      -o "$out/$w.$choice.so" >>"$log" 2>&1
  done
done
# G7C: G7 with a causal mask (a constant 2048 x 2048 literal, generated: make_causal.py)
python3 "$here/make_causal.py" G7C 64 2048 128 >"$out/G7C.mlir"
"$build/braze" compile "$out/G7C.mlir" --target=cuda --no-header -o "$out/G7C.so" >>"$log" 2>&1
for w in G7 G8 G7C G9; do
  src="$here/workloads/$w.mlir"
  [ -f "$src" ] || src="$out/$w.mlir"
  "$build/braze" compile "$src" --target=cuda --pipeline="$here/cuda-unchained.pipeline" --no-header \
    -o "$out/$w.unchained.so" >>"$log" 2>&1
done
rm -f "$out/G7C.mlir"
# R1: ResNet-18 batch 32 bf16 (generated: resnet.py), the default (the implicit GEMM's
# window view) and conv-im2col=gather (R1.gather.so: bench.py's "R1 gather" row).
python3 "$here/resnet.py" "$out/R1.mlir"
"$build/braze" compile "$out/R1.mlir" --target=cuda --no-header -o "$out/R1.so" >>"$log" 2>&1
"$build/braze" compile "$out/R1.mlir" --target=cuda --pipeline="$here/cuda-im2col-gather.pipeline" --no-header \
  -o "$out/R1.gather.so" >>"$log" 2>&1
# R1.unaligned.so: without the stem's K padding and the zero-pad rewrite (decision 0021).
"$build/braze" compile "$out/R1.mlir" --target=cuda --pipeline="$here/cuda-conv-unaligned.pipeline" --no-header \
  -o "$out/R1.unaligned.so" >>"$log" 2>&1
rm -f "$out/R1.mlir"
"$build/braze" compile "$here/workloads/C1.mlir" --target=cuda --no-header -o "$out/C1.so" >>"$log" 2>&1
"$build/braze" compile "$here/workloads/C1.mlir" --target=cuda --pipeline=cuda-no-fusion --no-header \
  -o "$out/C1_unfused.so" >>"$log" 2>&1
"$build/braze" compile "$here/workloads/C1.mlir" --target=cuda --pipeline=cuda-no-fusion --cuda-graphs \
  --no-header -o "$out/C1_unfused_graphs.so" >>"$log" 2>&1
ls -l "$out" >>"$log"
