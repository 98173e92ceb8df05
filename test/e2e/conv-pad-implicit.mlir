// Padded convs with the padding implicit (decision 0024): form-kernels{pad-templates}
// puts the zero pad (graph-decompose's gather-select copy of the channels-last input)
// into the conv's template kernel, and the CPU matmul template reads A's runs from the
// unpadded input (a-pad=implicit): a run wholly inside reads the input in place, one
// wholly in the padding a zero row, one across the border a scratch row it fills. Each
// case is a 1x1 conv (its output channels-last, read with no copy) then the padded conv
// under test with bias and relu, checked against the reference interpreter on random
// inputs: stride 1 and 2 at batch 2 and 3, a 7x7 stride-2 pad-3 conv of 3 channels
// (ResNet's stem shape), dilation 2, asymmetric pads with unequal strides, and channel
// counts that are multiples of the vector width (32 channels, 16 with stride 2 and
// asymmetric pads, 336 with 5x5 taps: the border runs are copied by vector loops; with 3
// channels by element loops). A dilated
// conv of 3 channels (runs of 3: none) keeps its pad written inside the template kernel
// (a-pad=copy, a cpu-codegen remark). Grouped and depthwise convs, and a conv reading an
// NCHW input (the gather reads x transposed), keep their pad kernel (form-kernels'
// remark). The pipeline is cpu-default with pad-templates for every pad. The CUDA
// pipeline absorbs none of these (pad-channels=64; test/gpu/cases/conv-pad-tma.mlir).
// RUN: braze check %s --seed 7 --pipeline=%S/Inputs/cpu-pad-templates.pipeline | FileCheck %s
// RUN: braze compile --cpu=x86-64-v4 %s --emit=mlir -o - --pipeline=%S/Inputs/cpu-pad-templates.pipeline | FileCheck %s --check-prefix=IR
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{horizontal-templates pad-templates remarks},cpu-codegen{remarks lanes=16})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{horizontal-templates pad-templates=10 remarks})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHARE
// RUN: braze-opt --cpu=x86-64-v4 %s --pass-pipeline='builtin.module(graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized,form-kernels{target=cuda horizontal-templates=half})' | FileCheck %s --check-prefix=CUDA
// CHECK-NOT: FAIL
// CHECK: PASS  @stride1_batch2 out0 2x9x7x6xf32
// CHECK: PASS  @stride2_batch3 out0 3x6x5x5xf32
// CHECK: PASS  @stem7x7_c3 out0 2x8x8x7xf32
// CHECK: PASS  @dilated out0 1x7x10x10xf32
// CHECK: PASS  @asymmetric out0 2x7x5x12xf32
// CHECK: PASS  @grouped out0 1x8x6x6xf32
// CHECK: PASS  @depthwise out0 2x6x7x7xf32
// CHECK: PASS  @dilated_c3_copy out0 1x5x9x9xf32
// CHECK: PASS  @nchw_input out0 1x4x5x5xf32
// CHECK: PASS  @vector_copy_c32 out0 2x24x6x7xf32
// CHECK: PASS  @vector_copy_c16_s2 out0 1x20x4x3xf32
// CHECK: PASS  @vector_copy_c336_k5 out0 1x6x4x4xf32

