// A plugin's pass behaves like a built-in one: listed, in --pass-pipeline, as a --PASS
// flag, in pipeline files and named pipelines, under --mlir-print-ir-after, --mlir-timing
// and --verify-diagnostics; BRAZE_PLUGINS loads it too; its dialect's ops parse.
// RUN: %plugin_cc %S/Inputs/test-plugin.c -o %t.so
// RUN: braze-opt --cpu=x86-64-v4 --load-pass-plugin=%t.so --list-passes | FileCheck %s --check-prefix=LIST
// RUN: braze-opt --cpu=x86-64-v4 %s --load-pass-plugin=%t.so --pass-pipeline='builtin.module(graph-verify,func.func(test-count-ops{op=graph.add}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=ADDS
// RUN: braze-opt --cpu=x86-64-v4 %s --load-pass-plugin %t.so --test-count-ops=op=graph.add 2>&1 >/dev/null | FileCheck %s --check-prefix=ADDS
// RUN: braze-opt --cpu=x86-64-v4 %s --load-pass-plugin=%t.so --pipeline=%S/Inputs/count.pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=ADDS
// RUN: braze-opt --cpu=x86-64-v4 %s --load-pass-plugin=%t.so --pipeline=test-count 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// RUN: env BRAZE_PLUGINS=/nonexistent/plugin.so:%t.so: not braze-opt --cpu=x86-64-v4 %s --pipeline=test-count 2>&1 | FileCheck %s --check-prefix=ENV-BAD
// RUN: env BRAZE_PLUGINS=:%t.so: braze-opt --cpu=x86-64-v4 %s --pipeline=test-count 2>&1 >/dev/null | FileCheck %s --check-prefix=ALL
// RUN: braze-opt --cpu=x86-64-v4 %s --load-pass-plugin=%t.so --pipeline=test-count --mlir-print-ir-after=test-count-ops 2>&1 >/dev/null | FileCheck %s --check-prefix=PRINT
// RUN: braze-opt --cpu=x86-64-v4 %s --load-pass-plugin=%t.so --pipeline=test-count --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// RUN: braze-opt --cpu=x86-64-v4 %s --load-pass-plugin=%t.so --test-count-ops --verify-diagnostics -o /dev/null
// RUN: not braze-opt --cpu=x86-64-v4 %s --load-pass-plugin=%t.so --test-count-ops=fail 2>&1 | FileCheck %s --check-prefix=FAIL
// RUN: not braze-opt --cpu=x86-64-v4 %s --load-pass-plugin=%t.so --test-count-ops=colour=red 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not braze-opt --cpu=x86-64-v4 %s --test-count-ops 2>&1 | FileCheck %s --check-prefix=UNLOADED

// LIST: graph-verify
// LIST: test-count-ops Remark the number of ops in each function (a test plugin's pass) [on func.func] [plugin test-plugin]
// LIST-NEXT: op=NAME count only ops named NAME

// ADDS: plugin-passes.mlir:{{[0-9]+}}:1: remark: @f: 2 ops named graph.add
// ALL: plugin-passes.mlir:{{[0-9]+}}:1: remark: @f: 4 ops
// ENV-BAD: braze-opt: cannot load plugin '/nonexistent/plugin.so': {{.*}} (from BRAZE_PLUGINS)
// PRINT: // -----// IR Dump After test-count-ops //----- //
// PRINT-NEXT: module {
// PRINT: "testplug.mark"
// TIMING: ... Execution time report ...
// TIMING: test-count-ops
// FAIL: plugin-passes.mlir:{{[0-9]+}}:1: error: test-count-ops failed as asked
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> { // expected-remark {{@f: 4 ops}}
  %0 = "graph.add"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "graph.add"(%0, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "testplug.mark"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
// OPTION: braze-opt: test-count-ops: unknown option 'colour' (known: op=NAME, fail)
// UNLOADED: unknown pass or bad pipeline element 'test-count-ops'
