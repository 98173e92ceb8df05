// User-kernel epilogue fusion, numerically: every positive case and every refusal of
// docs/user-kernels.md checked against the reference interpreter, with the epilogues
// fused (cpu-default), with them refused (cpu-no-user-epilogue) and with no fusion at
// all (cpu-no-fusion). test/passes/fusion/form-kernels/user-epilogue*.mlir check the IR and
// the report of the same module.
// RUN: braze check %s --seed 3 | FileCheck %s
// RUN: braze check %s --seed 4 --pipeline=cpu-no-user-epilogue | FileCheck %s
// RUN: braze check %s --seed 5 --pipeline=cpu-no-fusion | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @unary out0 6x8xf32
// CHECK: PASS @chain out0 6x8xf32
// CHECK: PASS @bias out0 6x8xf32
// CHECK: PASS @residual out0 6x8xf32
// CHECK: PASS @vector out0 6x8xf32
// CHECK: PASS @two_outputs out0 6x8xf32
// CHECK: PASS @two_outputs out1 6x8xf32
// CHECK: PASS @twice out0 6x8xf32
// CHECK: PASS @reads_output out0 6x8xf32
// CHECK: PASS @atomic out0 6x8xf32
// CHECK: PASS @initialized out0 6x8xf32
// CHECK: PASS @shape out0 6x8xf32
// CHECK: PASS @layout out0 8x8xf32
// CHECK: PASS @dtype out0 6x8xf16
// CHECK: PASS @dtype_bool out0 6x8xi1
// CHECK: PASS @escaping out0 6x8xf32
// CHECK: PASS @second_consumer out0 6x8xf32
// CHECK: PASS @second_consumer out1 6x8xf32
// CHECK: PASS @reduction out0 6x1xf32
// CHECK: PASS @zero_then_accumulate out0 6x8xf32
// CHECK: check passed

// out = x * s + 1: scalar loads and stores, rows in parallel.
func.func private @scale_add(%x: memref<6x8xf32>, %out: memref<6x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %s = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c6) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<6x8xf32>
      %m = arith.mulf %v, %s : f32
      %a = arith.addf %m, %one : f32
      memref.store %a, %out[%i, %j] : memref<6x8xf32>
    }
    scf.reduce
  }
  return
}

// Rows of 8 as one vector<8xf32> each: out = x * x.
func.func private @square_rows(%x: memref<6x8xf32>, %out: memref<6x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  scf.parallel (%i) = (%c0) to (%c6) step (%c1) {
    %v = vector.load %x[%i, %c0] : memref<6x8xf32>, vector<8xf32>
    %sq = arith.mulf %v, %v : vector<8xf32>
    vector.store %sq, %out[%i, %c0] : memref<6x8xf32>, vector<8xf32>
    scf.reduce
  }
  return
}

// Two outputs: lo = min(x, y), hi = max(x, y).
func.func private @minmax(%x: memref<6x8xf32>, %y: memref<6x8xf32>, %lo: memref<6x8xf32>, %hi: memref<6x8xf32>)
    attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %x[%i, %j] : memref<6x8xf32>
      %b = memref.load %y[%i, %j] : memref<6x8xf32>
      %l = arith.minimumf %a, %b : f32
      %h = arith.maximumf %a, %b : f32
      memref.store %l, %lo[%i, %j] : memref<6x8xf32>
      memref.store %h, %hi[%i, %j] : memref<6x8xf32>
    }
  }
  return
}