// No pad kernel: the template kernel takes the 1x1 conv's channels-last output
// [2, 1, 42, 8] itself (and the pad's mask and table), reads its run table (lo, count,
// x0 per padded position) per row and run, and picks the input, the zero row or the
// scratch row it filled.
// IR-LABEL: func.func private @cpu_tem_fused_conv_2(%arg0: memref<72x1xi1>, %arg1: memref<72xi32>, %arg2: memref<2x1x42x8xf32>
// IR-SAME: braze.template = "gemm mr=6 nr={{[0-9]+}} mc={{[0-9]+}} vw={{[0-9]+}} a-run=24 a-pad=implicit
// IR-SAME: kernel.ops = ["reshape", "gather", "select", "batch_matmul"
// IR: memref.collapse_shape %arg2 {{.*}} into memref<672xf32>
// IR: memref.get_global {{.*}} : memref<72x3xi32>
// IR: memref.cast %{{.*}} : memref<672xf32> to memref<?xf32>
// IR: memref.get_global {{.*}} : memref<24xf32>
// IR: scf.parallel
// IR: memref.alloca() {alignment = 64 : i64} : memref<144xf32>
// IR: scf.if
// IR: arith.select %{{.*}}, %{{.*}}, %{{.*}} : memref<?xf32>
// IR: memref.load %{{.*}} : memref<?xf32>
// IR-NEXT: vector.broadcast
// The stem-like conv: runs of KW C = 21; 3 channels are no multiple of the vector
// width, so a border run is copied by element loops (zeros, the inside piece, zeros).
// IR-LABEL: func.func private @cpu_tem_fused_conv_10(%arg0: memref<399x1xi1>, %arg1: memref<399xi32>, %arg2: memref<2x1x195x3xf32>
// IR-SAME: a-run=21 a-pad=implicit
// Unless every row's run is wholly inside or in the padding, one loop over the tile's
// rows copies each straddling run into the row's scratch row (the copy code once per
// run loop, not per row: compile time).
// IR: scf.if %{{.*}} {
// IR-NEXT: } else {
// IR-NEXT: scf.for %[[ROW:.*]] = %c0 to %c6 step %c1 {
// IR: scf.if %{{.*}} {
// IR-NEXT: } else {
// IR-NEXT: arith.muli %[[ROW]], %c21 : index
// IR: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 {
// IR-NEXT: arith.addi
// IR-NEXT: memref.store %cst
// IR: memref.load %{{.*}} : memref<1170xf32>
// IR-NEXT: memref.store
// Grouped and depthwise: pad kernels.
// IR: func.func private @cpu_poi_fused_conv_21(%arg0: memref<1x1x36x8xf32>
// IR-SAME: kernel.ops = ["reshape", "gather", "select"]
// IR: func.func private @cpu_poi_fused_conv_26(%arg0: memref<81x1xi1>
// IR-SAME: kernel.ops = ["reshape", "gather", "select"]
// The dilated 3-channel conv writes its pad into a kernel-local buffer first.
// IR-LABEL: func.func private @cpu_tem_fused_conv_32(%arg0: memref<169x1xi1>
// IR-SAME: a-pad=copy
// IR: memref.alloc() {alignment = 64 : i64} : memref<1x169x3xf32>
// The NCHW input's conv.
// IR: func.func private @cpu_poi_fused_conv_34(%arg0: memref<1x3x5x5xf32>
// IR-SAME: kernel.ops = ["reshape", "gather", "select"]
// 32 channels, runs of 3 x 32: a border run is copied by vector code, per position a
// loop over its vectors (loaded from x where the position is inside, zeros where not:
// the select keeps LLVM from making a memset/memcpy call of it).
// IR-LABEL: func.func private @cpu_tem_fused_conv_{{[0-9]+}}({{.*}}memref<1x288x24xf32>
// IR-SAME: a-run=96 a-pad=implicit
// IR: scf.for %{{.*}} = %c0 to %c6 step %c1 {
// IR: scf.if
// IR-NEXT: } else {
// IR: arith.andi %{{.*}}, %{{.*}} : i1
// IR-NEXT: scf.for %{{.*}} = %c0 to %c32 step %c{{[0-9]+}} {
// IR: vector.load %{{.*}} : memref<{{[?0-9]+}}xf32>, vector<{{[0-9]+}}xf32>
// IR-NEXT: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<{{[0-9]+}}xf32>
// IR: vector.store
// 5x5 taps of 336 channels: runs of 5 positions, 1680 values, each position a loop of
// 336 / vw vectors.
// IR-LABEL: func.func private @cpu_tem_fused_conv_{{[0-9]+}}({{.*}}memref<1x8400x6xf32>
// IR-SAME: a-run=1680 a-pad=implicit
// IR: } else {
// IR: scf.for %{{.*}} = %c0 to %c336 step %c{{[0-9]+}} {
// IR: memref.dealloc

