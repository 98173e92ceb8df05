// The ABI dtypes of i16 and the unsigned types (codes 8-12): the graph-level
// signature names them (the loop level stores unsigned tensors signless: decision
// 0010), the header gives uint8_t .. uint64_t and int16_t, and the runtime's loader
// reads the codes back. Inputs near the top of each range show unsigned arithmetic:
// ui8 250 + 10 wraps to 4, ui64 2^63 / 2 and the compare with 2^63 - 1 are unsigned.
// RUN: rm -rf %t && mkdir -p %t
// RUN: braze compile %s -o %t/libunsigned.so
// RUN: FileCheck %s --check-prefix=HDR < %t/unsigned.h
// RUN: clang-22 -std=c11 -Wall -Werror -I%braze_src/include %S/Inputs/load_tables.c %braze_src/runtime/loader.c -o %t/load
// RUN: %t/load %t/libunsigned.so %t/unsigned.h | FileCheck %s

// HDR: dtype codes in the tables: {{.*}} 7 i8, 8 ui8, 9 i16,
// HDR: 10 ui16, 11 ui32, 12 ui64.
// HDR: int widths(const uint8_t *in0, const int16_t *in1, const uint16_t *in2, const uint32_t *in3, const uint64_t *in4, uint8_t *out0, int16_t *out1, uint16_t *out2, uint32_t *out3, uint64_t *out4, bool *out5, uint64_t *out6);

// CHECK: entry widths: 5 in, 7 out
// CHECK-NEXT: arg0 ui8 rank 1 dims 3 (3 bytes)
// CHECK-NEXT: arg1 i16 rank 1 dims 3 (6 bytes)
// CHECK-NEXT: arg2 ui16 rank 1 dims 3 (6 bytes)
// CHECK-NEXT: arg3 ui32 rank 1 dims 3 (12 bytes)
// CHECK-NEXT: arg4 ui64 rank 1 dims 3 (24 bytes)
// CHECK-NEXT: arg5 ui8 rank 1 dims 3 (3 bytes)
// CHECK-NEXT: arg6 i16 rank 1 dims 3 (6 bytes)
// CHECK-NEXT: arg7 ui16 rank 1 dims 3 (6 bytes)
// CHECK-NEXT: arg8 ui32 rank 1 dims 3 (12 bytes)
// CHECK-NEXT: arg9 ui64 rank 1 dims 3 (24 bytes)
// CHECK-NEXT: arg10 i1 rank 1 dims 3 (3 bytes)
// CHECK-NEXT: arg11 ui64 rank 1 dims 3 (24 bytes)
// CHECK-NEXT: status 0
// 250, 251, 252 + 10 (mod 256)
// CHECK-NEXT: out0: 4 5 6
// 32760, 32761, 32762 + 10 (mod 2^16, signed)
// CHECK-NEXT: out1: -32766 -32765 -32764
// 65530.. / 2 (unsigned)
// CHECK-NEXT: out2: 32765 32765 32766
// max(4294967290.., 7) (unsigned)
// CHECK-NEXT: out3: 4294967290 4294967291 4294967292
// (2^63 + i) / 2
// CHECK-NEXT: out4: 4611686018427387904 4611686018427387904 4611686018427387905
// 2^63 + i > 2^63 - 1 (unsigned)
// CHECK-NEXT: out5: 1 1 1
// i16 32760.. - 32767 = -7, -6, -5 cast to ui64 wraps (sign-extends) to 2^64 - 7 ...
// (exact here; the reference's doubles cannot hold these values)
// CHECK-NEXT: out6: 18446744073709551609 18446744073709551610 18446744073709551611

func.func @widths(%a: tensor<3xui8>, %b: tensor<3xi16>, %c: tensor<3xui16>, %d: tensor<3xui32>, %e: tensor<3xui64>)
    -> (tensor<3xui8>, tensor<3xi16>, tensor<3xui16>, tensor<3xui32>, tensor<3xui64>, tensor<3xi1>, tensor<3xui64>) {
  %ten8 = "graph.constant"() {value = dense<10> : tensor<ui8>} : () -> tensor<ui8>
  %ten16 = "graph.constant"() {value = dense<10> : tensor<i16>} : () -> tensor<i16>
  %two16 = "graph.constant"() {value = dense<2> : tensor<ui16>} : () -> tensor<ui16>
  %seven = "graph.constant"() {value = dense<7> : tensor<ui32>} : () -> tensor<ui32>
  %two64 = "graph.constant"() {value = dense<2> : tensor<ui64>} : () -> tensor<ui64>
  %max63 = "graph.constant"() {value = dense<9223372036854775807> : tensor<ui64>} : () -> tensor<ui64>
  %0 = "graph.add"(%a, %ten8) : (tensor<3xui8>, tensor<ui8>) -> tensor<3xui8>
  %1 = "graph.add"(%b, %ten16) : (tensor<3xi16>, tensor<i16>) -> tensor<3xi16>
  %2 = "graph.div"(%c, %two16) : (tensor<3xui16>, tensor<ui16>) -> tensor<3xui16>
  %3 = "graph.max"(%d, %seven) : (tensor<3xui32>, tensor<ui32>) -> tensor<3xui32>
  %4 = "graph.div"(%e, %two64) : (tensor<3xui64>, tensor<ui64>) -> tensor<3xui64>
  %5 = "graph.cmp"(%e, %max63) {predicate = "gt"} : (tensor<3xui64>, tensor<ui64>) -> tensor<3xi1>
  %k = "graph.constant"() {value = dense<32767> : tensor<i16>} : () -> tensor<i16>
  %neg = "graph.sub"(%b, %k) : (tensor<3xi16>, tensor<i16>) -> tensor<3xi16>
  %6 = "graph.cast"(%neg) : (tensor<3xi16>) -> tensor<3xui64>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<3xui8>, tensor<3xi16>, tensor<3xui16>, tensor<3xui32>, tensor<3xui64>, tensor<3xi1>, tensor<3xui64>
}
