// cuda-codegen, user kernels: the alignment of vector loads and stores on global memrefs
// (targets/cuda/codegen/user-align.c). Every global buffer is 16-byte aligned (the ABI,
// the workspace's 64-byte offsets), so an access is aligned to the power of two known to
// divide its byte offset (sum of index * stride), at most the vector's size and 16: 16
// for a vector<4xf32> at a multiple of 4 (thread * 4, block * block_dim * 4 via shli,
// a row of a shape whose row stride is a multiple of 4, an scf.for stepping by 4), 8 at
// a multiple of 2, none at an odd offset or a thread id alone; an alignment the user wrote
// stays. test/targets/user-gpu/compile-cuda.test and bench-modules-cuda.test check the
// 128-bit accesses in the PTX.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen,canonicalize,cse)' | FileCheck %s

// CHECK-LABEL: gpu.func @cuda_ext_fused_accesses_0(
// t * 4 in a row of 64: 16 bytes
// CHECK:         vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<6x64xf32>, vector<4xf32>
// t * 2: 8 bytes
// CHECK:         vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<6x64xf32>, vector<4xf32>
// t * 4 + 1: one element's (no attribute)
// CHECK:         vector.load %arg0[%{{.*}}, %{{.*}}] : memref<6x64xf32>, vector<4xf32>
// the thread id alone
// CHECK:         vector.load %arg0[%{{.*}}, %{{.*}}] : memref<6x64xf32>, vector<4xf32>
// the user's own alignment stays
// CHECK:         vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 4 : i64} : memref<6x64xf32>, vector<4xf32>
// flat (block * block_dim + t) << 2 on 1-D: 16; a vector<2xf32>: 8 (its size)
// CHECK:         vector.load %arg1[%{{.*}}] {alignment = 16 : i64} : memref<384xf32>, vector<4xf32>
// CHECK:         vector.load %arg1[%{{.*}}] {alignment = 8 : i64} : memref<384xf32>, vector<2xf32>
// an scf.for from 0 stepping by 4
// CHECK:         scf.for
// CHECK:           vector.load %arg0[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<6x64xf32>, vector<4xf32>
// the store at t * 4
// CHECK:         vector.store %{{.*}}, %arg2[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<6x64xf32>, vector<4xf32>

func.func private @accesses(%x: memref<6x64xf32>, %y: memref<384xf32>, %out: memref<6x64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 6>, block = array<i64: 16>}} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c2i = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  %r = gpu.block_id x
  %t = gpu.thread_id x
  %n = gpu.block_dim x
  %col = arith.muli %t, %c4 : index
  %a = vector.load %x[%r, %col] : memref<6x64xf32>, vector<4xf32>
  %col2 = arith.muli %t, %c2 : index
  %b = vector.load %x[%r, %col2] : memref<6x64xf32>, vector<4xf32>
  %col1 = arith.addi %col, %c1 : index
  %c = vector.load %x[%r, %col1] : memref<6x64xf32>, vector<4xf32>
  %d = vector.load %x[%r, %t] : memref<6x64xf32>, vector<4xf32>
  %e = vector.load %x[%r, %col] {alignment = 4 : i64} : memref<6x64xf32>, vector<4xf32>
  %bn = arith.muli %r, %n : index
  %g = arith.addi %bn, %t : index
  %g4 = arith.shli %g, %c2i : index
  %f = vector.load %y[%g4] : memref<384xf32>, vector<4xf32>
  %h2 = vector.load %y[%g4] : memref<384xf32>, vector<2xf32>
  %zero = arith.constant dense<0.0> : vector<4xf32>
  %s = scf.for %k = %c0 to %c64 step %c4 iter_args(%acc = %zero) -> (vector<4xf32>) {
    %v = vector.load %x[%r, %k] : memref<6x64xf32>, vector<4xf32>
    %u = arith.addf %acc, %v : vector<4xf32>
    scf.yield %u : vector<4xf32>
  }
  %h = vector.broadcast %h2 : vector<2xf32> to vector<2x2xf32>
  %hh = vector.shape_cast %h : vector<2x2xf32> to vector<4xf32>
  %s1 = arith.addf %a, %b : vector<4xf32>
  %s2 = arith.addf %s1, %c : vector<4xf32>
  %s3 = arith.addf %s2, %d : vector<4xf32>
  %s4 = arith.addf %s3, %e : vector<4xf32>
  %s5 = arith.addf %s4, %f : vector<4xf32>
  %s6 = arith.addf %s5, %s : vector<4xf32>
  %s7 = arith.addf %s6, %hh : vector<4xf32>
  vector.store %s7, %out[%r, %col] : memref<6x64xf32>, vector<4xf32>
  return
}

func.func @model(%x: tensor<6x64xf32>, %y: tensor<384xf32>) -> tensor<6x64xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x64xf32> to memref<6x64xf32>
  %yb = bufferization.to_buffer %y : tensor<384xf32> to memref<384xf32>
  %o = memref.alloc() : memref<6x64xf32>
  func.call @accesses(%xb, %yb, %o) : (memref<6x64xf32>, memref<384xf32>, memref<6x64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x64xf32> to tensor<6x64xf32>
  return %r : tensor<6x64xf32>
}
