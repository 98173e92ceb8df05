// cpu-codegen refuses ops other than to_buffer, memref.alloc, memref.copy, the call of
// a user kernel, to_tensor and return in an ext kernel (form-kernels writes only those).
// RUN: braze-opt --cpu=x86-64-v4 %s --verify-diagnostics --cpu-codegen -o /dev/null

func.func private @k(%out: memref<4xf32>) attributes {braze.user_kernel} {
  return
}

func.func private @cpu_ext_fused_k_0(%x: tensor<4xf32>) -> tensor<4xf32> attributes {kernel.kind = "ext"} {
  %o = memref.alloc() : memref<4xf32>
  // expected-error @below {{cpu-codegen: ext kernel @cpu_ext_fused_k_0: unsupported op 'arith.constant'}}
  %c = arith.constant 1.0 : f32
  func.call @k(%o) : (memref<4xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}
