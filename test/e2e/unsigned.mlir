// i16 and the unsigned types ui8 ui16 ui32 ui64 through the whole CPU pipeline
// (decision 0010: graph-level uiN, signless storage at the loop level, divui /
// cmpi ult / maxui / minui / extui / uitofp / fptoui chosen by graph-to-loops),
// checked against the reference on random inputs (unsigned: 1..16, so subtractions
// wrap around 2^N; signed: -8..8).
// RUN: braze check %s --seed 41 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @u8 out0 7x37xui8
// CHECK: PASS @u8 out1 7x37xui8
// CHECK: PASS @u8 out2 7x37xui8
// CHECK: PASS @u8 out3 7x37xui8
// CHECK: PASS @u8 out4 7xui8
// CHECK: PASS @u8 out5 7xui8
// CHECK: PASS @u8 out6 7x37xi1
// CHECK: PASS @u8 out7 7x37xf32
// CHECK: PASS @u8 out8 7x37xi32
// CHECK: PASS @u16_u32 out0 9x5xui16
// CHECK: PASS @u16_u32 out1 9x5xui32
// CHECK: PASS @u16_u32 out2 9xui32
// CHECK: PASS @u16_u32 out3 9x5xi64
// CHECK: PASS @u16_u32 out4 9x5xui8
// CHECK: PASS @u64 out0 9x5xui64
// CHECK: PASS @u64 out1 9x5xi1
// CHECK: PASS @u64 out2 9x5xui64
// CHECK: PASS @u64 out3 9xui64
// CHECK: PASS @i16 out0 9x5xi16
// CHECK: PASS @i16 out1 9x5xi16
// CHECK: PASS @i16 out2 9xi16
// CHECK: PASS @i16 out3 9x5xui16
// CHECK: PASS @i16 out4 9x5xf32
// CHECK: PASS @fptoui out0 9x5xui8
// CHECK: PASS @fptoui out1 9x5xui32
// CHECK: check passed
//
// Exact values the random inputs cannot reach: u64 above 2^63 (divided, compared,
// max/min), u8 wrap-around, fptoui / uitofp at the top of the range. The compiled
// code (--target=cpu) and the reference write the same .npy files.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze run %s --func exact --target=cpu --save-outputs %t/cpu --quiet
// RUN: braze run %s --func exact --save-outputs %t/ref --quiet
// RUN: %python %S/Inputs/print_npy.py %t/cpu | FileCheck %s --check-prefix=EXACT
// RUN: %python %S/Inputs/print_npy.py %t/ref | FileCheck %s --check-prefix=EXACT
// EXACT: out0 uint64 [9223372036854777856, 18446744073709549568, 4611686018427388928, 3074457345618257920]
// EXACT: out1 bool [False, True, True, False]
// EXACT: out2 uint64 [18446744073709549568, 18446744073709549568, 9223372036854777856, 9223372036854777856]
// EXACT: out3 uint8 [4, 255, 0, 200]
// EXACT: out4 uint8 [5, 6, 1, 100]
// EXACT: out5 uint64 [9223372036854777856, 9223372036854773760, 2048, 9223372036854773760]
// EXACT: out6 float32 [250.0, 255.0, 4294967296.0, 1.8446744073709552e+19]
// EXACT: out7 uint8 [255, 128, 3, 0]
// EXACT: out8 uint64 [18446744073709549568, 9223372036854775808, 3, 0]

func.func @u8(%a: tensor<7x37xui8>, %b: tensor<37xui8>)
    -> (tensor<7x37xui8>, tensor<7x37xui8>, tensor<7x37xui8>, tensor<7x37xui8>, tensor<7xui8>, tensor<7xui8>,
        tensor<7x37xi1>, tensor<7x37xf32>, tensor<7x37xi32>) {
  %0 = "graph.sub"(%a, %b) : (tensor<7x37xui8>, tensor<37xui8>) -> tensor<7x37xui8>
  %1 = "graph.mul"(%0, %b) : (tensor<7x37xui8>, tensor<37xui8>) -> tensor<7x37xui8>
  %2 = "graph.div"(%0, %b) : (tensor<7x37xui8>, tensor<37xui8>) -> tensor<7x37xui8>
  %3 = "graph.max"(%0, %a) : (tensor<7x37xui8>, tensor<7x37xui8>) -> tensor<7x37xui8>
  %4 = "graph.reduce_min"(%0) {dims = array<i64: 1>, keepdim = false} : (tensor<7x37xui8>) -> tensor<7xui8>
  %5 = "graph.reduce_sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<7x37xui8>) -> tensor<7xui8>
  %6 = "graph.cmp"(%0, %b) {predicate = "gt"} : (tensor<7x37xui8>, tensor<37xui8>) -> tensor<7x37xi1>
  %7 = "graph.cast"(%0) : (tensor<7x37xui8>) -> tensor<7x37xf32>
  %8 = "graph.cast"(%0) : (tensor<7x37xui8>) -> tensor<7x37xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<7x37xui8>, tensor<7x37xui8>, tensor<7x37xui8>, tensor<7x37xui8>,
      tensor<7xui8>, tensor<7xui8>, tensor<7x37xi1>, tensor<7x37xf32>, tensor<7x37xi32>
}