// REMARK-COUNT-5: remark: form-kernels: pad-templates: zero pad joins the template kernel of its contraction (read as A, the padding implicit)
// REMARK: remark: form-kernels: pad-templates: the gather read as a contraction's A stays its own kernel: A's channels are not read along k alone (a grouped conv)
// REMARK: remark: form-kernels: pad-templates: the gather read as a contraction's A stays its own kernel: A's channels are not read along k alone
// REMARK: remark: form-kernels: pad-templates: zero pad joins the template kernel of its contraction (read as A, the padding implicit)
// REMARK: remark: form-kernels: pad-templates: the gather read as a contraction's A stays its own kernel: a read that is not channels-last
// REMARK-DAG: a-run=24 a-pad=implicit b=packed-per-panel, 42x9x72
// REMARK-DAG: a-run=24 a-pad=implicit b=packed-per-panel, 25x6x72
// REMARK-DAG: a-run=21 a-pad=implicit b=packed-per-panel, 56x8x147
// REMARK-DAG: a-run=6 a-pad=implicit b=packed-per-panel, 100x7x54
// REMARK-DAG: a-run=8 a-pad=implicit b=packed-per-panel, 60x7x24
// REMARK-DAG: kernel @cpu_tem_fused_conv_32: zero pad written into a kernel-local buffer: A is not read in runs

// cpu-default's share: every pad here is more than 10% padding.
// SHARE-COUNT-6: stays its own kernel: its padding is more than pad-templates' share of its positions
// SHARE-NOT: joins

// The CUDA pipeline asks for no pad-templates: every pad stays its own kernel.
// CUDA-COUNT-9: kernel.kind = "poi", kernel.ops = ["reshape", "gather", "select"]

func.func @stride1_batch2(%x: tensor<2x5x7x6xf32>, %w0: tensor<8x5x1x1xf32>, %w: tensor<9x8x3x3xf32>, %b: tensor<9x1x1xf32>) -> tensor<2x9x7x6xf32> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<2x5x7x6xf32>, tensor<8x5x1x1xf32>) -> tensor<2x8x7x6xf32>
  %c = "graph.conv"(%y, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<2x8x7x6xf32>, tensor<9x8x3x3xf32>) -> tensor<2x9x7x6xf32>
  %cb = "graph.add"(%c, %b) : (tensor<2x9x7x6xf32>, tensor<9x1x1xf32>) -> tensor<2x9x7x6xf32>
  %r = "graph.relu"(%cb) : (tensor<2x9x7x6xf32>) -> tensor<2x9x7x6xf32>
  return %r : tensor<2x9x7x6xf32>
}

func.func @stride2_batch3(%x: tensor<3x4x9x9xf32>, %w0: tensor<8x4x1x1xf32>, %w: tensor<6x8x3x3xf32>, %b: tensor<6x1x1xf32>) -> tensor<3x6x5x5xf32> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<3x4x9x9xf32>, tensor<8x4x1x1xf32>) -> tensor<3x8x9x9xf32>
  %c = "graph.conv"(%y, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<3x8x9x9xf32>, tensor<6x8x3x3xf32>) -> tensor<3x6x5x5xf32>
  %cb = "graph.add"(%c, %b) : (tensor<3x6x5x5xf32>, tensor<6x1x1xf32>) -> tensor<3x6x5x5xf32>
  %r = "graph.relu"(%cb) : (tensor<3x6x5x5xf32>) -> tensor<3x6x5x5xf32>
  return %r : tensor<3x6x5x5xf32>
}

