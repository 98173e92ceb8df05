// form-kernels{pad-templates} (passes/fusion/pad-prologue.c, decision 0024): a zero pad
// (the gather-select copy graph-decompose makes of a padded conv's channels-last input:
// here x [1, 4, 8] padded to [1, 6, 8] by the table [-1, 0, 1, 2, 3, -1]) that only a
// contraction reads, as its A, joins that contraction's tem kernel; the template then
// reads x with the padding implicit (cpu-codegen: a-pad=implicit). Refused, with a
// remark, and kept as its own kernel: a pad also returned, a select whose other value
// is not 0.0 (not a zero pad), a read of x that is not channels-last. Without the option
// (the default, and CUDA's pipeline) nothing moves.
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels="pad-templates remarks" 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels | FileCheck %s --check-prefix=OFF
// pad-channels=N (cuda-default's 64: the CUDA template loads 64 channels per box) keeps
// pads of fewer channels (8 here) as kernels:
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels="pad-templates pad-channels=16 remarks" 2>&1 | FileCheck %s --check-prefix=CHANNELS
// RUN: braze-opt --cpu=x86-64-v4 %s --form-kernels=pad-templates --cpu-codegen="remarks lanes=16" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CG

#t = affine_map<(d0, d1, d2) -> (d1)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#win = affine_map<(d0, d1, d2, d3, d4) -> (0, d2 + d4 floordiv 8, d4 mod 8)>
#wb = affine_map<(d0, d1, d2, d3, d4) -> (0, d4, d3)>
#out = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func.func private @cpu_tem_fused_conv_0(%arg0: tensor<1x4x8xf32>, %arg1: tensor<1x24x5xf32>)
// CHECK-SAME: kernel.ops = ["gather", "select", "batch_matmul"]
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<6xi1>, tensor<6xi32>) outs(%{{.*}} : tensor<1x6x8xf32>)
// CHECK: tensor.extract %arg0
// CHECK: linalg.generic {{.*}}ins(%{{.*}}, %arg1 : tensor<1x6x8xf32>, tensor<1x24x5xf32>)
// CHECK-LABEL: func.func @absorbed(
// CHECK-NEXT: call @cpu_tem_fused_conv_0
// REMARK: pad-templates.mlir:{{[0-9]+}}:8: remark: form-kernels: pad-templates: zero pad joins the template kernel of its contraction (read as A, the padding implicit)
// CHANNELS: pad-templates.mlir:{{[0-9]+}}:8: remark: form-kernels: pad-templates: the gather read as a contraction's A stays its own kernel: its channels are not a multiple of pad-channels
// CHANNELS-LABEL: func.func @absorbed(
// CHANNELS-NEXT: call @cpu_poi_fused_conv_
// OFF-LABEL: func.func @absorbed(
// OFF-NEXT: call @cpu_poi_fused_conv_
// (one run of K = 24: the whole window row)
// CG: kernel @cpu_tem_fused_conv_0: matmul template gemm mr=6 nr=32 mc={{[0-9]+}} vw=16 a-pad=implicit b=packed-per-panel, 4x5x24
func.func @absorbed(%x: tensor<1x4x8xf32>, %w: tensor<1x24x5xf32>) -> tensor<1x1x4x5xf32> {
  %mask = arith.constant dense<[false, true, true, true, true, false]> : tensor<6xi1>
  %table = arith.constant dense<[-1, 0, 1, 2, 3, -1]> : tensor<6xi32>
  %e = tensor.empty() : tensor<1x6x8xf32>
  %p = linalg.generic {indexing_maps = [#t, #t, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %table : tensor<6xi1>, tensor<6xi32>) outs(%e : tensor<1x6x8xf32>) attrs = {braze.ops = ["gather", "select"], braze.origins = ["conv", "conv"]} {
  ^bb0(%in: i1, %pos: i32, %o: f32):
    %b = linalg.index 0 : index
    %c = linalg.index 2 : index
    %z = arith.constant 0 : i32
    %three = arith.constant 3 : i32
    %lo = arith.maxsi %pos, %z : i32
    %cl = arith.minsi %lo, %three : i32
    %i = arith.index_cast %cl : i32 to index
    %v = tensor.extract %x[%b, %i, %c] : tensor<1x4x8xf32>
    %zero = arith.constant 0.0 : f32
    %s = arith.select %in, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x6x8xf32>
  %f0 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x1x4x5xf32>
  %acc = linalg.fill ins(%f0 : f32) outs(%e2 : tensor<1x1x4x5xf32>) -> tensor<1x1x4x5xf32>
  %r = linalg.generic {indexing_maps = [#win, #wb, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<1x6x8xf32>, tensor<1x24x5xf32>) outs(%acc : tensor<1x1x4x5xf32>) attrs = {braze.ops = ["batch_matmul"], braze.origins = ["conv"]} {
  ^bb0(%a: f32, %bw: f32, %o: f32):
    %m = arith.mulf %a, %bw : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x5xf32>
  return %r : tensor<1x1x4x5xf32>
}

// REMARK: pad-templates.mlir:{{[0-9]+}}:8: remark: form-kernels: pad-templates: the gather read as a contraction's A stays its own kernel: it is read by more than the contraction
// CHECK-LABEL: func.func @also_returned(
// CHECK-NEXT: call @cpu_poi_fused_conv_1
func.func @also_returned(%x: tensor<1x4x8xf32>, %w: tensor<1x24x5xf32>) -> (tensor<1x1x4x5xf32>, tensor<1x6x8xf32>) {
  %mask = arith.constant dense<[false, true, true, true, true, false]> : tensor<6xi1>
  %table = arith.constant dense<[-1, 0, 1, 2, 3, -1]> : tensor<6xi32>
  %e = tensor.empty() : tensor<1x6x8xf32>
  %p = linalg.generic {indexing_maps = [#t, #t, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %table : tensor<6xi1>, tensor<6xi32>) outs(%e : tensor<1x6x8xf32>) attrs = {braze.ops = ["gather", "select"], braze.origins = ["conv", "conv"]} {
  ^bb0(%in: i1, %pos: i32, %o: f32):
    %b = linalg.index 0 : index
    %c = linalg.index 2 : index
    %z = arith.constant 0 : i32
    %three = arith.constant 3 : i32
    %lo = arith.maxsi %pos, %z : i32
    %cl = arith.minsi %lo, %three : i32
    %i = arith.index_cast %cl : i32 to index
    %v = tensor.extract %x[%b, %i, %c] : tensor<1x4x8xf32>
    %zero = arith.constant 0.0 : f32
    %s = arith.select %in, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x6x8xf32>
  %f0 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x1x4x5xf32>
  %acc = linalg.fill ins(%f0 : f32) outs(%e2 : tensor<1x1x4x5xf32>) -> tensor<1x1x4x5xf32>
  %r = linalg.generic {indexing_maps = [#win, #wb, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<1x6x8xf32>, tensor<1x24x5xf32>) outs(%acc : tensor<1x1x4x5xf32>) attrs = {braze.ops = ["batch_matmul"], braze.origins = ["conv"]} {
  ^bb0(%a: f32, %bw: f32, %o: f32):
    %m = arith.mulf %a, %bw : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x5xf32>
  return %r, %p : tensor<1x1x4x5xf32>, tensor<1x6x8xf32>
}

// REMARK: pad-templates.mlir:{{[0-9]+}}:8: remark: form-kernels: pad-templates: the gather read as a contraction's A stays its own kernel: not select(cond, tensor.extract, 0.0)
// CHECK-LABEL: func.func @one_pad(
// CHECK-NEXT: call @cpu_poi_fused_conv_3
func.func @one_pad(%x: tensor<1x4x8xf32>, %w: tensor<1x24x5xf32>) -> tensor<1x1x4x5xf32> {
  %mask = arith.constant dense<[false, true, true, true, true, false]> : tensor<6xi1>
  %table = arith.constant dense<[-1, 0, 1, 2, 3, -1]> : tensor<6xi32>
  %e = tensor.empty() : tensor<1x6x8xf32>
  %p = linalg.generic {indexing_maps = [#t, #t, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %table : tensor<6xi1>, tensor<6xi32>) outs(%e : tensor<1x6x8xf32>) attrs = {braze.ops = ["gather", "select"], braze.origins = ["conv", "conv"]} {
  ^bb0(%in: i1, %pos: i32, %o: f32):
    %b = linalg.index 0 : index
    %c = linalg.index 2 : index
    %z = arith.constant 0 : i32
    %three = arith.constant 3 : i32
    %lo = arith.maxsi %pos, %z : i32
    %cl = arith.minsi %lo, %three : i32
    %i = arith.index_cast %cl : i32 to index
    %v = tensor.extract %x[%b, %i, %c] : tensor<1x4x8xf32>
    %one = arith.constant 1.0 : f32
    %s = arith.select %in, %v, %one : f32
    linalg.yield %s : f32
  } -> tensor<1x6x8xf32>
  %f0 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x1x4x5xf32>
  %acc = linalg.fill ins(%f0 : f32) outs(%e2 : tensor<1x1x4x5xf32>) -> tensor<1x1x4x5xf32>
  %r = linalg.generic {indexing_maps = [#win, #wb, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<1x6x8xf32>, tensor<1x24x5xf32>) outs(%acc : tensor<1x1x4x5xf32>) attrs = {braze.ops = ["batch_matmul"], braze.origins = ["conv"]} {
  ^bb0(%a: f32, %bw: f32, %o: f32):
    %m = arith.mulf %a, %bw : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x5xf32>
  return %r : tensor<1x1x4x5xf32>
}

// x read transposed ([1, 8, 4]: channels first): not a pad of channels-last data.
// REMARK: pad-templates.mlir:{{[0-9]+}}:8: remark: form-kernels: pad-templates: the gather read as a contraction's A stays its own kernel: a read that is not channels-last
// CHECK-LABEL: func.func @channels_first(
// CHECK-NEXT: call @cpu_poi_fused_conv_5
func.func @channels_first(%x: tensor<1x8x4xf32>, %w: tensor<1x24x5xf32>) -> tensor<1x1x4x5xf32> {
  %mask = arith.constant dense<[false, true, true, true, true, false]> : tensor<6xi1>
  %table = arith.constant dense<[-1, 0, 1, 2, 3, -1]> : tensor<6xi32>
  %e = tensor.empty() : tensor<1x6x8xf32>
  %p = linalg.generic {indexing_maps = [#t, #t, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %table : tensor<6xi1>, tensor<6xi32>) outs(%e : tensor<1x6x8xf32>) attrs = {braze.ops = ["gather", "select"], braze.origins = ["conv", "conv"]} {
  ^bb0(%in: i1, %pos: i32, %o: f32):
    %b = linalg.index 0 : index
    %c = linalg.index 2 : index
    %z = arith.constant 0 : i32
    %three = arith.constant 3 : i32
    %lo = arith.maxsi %pos, %z : i32
    %cl = arith.minsi %lo, %three : i32
    %i = arith.index_cast %cl : i32 to index
    %v = tensor.extract %x[%b, %c, %i] : tensor<1x8x4xf32>
    %zero = arith.constant 0.0 : f32
    %s = arith.select %in, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x6x8xf32>
  %f0 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x1x4x5xf32>
  %acc = linalg.fill ins(%f0 : f32) outs(%e2 : tensor<1x1x4x5xf32>) -> tensor<1x1x4x5xf32>
  %r = linalg.generic {indexing_maps = [#win, #wb, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<1x6x8xf32>, tensor<1x24x5xf32>) outs(%acc : tensor<1x1x4x5xf32>) attrs = {braze.ops = ["batch_matmul"], braze.origins = ["conv"]} {
  ^bb0(%a: f32, %bw: f32, %o: f32):
    %m = arith.mulf %a, %bw : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x5xf32>
  return %r : tensor<1x1x4x5xf32>
}

// The check runs at b = 0 and c = 0 only where the loop provably just moves the read
// (passes/loops/zero-pad-read.c, loop_only_moves); a condition that reads c, or a
// channel index that is not c itself, takes the check at every point, which refuses
// them: zeros for channels 4 and up are not a zero pad of positions, and channels read
// reversed are not channels-last.
// REMARK: pad-templates.mlir:{{[0-9]+}}:8: remark: form-kernels: pad-templates: the gather read as a contraction's A stays its own kernel: a condition that depends on more than the padded position
// REMARK: pad-templates.mlir:{{[0-9]+}}:8: remark: form-kernels: pad-templates: the gather read as a contraction's A stays its own kernel: a read that is not channels-last
// CHECK-LABEL: func.func @condition_reads_channel(
// CHECK-NEXT: call @cpu_poi_fused_conv_
func.func @condition_reads_channel(%x: tensor<1x4x8xf32>, %w: tensor<1x24x5xf32>) -> tensor<1x1x4x5xf32> {
  %mask = arith.constant dense<[false, true, true, true, true, false]> : tensor<6xi1>
  %table = arith.constant dense<[-1, 0, 1, 2, 3, -1]> : tensor<6xi32>
  %e = tensor.empty() : tensor<1x6x8xf32>
  %p = linalg.generic {indexing_maps = [#t, #t, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %table : tensor<6xi1>, tensor<6xi32>) outs(%e : tensor<1x6x8xf32>) attrs = {braze.ops = ["gather", "select"], braze.origins = ["conv", "conv"]} {
  ^bb0(%in: i1, %pos: i32, %o: f32):
    %b = linalg.index 0 : index
    %c = linalg.index 2 : index
    %z = arith.constant 0 : i32
    %three = arith.constant 3 : i32
    %four = arith.constant 4 : index
    %lo = arith.maxsi %pos, %z : i32
    %cl = arith.minsi %lo, %three : i32
    %i = arith.index_cast %cl : i32 to index
    %low = arith.cmpi ult, %c, %four : index
    %no = arith.constant false
    %keep = arith.select %low, %in, %no : i1
    %v = tensor.extract %x[%b, %i, %c] : tensor<1x4x8xf32>
    %zero = arith.constant 0.0 : f32
    %s = arith.select %keep, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x6x8xf32>
  %f0 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x1x4x5xf32>
  %acc = linalg.fill ins(%f0 : f32) outs(%e2 : tensor<1x1x4x5xf32>) -> tensor<1x1x4x5xf32>
  %r = linalg.generic {indexing_maps = [#win, #wb, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<1x6x8xf32>, tensor<1x24x5xf32>) outs(%acc : tensor<1x1x4x5xf32>) attrs = {braze.ops = ["batch_matmul"], braze.origins = ["conv"]} {
  ^bb0(%a: f32, %bw: f32, %o: f32):
    %m = arith.mulf %a, %bw : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x5xf32>
  return %r : tensor<1x1x4x5xf32>
}

// CHECK-LABEL: func.func @channels_reversed(
// CHECK-NEXT: call @cpu_poi_fused_conv_
func.func @channels_reversed(%x: tensor<1x4x8xf32>, %w: tensor<1x24x5xf32>) -> tensor<1x1x4x5xf32> {
  %mask = arith.constant dense<[false, true, true, true, true, false]> : tensor<6xi1>
  %table = arith.constant dense<[-1, 0, 1, 2, 3, -1]> : tensor<6xi32>
  %e = tensor.empty() : tensor<1x6x8xf32>
  %p = linalg.generic {indexing_maps = [#t, #t, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mask, %table : tensor<6xi1>, tensor<6xi32>) outs(%e : tensor<1x6x8xf32>) attrs = {braze.ops = ["gather", "select"], braze.origins = ["conv", "conv"]} {
  ^bb0(%in: i1, %pos: i32, %o: f32):
    %b = linalg.index 0 : index
    %c = linalg.index 2 : index
    %z = arith.constant 0 : i32
    %three = arith.constant 3 : i32
    %seven = arith.constant 7 : index
    %lo = arith.maxsi %pos, %z : i32
    %cl = arith.minsi %lo, %three : i32
    %i = arith.index_cast %cl : i32 to index
    %rc = arith.subi %seven, %c : index
    %v = tensor.extract %x[%b, %i, %rc] : tensor<1x4x8xf32>
    %zero = arith.constant 0.0 : f32
    %s = arith.select %in, %v, %zero : f32
    linalg.yield %s : f32
  } -> tensor<1x6x8xf32>
  %f0 = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<1x1x4x5xf32>
  %acc = linalg.fill ins(%f0 : f32) outs(%e2 : tensor<1x1x4x5xf32>) -> tensor<1x1x4x5xf32>
  %r = linalg.generic {indexing_maps = [#win, #wb, #out], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %w : tensor<1x6x8xf32>, tensor<1x24x5xf32>) outs(%acc : tensor<1x1x4x5xf32>) attrs = {braze.ops = ["batch_matmul"], braze.origins = ["conv"]} {
  ^bb0(%a: f32, %bw: f32, %o: f32):
    %m = arith.mulf %a, %bw : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<1x1x4x5xf32>
  return %r : tensor<1x1x4x5xf32>
}
