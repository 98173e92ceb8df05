#!/bin/sh
# Build the 2-GPU benchmark's libraries on the development machine (no GPU needed):
#   bench/sharded/gpu/prepare.sh OUTDIR [BUILD]
# OUTDIR/G6.tp1.so, G6.tp2.so, G7.tp1.so, G7.tp2.so: the same graph files compiled for
# one device (--mesh=tp:1) and for one rank of two (--mesh=tp:2), cuda-default; G6c.*
# likewise from G6-tp-chunk4.mlir (G6 in four token chunks: the all_reduces overlap); and
# OUTDIR/all-reduce.so (all-reduce.mlir: G6's all_reduce alone, and one of 1 GiB). Then,
# on the 2-GPU machine: python3 bench/sharded/gpu/bench.py OUTDIR
set -eu
out=$1
build=${2:-build}
here=$(dirname "$0")
mkdir -p "$out"
for w in G6-tp G6-tp-chunk4 G7-heads; do
  stem=${w%%-*}
  [ "$w" = G6-tp-chunk4 ] && stem=G6c
  for n in 1 2; do
    "$build/braze" compile "$here/$w.mlir" --target=cuda --mesh=tp:$n --no-header -o "$out/$stem.tp$n.so"
  done
done
"$build/braze" compile "$here/all-reduce.mlir" --target=cuda --no-header -o "$out/all-reduce.so"
ls -l "$out"