func.func @stem7x7_c3(%x: tensor<2x4x15x13xf32>, %w0: tensor<3x4x1x1xf32>, %w: tensor<8x3x7x7xf32>, %b: tensor<8x1x1xf32>) -> tensor<2x8x8x7xf32> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<2x4x15x13xf32>, tensor<3x4x1x1xf32>) -> tensor<2x3x15x13xf32>
  %c = "graph.conv"(%y, %w) {strides = array<i64: 2, 2>, pads = array<i64: 3, 3, 3, 3>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<2x3x15x13xf32>, tensor<8x3x7x7xf32>) -> tensor<2x8x8x7xf32>
  %cb = "graph.add"(%c, %b) : (tensor<2x8x8x7xf32>, tensor<8x1x1xf32>) -> tensor<2x8x8x7xf32>
  %r = "graph.relu"(%cb) : (tensor<2x8x8x7xf32>) -> tensor<2x8x8x7xf32>
  return %r : tensor<2x8x8x7xf32>
}

func.func @dilated(%x: tensor<1x5x10x10xf32>, %w0: tensor<6x5x1x1xf32>, %w: tensor<7x6x3x3xf32>, %b: tensor<7x1x1xf32>) -> tensor<1x7x10x10xf32> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x5x10x10xf32>, tensor<6x5x1x1xf32>) -> tensor<1x6x10x10xf32>
  %c = "graph.conv"(%y, %w) {strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>, groups = 1 : i64}
      : (tensor<1x6x10x10xf32>, tensor<7x6x3x3xf32>) -> tensor<1x7x10x10xf32>
  %cb = "graph.add"(%c, %b) : (tensor<1x7x10x10xf32>, tensor<7x1x1xf32>) -> tensor<1x7x10x10xf32>
  %r = "graph.relu"(%cb) : (tensor<1x7x10x10xf32>) -> tensor<1x7x10x10xf32>
  return %r : tensor<1x7x10x10xf32>
}

func.func @asymmetric(%x: tensor<2x5x9x11xf32>, %w0: tensor<4x5x1x1xf32>, %w: tensor<7x4x3x2xf32>, %b: tensor<7x1x1xf32>) -> tensor<2x7x5x12xf32> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<2x5x9x11xf32>, tensor<4x5x1x1xf32>) -> tensor<2x4x9x11xf32>
  %c = "graph.conv"(%y, %w) {strides = array<i64: 2, 1>, pads = array<i64: 0, 1, 2, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<2x4x9x11xf32>, tensor<7x4x3x2xf32>) -> tensor<2x7x5x12xf32>
  %cb = "graph.add"(%c, %b) : (tensor<2x7x5x12xf32>, tensor<7x1x1xf32>) -> tensor<2x7x5x12xf32>
  %r = "graph.relu"(%cb) : (tensor<2x7x5x12xf32>) -> tensor<2x7x5x12xf32>
  return %r : tensor<2x7x5x12xf32>
}

func.func @grouped(%x: tensor<1x4x6x6xf32>, %w0: tensor<8x4x1x1xf32>, %w: tensor<8x4x3x3xf32>, %b: tensor<8x1x1xf32>) -> tensor<1x8x6x6xf32> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x4x6x6xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x6x6xf32>
  %c = "graph.conv"(%y, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 2 : i64}
      : (tensor<1x8x6x6xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  %cb = "graph.add"(%c, %b) : (tensor<1x8x6x6xf32>, tensor<8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %r = "graph.relu"(%cb) : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  return %r : tensor<1x8x6x6xf32>
}

func.func @depthwise(%x: tensor<2x4x7x7xf32>, %w0: tensor<6x4x1x1xf32>, %w: tensor<6x1x3x3xf32>, %b: tensor<6x1x1xf32>) -> tensor<2x6x7x7xf32> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<2x4x7x7xf32>, tensor<6x4x1x1xf32>) -> tensor<2x6x7x7xf32>
  %c = "graph.conv"(%y, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 6 : i64}
      : (tensor<2x6x7x7xf32>, tensor<6x1x3x3xf32>) -> tensor<2x6x7x7xf32>
  %cb = "graph.add"(%c, %b) : (tensor<2x6x7x7xf32>, tensor<6x1x1xf32>) -> tensor<2x6x7x7xf32>
  %r = "graph.relu"(%cb) : (tensor<2x6x7x7xf32>) -> tensor<2x6x7x7xf32>
  return %r : tensor<2x6x7x7xf32>
}

