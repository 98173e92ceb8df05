// The fusion report: to stderr or a file, as text or JSON.
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels=report=%t.txt 2>%t.stderr | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=TEXT --match-full-lines < %t.txt
// RUN: count 0 < %t.stderr
// RUN: braze-opt --cpu=x86-64-v4 %s '--form-kernels=report-format=json' 2>%t.json >/dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); f=d['functions'][0]; assert f['name']=='f'; assert [k['name'] for k in f['kernels']]==['cpu_per_fused_exp_reduce_sum_div_0']; assert f['candidates'][0]['decision']=='fused'" %t.json
// RUN: braze-opt --cpu=x86-64-v4 %s '--form-kernels=report=%t2.json report-format=json' >/dev/null
// RUN: %python -c "import json,sys; json.load(open(sys.argv[1]))" %t2.json
// RUN: not braze-opt --cpu=x86-64-v4 %s --form-kernels=report=%t.missing/dir/r.txt 2>&1 | FileCheck %s --check-prefix=NOWRITE

// IR: call @cpu_per_fused_exp_reduce_sum_div_0

// TEXT:      form-kernels report @f
// TEXT-NEXT: nodes:
// TEXT-NEXT:   #0 exp poi 4x8
// TEXT-NEXT:   #1 reduce_sum red 4x8 reduce=1
// TEXT-NEXT:   #2 div poi 4x8
// TEXT-NEXT: candidates:
// TEXT-NEXT:   #0 -> #1 (exp -> reduce_sum) vertical score=0 fused step=2
// TEXT-NEXT:   #0 -> #2 (exp -> div) vertical score=0 fused step=2
// TEXT-NEXT:   #1 -> #2 (reduce_sum -> div) reduction-epilogue score=144 fused step=1
// TEXT-NEXT: steps:
// TEXT-NEXT:   1: #1 + #2 reduction-epilogue score=144
// TEXT-NEXT:   2: #0 + #1 vertical score=128
// TEXT-NEXT: kernels:
// TEXT-NEXT:   cpu_per_fused_exp_reduce_sum_div_0 per nodes=#0,#1,#2 ops=exp,reduce_sum,div score=272

// JSON: {"functions": [{"name": "f", "nodes": [{"id": 0, "ops": ["exp"], "kind": "poi", "space": [4, 8], "reduced": [], "loc": "{{[^"]*}}report.mlir:{{[0-9]+}}:{{[0-9]+}}"},
// JSON-SAME: {"id": 1, "ops": ["reduce_sum"], "kind": "red", "space": [4, 8], "reduced": [1],
// JSON-SAME: "candidates": [{"a": 0, "b": 1, "edge": true, "category": "vertical", "score": 0, "decision": "fused", "step": 2},
// JSON-SAME: "steps": [{"step": 1, "a": 1, "b": 2, "category": "reduction-epilogue", "score": 144},
// JSON-SAME: "kernels": [{"name": "cpu_per_fused_exp_reduce_sum_div_0", "kind": "per", "nodes": [0, 1, 2], "ops": ["exp", "reduce_sum", "div"], "score": 272}]}]}

// NOWRITE: error: form-kernels: cannot write the report to '{{.*}}r.txt'
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) attrs = {braze.ops = ["exp"]} {
  ^bb0(%p: f32, %o: f32):
    %r = math.exp %p : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %e4 = tensor.empty() : tensor<4xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x8xf32>) outs(%f4 : tensor<4xf32>) attrs = {braze.ops = ["reduce_sum"]} {
  ^bb0(%p: f32, %acc: f32):
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %d = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %s : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) attrs = {braze.ops = ["div"]} {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %r = arith.divf %p, %q : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
