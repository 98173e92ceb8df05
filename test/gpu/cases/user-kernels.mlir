// User kernels on the GPU (docs/user-kernels.md): each user kernel here is one
// top-level scf.parallel, which cuda-codegen maps to the grid (one thread per
// iteration); fused epilogues (a broadcast bias, a residual, whole-vector and
// lane-by-lane vector stores, two outputs) run inside it. Checked against the reference
// interpreter by test/gpu/run.py on the GPU machine. A pre-initialized output (a buffer
// zeroed by one kernel, then accumulated into atomically by the next) is copied by the
// entry before the launch.
// Checked here: it compiles for CUDA, and its numbers on the CPU.
// REQUIRES: cuda
// RUN: braze compile %s --target=cuda -o %t.so
// RUN: braze check %s --seed 1 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: check passed

func.func private @scale_rows(%x: memref<64x96xf32>, %out: memref<64x96xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  %s = arith.constant 0.5 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %j = %c0 to %c96 step %c1 {
      %v = memref.load %x[%i, %j] : memref<64x96xf32>
      %m = arith.mulf %v, %s : f32
      memref.store %m, %out[%i, %j] : memref<64x96xf32>
    }
    scf.reduce
  }
  return
}

// 2-D parallel loop, vector<8xf32> loads and stores.
func.func private @square8(%x: memref<64x96xf32>, %out: memref<64x96xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c96) step (%c1, %c8) {
    %v = vector.load %x[%i, %j] : memref<64x96xf32>, vector<8xf32>
    %sq = arith.mulf %v, %v : vector<8xf32>
    vector.store %sq, %out[%i, %j] : memref<64x96xf32>, vector<8xf32>
    scf.reduce
  }
  return
}

func.func private @minmax(%x: memref<64x96xf32>, %y: memref<64x96xf32>, %lo: memref<64x96xf32>, %hi: memref<64x96xf32>)
    attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c96) step (%c1, %c1) {
    %a = memref.load %x[%i, %j] : memref<64x96xf32>
    %b = memref.load %y[%i, %j] : memref<64x96xf32>
    %l = arith.minimumf %a, %b : f32
    %h = arith.maximumf %a, %b : f32
    memref.store %l, %lo[%i, %j] : memref<64x96xf32>
    memref.store %h, %hi[%i, %j] : memref<64x96xf32>
    scf.reduce
  }
  return
}

// Atomic row sums: out[i] += x[i, j] for every j.
func.func private @row_sums(%x: memref<64x96xf32>, %out: memref<64xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c96 = arith.constant 96 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c64, %c96) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<64x96xf32>
    %old = memref.atomic_rmw addf %v, %out[%i] : (f32, memref<64xf32>) -> f32
    scf.reduce
  }
  return
}

func.func private @zero(%out: memref<64xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %z, %out[%i] : memref<64xf32>
    scf.reduce
  }
  return
}

func.func @bias_gelu(%x: tensor<64x96xf32>, %b: tensor<96xf32>) -> tensor<64x96xf32> {
  %xb = bufferization.to_buffer %x : tensor<64x96xf32> to memref<64x96xf32>
  %o = memref.alloc() : memref<64x96xf32>
  func.call @scale_rows(%xb, %o) : (memref<64x96xf32>, memref<64x96xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64x96xf32> to tensor<64x96xf32>
  %a = "graph.add"(%r, %b) : (tensor<64x96xf32>, tensor<96xf32>) -> tensor<64x96xf32>
  %g = "graph.gelu"(%a) {approximate = "none"} : (tensor<64x96xf32>) -> tensor<64x96xf32>
  return %g : tensor<64x96xf32>
}

func.func @vector_residual(%x: tensor<64x96xf32>, %res: tensor<64x96xf32>, %s: tensor<64x1xf32>) -> tensor<64x96xf32> {
  %xb = bufferization.to_buffer %x : tensor<64x96xf32> to memref<64x96xf32>
  %o = memref.alloc() : memref<64x96xf32>
  func.call @square8(%xb, %o) : (memref<64x96xf32>, memref<64x96xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64x96xf32> to tensor<64x96xf32>
  %a = "graph.add"(%r, %res) : (tensor<64x96xf32>, tensor<64x96xf32>) -> tensor<64x96xf32>
  %m = "graph.mul"(%a, %s) : (tensor<64x96xf32>, tensor<64x1xf32>) -> tensor<64x96xf32>
  %t = "graph.tanh"(%m) : (tensor<64x96xf32>) -> tensor<64x96xf32>
  return %t : tensor<64x96xf32>
}

func.func @vector_lanes(%x: tensor<64x96xf32>, %rt: tensor<96x64xf32>) -> tensor<64x96xf32> {
  %xb = bufferization.to_buffer %x : tensor<64x96xf32> to memref<64x96xf32>
  %o = memref.alloc() : memref<64x96xf32>
  func.call @square8(%xb, %o) : (memref<64x96xf32>, memref<64x96xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64x96xf32> to tensor<64x96xf32>
  %t = "graph.transpose"(%rt) {perm = array<i64: 1, 0>} : (tensor<96x64xf32>) -> tensor<64x96xf32>
  %a = "graph.sub"(%r, %t) : (tensor<64x96xf32>, tensor<64x96xf32>) -> tensor<64x96xf32>
  return %a : tensor<64x96xf32>
}

func.func @two_outputs(%x: tensor<64x96xf32>, %y: tensor<64x96xf32>) -> (tensor<64x96xf32>, tensor<64x96xf32>) {
  %xb = bufferization.to_buffer %x : tensor<64x96xf32> to memref<64x96xf32>
  %yb = bufferization.to_buffer %y : tensor<64x96xf32> to memref<64x96xf32>
  %lo = memref.alloc() : memref<64x96xf32>
  %hi = memref.alloc() : memref<64x96xf32>
  func.call @minmax(%xb, %yb, %lo, %hi) : (memref<64x96xf32>, memref<64x96xf32>, memref<64x96xf32>, memref<64x96xf32>) -> ()
  %l = bufferization.to_tensor %lo : memref<64x96xf32> to tensor<64x96xf32>
  %h = bufferization.to_tensor %hi : memref<64x96xf32> to tensor<64x96xf32>
  %le = "graph.exp"(%l) : (tensor<64x96xf32>) -> tensor<64x96xf32>
  %hs = "graph.sigmoid"(%h) : (tensor<64x96xf32>) -> tensor<64x96xf32>
  return %le, %hs : tensor<64x96xf32>, tensor<64x96xf32>
}

// zero(o), then row_sums(x, o): the second call's output is initialized by a copy of the
// first's result; its epilogue (abs) is refused (atomic-output) and runs as a kernel.
func.func @atomic_rows(%x: tensor<64x96xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64x96xf32> to memref<64x96xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @zero(%o) : (memref<64xf32>) -> ()
  func.call @row_sums(%xb, %o) : (memref<64x96xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  %a = "graph.abs"(%r) : (tensor<64xf32>) -> tensor<64xf32>
  return %a : tensor<64xf32>
}
