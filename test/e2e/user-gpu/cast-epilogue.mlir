// GPU-form user kernels (decision 0027) whose graph epilogue ends in a cast: the chain's
// last element type becomes the output buffer's and the kernel's stores write it
// (docs/user-kernels.md, "Epilogue fusion"). A scalar store + bias cast to bf16, f16 and
// (scaled) i32; a vector<4xf32> store whose epilogue reads a transposed residual, so it
// runs lane by lane, cast to bf16; a cast to bf16 then a bf16 scale; and a cast to i1,
// refused (dtype-mismatch: a vector<Nxi1> store would pack bits). Each checked against
// the reference interpreter on random inputs on the CPU fused, with the epilogue refused
// and with no fusion; test/gpu/prepare.sh takes it as a CUDA case.
// RUN: braze check %s --target=cpu --seed 3 | FileCheck %s
// RUN: braze check %s --target=cpu --seed 4 --pipeline=cpu-no-user-epilogue | FileCheck %s
// RUN: braze check %s --target=cpu --seed 5 --pipeline=cpu-no-fusion | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --graph-decompose --graph-to-loops --inline-unrealized --form-kernels=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSE
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels | FileCheck %s --check-prefix=IR
// CHECK-NOT: FAIL
// CHECK: PASS @scalar_bf16 out0 8x64xbf16
// CHECK: PASS @scalar_f16 out0 8x64xf16
// CHECK: PASS @scalar_i32 out0 8x64xi32
// CHECK: PASS @lanes_bf16 out0 8x8xbf16
// CHECK: PASS @cast_then_scale out0 8x64xbf16
// CHECK: PASS @to_bool out0 8x64xi1
// CHECK: check passed
// FUSE-LABEL: user kernels @scalar_bf16:
// FUSE: output arg 1 epilogue 'add,cast': fused
// FUSE-LABEL: user kernels @scalar_f16:
// FUSE: output arg 1 epilogue 'add,cast': fused
// FUSE-LABEL: user kernels @scalar_i32:
// FUSE: output arg 1 epilogue 'mul,cast': fused
// FUSE-LABEL: user kernels @lanes_bf16:
// FUSE: output arg 1 epilogue 'add,cast': fused
// FUSE-LABEL: user kernels @cast_then_scale:
// FUSE: output arg 1 epilogue 'add,cast,mul': fused
// FUSE-LABEL: user kernels @to_bool:
// FUSE: output arg 1 epilogue 'cast': refused reason=dtype-mismatch

// out[r, c] = 2 x[r, c] - 1: one block a row, one thread a column.
func.func private @affine(%x: memref<8x64xf32>, %out: memref<8x64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 8>, block = array<i64: 64>}} {
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %r = gpu.block_id x
  %c = gpu.thread_id x
  %v = memref.load %x[%r, %c] : memref<8x64xf32>
  %m = arith.mulf %v, %two : f32
  %y = arith.subf %m, %one : f32
  memref.store %y, %out[%r, %c] : memref<8x64xf32>
  return
}

// out = x * x on vector<4xf32>: one block a row of 8, two threads a row.
func.func private @square8(%x: memref<8x8xf32>, %out: memref<8x8xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 8>, block = array<i64: 2>}} {
  %c4 = arith.constant 4 : index
  %r = gpu.block_id x
  %t = gpu.thread_id x
  %col = arith.muli %t, %c4 : index
  %v = vector.load %x[%r, %col] : memref<8x8xf32>, vector<4xf32>
  %s = arith.mulf %v, %v : vector<4xf32>
  vector.store %s, %out[%r, %col] : memref<8x8xf32>, vector<4xf32>
  return
}

func.func @scalar_bf16(%x: tensor<8x64xf32>, %b: tensor<64xf32>) -> tensor<8x64xbf16> {
  %xb = bufferization.to_buffer %x : tensor<8x64xf32> to memref<8x64xf32>
  %o = memref.alloc() : memref<8x64xf32>
  func.call @affine(%xb, %o) : (memref<8x64xf32>, memref<8x64xf32>) -> ()
  %p = bufferization.to_tensor %o : memref<8x64xf32> to tensor<8x64xf32>
  %a = "graph.add"(%p, %b) : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %y = "graph.cast"(%a) : (tensor<8x64xf32>) -> tensor<8x64xbf16>
  return %y : tensor<8x64xbf16>
}