func.func @unary(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @scale_add(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %e = "graph.exp"(%r) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %e : tensor<6x8xf32>
}

func.func @chain(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @scale_add(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %t = "graph.tanh"(%r) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  %s = "graph.sigmoid"(%t) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  %g = "graph.gelu"(%s) {approximate = "tanh"} : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %g : tensor<6x8xf32>
}

func.func @bias(%x: tensor<6x8xf32>, %b: tensor<8xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @scale_add(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %a = "graph.add"(%r, %b) : (tensor<6x8xf32>, tensor<8xf32>) -> tensor<6x8xf32>
  %y = "graph.relu"(%a) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %y : tensor<6x8xf32>
}

func.func @residual(%x: tensor<6x8xf32>, %res: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @scale_add(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %a = "graph.add"(%r, %res) : (tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<6x8xf32>
  return %a : tensor<6x8xf32>
}

func.func @vector(%x: tensor<6x8xf32>, %b: tensor<6x1xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @square_rows(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %m = "graph.mul"(%r, %b) : (tensor<6x8xf32>, tensor<6x1xf32>) -> tensor<6x8xf32>
  %y = "graph.silu"(%m) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %y : tensor<6x8xf32>
}

func.func @two_outputs(%x: tensor<6x8xf32>, %y: tensor<6x8xf32>) -> (tensor<6x8xf32>, tensor<6x8xf32>) {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %yb = bufferization.to_buffer %y : tensor<6x8xf32> to memref<6x8xf32>
  %lo = memref.alloc() : memref<6x8xf32>
  %hi = memref.alloc() : memref<6x8xf32>
  func.call @minmax(%xb, %yb, %lo, %hi) : (memref<6x8xf32>, memref<6x8xf32>, memref<6x8xf32>, memref<6x8xf32>) -> ()
  %l = bufferization.to_tensor %lo : memref<6x8xf32> to tensor<6x8xf32>
  %h = bufferization.to_tensor %hi : memref<6x8xf32> to tensor<6x8xf32>
  %le = "graph.exp"(%l) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  %hn = "graph.neg"(%h) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  %hs = "graph.mul"(%hn, %x) : (tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<6x8xf32>
  return %le, %hs : tensor<6x8xf32>, tensor<6x8xf32>
}

// The same kernel twice with different epilogues: two copies, the original untouched.
func.func @twice(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @scale_add(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %t = "graph.tanh"(%r) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  %tb = bufferization.to_buffer %t : tensor<6x8xf32> to memref<6x8xf32>
  %o2 = memref.alloc() : memref<6x8xf32>
  func.call @scale_add(%tb, %o2) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r2 = bufferization.to_tensor %o2 : memref<6x8xf32> to tensor<6x8xf32>
  %e = "graph.exp"(%r2) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %e : tensor<6x8xf32>
}

// ---- refusals ----

// Reads its output back: out = x, then out = out * out.
func.func private @square_in_place(%x: memref<6x8xf32>, %out: memref<6x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<6x8xf32>
      memref.store %v, %out[%i, %j] : memref<6x8xf32>
      %w = memref.load %out[%i, %j] : memref<6x8xf32>
      %s = arith.mulf %w, %w : f32
      memref.store %s, %out[%i, %j] : memref<6x8xf32>
    }
  }
  return
}

// Atomic writes: out = 0, then out += x twice with memref.atomic_rmw.
func.func private @atomic_twice(%x: memref<6x8xf32>, %out: memref<6x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c6, %c8) step (%c1, %c1) {
    memref.store %zero, %out[%i, %j] : memref<6x8xf32>
    scf.reduce
  }
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c6, %c8, %c2) step (%c1, %c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<6x8xf32>
    %old = memref.atomic_rmw addf %v, %out[%i, %j] : (f32, memref<6x8xf32>) -> f32
    scf.reduce
  }
  return
}

// Writes only rows 0..2: the rest keeps what the graph copied in before the call.
func.func private @first_rows(%x: memref<6x8xf32>, %out: memref<6x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c3 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<6x8xf32>
      %n = arith.negf %v : f32
      memref.store %n, %out[%i, %j] : memref<6x8xf32>
    }
  }
  return
}

// A row of 8: out[j] = sum over rows of x[i, j].
func.func private @col_sums(%x: memref<6x8xf32>, %out: memref<8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  scf.for %j = %c0 to %c8 step %c1 {
    %s = scf.for %i = %c0 to %c6 step %c1 iter_args(%acc = %zero) -> (f32) {
      %v = memref.load %x[%i, %j] : memref<6x8xf32>
      %a = arith.addf %acc, %v : f32
      scf.yield %a : f32
    }
    memref.store %s, %out[%j] : memref<8xf32>
  }
  return
}

func.func private @copy_square(%x: memref<8x8xf32>, %out: memref<8x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<8x8xf32>
      %e = math.exp %v : f32
      memref.store %e, %out[%i, %j] : memref<8x8xf32>
    }
  }
  return
}

// Lets its output escape into another user kernel that writes it.
func.func private @fill_half(%out: memref<6x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %h = arith.constant 0.5 : f32
  scf.for %i = %c0 to %c6 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %h, %out[%i, %j] : memref<6x8xf32>
    }
  }
  return
}

