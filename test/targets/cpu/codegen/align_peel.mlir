// Alignment peeling (cpu-codegen align-peel, default on): a kernel with rows of 256+
// elements is emitted twice under one scf.if: as is when all its arguments are 64-byte
// aligned (static trip counts, which LLVM unrolls fully), and peeled otherwise: the
// innermost loop of a row runs in two parts, [0, p) and [p, n), p being how many elements lie
// before the anchor's next 64-byte boundary (its aligned pointer, plus the row's linear
// index, mod 16 f32 lanes), so the vector loop runs aligned whatever the caller's
// alignment (numpy's buffers are 16-byte aligned). The anchor is the output for
// pointwise loops, the first contiguously read input for reductions; reductions carry
// their accumulators from the first part into the second. Rows under 256 elements and
// align-peel=false keep one loop. Numerics: the kernel called on buffers at every
// offset of 0..15 floats from a 64-byte boundary.
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen=row-jam=1 | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen="row-jam=1 align-peel=false" | FileCheck %s --check-prefix=OFF
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen=remarks 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: not braze-opt --cpu=x86-64-v4 %s --cpu-codegen=align-peel=maybe 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: braze-opt --cpu=x86-64-v4 %s --cpu-codegen --math-approx -o %t.mlir
// RUN: sh %S/Inputs/lower.sh %t.mlir %S/Inputs/align_main.c %t.exe
// RUN: %t.exe | FileCheck %s --check-prefix=NUM

// CHECK-LABEL: func.func private @cpu_poi_fused_add_0
// CHECK-NOT: extract_aligned_pointer
// CHECK: scf.for %{{.*}} = %c0 to %c40 step %c1 {
// CHECK-NOT: scf.for
// CHECK: return

// CHECK-LABEL: func.func private @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0
// CHECK-SAME: (%[[X:.*]]: memref<36x300xf32>, %[[Y:.*]]: memref<36x300xf32>)
// CHECK: %[[XA:.*]] = memref.extract_aligned_pointer_as_index %[[X]] : memref<36x300xf32> -> index
// CHECK-NEXT: %[[YA:.*]] = memref.extract_aligned_pointer_as_index %[[Y]] : memref<36x300xf32> -> index
// CHECK-NEXT: %[[OR:.*]] = arith.ori %[[XA]], %[[YA]] : index
// CHECK-NEXT: %[[LOW:.*]] = arith.remui %[[OR]], %c64 : index
// CHECK-NEXT: %[[ALIGNED:.*]] = arith.cmpi eq, %[[LOW]], %c0 : index
// CHECK-NEXT: scf.if %[[ALIGNED]] {
// CHECK-NEXT: scf.parallel
// CHECK-NOT: arith.minui
// CHECK: } else {
// CHECK-NEXT: scf.parallel (%[[I:.*]]) = (%c0) to (%c36) step (%c1) {
// CHECK: memref.extract_aligned_pointer_as_index %[[X]] : memref<36x300xf32> -> index
// CHECK: arith.remui %{{.*}}, %c16 : index
// CHECK: %[[P:.*]] = arith.minui %{{.*}}, %c300 : index
// CHECK: %[[M1:.*]] = scf.for %{{.*}} = %c0 to %[[P]] step %c1 iter_args(%{{.*}} = %{{.*}}) -> (f32) {
// CHECK: %[[M2:.*]] = scf.for %{{.*}} = %[[P]] to %c300 step %c1 iter_args(%{{.*}} = %[[M1]]) -> (f32) {
// CHECK: arith.subf %{{.*}}, %[[M2]] : f32
// CHECK: memref.extract_aligned_pointer_as_index %[[Y]] : memref<36x300xf32> -> index
// CHECK: %[[Q:.*]] = arith.minui %{{.*}}, %c300 : index
// CHECK: scf.for %{{.*}} = %c0 to %[[Q]] step %c1 {
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK: scf.for %{{.*}} = %[[Q]] to %c300 step %c1 {
// CHECK: memref.store %{{.*}}, %[[Y]]
// CHECK: scf.reduce
// CHECK: return

// OFF-NOT: extract_aligned_pointer
// REMARK: kernel @cpu_poi_fused_add_0: {{.*}} kernel buffer(s){{$}}
// REMARK: kernel @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0: {{.*}}; aligned and peeled versions
// BAD: option 'align-peel' expects true or false, got 'maybe'
// NUM: offsets 0..15: OK

func.func private @cpu_poi_fused_add_0(%x: tensor<8x40xf32>) -> tensor<8x40xf32> attributes {kernel.kind = "poi", kernel.ops = ["add"]} {
  %e = tensor.empty() : tensor<8x40xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x40xf32>) outs(%e : tensor<8x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<8x40xf32>
  return %r : tensor<8x40xf32>
}
func.func @short(%x: tensor<8x40xf32>) -> tensor<8x40xf32> {
  %0 = call @cpu_poi_fused_add_0(%x) : (tensor<8x40xf32>) -> tensor<8x40xf32>
  return %0 : tensor<8x40xf32>
}
func.func private @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0(%x: tensor<36x300xf32>) -> tensor<36x300xf32>
    attributes {kernel.kind = "red", kernel.ops = ["reduce_max", "sub", "exp", "reduce_sum", "div"]} {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<36x1xf32>
  %f0 = linalg.fill ins(%ninf : f32) outs(%e0 : tensor<36x1xf32>) -> tensor<36x1xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<36x300xf32>) outs(%f0 : tensor<36x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<36x1xf32>
  %e1 = tensor.empty() : tensor<36x300xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : tensor<36x300xf32>, tensor<36x1xf32>) outs(%e1 : tensor<36x300xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %s = arith.subf %a, %m : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  } -> tensor<36x300xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<36x1xf32>) -> tensor<36x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<36x300xf32>) outs(%f1 : tensor<36x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<36x1xf32>
  %div = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<36x300xf32>, tensor<36x1xf32>) outs(%e1 : tensor<36x300xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %d = arith.divf %a, %s : f32
    linalg.yield %d : f32
  } -> tensor<36x300xf32>
  return %div : tensor<36x300xf32>
}
func.func @softmax(%x: tensor<36x300xf32>) -> tensor<36x300xf32> {
  %0 = call @cpu_red_fused_reduce_max_sub_exp_reduce_sum_div_0(%x) : (tensor<36x300xf32>) -> tensor<36x300xf32>
  return %0 : tensor<36x300xf32>
}
