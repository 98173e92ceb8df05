// cuda-codegen element kernels: one thread per `vec` output elements. bf16 is loaded,
// widened to f32 for the math and narrowed at the store; 7x37 elements leave a tail
// (an scf.if on the flat index) and no 128-bit lanes (37 is odd). A reduction over
// the first dim is a serial loop per output element, 4 lanes per thread.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{block=64 vec=1},canonicalize,cse)' | FileCheck %s --check-prefix=OPTS
// RUN: braze-opt --cpu=x86-64-v4 %s --pipeline=cuda-default --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a features=+ptx80},gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},convert-vector-to-llvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX

func.func @gelu_bf16(%x: tensor<7x37xbf16>, %b: tensor<37xbf16>) -> tensor<7x37xbf16> {
  %0 = "graph.add"(%x, %b) : (tensor<7x37xbf16>, tensor<37xbf16>) -> tensor<7x37xbf16>
  %1 = "graph.gelu"(%0) {approximate = "tanh"} : (tensor<7x37xbf16>) -> tensor<7x37xbf16>
  return %1 : tensor<7x37xbf16>
}

func.func @colsum(%x: tensor<1000x36xf32>) -> tensor<36xf32> {
  %0 = "graph.reduce_sum"(%x) {dims = array<i64: 0>, keepdim = false} : (tensor<1000x36xf32>) -> tensor<36xf32>
  return %0 : tensor<36xf32>
}

func.func @relu_wide(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %0 = "graph.relu"(%x) : (tensor<64x256xf32>) -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}

// REMARK: kernel @cuda_poi_fused_add_gelu_0: element kernel, grid (2, 1, 1), block 256, vector width 1
// REMARK: kernel @cuda_per_fused_reduce_sum_1: element kernel, grid (1, 1, 1), block 32, vector width 4
// REMARK: kernel @cuda_poi_fused_relu_2: element kernel, grid (16, 1, 1), block 256, vector width 4

// CHECK-LABEL: gpu.func @cuda_poi_fused_add_gelu_0(
// CHECK-SAME: %[[X:[^:]*]]: memref<7x37xbf16>, %[[B:[^:]*]]: memref<37xbf16>, %[[O:[^:]*]]: memref<7x37xbf16>) kernel
// CHECK: %[[T:.*]] = gpu.thread_id x
// CHECK: %[[BL:.*]] = gpu.block_id x
// CHECK: %[[F:.*]] = arith.addi %{{.*}}, %[[T]] : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[F]], %c259 : index
// CHECK: scf.if %[[IN]] {
// CHECK: %[[J:.*]] = arith.remui %[[F]], %c37 : index
// CHECK: %[[I:.*]] = arith.divui %[[F]], %c37 : index
// CHECK: %[[XV:.*]] = memref.load %[[X]][%[[I]], %[[J]]] : memref<7x37xbf16>
// CHECK: arith.extf %[[XV]] : bf16 to f32
// CHECK: memref.load %[[B]][%[[J]]] : memref<37xbf16>
// CHECK: math.tanh %{{.*}} : f32
// CHECK: %[[R:.*]] = arith.truncf %{{.*}} : f32 to bf16
// CHECK: memref.store %[[R]], %[[O]][%[[I]], %[[J]]] : memref<7x37xbf16>

// CHECK-LABEL: gpu.func @cuda_per_fused_reduce_sum_1(
// CHECK-COUNT-4: scf.for %{{.*}} = %c0 to %c1000 step %c1 iter_args(%{{.*}} = %cst) -> (f32) {
// CHECK: vector.from_elements
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<36xf32>, vector<4xf32>

// CHECK-LABEL: gpu.func @cuda_poi_fused_relu_2(
// no tail: 16 blocks x 256 threads x 4 lanes cover 64x256 exactly
// CHECK-NOT: scf.if
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<64x256xf32>, vector<4xf32>
// CHECK: arith.maximumf
// CHECK: vector.store

// OPTS-LABEL: gpu.func @cuda_poi_fused_relu_2(
// OPTS-SAME: braze.grid = array<i64: 256, 1, 1>
// OPTS-SAME: known_block_size = array<i32: 64, 1, 1>
// OPTS-NOT: vector.load
// OPTS: memref.load

// The relu kernel as PTX has one 128-bit load and one 128-bit store per thread.
// PTX: .entry cuda_poi_fused_relu_2(
// PTX: ld.global.v4.b32
// PTX: max.NaN.f32
// PTX: st.global.v4.b32
