#!/bin/sh
# Time cpu-codegen + math-approx kernels through the CPU lowering (upstream
# mlir-opt + clang -O3 -march=native, as test/targets/cpu/codegen/Inputs/lower.sh).
# usage: bench/cpu-codegen/run.sh [ROWS COLS [ITERS]]   (build dir: $BRAZE_BUILD or build)
# Pass options with CODEGEN_OPTS / APPROX_OPTS, e.g. CODEGEN_OPTS=row-jam=1 (MLIR
# option syntax: space-separated key=value).
# Prints best-of-ITERS ms per call and GB/s of compulsory traffic (inputs + output).
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BRAZE_BUILD:-$root/build}
R=${1:-4096}; C=${2:-1024}; N=${3:-50}
out=$(mktemp -d)
for k in copy softmax layer_norm rms_norm gelu_chain; do
  /usr/bin/python3 "$root/bench/cpu-codegen/gen_kernels.py" $k $R $C > "$out/$k.mlir"
  "$build/braze-opt" "$out/$k.mlir" --cpu-codegen="${CODEGEN_OPTS:-}" --math-approx="${APPROX_OPTS:-}" \
    -o "$out/$k.t.mlir"
  sh "$root/test/targets/cpu/codegen/Inputs/lower.sh" "$out/$k.t.mlir" \
    "$root/test/targets/cpu/codegen/Inputs/kernels_main.c" "$out/$k" -DKIND_$k -DR=$R -DC=$C
  printf '%-12s %s\n' "$k" "$(BENCH_ITERS=$N "$out/$k" | tr '\n' ' ')"
done
rm -rf "$out"
