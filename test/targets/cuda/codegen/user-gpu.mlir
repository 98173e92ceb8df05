// cuda-codegen, user kernels in the GPU form (braze.gpu_launch; docs/user-kernels.md "GPU
// form on each target"): the ext kernel becomes a gpu.func whose body is the user's
// (its arguments replaced by the kernel's memrefs, a fused epilogue included), its
// workgroup allocas workgroup attributions, launched with the attribute's grid and
// block. gpu ids, barriers, shuffles and atomics stay for the GPU -> NVVM lowering
// (test/targets/user-gpu/compile-cuda.test compiles them to PTX).
// RUN: braze-opt --cpu=x86-64-v4 %S/../../user-gpu/Inputs/matmul.mlir --pass-pipeline='builtin.module(graph-to-loops,inline-unrealized,form-kernels{target=cuda},cuda-codegen{remarks},canonicalize,cse)' 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %S/../../user-gpu/Inputs/histogram.mlir --pipeline=cuda-default | FileCheck %s --check-prefix=HIST
// RUN: braze-opt --cpu=x86-64-v4 %S/../../user-gpu/Inputs/softmax.mlir --pipeline=cuda-default | FileCheck %s --check-prefix=SM
// RUN: not braze-opt --cpu=x86-64-v4 %S/../../user-gpu/Inputs/refusals.mlir --split-input-file --pipeline=cuda-default 2>&1 | FileCheck %s --check-prefix=REFUSE

// CHECK-LABEL: func.func @matmul_bias_relu(
// CHECK:         gpu.launch_func  @braze_kernels::@cuda_ext_fused_tiled_matmul_add_relu_0 blocks in (%c4, %c4, %c1) threads in (%c16, %c16, %c1)  args(%arg0 : memref<64x64xf32>, %arg1 : memref<64x64xf32>, %arg2 : memref<64xf32>, %arg3 : memref<64x64xf32>)
// CHECK:       gpu.func @cuda_ext_fused_tiled_matmul_add_relu_0(%arg0: memref<64x64xf32>, %arg1: memref<64x64xf32>, %arg2: memref<64xf32>, %arg3: memref<64x64xf32>) workgroup(%[[AS:.*]] : memref<16x16xf32, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<16x16xf32, #gpu.address_space<workgroup>>) kernel
// CHECK-SAME:    braze.grid = array<i64: 4, 4, 1>
// CHECK-SAME:    known_block_size = array<i32: 16, 16, 1>
// CHECK:         %[[TX:.*]] = gpu.thread_id  x
// CHECK-NEXT:    %[[TY:.*]] = gpu.thread_id  y
// CHECK:         scf.for %{{.*}} = %c0 to %c64 step %c16 iter_args
// CHECK:           memref.store %{{.*}}, %[[AS]][%[[TY]], %[[TX]]] : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.store %{{.*}}, %[[BS]][%[[TY]], %[[TX]]] : memref<16x16xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      gpu.barrier
// CHECK:           gpu.barrier
// CHECK-NEXT:      scf.yield
// the bias (the kernel's extra argument) and the relu at the store
// CHECK:         memref.load %arg2[
// CHECK:         arith.maximumf
// CHECK:         memref.store %{{.*}}, %arg3[
// CHECK-NEXT:    gpu.return

// REMARK: remark: cuda-codegen: kernel @cuda_ext_fused_tiled_matmul_add_relu_0: user kernel @tiled_matmul_epilogue_0 in the GPU form, grid (4, 4, 1), block (16, 16, 1), 2 workgroup buffer(s) of 2048 bytes

