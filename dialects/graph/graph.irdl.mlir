// The `graph` dialect: value-semantics tensor ops, the level at which graphs enter braze.
// Loaded at start-up with mlirLoadIRDLDialects. IRDL checks operand/result/attribute
// kinds; shape and dtype rules live in the C verifier (dialects/graph/verify.c).
// Every operand and result gets its own constraint value: one value used twice would
// force the two types to be equal, and broadcasting needs them to differ.
irdl.dialect @graph {
  // Pointwise unary: res has x's shape (cast: same shape, result element type).
  irdl.operation @neg {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @abs {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @exp {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @sin {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @cos {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @log {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @sqrt {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @rsqrt {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @tanh {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @sigmoid {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @relu {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @erf {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @silu {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @cast {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  // gelu: approximate = "none" (erf form) or "tanh".
  irdl.operation @gelu {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_approximate = irdl.base "#builtin.string"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"approximate" = %a_approximate}
  }
  // Pointwise binary with numpy broadcasting.
  irdl.operation @add {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  irdl.operation @sub {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  irdl.operation @mul {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  irdl.operation @div {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  irdl.operation @rem {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  irdl.operation @bitwise_and {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  irdl.operation @bitwise_or {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  irdl.operation @bitwise_xor {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  irdl.operation @bitwise_not {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @max {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  irdl.operation @min {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  irdl.operation @pow {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  // Compare: predicate is one of eq ne lt le gt ge; result element type i1.
  irdl.operation @cmp {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_predicate = irdl.base "#builtin.string"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
    irdl.attributes {"predicate" = %a_predicate}
  }
  irdl.operation @select {
    %cond = irdl.base "!builtin.tensor"
    %on_true = irdl.base "!builtin.tensor"
    %on_false = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(cond: %cond, on_true: %on_true, on_false: %on_false)
    irdl.results(res: %res)
  }
  // Reductions over `dims`; keepdim keeps them as size-1 dims.
  irdl.operation @reduce_sum {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_dims = irdl.base "#builtin.dense_array"
    %a_keepdim = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"dims" = %a_dims, "keepdim" = %a_keepdim}
  }
  irdl.operation @reduce_mean {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_dims = irdl.base "#builtin.dense_array"
    %a_keepdim = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"dims" = %a_dims, "keepdim" = %a_keepdim}
  }
  irdl.operation @reduce_max {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_dims = irdl.base "#builtin.dense_array"
    %a_keepdim = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"dims" = %a_dims, "keepdim" = %a_keepdim}
  }
  irdl.operation @reduce_min {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_dims = irdl.base "#builtin.dense_array"
    %a_keepdim = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"dims" = %a_dims, "keepdim" = %a_keepdim}
  }
  // Variance: sum((x - mean)^2) / (n - correction).
  irdl.operation @reduce_var {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_dims = irdl.base "#builtin.dense_array"
    %a_keepdim = irdl.base "#builtin.integer"
    %a_correction = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"dims" = %a_dims, "keepdim" = %a_keepdim, "correction" = %a_correction}
  }
  // Composites (graph-decompose turns them into primitives).
  irdl.operation @softmax {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_dim = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"dim" = %a_dim}
  }
  irdl.operation @log_softmax {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_dim = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"dim" = %a_dim}
  }
  irdl.operation @layer_norm {
    %x = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_axis = irdl.base "#builtin.integer"
    %a_eps = irdl.base "#builtin.float"
    irdl.operands(x: %x, weight: %weight, bias: %bias)
    irdl.results(res: %res)
    irdl.attributes {"axis" = %a_axis, "eps" = %a_eps}
  }
  irdl.operation @rms_norm {
    %x = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_axis = irdl.base "#builtin.integer"
    %a_eps = irdl.base "#builtin.float"
    irdl.operands(x: %x, weight: %weight)
    irdl.results(res: %res)
    irdl.attributes {"axis" = %a_axis, "eps" = %a_eps}
  }
  irdl.operation @batch_norm {
    %x = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    %mean = irdl.base "!builtin.tensor"
    %var = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_eps = irdl.base "#builtin.float"
    irdl.operands(x: %x, scale: %scale, bias: %bias, mean: %mean, var: %var)
    irdl.results(res: %res)
    irdl.attributes {"eps" = %a_eps}
  }
  irdl.operation @linear {
    %x = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, weight: %weight, bias: %bias)
    irdl.results(res: %res)
  }
  // Contractions.
  irdl.operation @matmul {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  irdl.operation @batch_matmul {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
  }
  // Shape ops (views at loop level: they become indexing maps of their consumers).
  irdl.operation @transpose {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_perm = irdl.base "#builtin.dense_array"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"perm" = %a_perm}
  }
  irdl.operation @broadcast_to {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @reshape {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(res: %res)
  }
  irdl.operation @slice {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_starts = irdl.base "#builtin.dense_array"
    %a_limits = irdl.base "#builtin.dense_array"
    %a_strides = irdl.base "#builtin.dense_array"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"starts" = %a_starts, "limits" = %a_limits, "strides" = %a_strides}
  }
  // The sliding windows of a channels-last tensor [B, S1..Sn, C] as a view
  // [B, O1..On, K1..Kn, C] (im2col without a copy): decompose-conv's implicit GEMM.
  irdl.operation @window {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_kernel = irdl.base "#builtin.dense_array"
    %a_strides = irdl.base "#builtin.dense_array"
    %a_dilations = irdl.base "#builtin.dense_array"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"kernel" = %a_kernel, "strides" = %a_strides, "dilations" = %a_dilations}
  }
  // Binary: IRDL binds one constraint variable per SSA value, so a variadic
  // group would force every input to one type (docs/decisions/0004). An N-input
  // concat is a left-nested chain of binary ones.
  irdl.operation @concat {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_dim = irdl.base "#builtin.integer"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(res: %res)
    irdl.attributes {"dim" = %a_dim}
  }
  // Indexed reads (docs/dialect-graph.md "gather"): data read at run-time integer
  // indices (i32/i64) along `axis`. gather: ONNX Gather (result shape
  // data.shape[:axis] + indices.shape + data.shape[axis+1:]); gather_elements: ONNX
  // GatherElements (indices of data's rank, result shape = indices shape).
  irdl.operation @gather {
    %data = irdl.base "!builtin.tensor"
    %indices = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_axis = irdl.base "#builtin.integer"
    irdl.operands(data: %data, indices: %indices)
    irdl.results(res: %res)
    irdl.attributes {"axis" = %a_axis}
  }
  irdl.operation @gather_elements {
    %data = irdl.base "!builtin.tensor"
    %indices = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_axis = irdl.base "#builtin.integer"
    irdl.operands(data: %data, indices: %indices)
    irdl.results(res: %res)
    irdl.attributes {"axis" = %a_axis}
  }
  // Constant: value is a dense elements attribute (or a dense resource).
  irdl.operation @constant {
    %res = irdl.base "!builtin.tensor"
    %a_value = irdl.any
    irdl.results(res: %res)
    irdl.attributes {"value" = %a_value}
  }
  // Convolutions (docs/dialect-graph.md "Convolutions"): NCHW input x [N, C, S...],
  // weight w [OC, C/groups, K...] (conv_transpose: [C, OC/groups, K...]); a bias is
  // a following `add`. pads = begins then ends, one per spatial dim.
  irdl.operation @conv {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_strides = irdl.base "#builtin.dense_array"
    %a_pads = irdl.base "#builtin.dense_array"
    %a_dilations = irdl.base "#builtin.dense_array"
    %a_groups = irdl.base "#builtin.integer"
    irdl.operands(x: %x, w: %w)
    irdl.results(res: %res)
    irdl.attributes {"strides" = %a_strides, "pads" = %a_pads, "dilations" = %a_dilations, "groups" = %a_groups}
  }
  irdl.operation @conv_transpose {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_strides = irdl.base "#builtin.dense_array"
    %a_pads = irdl.base "#builtin.dense_array"
    %a_dilations = irdl.base "#builtin.dense_array"
    %a_groups = irdl.base "#builtin.integer"
    %a_output_padding = irdl.base "#builtin.dense_array"
    irdl.operands(x: %x, w: %w)
    irdl.results(res: %res)
    irdl.attributes {"strides" = %a_strides, "pads" = %a_pads, "dilations" = %a_dilations, "groups" = %a_groups, "output_padding" = %a_output_padding}
  }

  // ---- Collectives (docs/dialect-graph.md "Collectives", decision 0015) ----
  // Ops of partitioned (per-device, SPMD) programs, on local shapes. mesh_axes names
  // axes of the enclosing function's braze.mesh; the group is the ranks that differ
  // only along those axes. Shape rules with the group size are in
  // dialects/graph/verify-collective.c. Kept in one block apart from the other ops.
  irdl.operation @all_reduce {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_axes = irdl.base "#builtin.array"
    %a_reduction = irdl.base "#builtin.string"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"mesh_axes" = %a_axes, "reduction" = %a_reduction}
  }
  irdl.operation @all_gather {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_axes = irdl.base "#builtin.array"
    %a_dim = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"mesh_axes" = %a_axes, "dim" = %a_dim}
  }
  irdl.operation @reduce_scatter {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_axes = irdl.base "#builtin.array"
    %a_dim = irdl.base "#builtin.integer"
    %a_reduction = irdl.base "#builtin.string"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"mesh_axes" = %a_axes, "dim" = %a_dim, "reduction" = %a_reduction}
  }
  irdl.operation @all_to_all {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_axes = irdl.base "#builtin.array"
    %a_split = irdl.base "#builtin.integer"
    %a_concat = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"mesh_axes" = %a_axes, "split_dim" = %a_split, "concat_dim" = %a_concat}
  }
  irdl.operation @all_slice {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %a_axes = irdl.base "#builtin.array"
    %a_dim = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(res: %res)
    irdl.attributes {"mesh_axes" = %a_axes, "dim" = %a_dim}
  }
}
