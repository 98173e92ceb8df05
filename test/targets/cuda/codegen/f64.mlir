// cuda-codegen on f64 (ONNX DOUBLE): f64 is computed natively, never widened or
// narrowed (cu_compute_type keeps it; only f16/bf16 go through f32). An element
// kernel, a row kernel (shuffles and workgroup buffers of f64, 4-lane vector loads of
// 32 bytes) and the SIMT matmul (f64 shared tiles and accumulators); the PTX uses f64
// arithmetic and FMAs.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// Nothing in the module is f32, and no conversion is emitted:
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen,canonicalize,cse)' | FileCheck %s --check-prefix=WIDE
// RUN: braze-opt --cpu=x86-64-v4 %s --pipeline=cuda-default --pass-pipeline='builtin.module(nvvm-attach-target{chip=sm_90a features=+ptx80},gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1},convert-vector-to-llvm,reconcile-unrealized-casts),gpu-module-to-binary{format=isa})' | FileCheck %s --check-prefix=PTX

func.func @gelu_f64(%x: tensor<7x37xf64>, %b: tensor<37xf64>) -> tensor<7x37xf64> {
  %0 = "graph.add"(%x, %b) : (tensor<7x37xf64>, tensor<37xf64>) -> tensor<7x37xf64>
  %1 = "graph.gelu"(%0) {approximate = "tanh"} : (tensor<7x37xf64>) -> tensor<7x37xf64>
  return %1 : tensor<7x37xf64>
}

func.func @softmax_f64(%x: tensor<64x256xf64>) -> tensor<64x256xf64> {
  %0 = "graph.softmax"(%x) {dim = 1 : i64} : (tensor<64x256xf64>) -> tensor<64x256xf64>
  return %0 : tensor<64x256xf64>
}

func.func @matmul_f64(%a: tensor<64x32xf64>, %b: tensor<32x48xf64>) -> tensor<64x48xf64> {
  %0 = "graph.matmul"(%a, %b) : (tensor<64x32xf64>, tensor<32x48xf64>) -> tensor<64x48xf64>
  return %0 : tensor<64x48xf64>
}

// REMARK: kernel @cuda_poi_fused_add_gelu_0: element kernel
// REMARK: kernel @cuda_per_fused_softmax_1: row kernel, grid (64, 1, 1), block 64, vector width 4
// REMARK: kernel @cuda_tem_fused_matmul_2: matmul kernel

// WIDE-NOT: {{f32|arith.extf|arith.truncf}}
// CHECK-LABEL: gpu.func @cuda_poi_fused_add_gelu_0(
// CHECK-SAME: memref<7x37xf64>, %{{[^:]*}}: memref<37xf64>, %{{[^:]*}}: memref<7x37xf64>) kernel
// CHECK: %[[X:.*]] = memref.load %{{.*}} : memref<7x37xf64>
// CHECK: %[[B:.*]] = memref.load %{{.*}} : memref<37xf64>
// CHECK: arith.addf %[[X]], %[[B]] : f64
// CHECK: math.tanh %{{.*}} : f64
// CHECK: memref.store %{{.*}} : memref<7x37xf64>
// CHECK-LABEL: gpu.func @cuda_per_fused_softmax_1(
// CHECK-SAME: workgroup(%{{[^:]*}} : memref<2xf64, #gpu.address_space<workgroup>>
// CHECK: vector.load %{{.*}} {alignment = 32 : i64} : memref<64x256xf64>, vector<4xf64>
// CHECK: gpu.shuffle  xor %{{.*}} : f64
// CHECK: math.exp %{{.*}} : f64
// CHECK: arith.divf %{{.*}} : f64
// CHECK: vector.store %{{.*}} {alignment = 32 : i64} : memref<64x256xf64>, vector<4xf64>
// CHECK-LABEL: gpu.func @cuda_tem_fused_matmul_2(
// CHECK-SAME: workgroup(%{{[^:]*}} : memref<1024xf64, #gpu.address_space<workgroup>>, %{{[^:]*}} : memref<1024xf64, #gpu.address_space<workgroup>>)
// CHECK: scf.for {{.*}} -> (f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64)
// CHECK: arith.mulf %{{.*}} fastmath<contract> : f64
// CHECK: arith.addf %{{.*}} fastmath<contract> : f64
// CHECK: memref.store %{{.*}} : memref<64x48xf64>

// PTX: .entry cuda_poi_fused_add_gelu_0
// PTX: add.rn.f64
// PTX: st.global.b64
// PTX: .entry cuda_per_fused_softmax_1
// PTX: ld.global.v2.b64
// PTX: div.rn.f64
// PTX: .entry cuda_tem_fused_matmul_2
// PTX: fma.rn.f64
