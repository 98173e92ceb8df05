// The `kernel` dialect: what braze adds at the kernel level.
//
// Fusion groups are outlined into func.func kernels (docs/decisions/0002-kernel-groups-as-functions.md)
// carrying `kernel.*` attributes; the ops here cover what a function call cannot say.
irdl.dialect @kernel {
  // A call of an external library routine (BLAS sgemm, cuBLAS) that stands in for a
  // group when no generated kernel or template wins: Inductor's extern kernels.
  // `fn` names the routine; operands are the group's inputs.
  irdl.operation @extern {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %fn = irdl.base "#builtin.string"
    irdl.operands(inputs: variadic %in)
    irdl.results(res: %res)
    irdl.attributes {"fn" = %fn}
  }

  // The TMA descriptor of a memref, by value, for a kernel parameter (the CUDA
  // tensor-core template's operands: docs/targets-cuda.md). The memref is viewed as 2-D
  // [outer dims flattened][last dim]; `box` is the tile one copy moves, innermost
  // extent first; 128-byte swizzle, out-of-bounds elements read as zero. The CUDA host
  // code encodes it at launch (cuTensorMapEncodeTiled).
  irdl.operation @tensor_map {
    %m = irdl.base "!builtin.memref"
    %p = irdl.base "!llvm.ptr"
    %box = irdl.base "#builtin.dense_array"
    irdl.operands(source: %m)
    irdl.results(map: %p)
    irdl.attributes {"box" = %box}
  }
}
