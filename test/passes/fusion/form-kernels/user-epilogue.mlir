// User-kernel epilogue fusion (docs/user-kernels.md): the pointwise consumers of a
// user kernel's output are cloned at every store of that output inside a copy of the
// kernel (@K_epilogue_N); their other inputs become extra memref arguments read at
// the stored indices through the consumer's maps; vector stores go lane by lane. The
// call becomes one `ext` kernel; the intermediate tensor is gone; the user's kernel
// stays as written. test/e2e/user-epilogue.mlir checks the numbers.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized=disable --form-kernels | FileCheck %s --check-prefix=CHAIN
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels=no-user-epilogue | FileCheck %s --check-prefix=OFF
// RUN: braze check %s --seed 2 | FileCheck %s --check-prefix=NUM
// NUM-NOT: FAIL
// NUM: PASS @vector_inputs
// NUM: PASS @vector_transposed
// NUM: check passed

// The user's kernel, untouched.
// CHECK-LABEL: func.func private @scale(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>) attributes {braze.user_kernel}
// CHECK:         %[[V:.*]] = memref.load %arg0
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[V]], %{{.*}} : f32
// CHECK-NEXT:    memref.store %[[M]], %arg1
// CHECK-LABEL: func.func private @rows(
// CHECK-LABEL: func.func private @pair(
// @bias: the copy reads the bias (an extra argument) at [j], adds, relu, stores.
// CHECK-LABEL: func.func private @scale_epilogue_0(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>, %arg2: memref<8xf32>)
// CHECK-SAME:    attributes {braze.user_epilogue_of = @scale, braze.user_kernel}
// CHECK:         scf.for %[[J:.*]] =
// CHECK:         %[[M:.*]] = arith.mulf
// CHECK-NEXT:    %[[B:.*]] = memref.load %arg2[%[[J]]] : memref<8xf32>
// CHECK-NEXT:    %[[A:.*]] = arith.addf %[[M]], %[[B]] : f32
// CHECK:         %[[R:.*]] = arith.maximumf %[[A]], %{{.*}} : f32
// CHECK-NEXT:    memref.store %[[R]], %arg1[%{{.*}}, %[[J]]] : memref<4x8xf32>
// The ext kernel: buffers of the tensors, the output allocated, the call, the result.
// CHECK-LABEL: func.func private @cpu_ext_fused_scale_add_relu_0(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-SAME:    kernel.kind = "ext", kernel.ops = ["scale", "add", "relu"], kernel.score = 128 : i64
// CHECK-NEXT:    %[[X:.*]] = bufferization.to_buffer %arg0
// CHECK-NEXT:    %[[B:.*]] = bufferization.to_buffer %arg1
// CHECK-NEXT:    %[[O:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT:    call @scale_epilogue_0(%[[X]], %[[O]], %[[B]])
// CHECK-NEXT:    %[[R:.*]] = bufferization.to_tensor %[[O]]
// CHECK-NEXT:    return %[[R]]
// The intermediate is gone: one call.
// CHECK-LABEL: func.func @bias(
// CHECK-NEXT:    %[[K:.*]] = call @cpu_ext_fused_scale_add_relu_0(%arg0, %arg1) {braze.ops = ["scale", "add", "relu"]}
// CHECK-NEXT:    return %[[K]]
// @twice: the first call's output is read by another kernel (no pointwise consumer),
// the second's epilogue reads the residual at [i, j].
// CHECK-LABEL: func.func private @cpu_ext_fused_scale_1(
// CHECK:         call @scale(
// CHECK-LABEL: func.func private @scale_epilogue_2(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>, %arg2: memref<4x8xf32>)
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK:         scf.for %[[J:.*]] =
// CHECK:         memref.load %arg2[%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK-LABEL: func.func private @cpu_ext_fused_scale_add_2(
// CHECK:         call @scale_epilogue_2(
// CHECK-LABEL: func.func @twice(
// Vector stores: the epilogue on the whole vector (its ops in vector form) when every
// other input is read contiguously along the last index (a vector load) or not along
// it at all (a load and a broadcast).
// CHECK-LABEL: func.func private @rows_epilogue_{{[0-9]+}}(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>)
// CHECK:         %[[V:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NEXT:    %[[X:.*]] = math.exp %[[V]] : vector<8xf32>
// CHECK-NEXT:    vector.store %[[X]], %arg1[%{{.*}}, %{{.*}}] : memref<4x8xf32>, vector<8xf32>
// CHECK-LABEL: func.func private @rows_epilogue_{{[0-9]+}}(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>, %arg2: memref<8xf32>, %arg3: memref<4x1xf32>)
// CHECK:         scf.parallel (%[[I:.*]]) =
// CHECK:         %[[V:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NEXT:    %[[B:.*]] = vector.load %arg2[%c0] : memref<8xf32>, vector<8xf32>
// CHECK:         %[[S:.*]] = memref.load %arg3[%[[I]], %{{.*}}] : memref<4x1xf32>
// CHECK-NEXT:    %[[SB:.*]] = vector.broadcast %[[S]] : f32 to vector<8xf32>
// CHECK-NEXT:    %[[A:.*]] = arith.addf %[[V]], %[[B]] : vector<8xf32>
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[A]], %[[SB]] : vector<8xf32>
// CHECK:         %[[C:.*]] = arith.cmpf ogt, %[[M]], %{{.*}} : vector<8xf32>
// CHECK:         %[[Y:.*]] = arith.select %[[C]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NEXT:    vector.store %[[Y]], %arg1
// Lane by lane when another input is read across lanes (a transposed residual): each
// lane extracted, the epilogue at index + lane, inserted back.
// CHECK-LABEL: func.func private @rows_epilogue_{{[0-9]+}}(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>, %arg2: memref<8x4xf32>)
// CHECK:         %[[V:.*]] = arith.mulf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK-NEXT:    %[[E0:.*]] = vector.extract %[[V]][0] : f32 from vector<8xf32>
// CHECK:         %[[R0:.*]] = memref.load %arg2[%{{.*}}, %{{.*}}] : memref<8x4xf32>
// CHECK-NEXT:    %[[X0:.*]] = arith.addf %[[E0]], %[[R0]] : f32
// CHECK-NEXT:    %[[I0:.*]] = vector.insert %[[X0]], %[[V]] [0] : f32 into vector<8xf32>
// CHECK-NEXT:    %[[E1:.*]] = vector.extract %[[V]][1] : f32 from vector<8xf32>
// CHECK:         vector.insert %{{.*}}, %{{.*}} [7] : f32 into vector<8xf32>
// CHECK-NEXT:    vector.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}] : memref<4x8xf32>, vector<8xf32>
// Two outputs, each with its own epilogue.
// CHECK-LABEL: func.func private @pair_epilogue_{{[0-9]+}}(
// CHECK:         %[[L:.*]] = arith.minimumf
// CHECK:         %[[H:.*]] = arith.maximumf
// CHECK:         %[[LE:.*]] = math.exp %[[L]] : f32
// CHECK-NEXT:    memref.store %[[LE]], %arg2
// CHECK:         %[[HN:.*]] = arith.negf %[[H]] : f32
// CHECK-NEXT:    memref.store %[[HN]], %arg3
// CHECK-LABEL: func.func private @cpu_ext_fused_pair_exp_neg_{{[0-9]+}}(
// CHECK-SAME:    -> (tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK-SAME:    kernel.ops = ["pair", "exp", "neg"], kernel.score = 256 : i64