// The zeroed histogram: the entry copies the first kernel's result, then launches; the
// GPU-form kernel's workgroup histogram and its atomics into both memories.
// HIST-LABEL: func.func @histogram_norm(
// HIST:         gpu.launch_func  @braze_kernels::@cuda_ext_fused_zero16_0
// HIST:         memref.copy
// HIST-NEXT:    gpu.launch_func  @braze_kernels::@cuda_ext_fused_histogram_1 blocks in (%c4, %c1, %c1) threads in (%c256, %c1, %c1)
// HIST:       gpu.func @cuda_ext_fused_histogram_1({{.*}}) workgroup(%[[WG:.*]] : memref<16xf32, #gpu.address_space<workgroup>>) kernel
// HIST:         memref.atomic_rmw addf %{{.*}}, %[[WG]][
// HIST:         gpu.barrier
// HIST:         memref.atomic_rmw addf %{{.*}}, %arg2[

// SM:         gpu.func @cuda_ext_fused_warp_softmax_mul_0(
// SM-SAME:      braze.grid = array<i64: 16, 1, 1>
// SM-SAME:      known_block_size = array<i32: 32, 1, 1>
// SM:           gpu.shuffle  xor
// SM-COUNT-5:   gpu.shuffle  xor

// The form is checked first by form-kernels at the call (passes/fusion/user-kernel-effects.c);
// what passes it is the target's to refuse.
// A barrier that not every thread of the block reaches (control on the thread id, also
// through a load at the thread's index carried by a loop; targets/common/gpu-uniform.c):
// an error at the barrier, a note at the control.
// REFUSE: refusals.mlir:9:5: error: cuda-codegen: ext kernel @cuda_ext_fused_if_barrier_0: user kernel in the GPU form: a gpu.barrier under an scf.if whose condition depends on the thread (not every thread of the block reaches it, undefined on the GPU; expected control on constants, arguments, block ids and arith on them)
// REFUSE-NEXT: refusals.mlir:8:3: note: cuda-codegen: the thread-dependent 'scf.if'
// REFUSE: refusals.mlir:31:5: error: cuda-codegen: ext kernel @cuda_ext_fused_loop_barrier_0: user kernel in the GPU form: a gpu.barrier under an scf.for whose bounds depend on the thread
// REFUSE-NEXT: refusals.mlir:30:3: note: cuda-codegen: the thread-dependent 'scf.for'
// REFUSE: refusals.mlir:62:3: error: form-kernels: user kernel @par is GPU-form (braze.gpu_launch): scf.parallel is not allowed, the threads are the parallelism
// REFUSE: refusals.mlir:79:3: error: form-kernels: user kernel @big_block braze.gpu_launch block has 2048 threads (at most 1024)
// REFUSE: refusals.mlir:86:1: error: cuda-codegen: ext kernel @cuda_ext_fused_big_shared_0: user kernel in the GPU form: 65536 bytes of workgroup memory, expected at most 49152 (static shared memory)
// REFUSE: refusals.mlir:121:3: error: form-kernels: user kernel @private_alloca memref.alloca must be in #gpu.address_space<workgroup> (GPU form: shared memory of the block)
// REFUSE: refusals.mlir:138:3: error: form-kernels: user kernel @bad_launch braze.gpu_launch 'grid' entry 0 is 0 (must be positive)
// REFUSE: refusals.mlir:180:3: error: cuda-codegen: ext kernel @cuda_ext_fused_outer_0: top-level 'func.call': the user kernel maps to the grid only as one top-level scf.parallel (constants before it)
// REFUSE: refusals.mlir:208:5: error: cuda-codegen: ext kernel @cuda_ext_fused_carried_barrier_0: user kernel in the GPU form: a gpu.barrier under an scf.if whose condition depends on the thread
// REFUSE-NEXT: refusals.mlir:207:3: note: cuda-codegen: the thread-dependent 'scf.if'
// REFUSE: refusals.mlir:233:5: error: cuda-codegen: ext kernel @cuda_ext_fused_while_barrier_0: user kernel in the GPU form: a gpu.barrier under an scf.while whose condition depends on the thread
// REFUSE-NEXT: refusals.mlir:228:8: note: cuda-codegen: the thread-dependent 'scf.while'

