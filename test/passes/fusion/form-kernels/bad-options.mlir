// Bad options are usage errors with a message naming the option.
// RUN: not braze-opt --cpu=x86-64-v4 %s --form-kernels=report-format=xml 2>&1 | FileCheck %s --check-prefix=FORMAT
// RUN: not braze-opt --cpu=x86-64-v4 %s --form-kernels=explain=add 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: not braze-opt --cpu=x86-64-v4 %s --form-kernels=max-ops=0 2>&1 | FileCheck %s --check-prefix=MAXOPS
// RUN: not braze-opt --cpu=x86-64-v4 %s --form-kernels=max-ops=many 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not braze-opt --cpu=x86-64-v4 %s --form-kernels=fuse-everything 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// FORMAT: form-kernels: report-format must be 'text', 'json' or 'dot', got 'xml'
// EXPLAIN: form-kernels: explain expects two names 'A,B', got 'add'
// MAXOPS: form-kernels: max-ops must be at least 1, got 0
// NOTINT: option 'max-ops' expects an integer, got 'many'
// UNKNOWN: pass 'form-kernels' has no option 'fuse-everything'
// RUN: not braze-opt --cpu=x86-64-v4 %s --form-kernels=pad-templates=0 2>&1 | FileCheck %s --check-prefix=PADSHARE
// RUN: not braze-opt --cpu=x86-64-v4 %s '--form-kernels=pad-templates pad-channels=0' 2>&1 | FileCheck %s --check-prefix=PADCH
// RUN: not braze-opt --cpu=x86-64-v4 %s --form-kernels=pad-channels=64 2>&1 | FileCheck %s --check-prefix=PADCHONLY
// PADSHARE: form-kernels: pad-templates expects true, false or a percentage 1-100, got '0'
// PADCH: form-kernels: pad-channels must be at least 1, got 0
// PADCHONLY: form-kernels: pad-channels applies with pad-templates only
func.func @f(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
