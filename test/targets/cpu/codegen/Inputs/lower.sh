#!/bin/sh
# Lower target-level IR (cpu-codegen output) to an executable with a C driver, the
# way the CPU AOT path does (see docs/architecture.md "4. target level"), using
# upstream mlir-opt/mlir-translate and clang. Memref arguments use the bare-pointer
# convention (all memrefs are static with identity layouts), so drivers call
# `void NAME(const float *in0, ..., float *out0, ...)`.
# usage: lower.sh IN.mlir DRIVER.c OUT_EXE [extra clang flags]
set -e
in=$1; driver=$2; out=$3; shift 3
P='builtin.module(convert-scf-to-openmp,expand-strided-metadata,finalize-memref-to-llvm,convert-scf-to-cf,convert-vector-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,convert-index-to-llvm,convert-func-to-llvm{use-bare-ptr-memref-call-conv=1},convert-openmp-to-llvm,convert-cf-to-llvm,reconcile-unrealized-casts)'
/usr/lib/llvm-22/bin/mlir-opt "$in" --pass-pipeline="$P" -o "$out.llvm.mlir"
/usr/lib/llvm-22/bin/mlir-translate --mlir-to-llvmir "$out.llvm.mlir" -o "$out.ll"
/usr/lib/llvm-22/bin/clang -O3 -march=native -Wno-override-module "$@" "$out.ll" "$driver" \
  -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lomp -lm -o "$out"
