// Inputs of dynamic-shared-cuda.test: 4 KiB of static and 225 KiB of dynamic shared
// memory, past the 227 KiB a block may have on sm_90 (refused by cuda-codegen; the CPU
// and the reference have no such limit).
func.func private @big(%x: memref<256xf32>, %out: memref<256xf32>)
    attributes {braze.user_kernel, braze.gpu_launch = {grid = array<i64: 1>, block = array<i64: 256>, shared_bytes = 230400 : i64}} {
  %sm = memref.alloca() : memref<1024xf32, #gpu.address_space<workgroup>>
  %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %v = memref.view %dyn[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<57600xf32, #gpu.address_space<workgroup>>
  %t = gpu.thread_id x
  %a = memref.load %x[%t] : memref<256xf32>
  memref.store %a, %sm[%t] : memref<1024xf32, #gpu.address_space<workgroup>>
  memref.store %a, %v[%t] : memref<57600xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %b = memref.load %sm[%t] : memref<1024xf32, #gpu.address_space<workgroup>>
  %c = memref.load %v[%t] : memref<57600xf32, #gpu.address_space<workgroup>>
  %s = arith.addf %b, %c : f32
  memref.store %s, %out[%t] : memref<256xf32>
  return
}
func.func @big_graph(%x: tensor<256xf32>) -> tensor<256xf32> {
  %xb = bufferization.to_buffer %x : tensor<256xf32> to memref<256xf32>
  %o = memref.alloc() : memref<256xf32>
  func.call @big(%xb, %o) : (memref<256xf32>, memref<256xf32>) -> ()
  %r = bufferization.to_tensor %o : memref<256xf32> to tensor<256xf32>
  return %r : tensor<256xf32>
}
