#!/bin/sh
# Build the 2-GPU benchmark's libraries on the development machine (no GPU needed):
#   bench/sharded/gpu/prepare.sh OUTDIR [BUILD]
# OUTDIR/G6.tp1.so, G6.tp2.so, G7.tp1.so, G7.tp2.so: the same graph files compiled for
# one device (--mesh=tp:1) and for one rank of two (--mesh=tp:2), cuda-default; G6c.*
# likewise from G6-tp-chunk4.mlir (G6 in four token chunks by hand; shard-chunk off); and
# OUTDIR/all-reduce.so (all-reduce.mlir: G6's all_reduce alone, and one of 1 GiB). The
# default pipeline chunks G6's tokens for the overlap (shard-chunk: two chunks, 6144 and
# 2048 rows) after shard-fold-add moved the residual add into the partial sums; the
# variants G6k1 (no chunks), G6k2/G6k4 (even chunks), G6t* (other last-share=) and
# G6s* (sizes=) are the two-GPU G6 with shard-chunk's options changed in a copy of
# cuda-default, G6nf and G6k1nf the default and G6k1 without shard-fold-add
# (OUTDIR/G6*.tp2.so); G6tem, G6sep and G6ext are G6 for one and two devices with the
# contractions emitted otherwise (peer_tp.py's --variants). Then,
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
# variant NAME OPTIONS [FILE [EDIT]]: FILE (G6-tp) for one rank of two, shard-chunk{OPTIONS}
# (and the sed command EDIT on the pipeline)
variant() {
  sed -e "s/^shard-chunk,\$/shard-chunk{$2},/" -e "${4:-}" "$here/../../../pipelines/cuda-default.pipeline" \
    >"$out/$1.pipeline"
  "$build/braze" compile "$here/${3:-G6-tp}.mlir" --target=cuda --mesh=tp:2 --pipeline="$out/$1.pipeline" --no-header \
    -o "$out/$1.tp2.so"
  rm "$out/$1.pipeline"
}
variant G6c chunks=1 G6-tp-chunk4  # the hand-chunked file as written (no further chunks)
variant G6k1 chunks=1
variant G6k2 "chunks=2 last-share=0"
variant G6k4 "chunks=4 last-share=0"
variant G6t19 "chunks=2 last-share=19"
variant G6t19w "chunks=2 last-share=19 pieces=1"
variant G6t12 "chunks=2 last-share=12"
variant G6s5888 sizes=5888,2304
variant G6s3 sizes=6656,1024,512
variant G6nf "" G6-tp "/^shard-fold-add,\$/d"
variant G6k1nf chunks=1 G6-tp "/^shard-fold-add,\$/d"
variant G6s3b sizes=6144,1536,512
# pair NAME EDIT: G6-tp for one device and for one rank of two with the sed command EDIT
# on cuda-default (peer_tp.py --variants NAME): how the contractions are emitted
pair() {
  sed -e "$2" "$here/../../../pipelines/cuda-default.pipeline" >"$out/$1.pipeline"
  for n in 1 2; do
    "$build/braze" compile "$here/G6-tp.mlir" --target=cuda --mesh=tp:$n --pipeline="$out/$1.pipeline" --no-header \
      -o "$out/$1.tp$n.so"
  done
  rm "$out/$1.pipeline"
}
pair G6tem "s/matmul=auto/matmul=template/"                                 # every product on the template
pair G6sep "s/horizontal-templates=half //"                                 # gate and up apart, matmul=auto
pair G6ext "s/horizontal-templates=half //; s/matmul=auto/matmul=extern/"  # every product on cuBLASLt
"$build/braze" compile "$here/all-reduce.mlir" --target=cuda --no-header -o "$out/all-reduce.so"
ls -l "$out"
