#!/bin/sh
# Build the GPU benchmark's libraries on the development machine (no GPU needed):
#   bench/gpu/prepare.sh OUTDIR [BUILD] [--only W1,W2,...] [--no-variants]
# OUTDIR/G1.so .. G7.so, M1.so, M2.so (cuda-default; M1/M2: GEMMs alone), G5/G6/M2 on the
# SIMT kernel (NAME.simt.so), G5/G6/M1/M2 on cuBLASLt (NAME.extern.so) and picked per
# kernel at the first call (NAME.auto.so), and the 24-op chain C1 fused (C1.so), one kernel
# per op (C1_unfused.so) and one kernel per op replayed as a CUDA graph
# (C1_unfused_graphs.so), ResNet-18 (R1.so, R1.gather.so, R1.unaligned.so; R1b1.so at
# batch 1), ResNet-50 (R50.so batch 32, R50b1.so batch 1) and MobileNetV2's inverted
# residual (D1.so; D1.matmul.so: its depthwise conv in the product form); the compile log and each library's kernel list go to
# OUTDIR/prepare.log. --only builds the named workloads alone (with their NAME.*.so
# variants unless --no-variants), e.g. `--only R1b1,R50,R50b1,D1`. Then, on the GPU machine:
#   python3 bench/gpu/bench.py OUTDIR
set -eu
out=$1
shift
build=build
case "${1:-}" in --*|"") ;; *) build=$1; shift ;; esac
only="" variants=1
while [ $# -gt 0 ]; do
  case "$1" in
  --only) only=",$2,"; shift 2 ;;
  --no-variants) variants=0; shift ;;
  *) echo "bench/gpu/prepare.sh: unexpected argument '$1'" >&2; exit 2 ;;
  esac
done
here=$(dirname "$0")
mkdir -p "$out"
log="$out/prepare.log"
: >"$log"
# want W: W is to be built (no --only, or --only names it)
want() { [ -z "$only" ] || case "$only" in *",$1,"*) true ;; *) false ;; esac; }
# variant W: W's variants (NAME.simt.so, ...) are to be built
variant() { want "$1" && [ "$variants" = 1 ]; }
# compile_timed W SRC [ARGS...]: OUTDIR/W.so, its compile time in the log
compile_timed() {
  w=$1 src=$2
  shift 2
  start=$(date +%s.%N)
  "$build/braze" compile "$src" --target=cuda --no-header "$@" -o "$out/$w.so" >>"$log" 2>&1
  echo "$w: compiled in $(echo "$(date +%s.%N) - $start" | bc) s" >>"$log"
}
for w in G1 G2 G3 G4 G5 G6 G7 G8 G9 M1 M2; do
  want $w || continue
  compile_timed $w "$here/workloads/$w.mlir"
done
# The contractions again on the SIMT kernel, on cuBLASLt and picked at the first call
# (NAME.simt.so, NAME.extern.so, NAME.auto.so: bench.py's "NAME simt" ... rows).
for w in G5 G6 M2; do
  variant $w || continue
  "$build/braze" compile "$here/workloads/$w.mlir" --target=cuda --pipeline="$here/cuda-simt.pipeline" --no-header \
    -o "$out/$w.simt.so" >>"$log" 2>&1
done
for choice in extern auto; do
  for w in G5 G6 M1 M2; do
    variant $w || continue
    "$build/braze" compile "$here/workloads/$w.mlir" --target=cuda --pipeline="$here/cuda-$choice.pipeline" --no-header \
      -o "$out/$w.$choice.so" >>"$log" 2>&1
  done
done
# G7C: G7 with a causal mask (a constant 2048 x 2048 literal, generated: make_causal.py)
python3 "$here/make_causal.py" G7C 64 2048 128 >"$out/G7C.mlir"
if want G7C; then
  compile_timed G7C "$out/G7C.mlir"
fi
for w in G7 G8 G7C G9; do
  variant $w || continue
  src="$here/workloads/$w.mlir"
  [ -f "$src" ] || src="$out/$w.mlir"
  "$build/braze" compile "$src" --target=cuda --pipeline="$here/cuda-unchained.pipeline" --no-header \
    -o "$out/$w.unchained.so" >>"$log" 2>&1
done
rm -f "$out/G7C.mlir"
# R1: ResNet-18 batch 32 bf16 (generated: resnet.py), the default (the implicit GEMM's
# window view) and conv-im2col=gather (R1.gather.so: bench.py's "R1 gather" row).
if want R1; then
  python3 "$here/resnet.py" "$out/R1.mlir"
  compile_timed R1 "$out/R1.mlir"
  if variant R1; then
    "$build/braze" compile "$out/R1.mlir" --target=cuda --pipeline="$here/cuda-im2col-gather.pipeline" --no-header \
      -o "$out/R1.gather.so" >>"$log" 2>&1
    # R1.unaligned.so: without the stem's K padding and the zero-pad rewrite (decision 0021).
    "$build/braze" compile "$out/R1.mlir" --target=cuda --pipeline="$here/cuda-conv-unaligned.pipeline" --no-header \
      -o "$out/R1.unaligned.so" >>"$log" 2>&1
  fi
  rm -f "$out/R1.mlir"
fi
# R1b1 (ResNet-18 batch 1), R50 and R50b1 (ResNet-50 batch 32 and 1), D1 (the depthwise
# block): the generator's module, named as the workload, compiled with cuda-default.
for spec in "R1b1 resnet.py --batch 1 --depth 18" "R50 resnet.py --batch 32 --depth 50" \
  "R50b1 resnet.py --batch 1 --depth 50" "D1 mobilenet.py --batch 32"; do
  set -- $spec
  w=$1 gen=$2
  shift 2
  want "$w" || continue
  python3 "$here/$gen" "$out/$w.mlir" --name "$w" "$@"
  compile_timed "$w" "$out/$w.mlir"
  # D1.matmul.so: its depthwise conv in the product form (the SIMT kernel), for comparison
  if [ "$w" = D1 ] && variant D1; then
    "$build/braze" compile "$out/D1.mlir" --target=cuda --pipeline="$here/cuda-depthwise-matmul.pipeline" --no-header \
      -o "$out/D1.matmul.so" >>"$log" 2>&1
  fi
  rm -f "$out/$w.mlir"
done
if want C1; then
  "$build/braze" compile "$here/workloads/C1.mlir" --target=cuda --no-header -o "$out/C1.so" >>"$log" 2>&1
  "$build/braze" compile "$here/workloads/C1.mlir" --target=cuda --pipeline=cuda-no-fusion --no-header \
    -o "$out/C1_unfused.so" >>"$log" 2>&1
  "$build/braze" compile "$here/workloads/C1.mlir" --target=cuda --pipeline=cuda-no-fusion --cuda-graphs \
    --no-header -o "$out/C1_unfused_graphs.so" >>"$log" 2>&1
fi
ls -l "$out" >>"$log"
