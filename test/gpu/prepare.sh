#!/bin/sh
# Build the GPU correctness cases on the development machine (no GPU needed):
#   test/gpu/prepare.sh OUTDIR [BUILD] [--with-workloads] [--only STEM,...]
# For each module (test/e2e/*.mlir and test/e2e/user-gpu/*.mlir (GPU-form user kernels) but the xfail ones, user-kernel-linalg, whose
# non-graph callee the reference interpreter cannot evaluate, and user-epilogue, whose
# user kernels with sequential top-level loops the CUDA target refuses: docs/user-kernels.md; examples/mlp.mlir,
# test/gpu/cases/*.mlir; with --with-workloads also bench/workloads/*.mlir):
# OUTDIR/STEM/lib.so (braze compile --target=cuda; OUTDIR/STEM/compile.log says why
# when it fails) and, per public function FUNC, OUTDIR/STEM/FUNC/in*.npy (seeded
# random inputs) and out*.npy (the reference interpreter's outputs). The model blocks
# of test/models (opset 17, imported) are modules too, as models_NAME. --only keeps the
# modules of those stems. Also
# OUTDIR/smoke/contract.so and contract_graphs.so (hand-written kernels,
# test/gpu/check_contract.py). Then, on the GPU machine: test/gpu/run.sh OUTDIR
set -u
out=$1
build=${2:-build}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
braze="$build/braze"
files="$(ls "$root"/test/e2e/*.mlir | grep -v -e /xfail- -e /user-kernel-linalg -e /user-epilogue) $(ls "$root"/test/e2e/user-gpu/*.mlir) $root/examples/mlp.mlir $(ls "$root"/test/gpu/cases/*.mlir)"
# Causal attention: the mask is a constant S x S literal, generated rather than stored
# (rows that keep keys j <= i, and j <= i - 3: three fully masked rows, NaN as in the
# reference; in f32 on the SIMT flash kernel, j <= i - 2).
mkdir -p "$out/generated"
{ python3 "$root/bench/gpu/make_causal.py" attn_causal 3 200 64 bf16 0 &&
  python3 "$root/bench/gpu/make_causal.py" attn_causal_shifted 2 130 128 f16 -3 | grep -v "^// gpu-metric" &&
  python3 "$root/bench/gpu/make_causal.py" attn_causal_f32 2 150 64 f32 -2 | grep -v "^// gpu-metric"; } \
  >"$out/generated/causal.mlir" || exit 1
files="$files $out/generated/causal.mlir"
case " $* " in *" --with-workloads "*) files="$files $(ls "$root"/bench/workloads/*.mlir)" ;; esac
for m in "$root"/test/models/Inputs/*_opset17; do
  name=models_$(basename "$m" _opset17)
  "$braze" import "$m/model.onnx" -o "$out/generated/$name.mlir" || exit 1
  files="$files $out/generated/$name.mlir"
done
only=$(echo " $* " | sed -n 's/.* --only \([^ ]*\) .*/\1/p')
if [ -n "$only" ]; then
  kept=""
  for f in $files; do
    case ",$only," in *",$(basename "$f" .mlir),"*) kept="$kept $f" ;; esac
  done
  files=$kept
fi
mkdir -p "$out/smoke"
"$braze" compile "$root/test/targets/cuda/Inputs/contract.mlir" --target=cuda --pipeline=cuda-lower --no-header \
  -o "$out/smoke/contract.so" || exit 1
"$braze" compile "$root/test/targets/cuda/Inputs/contract.mlir" --target=cuda --pipeline=cuda-lower --no-header \
  --cuda-graphs -o "$out/smoke/contract_graphs.so" || exit 1
compiled=0 failed=0
for f in $files; do
  stem=$(basename "$f" .mlir)
  d="$out/$stem"
  if [ -e "$d/lib.so" ] || [ -e "$d/compile.log" ]; then # two modules of one name would share a directory
    echo "prepare.sh: two modules named $stem (test/e2e and test/gpu/cases?): rename one" >&2
    exit 1
  fi
  mkdir -p "$d"
  grep -q "^// gpu-metric: norm" "$f" && echo norm >"$d/metric.txt"
  if "$braze" compile "$f" --target=cuda --no-header -o "$d/lib.so" >"$d/compile.log" 2>&1; then
    compiled=$((compiled + 1))
    rm -f "$d/compile.log"
  else
    failed=$((failed + 1))
    echo "$stem: does not compile for cuda: $(head -1 "$d/compile.log")"
  fi
  # Public functions: `func.func @NAME(` at the start of a line (private ones say so).
  for fn in $(sed -n 's/^ *func\.func @\([A-Za-z_][A-Za-z_0-9]*\)(.*/\1/p' "$f"); do
    "$braze" run "$f" --func "$fn" --seed 0 --quiet --save-inputs "$d/$fn" --save-outputs "$d/$fn" ||
      echo "$stem/$fn: the reference interpreter failed"
    # The results' element types, one per line (run.py: '<u2' is bf16 or ui16), from
    # the signature braze-opt prints on one line.
    "$build/braze-opt" "$f" | grep "func.func @$fn(" | sed 's/.*) -> //' |
      grep -o 'tensor<[^>]*>' | sed -e 's/tensor<//' -e 's/>//' -e 's/.*x//' >"$d/$fn/types.txt"
  done
done
# The tensor-core cases once more with every contraction forced onto the SIMT kernel
# (cuda-codegen{matmul=simt}), onto cuBLASLt (matmul=extern) and picked at the first
# call (matmul=auto): the same inputs and expected outputs.
for choice in simt extern auto; do
  [ -f "$out/tensor-core/lib.so" ] || break
  rm -rf "$out/tensor-core-$choice"
  cp -r "$out/tensor-core" "$out/tensor-core-$choice"
  "$braze" compile "$root/test/gpu/cases/tensor-core.mlir" --target=cuda \
    --pipeline="$root/bench/gpu/cuda-$choice.pipeline" --no-header -o "$out/tensor-core-$choice/lib.so" ||
    echo "tensor-core-$choice: does not compile for cuda"
done
echo "prepared $out: $compiled modules compiled, $failed did not; $(du -sh "$out" | cut -f1)"
