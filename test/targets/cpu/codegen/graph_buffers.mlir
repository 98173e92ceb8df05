// The entry function: intermediates in buffers handed out by liveness (a and f share
// buffer 0 although their types differ) and laid out in one workspace argument (the
// two buffers are alive at once: offsets 0 and 40000, 80000 bytes), graph results
// written in place by their kernel, a result that is an input or returned twice filled
// by memref.copy; a reshape read through floordiv/mod index arithmetic; a 1-D pointwise
// kernel split into parallel chunks.
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen=remarks 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen -o %t.mlir
// RUN: sh %S/Inputs/lower.sh %t.mlir %S/Inputs/graph_buffers_main.c %t.exe
// RUN: %t.exe | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func private @k_flat
// CHECK: scf.parallel (%[[C:.*]]) = (%c0) to (%c3) step (%c1) {
// CHECK: %[[LB:.*]] = arith.muli %[[C]], %c4096 : index
// CHECK: %[[UB:.*]] = arith.minui
// CHECK: scf.for %[[P:.*]] = %[[LB]] to %[[UB]] step %c1 {
// CHECK: %[[R:.*]] = arith.divui %[[P]], %c100 : index
// CHECK: %[[M:.*]] = arith.remui %[[P]], %c100 : index
// CHECK: memref.load %arg0[%[[R]], %[[M]]] : memref<100x100xf32>
// CHECK: memref.store %{{.*}}, %arg1[%[[P]]] : memref<10000xf32>

// CHECK-LABEL: func.func @graph
// CHECK-SAME: (%[[X:.*]]: memref<100x100xf32>, %[[O0:.*]]: memref<100x100xf32>, %[[O1:.*]]: memref<100x100xf32>, %[[O2:.*]]: memref<100x100xf32>, %[[WS:.*]]: memref<80000xi8>)
// CHECK-SAME: attributes {braze.entry, braze.num_inputs = 1 : i64, braze.num_outputs = 3 : i64, braze.workspace_bytes = 80000 : i64}
// CHECK-NOT: memref.alloc
// CHECK: %[[A:.*]] = memref.view %[[WS]][%c0][] : memref<80000xi8> to memref<100x100xf32>
// CHECK-NEXT: call @k_scale(%[[X]], %[[A]])
// CHECK-NEXT: %[[B:.*]] = memref.view %[[WS]][%c40000][] : memref<80000xi8> to memref<100x100xf32>
// CHECK-NEXT: call @k_scale(%[[A]], %[[B]])
// CHECK-NEXT: %[[F:.*]] = memref.view %[[WS]][%c0][] : memref<80000xi8> to memref<10000xf32>
// CHECK-NEXT: call @k_flat(%[[B]], %[[F]])
// CHECK-NEXT: call @k_unflat_add(%[[F]], %[[X]], %[[O0]])
// CHECK-NEXT: memref.copy %[[X]], %[[O1]] : memref<100x100xf32> to memref<100x100xf32>
// CHECK-NEXT: memref.copy %[[O0]], %[[O2]] : memref<100x100xf32> to memref<100x100xf32>
// CHECK-NOT: memref.dealloc
// CHECK: return

// REMARK: remark: cpu-codegen: kernel @k_flat: 1 phase(s); [0] parallel chunks of 10000, 1 item(s)
// REMARK: remark: cpu-codegen: entry @graph: peak intermediate bytes 80000 in 2 buffer(s), workspace 80000 bytes, 4 kernel call(s)
// NUM: graph: OK

func.func private @k_scale(%x: tensor<100x100xf32>) -> tensor<100x100xf32> attributes {kernel.kind = "poi", kernel.ops = ["mul"]} {
  %e = tensor.empty() : tensor<100x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<100x100xf32>) outs(%e : tensor<100x100xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 2.0 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<100x100xf32>
  return %r : tensor<100x100xf32>
}
func.func private @k_flat(%x: tensor<100x100xf32>) -> tensor<10000xf32> attributes {kernel.kind = "poi", kernel.ops = ["reshape", "add"]} {
  %e = tensor.empty() : tensor<10000xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 floordiv 100, d0 mod 100)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<100x100xf32>) outs(%e : tensor<10000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 1.0 : f32
    %m = arith.addf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<10000xf32>
  return %r : tensor<10000xf32>
}
func.func private @k_unflat_add(%f: tensor<10000xf32>, %x: tensor<100x100xf32>) -> tensor<100x100xf32> attributes {kernel.kind = "poi", kernel.ops = ["reshape", "add"]} {
  %e = tensor.empty() : tensor<100x100xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 * 100 + d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%f, %x : tensor<10000xf32>, tensor<100x100xf32>) outs(%e : tensor<100x100xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.addf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<100x100xf32>
  return %r : tensor<100x100xf32>
}
func.func @graph(%x: tensor<100x100xf32>) -> (tensor<100x100xf32>, tensor<100x100xf32>, tensor<100x100xf32>) {
  %a = call @k_scale(%x) : (tensor<100x100xf32>) -> tensor<100x100xf32>
  %b = call @k_scale(%a) : (tensor<100x100xf32>) -> tensor<100x100xf32>
  %f = call @k_flat(%b) : (tensor<100x100xf32>) -> tensor<10000xf32>
  %d = call @k_unflat_add(%f, %x) : (tensor<10000xf32>, tensor<100x100xf32>) -> tensor<100x100xf32>
  return %d, %x, %d : tensor<100x100xf32>, tensor<100x100xf32>, tensor<100x100xf32>
}