func.func @dilated_c3_copy(%x: tensor<1x4x9x9xf32>, %w0: tensor<3x4x1x1xf32>, %w: tensor<5x3x3x3xf32>, %b: tensor<5x1x1xf32>) -> tensor<1x5x9x9xf32> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x4x9x9xf32>, tensor<3x4x1x1xf32>) -> tensor<1x3x9x9xf32>
  %c = "graph.conv"(%y, %w) {strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 2, 2>, groups = 1 : i64}
      : (tensor<1x3x9x9xf32>, tensor<5x3x3x3xf32>) -> tensor<1x5x9x9xf32>
  %cb = "graph.add"(%c, %b) : (tensor<1x5x9x9xf32>, tensor<5x1x1xf32>) -> tensor<1x5x9x9xf32>
  %r = "graph.relu"(%cb) : (tensor<1x5x9x9xf32>) -> tensor<1x5x9x9xf32>
  return %r : tensor<1x5x9x9xf32>
}

func.func @nchw_input(%x: tensor<1x3x5x5xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32> {
  %c = "graph.conv"(%x, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x3x5x5xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32>
  return %c : tensor<1x4x5x5xf32>
}

// 32 channels (two or four vectors a position): border runs copied by vector code.
func.func @vector_copy_c32(%x: tensor<2x3x6x7xf32>, %w0: tensor<32x3x1x1xf32>, %w: tensor<24x32x3x3xf32>, %b: tensor<24x1x1xf32>) -> tensor<2x24x6x7xf32> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<2x3x6x7xf32>, tensor<32x3x1x1xf32>) -> tensor<2x32x6x7xf32>
  %c = "graph.conv"(%y, %w) {strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<2x32x6x7xf32>, tensor<24x32x3x3xf32>) -> tensor<2x24x6x7xf32>
  %cb = "graph.add"(%c, %b) : (tensor<2x24x6x7xf32>, tensor<24x1x1xf32>) -> tensor<2x24x6x7xf32>
  %r = "graph.relu"(%cb) : (tensor<2x24x6x7xf32>) -> tensor<2x24x6x7xf32>
  return %r : tensor<2x24x6x7xf32>
}

// 16 channels, stride 2, asymmetric pads (top 2, left 0, bottom 1, right 2).
func.func @vector_copy_c16_s2(%x: tensor<1x3x7x5xf32>, %w0: tensor<16x3x1x1xf32>, %w: tensor<20x16x3x3xf32>) -> tensor<1x20x4x3xf32> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x3x7x5xf32>, tensor<16x3x1x1xf32>) -> tensor<1x16x7x5xf32>
  %c = "graph.conv"(%y, %w) {strides = array<i64: 2, 2>, pads = array<i64: 2, 0, 1, 2>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x16x7x5xf32>, tensor<20x16x3x3xf32>) -> tensor<1x20x4x3xf32>
  %r = "graph.relu"(%c) : (tensor<1x20x4x3xf32>) -> tensor<1x20x4x3xf32>
  return %r : tensor<1x20x4x3xf32>
}

// 5x5 taps of 336 channels: runs of 5 positions, a vector loop per position.
func.func @vector_copy_c336_k5(%x: tensor<1x2x4x4xf32>, %w0: tensor<336x2x1x1xf32>, %w: tensor<6x336x5x5xf32>) -> tensor<1x6x4x4xf32> {
  %y = "graph.conv"(%x, %w0) {strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x2x4x4xf32>, tensor<336x2x1x1xf32>) -> tensor<1x336x4x4xf32>
  %c = "graph.conv"(%y, %w) {strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 1, 1>, groups = 1 : i64}
      : (tensor<1x336x4x4xf32>, tensor<6x336x5x5xf32>) -> tensor<1x6x4x4xf32>
  return %c : tensor<1x6x4x4xf32>
}
