#!/bin/sh
# Build bench/gpu/user_kernels.py's libraries on the development machine (no GPU needed):
#   bench/gpu/prepare-user-kernels.sh OUTDIR [BUILD [small]]
# For each GPU-form user-kernel workload NAME (bench/gpu/user_kernels_mlir.py at issue
# 46's sizes): OUTDIR/NAME.so (cuda-default: the graph epilogue fused into the user
# kernel's stores), OUTDIR/NAME.unfused.so (cuda-no-user-epilogue: the user kernel, then
# braze's epilogue kernel), their kernels' MLIR and PTX in OUTDIR/NAME.kernels/ and
# OUTDIR/NAME.unfused.kernels/ (--dump-kernels), then the PTX checked
# (user_kernels.py --check-ptx); the compile log goes to OUTDIR/prepare.log.
# `small`: the modules at user_kernels_mlir.py's small sizes (test/targets/user-gpu/
# bench-modules.test). Then, on the GPU machine:
#   python3 bench/gpu/user_kernels.py OUTDIR
set -eu
out=$1
build=${2:-build}
size=${3:-}
here=$(dirname "$0")
mkdir -p "$out"
log="$out/prepare.log"
: >"$log"
for w in U1 U2 U2B U3; do
  python3 "$here/user_kernels_mlir.py" "$w" $size >"$out/$w.mlir"
  rm -rf "$out/$w.kernels" "$out/$w.unfused.kernels"
  "$build/braze" compile "$out/$w.mlir" --target=cuda --no-header -o "$out/$w.so" \
    --dump-kernels="$out/$w.kernels" >>"$log" 2>&1 || { echo "$w: compile failed (see $log)" >&2; exit 1; }
  "$build/braze" compile "$out/$w.mlir" --target=cuda --pipeline=cuda-no-user-epilogue --no-header \
    -o "$out/$w.unfused.so" --dump-kernels="$out/$w.unfused.kernels" >>"$log" 2>&1 || { echo "$w unfused: compile failed (see $log)" >&2; exit 1; }
  echo "$w: $(ls "$out/$w.kernels" | grep -c '\.ptx$') kernel(s) fused, $(ls "$out/$w.unfused.kernels" | grep -c '\.ptx$') unfused" >>"$log"
  rm -f "$out/$w.mlir"
done
ls -l "$out" >>"$log"
python3 "$here/user_kernels.py" "$out" --check-ptx
