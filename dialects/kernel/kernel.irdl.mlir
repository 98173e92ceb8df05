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
}
