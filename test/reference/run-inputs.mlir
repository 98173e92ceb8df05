// braze run: flags, --inputs checking, saving, and clear errors for bad input files.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/a.npy', np.arange(6, dtype=np.float32).reshape(2, 3)); np.save('%t/b.npy', np.ones(3, np.float32))"
// RUN: braze run %s --inputs %t/a.npy,%t/b.npy --save-outputs %t/out | FileCheck %s --check-prefix=OUT
// RUN: %python -c "import numpy as np; r = np.load('%t/out/out0.npy'); assert r.dtype == np.float32 and (r == np.arange(6).reshape(2, 3) + 1).all(), r"
// RUN: braze run %s --func=f --inputs=%t/a.npy,%t/b.npy --print 2 | FileCheck %s --check-prefix=PRINT2
// RUN: braze run %s --func g --seed 7 | FileCheck %s --check-prefix=DEFAULTS
// Same seed, same inputs; another seed, other inputs.
// RUN: braze run %s --seed 5 --save-inputs %t/s5a --quiet && braze run %s --seed 5 --save-inputs %t/s5b --quiet && cmp %t/s5a/in0.npy %t/s5b/in0.npy
// RUN: braze run %s --seed 6 --save-inputs %t/s6 --quiet && not cmp -s %t/s5a/in0.npy %t/s6/in0.npy
// RUN: braze run %s --seed 5 --save-inputs %t/s5c --inputs %t/s5a/in0.npy,%t/s5a/in1.npy --quiet && cmp %t/s5a/in1.npy %t/s5c/in1.npy

// Missing file, missing function, wrong count of inputs.
// RUN: not braze run %t/nope.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not braze run %s --func nope 2>&1 | FileCheck %s --check-prefix=NOFUNC
// RUN: not braze run %s --inputs %t/a.npy 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not braze run %s --inputs %t/a.npy,%t/missing.npy 2>&1 | FileCheck %s --check-prefix=NONPY
// Wrong shape, wrong dtype (for the signature and for braze), fortran order, truncated, not .npy.
// RUN: %python -c "import numpy as np; np.save('%t/shape.npy', np.zeros((3, 2), np.float32)); np.save('%t/i32.npy', np.zeros((2, 3), np.int32)); np.save('%t/i16.npy', np.zeros((2, 3), np.uint16).view('>u2')); np.save('%t/fortran.npy', np.asfortranarray(np.zeros((2, 3), np.float32))); np.save('%t/big.npy', np.zeros((2, 3), '>f4'))"
// RUN: %python -c "d = open('%t/a.npy', 'rb').read(); open('%t/trunc.npy', 'wb').write(d[:-5]); open('%t/long.npy', 'wb').write(d + b'xx'); open('%t/text.npy', 'w').write('hello')"
// RUN: not braze run %s --inputs %t/shape.npy,%t/b.npy 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not braze run %s --inputs %t/i32.npy,%t/b.npy 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not braze run %s --inputs %t/i16.npy,%t/b.npy 2>&1 | FileCheck %s --check-prefix=I16
// RUN: not braze run %s --inputs %t/big.npy,%t/b.npy 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not braze run %s --inputs %t/fortran.npy,%t/b.npy 2>&1 | FileCheck %s --check-prefix=FORTRAN
// RUN: not braze run %s --inputs %t/trunc.npy,%t/b.npy 2>&1 | FileCheck %s --check-prefix=TRUNC
// RUN: not braze run %s --inputs %t/long.npy,%t/b.npy 2>&1 | FileCheck %s --check-prefix=LONG
// RUN: not braze run %s --inputs %t/text.npy,%t/b.npy 2>&1 | FileCheck %s --check-prefix=MAGIC
// Nothing is written when a run fails.
// RUN: not braze run %s --inputs %t/shape.npy,%t/b.npy --save-outputs %t/failed 2>/dev/null && not ls %t/failed
// Usage errors.
// RUN: not braze run 2>&1 | FileCheck %s --check-prefix=NOARG
// RUN: not braze run %s --seed x 2>&1 | FileCheck %s --check-prefix=SEED
// RUN: not braze run %s --bogus 2>&1 | FileCheck %s --check-prefix=BOGUS
// RUN: not braze run %s %s 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: not braze run %s --func 2>&1 | FileCheck %s --check-prefix=NOVALUE
// RUN: touch %t/afile && not braze run %s --save-outputs %t/afile 2>&1 | FileCheck %s --check-prefix=NOTDIR
// RUN: not braze nosuch 2>&1 | FileCheck %s --check-prefix=NOCMD
// RUN: braze --help | FileCheck %s --check-prefix=HELP
// RUN: braze help run | FileCheck %s --check-prefix=RUNHELP

// OUT: @f: 1 output
// OUT-NEXT: out0: tensor<2x3xf32> min=1 max=6 mean=3.5 std=1.70783
// OUT-NEXT: [1, 2, 3, 4, 5, 6]
// PRINT2: out0: tensor<2x3xf32>
// PRINT2-NEXT: [1, 2, ...]
// DEFAULTS: @g: 2 outputs
// DEFAULTS-NEXT: out0: tensor<i32> min=[[V:-?[0-9]+]] max=[[V]]
// DEFAULTS: out1: tensor<4xi1> min={{[01]}} max={{[01]}}
// NOFILE: braze run: cannot read '{{.*}}nope.mlir': No such file or directory
// NOFUNC: braze run: no function @nope in the module (functions: @f, @g)
// COUNT: braze run: --inputs gives 1 files, @f takes 2 arguments
// NONPY: braze run: {{.*}}missing.npy: cannot read file: No such file or directory
// SHAPE: braze run: {{.*}}shape.npy: input 0 is tensor<3x2xf32>, the function expects tensor<2x3xf32>
// DTYPE: braze run: {{.*}}i32.npy: input 0 is tensor<2x3xi32>, the function expects tensor<2x3xf32>
// I16: braze run: {{.*}}i16.npy: unsupported .npy dtype '>u2' (expected one of '<f4' '<f8' '<f2' '<u2' (bf16 bits) '<i4' '<i8' '|i1' '<i2' '|u1' '<u4' '<u8' '|b1', little-endian)
// BIG: unsupported .npy dtype '>f4'
// FORTRAN: braze run: {{.*}}fortran.npy: fortran-order .npy arrays are not supported
// TRUNC: braze run: {{.*}}trunc.npy: truncated .npy data: expected 24 bytes for the shape in the header, found 19
// LONG: braze run: {{.*}}long.npy: trailing bytes after .npy data: expected 24 bytes for the shape in the header, found 26
// MAGIC: braze run: {{.*}}text.npy: not a .npy file (bad magic)
// NOARG: braze run: no input file
// SEED: braze run: --seed expects a non-negative integer, got 'x'
// BOGUS: braze run: unknown option '--bogus'
// TWO: braze run: more than one input file
// NOVALUE: braze run: --func needs a value
// NOTDIR: braze run: '{{.*}}afile' exists and is not a directory
// NOCMD: braze: unknown command 'nosuch'
// HELP: usage: braze <command>
// HELP: run {{.*}}reference interpreter
// RUNHELP: usage: braze run FILE.mlir [options]
// RUNHELP: --save-outputs DIR

func.func @f(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @g(%x: tensor<i32>, %c: tensor<4xi1>) -> (tensor<i32>, tensor<4xi1>) {
  return %x, %c : tensor<i32>, tensor<4xi1>
}