// With inline-unrealized=disable each graph op is its own generic: a chain of three
// consumers (add, relu in @bias as two generics) is applied one after the other.
// CHAIN-LABEL: func.func private @scale_epilogue_0(
// CHAIN:         %[[A:.*]] = arith.addf
// CHAIN:         %[[R:.*]] = arith.maximumf %[[A]]
// CHAIN-NEXT:    memref.store %[[R]]
// CHAIN-LABEL: func.func private @cpu_ext_fused_scale_add_relu_0(

// no-user-epilogue: the kernel is called as written and its consumers stay kernels.
// OFF-NOT: _epilogue_
// OFF-LABEL: func.func @bias(
// OFF-NEXT:    %[[K:.*]] = call @cpu_ext_fused_scale_0(%arg0) {braze.ops = ["scale"]}
// OFF-NEXT:    call @cpu_poi_fused_add_relu_{{[0-9]+}}(%[[K]], %arg1)

func.func private @scale(%x: memref<4x8xf32>, %out: memref<4x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %s = arith.constant 0.5 : f32
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %m = arith.mulf %v, %s : f32
      memref.store %m, %out[%i, %j] : memref<4x8xf32>
    }
    scf.reduce
  }
  return
}

func.func private @rows(%x: memref<4x8xf32>, %out: memref<4x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = vector.load %x[%i, %c0] : memref<4x8xf32>, vector<8xf32>
    %sq = arith.mulf %v, %v : vector<8xf32>
    vector.store %sq, %out[%i, %c0] : memref<4x8xf32>, vector<8xf32>
    scf.reduce
  }
  return
}

