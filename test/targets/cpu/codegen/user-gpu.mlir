// cpu-codegen, user kernels in the GPU form (braze.gpu_launch; docs/user-kernels.md "GPU
// form on each target"): the kernel is rewritten in a clone @K_cpu: blocks as an
// scf.parallel over the grid, the block's threads as loops (phases) split at each
// gpu.barrier and gpu.shuffle, values live across a split in per-thread buffers, a
// uniform scf.for (the matmul's K loop, the butterfly's offsets) kept outside the thread
// loops with its iter_args in buffers; workgroup allocas one buffer per block.
// The examples are test/targets/user-gpu/Inputs (run against numpy by run-cpu.test).
// RUN: braze-opt --cpu=x86-64-v4 %S/../../user-gpu/Inputs/matmul.mlir --pass-pipeline='builtin.module(graph-to-loops,inline-unrealized,form-kernels,cpu-codegen,canonicalize,cse)' | FileCheck %s --check-prefix=MM
// RUN: braze-opt --cpu=x86-64-v4 %S/../../user-gpu/Inputs/softmax.mlir --pass-pipeline='builtin.module(graph-to-loops,inline-unrealized,form-kernels,cpu-codegen,canonicalize,cse)' | FileCheck %s --check-prefix=SM
// RUN: not braze-opt --cpu=x86-64-v4 %S/../../user-gpu/Inputs/refusals.mlir --split-input-file --pipeline=cpu-default 2>&1 | FileCheck %s --check-prefix=REFUSE

// The GPU-form original is gone; the ext kernel calls the clone.
// MM-NOT:     braze.gpu_launch
// MM-LABEL: func.func private @tiled_matmul_epilogue_0_cpu(
// MM-SAME:      braze.user_epilogue_of = @tiled_matmul, braze.user_kernel
// MM:         scf.parallel (%[[BX:.*]], %[[BY:.*]]) = (%c0, %c0) to (%c4, %c4)
// the two shared tiles, per block; the accumulator and the inner sum per thread (row
// and col, index arithmetic on the thread ids, are recomputed in each phase instead)
// MM-NEXT:      %[[AS:.*]] = memref.alloca() : memref<16x16xf32>
// MM-NEXT:      %[[BS:.*]] = memref.alloca() : memref<16x16xf32>
// MM-NEXT:      %[[ACC:.*]] = memref.alloca() : memref<256xf32>
// MM-NEXT:      %[[S2:.*]] = memref.alloca() : memref<256xf32>
// uniform: the block's row and column offsets, outside the thread loops
// MM-NEXT:      %[[R0:.*]] = arith.muli %[[BY]], %c16
// MM-NEXT:      %[[C0:.*]] = arith.muli %[[BX]], %c16
// the iter_arg's initial value
// MM-NEXT:      scf.for %[[T:.*]] = %c0 to %c256 step %c1 {
// MM-NEXT:        memref.store %cst, %[[ACC]][%[[T]]] : memref<256xf32>
// MM-NEXT:      }
// the K loop outside the thread loops; inside it, one phase per barrier
// MM-NEXT:      scf.for %[[K:.*]] = %c0 to %c64 step %c16 {
// MM-NEXT:        scf.for %[[T:.*]] = %c0 to %c256 step %c1 {
// MM-NEXT:          %[[TX:.*]] = arith.remui %[[T]], %c16 : index
// MM-NEXT:          %[[Q:.*]] = arith.divui %[[T]], %c16 : index
// MM-NEXT:          %[[TY:.*]] = arith.remui %[[Q]], %c16 : index
// MM:               memref.store %{{.*}}, %[[AS]][%[[TY]], %[[TX]]]
// MM:               memref.store %{{.*}}, %[[BS]][%[[TY]], %[[TX]]]
// MM-NEXT:        }
// MM-NEXT:        scf.for %[[T:.*]] = %c0 to %c256 step %c1 {
// MM:               memref.load %[[ACC]][%[[T]]]
// MM:               scf.for {{.*}} iter_args
// MM:                 memref.load %[[AS]]
// MM:                 memref.load %[[BS]]
// MM:               memref.store %{{.*}}, %[[S2]][%[[T]]]
// MM-NEXT:        }
// the yield: the iter_arg's buffer takes the yielded value
// MM-NEXT:        scf.for %[[T:.*]] = %c0 to %c256 step %c1 {
// MM-NEXT:          %[[Y:.*]] = memref.load %[[S2]][%[[T]]]
// MM-NEXT:          memref.store %[[Y]], %[[ACC]][%[[T]]]
// MM-NEXT:        }
// MM-NEXT:      }
// the store with the fused bias + relu
// MM-NEXT:      scf.for %[[T:.*]] = %c0 to %c256 step %c1 {
// MM:             arith.maximumf
// MM:             memref.store %{{.*}}, %arg2[
// MM:         call @tiled_matmul_epilogue_0_cpu(