// ui16/ui32: wrapping differences, the remainder a - b (a / b), a row max, extui to
// i64 and trunci to ui8.
func.func @u16_u32(%a: tensor<9x5xui16>, %b: tensor<9x5xui32>, %c: tensor<9x5xui32>)
    -> (tensor<9x5xui16>, tensor<9x5xui32>, tensor<9xui32>, tensor<9x5xi64>, tensor<9x5xui8>) {
  %s = "graph.sub"(%a, %a) : (tensor<9x5xui16>, tensor<9x5xui16>) -> tensor<9x5xui16>
  %0 = "graph.sub"(%s, %a) : (tensor<9x5xui16>, tensor<9x5xui16>) -> tensor<9x5xui16>
  %q = "graph.div"(%b, %c) : (tensor<9x5xui32>, tensor<9x5xui32>) -> tensor<9x5xui32>
  %p = "graph.mul"(%q, %c) : (tensor<9x5xui32>, tensor<9x5xui32>) -> tensor<9x5xui32>
  %1 = "graph.sub"(%b, %p) : (tensor<9x5xui32>, tensor<9x5xui32>) -> tensor<9x5xui32>
  %d = "graph.sub"(%b, %c) : (tensor<9x5xui32>, tensor<9x5xui32>) -> tensor<9x5xui32>
  %2 = "graph.reduce_max"(%d) {dims = array<i64: 1>, keepdim = false} : (tensor<9x5xui32>) -> tensor<9xui32>
  %3 = "graph.cast"(%d) : (tensor<9x5xui32>) -> tensor<9x5xi64>
  %4 = "graph.cast"(%0) : (tensor<9x5xui16>) -> tensor<9x5xui8>
  return %0, %1, %2, %3, %4 : tensor<9x5xui16>, tensor<9x5xui32>, tensor<9xui32>, tensor<9x5xi64>, tensor<9x5xui8>
}

// ui64 beside a constant above 2^63 (2^63 + 2^11: exact in double, so the reference
// holds it): sums, unsigned compares, max/min, a min reduction (identity all ones).
func.func @u64(%a: tensor<9x5xui64>, %b: tensor<5xui64>)
    -> (tensor<9x5xui64>, tensor<9x5xi1>, tensor<9x5xui64>, tensor<9xui64>) {
  %big = "graph.constant"() {value = dense<9223372036854777856> : tensor<ui64>} : () -> tensor<ui64>
  %0 = "graph.mul"(%a, %b) : (tensor<9x5xui64>, tensor<5xui64>) -> tensor<9x5xui64>
  %1 = "graph.cmp"(%0, %big) {predicate = "lt"} : (tensor<9x5xui64>, tensor<ui64>) -> tensor<9x5xi1>
  %m = "graph.max"(%0, %big) : (tensor<9x5xui64>, tensor<ui64>) -> tensor<9x5xui64>
  %2 = "graph.min"(%m, %0) : (tensor<9x5xui64>, tensor<9x5xui64>) -> tensor<9x5xui64>
  %3 = "graph.reduce_min"(%m) {dims = array<i64: 1>, keepdim = false} : (tensor<9x5xui64>) -> tensor<9xui64>
  return %0, %1, %2, %3 : tensor<9x5xui64>, tensor<9x5xi1>, tensor<9x5xui64>, tensor<9xui64>
}

// i16: signed arithmetic, a row sum, extsi/trunci, the signed -> unsigned cast (wraps).
func.func @i16(%a: tensor<9x5xi16>, %b: tensor<5xi16>)
    -> (tensor<9x5xi16>, tensor<9x5xi16>, tensor<9xi16>, tensor<9x5xui16>, tensor<9x5xf32>) {
  %0 = "graph.mul"(%a, %b) : (tensor<9x5xi16>, tensor<5xi16>) -> tensor<9x5xi16>
  %1 = "graph.min"(%0, %a) : (tensor<9x5xi16>, tensor<9x5xi16>) -> tensor<9x5xi16>
  %2 = "graph.reduce_sum"(%1) {dims = array<i64: 1>, keepdim = false} : (tensor<9x5xi16>) -> tensor<9xi16>
  %3 = "graph.cast"(%1) : (tensor<9x5xi16>) -> tensor<9x5xui16>
  %4 = "graph.cast"(%1) : (tensor<9x5xi16>) -> tensor<9x5xf32>
  return %0, %1, %2, %3, %4 : tensor<9x5xi16>, tensor<9x5xi16>, tensor<9xi16>, tensor<9x5xui16>, tensor<9x5xf32>
}

