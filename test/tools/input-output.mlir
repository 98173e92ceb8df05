// braze-opt reads a file or stdin, writes stdout or -o FILE (only on success),
// exits 0 on success and 1 on any error.
// RUN: braze-opt --cpu=x86-64-v4 %s | FileCheck %s
// RUN: braze-opt --cpu=x86-64-v4 - < %s | FileCheck %s
// RUN: cat %s | braze-opt --cpu=x86-64-v4 | FileCheck %s
// RUN: rm -f %t.out && braze-opt --cpu=x86-64-v4 %s -o %t.out && FileCheck %s < %t.out
// RUN: braze-opt --cpu=x86-64-v4 %s -o - | FileCheck %s
// Input with no ops (empty, or only comments) is an empty module, as with mlir-opt.
// RUN: printf '' | braze-opt --cpu=x86-64-v4 | FileCheck %s --check-prefix=EMPTY
// RUN: printf '// only a comment\n' | braze-opt --cpu=x86-64-v4 - | FileCheck %s --check-prefix=EMPTY

// A failing run leaves no output file and does not touch an existing one.
// RUN: rm -f %t.bad && not braze-opt --cpu=x86-64-v4 %S/Inputs/bad-shape.mlir -o %t.bad 2>/dev/null && not test -e %t.bad
// RUN: echo previous > %t.keep && not braze-opt --cpu=x86-64-v4 %S/Inputs/bad-shape.mlir -o %t.keep 2>/dev/null && FileCheck %s --check-prefix=KEEP < %t.keep
// A file with one bad chunk of several writes nothing either.
// RUN: rm -f %t.split && not braze-opt --cpu=x86-64-v4 %S/Inputs/split-one-bad.mlir --split-input-file -o %t.split 2>/dev/null && not test -e %t.split
// Exit code 1 exactly (not a crash).
// RUN: braze-opt --cpu=x86-64-v4 %S/Inputs/bad-shape.mlir 2>/dev/null; test $? -eq 1

// Errors name file:line:col: a verifier error, a parse error, an unreadable file.
// RUN: not braze-opt --cpu=x86-64-v4 %S/Inputs/bad-shape.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not braze-opt --cpu=x86-64-v4 %S/Inputs/parse-error.mlir 2>&1 | FileCheck %s --check-prefix=PARSE
// RUN: not braze-opt --cpu=x86-64-v4 - < %S/Inputs/parse-error.mlir 2>&1 | FileCheck %s --check-prefix=STDIN
// RUN: not braze-opt --cpu=x86-64-v4 %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not braze-opt --cpu=x86-64-v4 %t.out -o %t.nodir/x.mlir 2>&1 | FileCheck %s --check-prefix=NOWRITE

// CHECK-LABEL: func.func @f
// CHECK-NEXT: "graph.add"(%arg0, %arg1) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// EMPTY: module {
// EMPTY-NEXT: }
// KEEP: previous
// VERIFY: {{.*}}Inputs/bad-shape.mlir:4:8: error: 'graph.add' op operand shapes [4, 8] and [3] are not broadcast-compatible
// PARSE: {{.*}}Inputs/parse-error.mlir:4:3: error: custom op 'bogus_token' is unknown
// STDIN: <stdin>:4:3: error:
// NOFILE: braze-opt: cannot read '{{.*}}does-not-exist': No such file or directory
// NOWRITE: braze-opt: cannot write '{{.*}}x.mlir'
func.func @f(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