// A shuffle is a phase of its own: lane = t mod 32, source lane^offset, valid below the
// width and inside the block, the source's privatized value (else the thread's own).
// SM-LABEL: func.func private @warp_softmax_epilogue_0_cpu(
// SM:         scf.for %{{.*}} = %c0 to %c5 step %c1 {
// SM-NEXT:      %[[II:.*]] = arith.index_cast
// SM-NEXT:      %[[OFF:.*]] = arith.shrui %c16_i32, %[[II]] : i32
// SM-NEXT:      scf.for %[[T:.*]] = %c0 to %c32 step %c1 {
// SM-NEXT:        %[[O:.*]] = arith.index_cast %[[OFF]] : i32 to index
// SM-NEXT:        %[[LANE:.*]] = arith.remui %[[T]], %c32 : index
// SM-NEXT:        %[[BASE:.*]] = arith.subi %[[T]], %[[LANE]] : index
// SM-NEXT:        %[[SRC:.*]] = arith.xori %[[LANE]], %[[O]] : index
// SM-NEXT:        %[[AT:.*]] = arith.addi %[[BASE]], %[[SRC]] : index
// SM-NEXT:        %[[W:.*]] = arith.cmpi ult, %[[SRC]], %c32 : index
// SM-NEXT:        %[[B:.*]] = arith.cmpi ult, %[[AT]], %c32 : index
// SM-NEXT:        %[[V:.*]] = arith.andi %[[W]], %[[B]] : i1
// SM-NEXT:        %[[I:.*]] = arith.select %[[V]], %[[AT]], %[[T]] : index
// SM-NEXT:        %[[X:.*]] = memref.load %[[A:.*]][%[[I]]] : memref<32xf32>
// SM-NEXT:        memref.store %[[X]], %[[R:.*]][%[[T]]] : memref<32xf32>
// SM-NEXT:      }
// SM-NEXT:      scf.for %[[T:.*]] = %c0 to %c32 step %c1 {
// SM-NEXT:        %[[M:.*]] = memref.load %[[A]][%[[T]]] : memref<32xf32>
// SM-NEXT:        %[[S:.*]] = memref.load %[[R]][%[[T]]] : memref<32xf32>
// SM-NEXT:        %[[N:.*]] = arith.maximumf %[[M]], %[[S]] : f32
// SM-NEXT:        memref.store %[[N]], %[[A]][%[[T]]] : memref<32xf32>
// SM-NEXT:      }
// SM-NEXT:    }
// the five unrolled shuffles of the sum: five more shuffle phases
// SM-COUNT-5: arith.xori

// The form is checked first by form-kernels at the call (passes/fusion/user-kernel-effects.c);
// what passes it is the target's to refuse.
// REFUSE: refusals.mlir:9:5: error: cpu-codegen: user kernel @if_barrier in the GPU form: a split point (gpu.barrier, gpu.shuffle) under an scf.if whose condition depends on the threads (expected a condition on constants, arguments, block ids and arith on them)
// REFUSE: refusals.mlir:31:5: error: cpu-codegen: user kernel @loop_barrier in the GPU form: a split point (gpu.barrier, gpu.shuffle) in an scf.for whose bounds depend on the threads (expected bounds of constants, arguments, block ids and arith on them)
// REFUSE: refusals.mlir:62:3: error: form-kernels: user kernel @par is GPU-form (braze.gpu_launch): scf.parallel is not allowed, the threads are the parallelism
// REFUSE: refusals.mlir:79:3: error: form-kernels: user kernel @big_block braze.gpu_launch block has 2048 threads (at most 1024)
// REFUSE: refusals.mlir:121:3: error: form-kernels: user kernel @private_alloca memref.alloca must be in #gpu.address_space<workgroup> (GPU form: shared memory of the block)
// REFUSE: refusals.mlir:138:3: error: form-kernels: user kernel @bad_launch braze.gpu_launch 'grid' entry 0 is 0 (must be positive)
// REFUSE: refusals.mlir:154:15: error: cpu-codegen: user kernel @if_shuffle in the GPU form: a split point (gpu.barrier, gpu.shuffle) under an scf.if whose condition depends on the threads (expected a condition on constants, arguments, block ids and arith on them)
// REFUSE: refusals.mlir:180:3: error: cpu-codegen: user kernel @inner in the GPU form called from another function than its ext kernel (expected calls from the graph only)
// REFUSE: refusals.mlir:208:5: error: cpu-codegen: user kernel @carried_barrier in the GPU form: a split point (gpu.barrier, gpu.shuffle) under an scf.if whose condition depends on the threads
// REFUSE: refusals.mlir:233:5: error: cpu-codegen: user kernel @while_barrier in the GPU form: a split point under 'scf.while'

// One clone per GPU-form kernel, whatever its calls (a symbol of the same name taken:
// the clone is renamed), marked braze.cpu_form_of.
// RUN: braze-opt --cpu=x86-64-v4 %s --pipeline=cpu-no-user-epilogue | FileCheck %s --check-prefix=TWICE
// TWICE-NOT:   braze.gpu_launch
// TWICE:       func.func private @neg_cpu_0(
// TWICE-SAME:    braze.cpu_form_of = @neg
// TWICE-NOT:   func.func private @neg_cpu_
// TWICE:       call @neg_cpu_0(
// TWICE:       call @neg_cpu_0(
func.func private @neg(%x: memref<64xf32>, %out: memref<64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 2>, block = array<i64: 32>}} {
  %c32 = arith.constant 32 : index
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %o = arith.muli %b, %c32 : index
  %i = arith.addi %o, %t : index
  %v = memref.load %x[%i] : memref<64xf32>
  %n = arith.negf %v : f32
  memref.store %n, %out[%i] : memref<64xf32>
  return
}
func.func private @neg_cpu(%x: memref<64xf32>) attributes {braze.user_kernel} {
  return
}
func.func @twice(%x: tensor<64xf32>) -> tensor<64xf32> {
  %xb = bufferization.to_buffer %x : tensor<64xf32> to memref<64xf32>
  %o = memref.alloc() : memref<64xf32>
  func.call @neg(%xb, %o) : (memref<64xf32>, memref<64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64xf32> to tensor<64xf32>
  %rb = bufferization.to_buffer %r : tensor<64xf32> to memref<64xf32>
  %o2 = memref.alloc() : memref<64xf32>
  func.call @neg(%rb, %o2) : (memref<64xf32>, memref<64xf32>) -> ()
  %r2 = bufferization.to_tensor %o2 : memref<64xf32> to tensor<64xf32>
  return %r2 : tensor<64xf32>
}