// fptoui: |x| * 30 truncates into ui8 (below 256 for |x| < 8.5) and ui32.
func.func @fptoui(%x: tensor<9x5xf32>) -> (tensor<9x5xui8>, tensor<9x5xui32>) {
  %a = "graph.abs"(%x) : (tensor<9x5xf32>) -> tensor<9x5xf32>
  %k = "graph.constant"() {value = dense<30.0> : tensor<f32>} : () -> tensor<f32>
  %s = "graph.mul"(%a, %k) : (tensor<9x5xf32>, tensor<f32>) -> tensor<9x5xf32>
  %0 = "graph.cast"(%s) : (tensor<9x5xf32>) -> tensor<9x5xui8>
  %1 = "graph.cast"(%s) : (tensor<9x5xf32>) -> tensor<9x5xui32>
  return %0, %1 : tensor<9x5xui8>, tensor<9x5xui32>
}

func.func @exact() -> (tensor<4xui64>, tensor<4xi1>, tensor<4xui64>, tensor<4xui8>, tensor<4xui8>, tensor<4xui64>,
                       tensor<4xf32>, tensor<4xui8>, tensor<4xui64>) {
  // a = 2^63 + 2^11, 2^64 - 2^11, 2^63 + 2^11, 2^63 - 2^11; a / d; compared with t
  %a = "graph.constant"() {value = dense<[9223372036854777856, 18446744073709549568, 9223372036854777856, 9223372036854773760]> : tensor<4xui64>} : () -> tensor<4xui64>
  %d = "graph.constant"() {value = dense<[1, 1, 2, 3]> : tensor<4xui64>} : () -> tensor<4xui64>
  %t = "graph.constant"() {value = dense<[18446744073709549568, 9223372036854775808, 4611686018427387904, 9223372036854777856]> : tensor<4xui64>} : () -> tensor<4xui64>
  %0 = "graph.div"(%a, %d) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
  %1 = "graph.cmp"(%0, %t) {predicate = "gt"} : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xi1>
  %2 = "graph.max"(%a, %t) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
  // u8 wrap-around: 250 + 10 = 4, 255 + 0, 128 + 128 = 0, 100 * 2 = 200
  %x = "graph.constant"() {value = dense<[250, 255, 128, 100]> : tensor<4xui8>} : () -> tensor<4xui8>
  %y = "graph.constant"() {value = dense<[10, 0, 128, 100]> : tensor<4xui8>} : () -> tensor<4xui8>
  %3 = "graph.add"(%x, %y) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // unsigned division and remainder of u8 values above 127 (250 / 7 = 35 rem 5,
  // 255 / 40 = 6, 128 / 128 = 1, 100 / 201 = 0 rem 100), picked by the compare above
  %sev = "graph.constant"() {value = dense<[7, 40, 128, 201]> : tensor<4xui8>} : () -> tensor<4xui8>
  %q = "graph.div"(%x, %sev) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %qm = "graph.mul"(%q, %sev) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %r = "graph.sub"(%x, %qm) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %4 = "graph.select"(%1, %q, %r) : (tensor<4xi1>, tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // u64 remainder above 2^63: a - (a / t) t (a mod 2^63, a mod 2^62, ...)
  %qa = "graph.div"(%a, %t) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
  %qt = "graph.mul"(%qa, %t) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
  %5 = "graph.sub"(%a, %qt) : (tensor<4xui64>, tensor<4xui64>) -> tensor<4xui64>
  // uitofp: 250, 255 (ui8), 2^32 (ui64), 2^64 - 2^11 rounds to 2^64 in f32
  %f0 = "graph.constant"() {value = dense<[250, 255, 4294967296, 18446744073709549568]> : tensor<4xui64>} : () -> tensor<4xui64>
  %6 = "graph.cast"(%f0) : (tensor<4xui64>) -> tensor<4xf32>
  // fptoui: 255.9 -> 255, 128.5 -> 128, 3.7 -> 3, 0.2 -> 0; f64 2^64 - 2^11 -> ui64
  %g = "graph.constant"() {value = dense<[255.9, 128.5, 3.7, 0.2]> : tensor<4xf32>} : () -> tensor<4xf32>
  %7 = "graph.cast"(%g) : (tensor<4xf32>) -> tensor<4xui8>
  %h = "graph.constant"() {value = dense<[18446744073709549568.0, 9223372036854775808.0, 3.7, 0.2]> : tensor<4xf64>} : () -> tensor<4xf64>
  %8 = "graph.cast"(%h) : (tensor<4xf64>) -> tensor<4xui64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<4xui64>, tensor<4xi1>, tensor<4xui64>, tensor<4xui8>, tensor<4xui8>,
      tensor<4xui64>, tensor<4xf32>, tensor<4xui8>, tensor<4xui64>
}
