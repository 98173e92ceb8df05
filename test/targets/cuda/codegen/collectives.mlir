// cuda-codegen on partitioned programs (decision 0018): each collective becomes a
// kernel.collective step of the entry on its buffers, with its group's axes (indices
// into the mesh), the mesh's sizes and the op's attributes; the entry keeps braze.mesh
// and braze.partitioned for the runtime. Megatron's FFN partitioned over tp=2: the
// all_reduce reduces in place in the workspace (the row-split product's buffer dies
// there), then the residual add reads it. An all_gather along dim 1 (not the
// outermost: rows interleave) and an all_to_all get staging space in the workspace (a
// third operand: the gathered blocks; the packed send and receive pieces); an
// all_gather along dim 0 and an all_reduce into a result need none, the latter
// out of place into the out argument. The remark counts the collectives apart.
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(shard-partition{mesh=tp:2},graph-decompose,graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{matmul=simt remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

// CHECK-LABEL: func.func @ffn(
// CHECK-SAME: %{{.*}}: memref<8x64xf32>, %{{.*}}: memref<64x128xf32>, %{{.*}}: memref<128x64xf32>, %[[OUT:.*]]: memref<8x64xf32>, %[[WS:.*]]: memref<{{[0-9]+}}xi8>)
// CHECK-SAME: braze.entry, braze.mesh = {{\[}}["tp", 2]], {{.*}}braze.partitioned
// CHECK: gpu.launch_func @braze_kernels::@cuda_tem_fused_matmul_{{[0-9]+}} {{.*}} args({{.*}}, %[[Y:.*]] : memref<8x64xf32>)
// CHECK-NEXT: "kernel.collective"(%[[Y]], %[[Y]]) {axes = array<i64: 0>, concat_dim = -1 : i64, dim = -1 : i64, kind = "all_reduce", mesh_shape = array<i64: 2>, reduction = "sum", split_dim = -1 : i64, unsigned = 0 : i64} : (memref<8x64xf32>, memref<8x64xf32>) -> ()
// CHECK-NEXT: gpu.launch_func @braze_kernels::@cuda_poi_fused_add_{{[0-9]+}} {{.*}} args(%[[Y]] : memref<8x64xf32>, %{{.*}} : memref<8x64xf32>, %[[OUT]] : memref<8x64xf32>)
func.func @ffn(%x: tensor<8x64xf32>,
               %w1: tensor<64x256xf32> {braze.sharding = [[], ["tp"]]},
               %w2: tensor<256x64xf32> {braze.sharding = [["tp"], []]}) -> tensor<8x64xf32>
    attributes {braze.mesh = [["tp", 2]]} {
  %h = "graph.matmul"(%x, %w1) : (tensor<8x64xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
  %g = "graph.gelu"(%h) {approximate = "none"} : (tensor<8x256xf32>) -> tensor<8x256xf32>
  %y = "graph.matmul"(%g, %w2) : (tensor<8x256xf32>, tensor<256x64xf32>) -> tensor<8x64xf32>
  %r = "graph.add"(%y, %x) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %r : tensor<8x64xf32>
}

// REMARK: remark: cuda-codegen: entry @ffn: {{.*}}, 3 kernel call(s), 1 collective(s)
