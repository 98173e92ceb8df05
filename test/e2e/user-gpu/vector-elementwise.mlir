// GPU-form user kernel (decision 0027): a vectorized elementwise kernel, 3 * tanh(x)
// on 6 rows of 206 (one block a row): threads 0..50 each vector.load / vector.store a
// vector<4xf32>, threads 51 and 52 the scalar tail (columns 204 and 205), the others
// nothing; then a graph bias (broadcast along the rows) + residual add + cast to bf16.
// Evaluated by the reference interpreter and compared with numpy, and on the CPU against
// the reference (fused, epilogue refused, no fusion). graph-to-loops makes the adds and
// the cast one generic with a bf16 result, which form-kernels fuses: the output buffer
// is bf16 and the vector store writes vector<4xbf16> (the epilogue on whole vectors,
// truncated last); @model_f32 is the same without the cast.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze run %s --target=reference --seed 6 --func model --save-inputs %t/in --save-outputs %t/out --quiet
// RUN: %python %S/Inputs/check.py elementwise %t/in %t/out
// RUN: braze run %s --target=reference --seed 6 --func model_f32 --save-inputs %t/in32 --save-outputs %t/out32 --quiet
// RUN: %python %S/Inputs/check.py elementwise_f32 %t/in32 %t/out32
// RUN: braze check %s --target=cpu --seed 3 | FileCheck %s --check-prefix=CPU
// RUN: braze check %s --target=cpu --seed 4 --pipeline=cpu-no-user-epilogue | FileCheck %s --check-prefix=CPU
// RUN: braze check %s --target=cpu --seed 5 --pipeline=cpu-no-fusion | FileCheck %s --check-prefix=CPU
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels | FileCheck %s --check-prefix=IR
// RUN: braze-opt --cpu=x86-64-v4 %s --user-kernel-analysis --graph-decompose --graph-to-loops --inline-unrealized --form-kernels=report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSE
// FUSE: user kernels @model:
// FUSE: arg 0 memref<6x206xf32>: read
// FUSE: arg 1 memref<6x206xf32>: written(2 stores, 1 vector)
// FUSE: output arg 1 epilogue 'add,add,cast': fused
// FUSE: user kernels @model_f32:
// FUSE: output arg 1 epilogue 'add,add': fused
// CPU-NOT: FAIL
// CPU: PASS @model out0 6x206xbf16
// CPU: PASS @model_f32 out0 6x206xf32
// CPU: check passed
// IR-LABEL: func.func private @tanh3_epilogue_0(%arg0: memref<6x206xf32>, %arg1: memref<6x206xbf16>, %arg2: memref<206xf32>, %arg3: memref<6x206xf32>)
// IR:         %[[H:.*]] = arith.truncf %{{.*}} : vector<4xf32> to vector<4xbf16>
// IR-NEXT:    vector.store %[[H]], %arg1[{{.*}}] : memref<6x206xbf16>, vector<4xbf16>
// IR:         arith.truncf %{{.*}} : f32 to bf16
// IR-NEXT:    memref.store %{{.*}}, %arg1[{{.*}}] : memref<6x206xbf16>
// IR-LABEL: func.func private @cpu_ext_fused_tanh3_add_cast_0(
// IR-SAME:    -> tensor<6x206xbf16>
// IR:         memref.alloc() {{.*}}: memref<6x206xbf16>
// IR:         call @tanh3_epilogue_0(

func.func private @tanh3(%x: memref<6x206xf32>, %out: memref<6x206xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 6>, block = array<i64: 64>}} {
  %c4 = arith.constant 4 : index
  %c51 = arith.constant 51 : index
  %c53 = arith.constant 53 : index
  %c153 = arith.constant 153 : index
  %three = arith.constant 3.0 : f32
  %three4 = arith.constant dense<3.0> : vector<4xf32>
  %row = gpu.block_id x
  %t = gpu.thread_id x
  %vec = arith.cmpi ult, %t, %c51 : index
  scf.if %vec {
    %col = arith.muli %t, %c4 : index
    %v = vector.load %x[%row, %col] : memref<6x206xf32>, vector<4xf32>
    %th = math.tanh %v : vector<4xf32>
    %y = arith.mulf %th, %three4 : vector<4xf32>
    vector.store %y, %out[%row, %col] : memref<6x206xf32>, vector<4xf32>
  } else {
    %tail = arith.cmpi ult, %t, %c53 : index
    scf.if %tail {
      %col = arith.addi %t, %c153 : index
      %v = memref.load %x[%row, %col] : memref<6x206xf32>
      %th = math.tanh %v : f32
      %y = arith.mulf %th, %three : f32
      memref.store %y, %out[%row, %col] : memref<6x206xf32>
    }
  }
  return
}

func.func @model(%x: tensor<6x206xf32>, %bias: tensor<206xf32>, %res: tensor<6x206xf32>) -> tensor<6x206xbf16> {
  %xb = bufferization.to_buffer %x : tensor<6x206xf32> to memref<6x206xf32>
  %o = memref.alloc() : memref<6x206xf32>
  func.call @tanh3(%xb, %o) : (memref<6x206xf32>, memref<6x206xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x206xf32> to tensor<6x206xf32>
  %a = "graph.add"(%r, %bias) : (tensor<6x206xf32>, tensor<206xf32>) -> tensor<6x206xf32>
  %s = "graph.add"(%a, %res) : (tensor<6x206xf32>, tensor<6x206xf32>) -> tensor<6x206xf32>
  %y = "graph.cast"(%s) : (tensor<6x206xf32>) -> tensor<6x206xbf16>
  return %y : tensor<6x206xbf16>
}

func.func @model_f32(%x: tensor<6x206xf32>, %bias: tensor<206xf32>, %res: tensor<6x206xf32>) -> tensor<6x206xf32> {
  %xb = bufferization.to_buffer %x : tensor<6x206xf32> to memref<6x206xf32>
  %o = memref.alloc() : memref<6x206xf32>
  func.call @tanh3(%xb, %o) : (memref<6x206xf32>, memref<6x206xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<6x206xf32> to tensor<6x206xf32>
  %a = "graph.add"(%r, %bias) : (tensor<6x206xf32>, tensor<206xf32>) -> tensor<6x206xf32>
  %s = "graph.add"(%a, %res) : (tensor<6x206xf32>, tensor<6x206xf32>) -> tensor<6x206xf32>
  return %s : tensor<6x206xf32>
}