func.func private @escape(%x: memref<6x8xf32>, %out: memref<6x8xf32>) attributes {braze.user_kernel} {
  func.call @fill_half(%out) : (memref<6x8xf32>) -> ()
  return
}

func.func @reads_output(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @square_in_place(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %e = "graph.sqrt"(%r) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %e : tensor<6x8xf32>
}

func.func @atomic(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @atomic_twice(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %e = "graph.tanh"(%r) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %e : tensor<6x8xf32>
}

func.func @initialized(%x: tensor<6x8xf32>, %init: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %ib = bufferization.to_buffer %init : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  memref.copy %ib, %o : memref<6x8xf32> to memref<6x8xf32>
  func.call @first_rows(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %e = "graph.exp"(%r) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %e : tensor<6x8xf32>
}

func.func @shape(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<8xf32>
  func.call @col_sums(%xb, %o) : (memref<6x8xf32>, memref<8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8xf32> to tensor<8xf32>
  %d = "graph.div"(%x, %r) : (tensor<6x8xf32>, tensor<8xf32>) -> tensor<6x8xf32>
  return %d : tensor<6x8xf32>
}

func.func @layout(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<8x8xf32> to memref<8x8xf32>
  %o = memref.alloc() : memref<8x8xf32>
  func.call @copy_square(%xb, %o) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<8x8xf32> to tensor<8x8xf32>
  %t = "graph.transpose"(%r) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %n = "graph.neg"(%t) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  return %n : tensor<8x8xf32>
}

func.func @dtype(%x: tensor<6x8xf32>) -> tensor<6x8xf16> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @scale_add(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %h = "graph.cast"(%r) : (tensor<6x8xf32>) -> tensor<6x8xf16>
  return %h : tensor<6x8xf16>
}

// A cast to i1 is refused (dtype-mismatch); the f16 one above is fused (an f16 output).
func.func @dtype_bool(%x: tensor<6x8xf32>) -> tensor<6x8xi1> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @scale_add(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %h = "graph.cast"(%r) : (tensor<6x8xf32>) -> tensor<6x8xi1>
  return %h : tensor<6x8xi1>
}

func.func @escaping(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @escape(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %a = "graph.add"(%r, %x) : (tensor<6x8xf32>, tensor<6x8xf32>) -> tensor<6x8xf32>
  return %a : tensor<6x8xf32>
}

func.func @second_consumer(%x: tensor<6x8xf32>) -> (tensor<6x8xf32>, tensor<6x8xf32>) {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @scale_add(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %e = "graph.exp"(%r) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %e, %r : tensor<6x8xf32>, tensor<6x8xf32>
}

func.func @reduction(%x: tensor<6x8xf32>) -> tensor<6x1xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @scale_add(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %s = "graph.reduce_sum"(%r) {dims = array<i64: 1>, keepdim = true} : (tensor<6x8xf32>) -> tensor<6x1xf32>
  return %s : tensor<6x1xf32>
}

// Two kernels through one buffer: zero it, then accumulate into it (reads and writes
// it). form-kernels gives the second call a fresh buffer initialized by a copy of the
// first one's result (value semantics), so its epilogue is refused initialized-output.
func.func private @zero(%out: memref<6x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c6, %c8) step (%c1, %c1) {
    memref.store %z, %out[%i, %j] : memref<6x8xf32>
    scf.reduce
  }
  return
}

func.func private @accumulate_twice(%x: memref<6x8xf32>, %out: memref<6x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  scf.for %k = %c0 to %c2 step %c1 {
    scf.parallel (%i, %j) = (%c0, %c0) to (%c6, %c8) step (%c1, %c1) {
      %v = memref.load %x[%i, %j] : memref<6x8xf32>
      %o = memref.load %out[%i, %j] : memref<6x8xf32>
      %s = arith.addf %o, %v : f32
      memref.store %s, %out[%i, %j] : memref<6x8xf32>
      scf.reduce
    }
  }
  return
}

func.func @zero_then_accumulate(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x8xf32> to memref<6x8xf32>
  %o = memref.alloc() : memref<6x8xf32>
  func.call @zero(%o) : (memref<6x8xf32>) -> ()
  func.call @accumulate_twice(%xb, %o) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x8xf32> to tensor<6x8xf32>
  %e = "graph.tanh"(%r) : (tensor<6x8xf32>) -> tensor<6x8xf32>
  return %e : tensor<6x8xf32>
}
