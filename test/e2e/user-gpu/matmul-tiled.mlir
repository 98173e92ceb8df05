// GPU-form user kernel (decision 0027): the CUDA programming guide's tiled matmul, two
// 16x16 shared tiles loaded per step of K with barriers around the inner product,
// 64x64x64 on a 4x4 grid of 16x16 blocks, then a graph bias + erf-GELU, evaluated by the
// reference interpreter and compared with numpy; form-kernels fuses bias + gelu into its
// store (@model_bf16: then cast to bf16, fused too: the store writes bf16). On the CPU
// against the reference, fused and with the epilogue refused.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze check %s --target=cpu --seed 31 | FileCheck %s --check-prefix=CPU
// RUN: braze check %s --target=cpu --seed 32 --pipeline=cpu-no-user-epilogue | FileCheck %s --check-prefix=CPU
// CPU-NOT: FAIL
// CPU: PASS  @model out0 64x64xf32
// CPU: PASS  @model_bf16 out0 64x64xbf16
// CPU: check passed
// RUN: braze run %s --target=reference --func model --seed 3 --save-inputs %t/in --save-outputs %t/out --quiet
// RUN: %python %S/Inputs/check.py matmul %t/in %t/out
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --graph-decompose --graph-to-loops --inline-unrealized --form-kernels=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSE
// FUSE: user kernels @model:
// FUSE: arg 0 memref<64x64xf32>: read
// FUSE: arg 1 memref<64x64xf32>: read
// FUSE: arg 2 memref<64x64xf32>: written(1 store)
// FUSE: output arg 2 epilogue 'add,mul,erf,add,add,mul,mul': fused
// FUSE: user kernels @model_bf16:
// FUSE: output arg 2 epilogue 'add,mul,erf,add,add,mul,mul,cast': fused
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels | FileCheck %s --check-prefix=IR
// The copy with the epilogue keeps the launch, the shared tiles and the barriers.
// IR-LABEL: func.func private @matmul_tiled_epilogue_0(
// IR-SAME: braze.gpu_launch = {block = array<i64: 16, 16>, grid = array<i64: 4, 4>}, braze.user_epilogue_of = @matmul_tiled
// IR-COUNT-2: memref.alloca() : memref<16x16xf32, #gpu.address_space<workgroup>>
// IR: gpu.barrier
// IR: math.erf
// IR: memref.store
// IR-SAME: memref<64x64xf32>

func.func private @matmul_tiled(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 4, 4>, block = array<i64: 16, 16>}} {
  %as = memref.alloca() : memref<16x16xf32, #gpu.address_space<workgroup>>
  %bs = memref.alloca() : memref<16x16xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %row0 = arith.muli %by, %c16 : index
  %row = arith.addi %row0, %ty : index
  %col0 = arith.muli %bx, %c16 : index
  %col = arith.addi %col0, %tx : index
  %acc = scf.for %k0 = %c0 to %c64 step %c16 iter_args(%s = %zero) -> (f32) {
    %ak = arith.addi %k0, %tx : index
    %av = memref.load %a[%row, %ak] : memref<64x64xf32>
    memref.store %av, %as[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
    %bk = arith.addi %k0, %ty : index
    %bv = memref.load %b[%bk, %col] : memref<64x64xf32>
    memref.store %bv, %bs[%ty, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
    gpu.barrier
    %s2 = scf.for %k = %c0 to %c16 step %c1 iter_args(%t = %s) -> (f32) {
      %x = memref.load %as[%ty, %k] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %y = memref.load %bs[%k, %tx] : memref<16x16xf32, #gpu.address_space<workgroup>>
      %t2 = math.fma %x, %y, %t : f32
      scf.yield %t2 : f32
    }
    gpu.barrier
    scf.yield %s2 : f32
  }
  memref.store %acc, %c[%row, %col] : memref<64x64xf32>
  return
}

func.func @model(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %bias: tensor<64xf32>) -> tensor<64x64xf32> {
  %ab = bufferization.to_buffer %a : tensor<64x64xf32> to memref<64x64xf32>
  %bb = bufferization.to_buffer %b : tensor<64x64xf32> to memref<64x64xf32>
  %o = memref.alloc() : memref<64x64xf32>
  func.call @matmul_tiled(%ab, %bb, %o) : (memref<64x64xf32>, memref<64x64xf32>, memref<64x64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64x64xf32> to tensor<64x64xf32>
  %y = "graph.add"(%r, %bias) : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  %g = "graph.gelu"(%y) {approximate = "none"} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  return %g : tensor<64x64xf32>
}

func.func @model_bf16(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %bias: tensor<64xf32>) -> tensor<64x64xbf16> {
  %ab = bufferization.to_buffer %a : tensor<64x64xf32> to memref<64x64xf32>
  %bb = bufferization.to_buffer %b : tensor<64x64xf32> to memref<64x64xf32>
  %o = memref.alloc() : memref<64x64xf32>
  func.call @matmul_tiled(%ab, %bb, %o) : (memref<64x64xf32>, memref<64x64xf32>, memref<64x64xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<64x64xf32> to tensor<64x64xf32>
  %y = "graph.add"(%r, %bias) : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64x64xf32>
  %g = "graph.gelu"(%y) {approximate = "none"} : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %h = "graph.cast"(%g) : (tensor<64x64xf32>) -> tensor<64x64xbf16>
  return %h : tensor<64x64xbf16>
}