func.func private @pair(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %lo: memref<4x8xf32>, %hi: memref<4x8xf32>)
    attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %a = memref.load %x[%i, %j] : memref<4x8xf32>
      %b = memref.load %y[%i, %j] : memref<4x8xf32>
      %l = arith.minimumf %a, %b : f32
      %h = arith.maximumf %a, %b : f32
      memref.store %l, %lo[%i, %j] : memref<4x8xf32>
      memref.store %h, %hi[%i, %j] : memref<4x8xf32>
    }
  }
  return
}

func.func @bias(%x: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<4x8xf32> to memref<4x8xf32>
  %o = memref.alloc() : memref<4x8xf32>
  func.call @scale(%xb, %o) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4x8xf32> to tensor<4x8xf32>
  %a = "graph.add"(%r, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %y = "graph.relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

func.func @twice(%x: tensor<4x8xf32>, %res: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<4x8xf32> to memref<4x8xf32>
  %o = memref.alloc() : memref<4x8xf32>
  func.call @scale(%xb, %o) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4x8xf32> to tensor<4x8xf32>
  %rb = bufferization.to_buffer %r : tensor<4x8xf32> to memref<4x8xf32>
  %o2 = memref.alloc() : memref<4x8xf32>
  func.call @scale(%rb, %o2) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  %r2 = bufferization.to_tensor %o2 : memref<4x8xf32> to tensor<4x8xf32>
  %a = "graph.add"(%r2, %res) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a : tensor<4x8xf32>
}

func.func @vector(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<4x8xf32> to memref<4x8xf32>
  %o = memref.alloc() : memref<4x8xf32>
  func.call @rows(%xb, %o) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4x8xf32> to tensor<4x8xf32>
  %e = "graph.exp"(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

func.func @vector_inputs(%x: tensor<4x8xf32>, %b: tensor<8xf32>, %s: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<4x8xf32> to memref<4x8xf32>
  %o = memref.alloc() : memref<4x8xf32>
  func.call @rows(%xb, %o) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4x8xf32> to tensor<4x8xf32>
  %a = "graph.add"(%r, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %m = "graph.mul"(%a, %s) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %c = "graph.cmp"(%m, %a) {predicate = "gt"} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %y = "graph.select"(%c, %m, %a) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

func.func @vector_transposed(%x: tensor<4x8xf32>, %res: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<4x8xf32> to memref<4x8xf32>
  %o = memref.alloc() : memref<4x8xf32>
  func.call @rows(%xb, %o) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4x8xf32> to tensor<4x8xf32>
  %t = "graph.transpose"(%res) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  %a = "graph.add"(%r, %t) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %a : tensor<4x8xf32>
}

func.func @two_outputs(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %xb = bufferization.to_buffer %x : tensor<4x8xf32> to memref<4x8xf32>
  %yb = bufferization.to_buffer %y : tensor<4x8xf32> to memref<4x8xf32>
  %lo = memref.alloc() : memref<4x8xf32>
  %hi = memref.alloc() : memref<4x8xf32>
  func.call @pair(%xb, %yb, %lo, %hi) : (memref<4x8xf32>, memref<4x8xf32>, memref<4x8xf32>, memref<4x8xf32>) -> ()
  %l = bufferization.to_tensor %lo : memref<4x8xf32> to tensor<4x8xf32>
  %h = bufferization.to_tensor %hi : memref<4x8xf32> to tensor<4x8xf32>
  %le = "graph.exp"(%l) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %hn = "graph.neg"(%h) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %le, %hn : tensor<4x8xf32>, tensor<4x8xf32>
}
