// cpu-codegen, ext kernels (packed user-kernel calls, docs/user-kernels.md): the
// kernel becomes destination-passing like every kernel (tensor arguments -> memrefs,
// then one out memref per result) and its body is the call of the user kernel with
// the output buffer replaced by the out argument (and a pre-initializing memref.copy
// into it kept). The user kernel is left as written. Callees that are not user
// kernels on memrefs, and other ops in an ext kernel, are refused at the op.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen | FileCheck %s
// RUN: not braze-opt --cpu=x86-64-v4 %S/../../../e2e/user-kernel-linalg.mlir --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen 2>&1 | FileCheck %s --check-prefix=TENSOR

// CHECK-LABEL: func.func private @shift(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>) attributes {braze.user_kernel}
// CHECK-LABEL: func.func private @cpu_ext_fused_shift_0(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>, %arg2: memref<4x8xf32>)
// CHECK-SAME:    braze.num_inputs = 2 : i64, braze.num_outputs = 1 : i64, kernel.kind = "ext"
// CHECK-NEXT:    memref.copy %arg1, %arg2 : memref<4x8xf32> to memref<4x8xf32>
// CHECK-NEXT:    call @shift(%arg0, %arg2) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @model(%arg0: memref<4x8xf32>, %arg1: memref<4x8xf32>, %arg2: memref<4x8xf32>, %arg3: memref<{{[0-9]+}}xi8>)
// CHECK:         call @cpu_ext_fused_shift_0(%arg0, %arg1, %[[T:.*]]) :
// CHECK:         call @cpu_poi_fused_exp_1(%[[T]], %arg2)

// TENSOR: error: cpu-codegen: ext kernel @cpu_ext_fused_bias_scale_{{[0-9]+}}: the callee is not a user kernel on memrefs (a func.func marked braze.user_kernel, docs/user-kernels.md): 'func.call'

// Writes rows 0..1 only: the rest keeps the copied-in values.
func.func private @shift(%x: memref<4x8xf32>, %out: memref<4x8xf32>) attributes {braze.user_kernel} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      memref.store %v, %out[%i, %j] : memref<4x8xf32>
    }
  }
  return
}

func.func @model(%x: tensor<4x8xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %xb = bufferization.to_buffer %x : tensor<4x8xf32> to memref<4x8xf32>
  %ib = bufferization.to_buffer %init : tensor<4x8xf32> to memref<4x8xf32>
  %o = memref.alloc() : memref<4x8xf32>
  memref.copy %ib, %o : memref<4x8xf32> to memref<4x8xf32>
  func.call @shift(%xb, %o) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4x8xf32> to tensor<4x8xf32>
  %e = "graph.exp"(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
