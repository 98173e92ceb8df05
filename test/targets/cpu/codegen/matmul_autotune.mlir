// matmul=auto: the template and the extern are compiled and timed on the kernel's
// shapes at compile time; the decision and both times go to the remark, the kernel's
// braze.autotune attribute and the cache file. A second compile reads the cache; a
// corrupt line is ignored with a warning (and the kernel timed again); a kernel the
// extern cannot take (f16) is not timed.
// braze compile and braze-opt both load libomp at start-up, so that the timed
// libraries' worker threads are visible to LeakSanitizer under the sanitizers.
// RUN: rm -f %t.cache %t.bad %t.num
// RUN: sed 's/matmul=auto/matmul=auto remarks/' %S/Inputs/cpu-matmul-auto.pipeline > %t.pipeline
// RUN: env BRAZE_AUTOTUNE_CACHE=%t.cache braze compile --cpu=x86-64-v4 %s --pipeline=%t.pipeline --emit=mlir -o - 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: FileCheck %s --check-prefix=CACHE --input-file=%t.cache
// The same decision from braze-opt (a fresh cache):
// RUN: rm -f %t.opt-cache && env BRAZE_AUTOTUNE_CACHE=%t.opt-cache braze-opt --cpu=x86-64-v4 %s --pipeline=%t.pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// OPT: remark: cpu-codegen: kernel @cpu_tem_fused_{{[a-z_]+}}_0: matmul=auto chose {{template|extern}} (template {{[0-9.]+}} ms, extern {{[0-9.]+}} ms){{$}}
// RUN: env BRAZE_AUTOTUNE_CACHE=%t.cache braze compile --cpu=x86-64-v4 %s --pipeline=%t.pipeline --emit=mlir -o - 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: printf 'not a decision\n' >> %t.cache
// RUN: printf 'v1 key\tfaster\t1.0\t2.0\n' >> %t.cache
// RUN: env BRAZE_AUTOTUNE_CACHE=%t.cache braze compile --cpu=x86-64-v4 %s --pipeline=%t.pipeline --emit=mlir -o - 2>&1 | FileCheck %s --check-prefix=CORRUPT
// RUN: printf 'garbage\n' > %t.bad
// RUN: env BRAZE_AUTOTUNE_CACHE=%t.bad braze compile --cpu=x86-64-v4 %s --pipeline=%t.pipeline --emit=mlir -o - 2>&1 | FileCheck %s --check-prefix=REPLACED
// RUN: FileCheck %s --check-prefix=CACHE --input-file=%t.bad
// The option names the file too (a cache hit: nothing is timed).
// RUN: braze-opt --cpu=x86-64-v4 %s --graph-decompose --graph-to-loops --inline-unrealized --form-kernels --cpu-codegen="matmul=auto remarks autotune-cache=%t.cache" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SECOND
// RUN: env BRAZE_AUTOTUNE_CACHE=%t.num braze check %s --seed 4 --pipeline=%S/Inputs/cpu-matmul-auto.pipeline | FileCheck %s --check-prefix=NUM

// FIRST: remark: cpu-codegen: kernel @cpu_tem_fused_{{[a-z_]+}}_0: matmul=auto chose {{template|extern}} (template {{[0-9.]+}} ms, extern {{[0-9.]+}} ms){{$}}
// FIRST: remark: cpu-codegen: kernel @cpu_tem_fused_{{[a-z_]+}}_1: no matmul extern: extern-dtype
// FIRST-NOT: matmul=auto chose
// FIRST: braze.autotune = "{{template|extern}} (template {{[0-9.]+}} ms, extern {{[0-9.]+}} ms)"

// CACHE: v1 args=tensor<64x80xf32>,tensor<80x96xf32>,tensor<96xf32>, a=(d0, d1, d2) -> (d0, d2) b=(d0, d1, d2) -> (d2, d1) ops=["matmul", "add", "relu"] tiles=6/{{[0-9]+}}/0/{{[0-9]+}} cpu={{.*}} threads={{.*}}	{{template|extern}}	{{[0-9.]+}}	{{[0-9.]+}}{{$}}

// SECOND: matmul=auto chose {{template|extern}} (template {{[0-9.]+}} ms, extern {{[0-9.]+}} ms, cached)
// SECOND-NOT: warning

// CORRUPT: warning: cpu-codegen: kernel @cpu_tem_fused_{{[a-z_]+}}_0: ignoring 2 corrupt line(s) of the autotune cache '{{.*}}' (first: line 2)
// CORRUPT: matmul=auto chose {{template|extern}} (template {{[0-9.]+}} ms, extern {{[0-9.]+}} ms, cached)

// REPLACED: warning: {{.*}} ignoring 1 corrupt line(s) of the autotune cache
// REPLACED: matmul=auto chose {{template|extern}} (template {{[0-9.]+}} ms, extern {{[0-9.]+}} ms){{$}}

// NUM-NOT: FAIL
// NUM: PASS @linear_relu
// NUM: PASS @half
func.func @linear_relu(%x: tensor<64x80xf32>, %w: tensor<80x96xf32>, %b: tensor<96xf32>) -> tensor<64x96xf32> {
  %0 = "graph.matmul"(%x, %w) : (tensor<64x80xf32>, tensor<80x96xf32>) -> tensor<64x96xf32>
  %1 = "graph.add"(%0, %b) : (tensor<64x96xf32>, tensor<96xf32>) -> tensor<64x96xf32>
  %2 = "graph.relu"(%1) : (tensor<64x96xf32>) -> tensor<64x96xf32>
  return %2 : tensor<64x96xf32>
}

func.func @half(%a: tensor<9x20xf16>, %b: tensor<20x30xf16>) -> tensor<9x30xf16> {
  %0 = "graph.matmul"(%a, %b) : (tensor<9x20xf16>, tensor<20x30xf16>) -> tensor<9x30xf16>
  return %0 : tensor<9x30xf16>
}
