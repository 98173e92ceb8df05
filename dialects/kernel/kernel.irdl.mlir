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
  // extent first; 128-byte swizzle, out-of-bounds elements read as zero. With a box of
  // 4 extents, the op also carries `dims` (the memref viewed as that 4-D tensor,
  // innermost first, as many elements) and `element_strides` (TMA's traversal strides:
  // a strided conv's window, decision 0021). The CUDA host code encodes it at launch
  // (cuTensorMapEncodeTiled).
  irdl.operation @tensor_map {
    %m = irdl.base "!builtin.memref"
    %p = irdl.base "!llvm.ptr"
    %box = irdl.base "#builtin.dense_array"
    irdl.operands(source: %m)
    irdl.results(map: %p)
    irdl.attributes {"box" = %box}
  }

  // C = A @ B through cuBLASLt (the CUDA target's extern GEMM, cuda-codegen{matmul=extern}):
  // row-major [batch][m][k] x [batch][k][n] -> [batch][m][n], A stored [k][m] when
  // trans_a, B stored [n][k] when trans_b; stride_a/stride_b are the elements between
  // batches (0: one matrix for all); `tf32` (optional unit attribute) lets f32 inputs use
  // TF32 tensor cores. With the optional addend X (an operand before C), C = alpha A @ B +
  // beta X, X laid out as C from its element `c_offset` (attributes alpha, beta: f64,
  // c_offset: i64; targets/cuda/matmul/extern-addend.c). The CUDA host code calls the
  // runtime's GEMM.
  irdl.operation @gemm {
    // one constraint value per operand and attribute: a shared one would force equal types
    %ma = irdl.base "!builtin.memref"
    %mb = irdl.base "!builtin.memref"
    %mx = irdl.base "!builtin.memref"
    %mc = irdl.base "!builtin.memref"
    %im = irdl.base "#builtin.integer"
    %in = irdl.base "#builtin.integer"
    %ik = irdl.base "#builtin.integer"
    %ib = irdl.base "#builtin.integer"
    %isa = irdl.base "#builtin.integer"
    %isb = irdl.base "#builtin.integer"
    %ta = irdl.base "#builtin.integer"
    %tb = irdl.base "#builtin.integer"
    irdl.operands(a: %ma, b: %mb, addend: optional %mx, c: %mc)
    irdl.results()
    irdl.attributes {"m" = %im, "n" = %in, "k" = %ik, "batch" = %ib, "stride_a" = %isa, "stride_b" = %isb,
                     "trans_a" = %ta, "trans_b" = %tb}
  }
  // A collective of a partitioned program's entry (decision 0018), on the entry's
  // buffers: y = kind(x) over the group of `axes` (indices into the mesh of sizes
  // `mesh_shape`, in the listed order) with the semantics of the graph op of that name
  // (docs/dialect-graph.md "Collectives"). `reduction` is "sum", "max", "min" or
  // "none"; `dim`, `split_dim`, `concat_dim` are -1 where the kind has none;
  // `unsigned` (0 or 1) says how integer max/min compare. The optional third operand
  // is workspace for staging (a split dim that is not the outermost). Entries of the
  // CUDA target call NCCL for it (targets/cuda/host.c).
  irdl.operation @collective {
    %mx = irdl.base "!builtin.memref"
    %my = irdl.base "!builtin.memref"
    %ms = irdl.base "!builtin.memref"
    %kind = irdl.base "#builtin.string"
    %red = irdl.base "#builtin.string"
    %axes = irdl.base "#builtin.dense_array"
    %shape = irdl.base "#builtin.dense_array"
    %dim = irdl.base "#builtin.integer"
    %sdim = irdl.base "#builtin.integer"
    %cdim = irdl.base "#builtin.integer"
    %uns = irdl.base "#builtin.integer"
    irdl.operands(x: %mx, y: %my, scratch: variadic %ms)
    irdl.results()
    irdl.attributes {"kind" = %kind, "reduction" = %red, "axes" = %axes, "mesh_shape" = %shape, "dim" = %dim,
                     "split_dim" = %sdim, "concat_dim" = %cdim, "unsigned" = %uns}
  }
}
