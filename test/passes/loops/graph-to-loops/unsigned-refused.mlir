// Unsigned tensors are stored signless from graph-to-loops on (decision 0010): an op
// other than a graph op or func.return with an unsigned operand or result (a user
// kernel's buffers and call, here) would not verify after the conversion, so the pass
// refuses it, before changing anything.
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-to-loops --verify-diagnostics

func.func private @copy(%x: memref<8xui8>, %out: memref<8xui8>) attributes {braze.user_kernel} {
  // expected-error @+1 {{graph-to-loops: 'memref.copy' has an unsigned operand or result (ui8..ui64); only graph ops may}}
  memref.copy %x, %out : memref<8xui8> to memref<8xui8>
  return
}

func.func @g(%x: tensor<8xui8>) -> tensor<8xui8> {
  %a = "graph.add"(%x, %x) : (tensor<8xui8>, tensor<8xui8>) -> tensor<8xui8>
  // expected-error @+1 {{'bufferization.to_buffer' has an unsigned operand or result}}
  %xb = bufferization.to_buffer %a : tensor<8xui8> to memref<8xui8>
  // expected-error @+1 {{'memref.alloc' has an unsigned operand or result}}
  %o = memref.alloc() : memref<8xui8>
  // expected-error @+1 {{'func.call' has an unsigned operand or result}}
  func.call @copy(%xb, %o) : (memref<8xui8>, memref<8xui8>) -> ()
  // expected-error @+1 {{'bufferization.to_tensor' has an unsigned operand or result}}
  %r = bufferization.to_tensor %o : memref<8xui8> to tensor<8xui8>
  return %r : tensor<8xui8>
}

// A signless call beside unsigned graph ops is fine: the cast makes the boundary.
func.func private @copy8(%x: memref<8xi8>, %out: memref<8xi8>) attributes {braze.user_kernel} {
  memref.copy %x, %out : memref<8xi8> to memref<8xi8>
  return
}

func.func @h(%x: tensor<8xui8>) -> tensor<8xui8> {
  %a = "graph.add"(%x, %x) : (tensor<8xui8>, tensor<8xui8>) -> tensor<8xui8>
  %s = "graph.cast"(%a) : (tensor<8xui8>) -> tensor<8xi8>
  %xb = bufferization.to_buffer %s : tensor<8xi8> to memref<8xi8>
  %o = memref.alloc() : memref<8xi8>
  func.call @copy8(%xb, %o) : (memref<8xi8>, memref<8xi8>) -> ()
  %r = bufferization.to_tensor %o : memref<8xi8> to tensor<8xi8>
  %u = "graph.cast"(%r) : (tensor<8xi8>) -> tensor<8xui8>
  return %u : tensor<8xui8>
}
