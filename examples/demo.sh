#!/usr/bin/env bash
# `make demo`: compile examples/mlp.mlir (linear + gelu + linear + residual +
# layer_norm) for the CPU with cpu-default, call it from C through the generated
# header, run it with `braze run --target=cpu`, and check it against the reference
# interpreter. Any failing step stops the demo with its error and a non-zero exit.
set -euo pipefail
BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")" && pwd)
BRAZE=$(cd "$BUILD" && pwd)/braze
OUT=$(mktemp -d "${TMPDIR:-/tmp}/braze-demo-XXXXXX")
trap 'rm -rf "$OUT"' EXIT
fail() { echo "demo: FAILED at: $*" >&2; exit 1; }

[ -x "$BRAZE" ] || fail "no braze executable in $BUILD (make build)"
echo "== braze compile examples/mlp.mlir --pipeline=cpu-default"
start=$(date +%s%N)
"$BRAZE" compile "$HERE/mlp.mlir" --pipeline=cpu-default -o "$OUT/libmlp.so" \
  --dump-kernels="$OUT/kernels" || fail "braze compile"
compile_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "kernels:"; ls "$OUT/kernels" | sed -n 's/\.mlir$//p' | sed 's/^/  /'
echo "header:"; grep -E '^ \*   |^int mlp\(' "$OUT/mlp.h" | sed 's/^/  /'

echo "== calling mlp() from C through mlp.h"
cc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$OUT" "$HERE/mlp_main.c" -o "$OUT/mlp_main" \
  -L"$OUT" -lmlp -Wl,-rpath,"$OUT" -lm || fail "building the C caller"
"$OUT/mlp_main" | tee "$OUT/main.txt" || fail "running the C caller"

echo "== braze run --target=cpu"
"$BRAZE" run "$HERE/mlp.mlir" --target=cpu --seed 1 --print 4 || fail "braze run --target=cpu"

echo "== braze check (compiled vs reference interpreter, seeded random inputs)"
"$BRAZE" check "$HERE/mlp.mlir" --seed 1 | tee "$OUT/check.txt" || fail "braze check"

echo
echo "demo summary: $(ls "$OUT/kernels" | grep -c '\.mlir$') kernels, libmlp.so $(stat -c %s "$OUT/libmlp.so") bytes," \
  "compiled in ${compile_ms} ms; $(grep -o '[0-9.]* ms per call' "$OUT/main.txt");" \
  "$(grep -c '^PASS' "$OUT/check.txt") output(s) match the reference"