func.func @scalar_f16(%x: tensor<8x64xf32>, %b: tensor<64xf32>) -> tensor<8x64xf16> {
  %xb = bufferization.to_buffer %x : tensor<8x64xf32> to memref<8x64xf32>
  %o = memref.alloc() : memref<8x64xf32>
  func.call @affine(%xb, %o) : (memref<8x64xf32>, memref<8x64xf32>) -> ()
  %p = bufferization.to_tensor %o : memref<8x64xf32> to tensor<8x64xf32>
  %a = "graph.add"(%p, %b) : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %y = "graph.cast"(%a) : (tensor<8x64xf32>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// i32(16 (2 x - 1)): truncation toward zero of values of a few units to a few tens.
func.func @scalar_i32(%x: tensor<8x64xf32>) -> tensor<8x64xi32> {
  %xb = bufferization.to_buffer %x : tensor<8x64xf32> to memref<8x64xf32>
  %o = memref.alloc() : memref<8x64xf32>
  func.call @affine(%xb, %o) : (memref<8x64xf32>, memref<8x64xf32>) -> ()
  %p = bufferization.to_tensor %o : memref<8x64xf32> to tensor<8x64xf32>
  %s = "graph.constant"() {value = dense<16.0> : tensor<f32>} : () -> tensor<f32>
  %m = "graph.mul"(%p, %s) : (tensor<8x64xf32>, tensor<f32>) -> tensor<8x64xf32>
  %y = "graph.cast"(%m) : (tensor<8x64xf32>) -> tensor<8x64xi32>
  return %y : tensor<8x64xi32>
}

// The residual read transposed (along the store's last index by rows): lane by lane.
func.func @lanes_bf16(%x: tensor<8x8xf32>, %res: tensor<8x8xf32>) -> tensor<8x8xbf16> {
  %xb = bufferization.to_buffer %x : tensor<8x8xf32> to memref<8x8xf32>
  %o = memref.alloc() : memref<8x8xf32>
  func.call @square8(%xb, %o) : (memref<8x8xf32>, memref<8x8xf32>) -> ()
  %p = bufferization.to_tensor %o : memref<8x8xf32> to tensor<8x8xf32>
  %t = "graph.transpose"(%res) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %a = "graph.add"(%p, %t) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = "graph.cast"(%a) : (tensor<8x8xf32>) -> tensor<8x8xbf16>
  return %y : tensor<8x8xbf16>
}

// Cast to bf16, then a bf16 scale per column: the chain goes on in bf16.
func.func @cast_then_scale(%x: tensor<8x64xf32>, %b: tensor<64xf32>, %g: tensor<64xbf16>) -> tensor<8x64xbf16> {
  %xb = bufferization.to_buffer %x : tensor<8x64xf32> to memref<8x64xf32>
  %o = memref.alloc() : memref<8x64xf32>
  func.call @affine(%xb, %o) : (memref<8x64xf32>, memref<8x64xf32>) -> ()
  %p = bufferization.to_tensor %o : memref<8x64xf32> to tensor<8x64xf32>
  %a = "graph.add"(%p, %b) : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %h = "graph.cast"(%a) : (tensor<8x64xf32>) -> tensor<8x64xbf16>
  %y = "graph.mul"(%h, %g) : (tensor<8x64xbf16>, tensor<64xbf16>) -> tensor<8x64xbf16>
  return %y : tensor<8x64xbf16>
}

func.func @to_bool(%x: tensor<8x64xf32>) -> tensor<8x64xi1> {
  %xb = bufferization.to_buffer %x : tensor<8x64xf32> to memref<8x64xf32>
  %o = memref.alloc() : memref<8x64xf32>
  func.call @affine(%xb, %o) : (memref<8x64xf32>, memref<8x64xf32>) -> ()
  %p = bufferization.to_tensor %o : memref<8x64xf32> to tensor<8x64xf32>
  %y = "graph.cast"(%p) : (tensor<8x64xf32>) -> tensor<8x64xi1>
  return %y : tensor<8x64xi1>
}

// The scalar store: the output argument is bf16, the bias added and the sum truncated
// before the store; the ext kernel returns the bf16 tensor.
// IR-LABEL: func.func private @affine_epilogue_0(%arg0: memref<8x64xf32>, %arg1: memref<8x64xbf16>, %arg2: memref<64xf32>)
// IR:         %[[A:.*]] = arith.addf
// IR-NEXT:    %[[H:.*]] = arith.truncf %[[A]] : f32 to bf16
// IR-NEXT:    memref.store %[[H]], %arg1[%{{.*}}, %{{.*}}] : memref<8x64xbf16>
// IR-LABEL: func.func private @cpu_ext_fused_affine_add_cast_0(
// IR-SAME:    -> tensor<8x64xbf16>
// IR-LABEL: func.func private @affine_epilogue_2(%arg0: memref<8x64xf32>, %arg1: memref<8x64xi32>)
// IR:         arith.fptosi %{{.*}} : f32 to i32
// IR-NEXT:    memref.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}] : memref<8x64xi32>
// Lane by lane: each lane's bf16 inserted into a vector<4xbf16>, stored once.
// IR-LABEL: func.func private @square8_epilogue_3(%arg0: memref<8x8xf32>, %arg1: memref<8x8xbf16>, %arg2: memref<8x8xf32>)
// IR:         %[[L0:.*]] = arith.truncf %{{.*}} : f32 to bf16
// IR:         %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<4xbf16>
// IR-NEXT:    %[[V0:.*]] = vector.insert %[[L0]], %[[Z]] [0] : bf16 into vector<4xbf16>
// IR-COUNT-3: vector.insert %{{.*}} : bf16 into vector<4xbf16>
// IR-NEXT:    vector.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}] : memref<8x8xbf16>, vector<4xbf16>
// The chain goes on in bf16 after the cast (the scale is a bf16 argument).
// IR-LABEL: func.func private @affine_epilogue_4(%arg0: memref<8x64xf32>, %arg1: memref<8x64xbf16>, %arg2: memref<64xf32>, %arg3: memref<64xbf16>)
// IR:         arith.truncf %{{.*}} : f32 to bf16
// IR:         arith.mulf %{{.*}}, %{{.*}} : bf16
// IR:         memref.store %{{.*}}, %arg1[%{{.*}}, %{{.*}}] : memref<8x64xbf16>
// The i1 cast is its own kernel: the user kernel's copy is not made.
// IR-NOT:     @affine_epilogue_5
