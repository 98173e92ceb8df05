// The matmul template (cpu-codegen matmul=template, the default) against the reference on
// shapes that are not multiples of any tile size (mr=6, nr=32, 16 lanes), K=1, a single
// row or column, transposed operands (B as linear's W^T, A through a transpose), batch
// broadcasting, every epilogue kind (bias, gelu and silu chains, residual add, a product
// with another tensor, a row-broadcast tensor, a scalar), two results from one kernel,
// constant weights packed at compile time (a large constant passed to the kernel and a
// small one inside it) and f16/bf16 inputs accumulated in f32. Each function is also
// checked with other tile sizes (mr=5 nr=16 mc=7: several M blocks, one vector per
// row), with the loop nests (matmul=loops) and with the OpenBLAS extern (matmul=extern:
// cblas_sgemm, then the epilogue as a pass; f16/bf16 kernels fall back to the template).
// RUN: braze check %s --seed 11 | FileCheck %s
// RUN: braze check %s --seed 12 --pipeline=%S/Inputs/cpu-template-small-tiles.pipeline | FileCheck %s
// RUN: braze check %s --seed 13 --pipeline=%S/Inputs/cpu-matmul-loops.pipeline | FileCheck %s
// RUN: braze check %s --seed 14 --pipeline=%S/Inputs/cpu-matmul-extern.pipeline | FileCheck %s
// RUN: braze check %s --seed 15 --pipeline=%S/Inputs/cpu-horizontal.pipeline | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: PASS @tiles out0 50x70xf32
// CHECK: PASS @k_one out0 13x50xf32
// CHECK: PASS @one_row out0 1x33xf32
// CHECK: PASS @one_col out0 40x1xf32
// CHECK: PASS @linear_gelu out0 19x53xf32
// CHECK: PASS @a_transposed out0 19x45xf32
// CHECK: PASS @batch_bcast out0 2x3x7x9xf32
// CHECK: PASS @silu_mul out0 17x40xf32
// CHECK: PASS @residual_rowscale out0 23x35xf32
// CHECK: PASS @two_results out0 9x20xf32
// CHECK: PASS @two_results out1 9x20xf32
// CHECK: PASS @const_weight out0 11x30xf32
// CHECK: PASS @const_small out0 10x6xf32
// CHECK: PASS @const_transposed out0 5x12xf32
// CHECK: PASS @attention_scores out0 2x33x40xf32
// CHECK: PASS @const_batched out0 2x5x6xf32
// CHECK: PASS @returned_twice out0 4x19xf32
// CHECK: PASS @returned_twice out1 4x19xf32
// CHECK: PASS @returned_twice out2 4x19xf32
// CHECK: PASS @half out0 21x37xf16
// CHECK: PASS @bfloat out0 21x37xbf16
// CHECK: PASS @half_gelu_silu out0 21x37xf16
// CHECK: PASS @bfloat_tanh out0 21x37xbf16
// CHECK: PASS @gate_up out0 33x70xf32
// CHECK: PASS @gate_up_odd out0 7x45xf32
// CHECK: check passed

func.func @tiles(%a: tensor<50x45xf32>, %b: tensor<45x70xf32>) -> tensor<50x70xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<50x45xf32>, tensor<45x70xf32>) -> tensor<50x70xf32>
  return %0 : tensor<50x70xf32>
}

func.func @k_one(%a: tensor<13x1xf32>, %b: tensor<1x50xf32>) -> tensor<13x50xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<13x1xf32>, tensor<1x50xf32>) -> tensor<13x50xf32>
  return %0 : tensor<13x50xf32>
}

func.func @one_row(%a: tensor<1x70xf32>, %b: tensor<70x33xf32>) -> tensor<1x33xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<1x70xf32>, tensor<70x33xf32>) -> tensor<1x33xf32>
  return %0 : tensor<1x33xf32>
}

func.func @one_col(%a: tensor<40x9xf32>, %b: tensor<9x1xf32>) -> tensor<40x1xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<40x9xf32>, tensor<9x1xf32>) -> tensor<40x1xf32>
  return %0 : tensor<40x1xf32>
}

// B through a transpose (linear: W is [N, K]), bias and exact gelu in the epilogue.
func.func @linear_gelu(%x: tensor<19x40xf32>, %w: tensor<53x40xf32>, %b: tensor<53xf32>) -> tensor<19x53xf32> {
  %0 = "graph.linear"(%x, %w, %b) : (tensor<19x40xf32>, tensor<53x40xf32>, tensor<53xf32>) -> tensor<19x53xf32>
  %1 = "graph.gelu"(%0) {approximate = "none"} : (tensor<19x53xf32>) -> tensor<19x53xf32>
  return %1 : tensor<19x53xf32>
}

func.func @a_transposed(%a: tensor<40x19xf32>, %b: tensor<40x45xf32>) -> tensor<19x45xf32> {
  %at = "graph.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<40x19xf32>) -> tensor<19x40xf32>
  %0 = "graph.matmul"(%at, %b) : (tensor<19x40xf32>, tensor<40x45xf32>) -> tensor<19x45xf32>
  %1 = "graph.tanh"(%0) : (tensor<19x45xf32>) -> tensor<19x45xf32>
  return %1 : tensor<19x45xf32>
}

func.func @batch_bcast(%a: tensor<2x1x7x20xf32>, %b: tensor<3x20x9xf32>) -> tensor<2x3x7x9xf32> {
  %0 = "graph.batch_matmul"(%a, %b) : (tensor<2x1x7x20xf32>, tensor<3x20x9xf32>) -> tensor<2x3x7x9xf32>
  return %0 : tensor<2x3x7x9xf32>
}

// silu(a @ b) * c: a product with another tensor read at the output position.
func.func @silu_mul(%a: tensor<17x30xf32>, %b: tensor<30x40xf32>, %c: tensor<17x40xf32>) -> tensor<17x40xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<17x30xf32>, tensor<30x40xf32>) -> tensor<17x40xf32>
  %1 = "graph.silu"(%0) : (tensor<17x40xf32>) -> tensor<17x40xf32>
  %2 = "graph.mul"(%1, %c) : (tensor<17x40xf32>, tensor<17x40xf32>) -> tensor<17x40xf32>
  return %2 : tensor<17x40xf32>
}

// A residual add and a per-row scale (a [M, 1] tensor broadcast along n).
func.func @residual_rowscale(%x: tensor<23x35xf32>, %w: tensor<35x35xf32>, %s: tensor<23x1xf32>) -> tensor<23x35xf32> {
  %0 = "graph.matmul"(%x, %w) : (tensor<23x35xf32>, tensor<35x35xf32>) -> tensor<23x35xf32>
  %1 = "graph.mul"(%0, %s) : (tensor<23x35xf32>, tensor<23x1xf32>) -> tensor<23x35xf32>
  %2 = "graph.add"(%x, %1) : (tensor<23x35xf32>, tensor<23x35xf32>) -> tensor<23x35xf32>
  return %2 : tensor<23x35xf32>
}

// The product and its epilogue both results of the kernel.
func.func @two_results(%a: tensor<9x14xf32>, %b: tensor<14x20xf32>) -> (tensor<9x20xf32>, tensor<9x20xf32>) {
  %0 = "graph.matmul"(%a, %b) : (tensor<9x14xf32>, tensor<14x20xf32>) -> tensor<9x20xf32>
  %1 = "graph.relu"(%0) : (tensor<9x20xf32>) -> tensor<9x20xf32>
  return %0, %1 : tensor<9x20xf32>, tensor<9x20xf32>
}

// A constant weight (more than 64 elements: passed to the kernel, packed at compile time).
func.func @const_weight(%a: tensor<11x25xf32>) -> tensor<11x30xf32> {
  %w = "graph.constant"() {value = dense<[[-0.2620, 0.0442, -0.1300, 0.1039, 0.1257, -0.4345, -0.4868, 0.3375, -0.2406, -0.2657, 0.4956, -0.0297, 0.3365, -0.0236, 0.1391, -0.3494, 0.1349, 0.3680, 0.0232, 0.2413, 0.1714, -0.4360, 0.2582, 0.0911, -0.1987, -0.4690, 0.3655, -0.0273, 0.2188, 0.3788], [0.2141, 0.4211, -0.1050, 0.3009, -0.0554, 0.4356, 0.3789, -0.4025, -0.3640, -0.2830, 0.4655, -0.0638, 0.1266, -0.1990, 0.0072, -0.1141, -0.1491, 0.0851, 0.0843, 0.4042, 0.1820, 0.4289, 0.3564, 0.4910, 0.1713, -0.3369, 0.3606, 0.4646, 0.4047, 0.0691], [0.2138, -0.2889, 0.3316, 0.0735, -0.2150, -0.4365, 0.3539, 0.4898, -0.4115, 0.3006, -0.0895, -0.3492, -0.2061, 0.2688, 0.3728, -0.4558, 0.1145, -0.4551, 0.2184, -0.1690, 0.3809, 0.4806, 0.0054, 0.4985, -0.1903, -0.4230, 0.0998, -0.4686, -0.3026, -0.0921], [0.1105, -0.3438, -0.4576, 0.3678, -0.1862, 0.4587, 0.3967, -0.1222, -0.0396, 0.0201, 0.1439, 0.0957, 0.0593, 0.1201, 0.4406, 0.0070, -0.0688, 0.2203, -0.2624, -0.1989, 0.4778, 0.0211, 0.0484, -0.4885, -0.0848, 0.0800, -0.4799, 0.1158, 0.1322, -0.4399], [0.1273, -0.0337, 0.1793, -0.1474, 0.2070, 0.2380, -0.4778, -0.4394, 0.1760, 0.4633, -0.2489, -0.0437, 0.0927, -0.1800, -0.1360, -0.1873, -0.1308, 0.0956, -0.1996, -0.1228, 0.2723, -0.4731, 0.0693, 0.2352, -0.1900, -0.2775, 0.3038, -0.2613, -0.3126, -0.0648], [0.1981, -0.3982, -0.1780, -0.1662, 0.3335, -0.0616, 0.3555, -0.3307, -0.1633, 0.1502, 0.3849, -0.0489, -0.2750, -0.3791, 0.0296, -0.3092, 0.3068, 0.3385, -0.3164, -0.2214, 0.3072, 0.1419, 0.3063, -0.1547, -0.3703, -0.2081, 0.2939, -0.2288, -0.1536, -0.0831], [-0.0802, -0.0905, 0.4206, -0.3440, -0.4953, 0.4433, 0.3800, 0.4869, -0.0656, 0.4502, 0.4274, -0.2779, 0.2455, 0.3367, 0.1630, 0.0190, -0.2110, -0.1589, -0.2725, -0.4319, 0.0887, -0.2130, 0.3102, -0.4549, 0.4036, 0.1937, 0.4239, 0.3966, 0.3997, 0.0770], [-0.4869, 0.2453, -0.3282, -0.2001, 0.1629, 0.0250, -0.0862, 0.4390, 0.1122, -0.1586, -0.2475, 0.3617, -0.0228, 0.2823, -0.1482, -0.3027, 0.0346, 0.3168, -0.3287, 0.2917, 0.4218, 0.3061, 0.3235, -0.4925, 0.1286, 0.3626, -0.4501, -0.2286, -0.2314, 0.0273], [-0.0770, -0.0271, 0.2765, -0.4982, -0.4452, -0.3731, -0.3754, -0.4316, 0.4747, 0.3544, -0.4139, 0.0021, -0.1841, -0.1854, -0.1487, 0.1469, 0.0866, -0.1392, -0.3089, -0.1712, -0.3762, 0.0555, 0.2160, -0.1198, -0.4201, -0.3214, -0.1267, 0.1044, 0.2826, -0.1197], [0.3012, 0.1229, -0.0684, -0.1276, -0.0038, 0.2029, -0.0795, 0.1941, -0.0392, -0.2549, 0.0358, 0.1952, -0.4284, -0.0751, -0.0741, 0.3797, 0.4365, -0.1258, 0.3979, 0.2909, -0.2378, -0.0359, -0.3769, 0.3132, 0.1623, 0.3873, 0.2925, 0.1676, 0.2337, 0.0638], [-0.3969, 0.0878, -0.4951, -0.3565, 0.2743, -0.4557, -0.4082, -0.4007, 0.3805, -0.3208, -0.4765, 0.3415, -0.3787, 0.3439, 0.1735, 0.3362, 0.4524, 0.0791, 0.2987, -0.4637, 0.2674, 0.0113, 0.2152, -0.3933, 0.2490, 0.4346, -0.4389, -0.1758, 0.0640, 0.3281], [-0.2579, -0.3202, -0.2500, 0.1160, 0.2535, -0.1063, -0.1325, -0.1034, -0.1497, -0.0818, -0.4167, 0.0003, 0.4731, -0.0872, 0.2474, -0.3394, 0.1908, 0.2561, 0.1739, 0.0171, -0.0163, 0.1430, 0.3974, -0.3507, -0.4041, 0.2482, 0.4166, 0.0173, -0.0569, 0.2189], [-0.3139, -0.2326, -0.3008, 0.0856, -0.1852, -0.2677, 0.1911, 0.4534, -0.2041, 0.2053, -0.0868, 0.3536, 0.0846, -0.2328, -0.2824, -0.4769, -0.0205, -0.1172, -0.3278, -0.1395, -0.1780, 0.2742, -0.3564, 0.4912, -0.0204, 0.0990, -0.0319, 0.3346, 0.3216, 0.0571], [-0.0187, 0.2207, 0.3566, -0.0997, 0.2336, 0.4603, -0.0326, -0.2704, -0.2652, 0.2177, 0.1754, 0.4587, 0.3539, -0.2579, -0.3104, -0.2414, -0.3128, 0.2047, 0.3586, 0.3998, -0.2450, 0.3651, -0.1866, -0.0767, 0.2290, -0.4141, -0.4074, 0.3339, -0.2082, -0.1433], [0.0803, 0.1755, -0.4931, -0.1652, -0.0638, -0.0141, -0.2899, 0.0851, 0.4553, -0.1091, 0.0444, -0.3808, -0.2252, 0.1654, -0.3875, 0.3872, 0.4088, -0.4031, 0.4413, -0.1258, 0.2724, 0.2573, -0.2045, 0.1759, 0.1541, 0.3061, -0.2344, 0.2542, 0.4613, 0.1728], [0.0362, -0.3867, -0.0061, -0.1478, 0.2181, 0.1785, 0.0664, -0.3180, 0.1457, 0.1309, -0.3209, 0.3899, 0.1554, -0.3769, 0.4318, -0.3586, -0.1685, 0.2205, 0.0974, 0.0549, 0.1475, -0.0423, -0.1876, -0.3236, -0.4314, 0.2158, 0.2545, 0.0431, 0.2396, -0.1408], [-0.2342, -0.1166, 0.3725, -0.4579, 0.0047, -0.2528, 0.2689, -0.1459, -0.1671, -0.0967, 0.0415, 0.2717, -0.1471, 0.3469, -0.3879, -0.2295, -0.4004, -0.3873, 0.2790, 0.2273, -0.3152, -0.3108, -0.0833, 0.2433, 0.3157, 0.2487, 0.0919, -0.3535, -0.1016, -0.3064], [0.0276, 0.0684, -0.2979, -0.2498, 0.2817, -0.4699, 0.3032, 0.3912, 0.4493, -0.1169, 0.0526, 0.0831, 0.1336, 0.4770, 0.1866, -0.2006, 0.3600, -0.0159, 0.1014, 0.2268, -0.4976, 0.2705, 0.1619, -0.0081, 0.0236, -0.0395, -0.3066, 0.0295, -0.4629, 0.0004], [0.1460, -0.0558, 0.0660, 0.4590, 0.3921, -0.3644, 0.2924, 0.1233, -0.4494, -0.1401, -0.2666, -0.4222, 0.0389, 0.4298, -0.1769, 0.3705, 0.1947, -0.3656, 0.3583, 0.1011, 0.4270, 0.2160, 0.2397, -0.1564, 0.3067, 0.4317, 0.3615, -0.0630, 0.2568, -0.0150], [-0.3909, -0.4573, -0.4221, -0.2997, -0.3392, -0.0029, 0.1993, 0.0374, -0.0779, 0.1492, -0.1954, -0.0356, 0.2571, -0.0985, -0.3194, 0.3994, 0.2197, -0.1331, -0.1290, 0.0293, 0.0965, -0.2762, -0.4973, -0.2910, 0.2832, -0.3565, -0.0400, -0.3047, -0.2907, -0.3292], [-0.0963, -0.3317, -0.4725, -0.3899, -0.3318, -0.0097, -0.4403, -0.4776, -0.0520, -0.0923, 0.2034, -0.4489, -0.0967, -0.1034, -0.4733, 0.4655, -0.2811, -0.4057, -0.0254, -0.3352, 0.1225, -0.1536, -0.3761, -0.4481, 0.2277, -0.2249, 0.2878, -0.0346, 0.4329, -0.1995], [-0.2500, -0.2342, 0.3147, 0.1291, -0.1553, -0.4063, 0.1824, 0.4693, 0.0923, -0.4963, -0.4697, -0.4095, -0.3297, -0.4634, -0.4461, 0.1543, 0.4003, -0.2993, 0.4738, -0.0231, 0.3036, 0.4174, 0.4401, -0.4658, -0.1953, 0.1069, 0.4465, -0.4122, -0.2066, 0.3499], [-0.3853, -0.1101, -0.1658, 0.1800, 0.4285, -0.3254, 0.2398, 0.2340, 0.3357, 0.0533, 0.4235, -0.1372, -0.0853, -0.2706, 0.2795, -0.0194, -0.2305, -0.3303, 0.2206, 0.1057, 0.2106, -0.1132, -0.0129, -0.3461, 0.2107, -0.4770, -0.0331, 0.2585, 0.1773, -0.4029], [-0.2628, 0.3437, 0.1424, 0.3785, 0.3723, -0.0501, 0.3969, 0.2329, -0.1663, -0.1299, -0.4279, -0.1007, 0.4557, -0.3950, 0.0689, -0.3899, -0.4191, 0.1491, -0.2593, -0.4512, -0.3473, 0.1446, 0.0856, -0.4883, -0.2701, 0.4672, -0.2799, 0.0625, -0.0804, 0.2811], [0.1044, 0.2886, 0.0352, -0.3118, -0.3224, -0.4209, 0.3255, -0.3875, -0.4760, 0.4664, -0.3007, 0.3933, -0.4142, -0.0348, -0.2772, 0.3295, 0.1154, 0.1418, 0.2614, 0.3717, -0.1540, 0.1031, -0.0544, -0.3891, 0.3354, 0.0944, 0.3148, -0.2940, 0.0392, -0.0358]]> : tensor<25x30xf32>} : () -> tensor<25x30xf32>
  %0 = "graph.matmul"(%a, %w) : (tensor<11x25xf32>, tensor<25x30xf32>) -> tensor<11x30xf32>
  %1 = "graph.sigmoid"(%0) : (tensor<11x30xf32>) -> tensor<11x30xf32>
  return %1 : tensor<11x30xf32>
}

// A small constant weight (at most 64 elements: cloned into the kernel).
func.func @const_small(%a: tensor<10x8xf32>) -> tensor<10x6xf32> {
  %w = "graph.constant"() {value = dense<[[0.2280, -0.4228, -0.1539, -0.0155, -0.4285, 0.0527], [0.2353, -0.0771, 0.1484, 0.1059, -0.2858, -0.1495], [0.4957, -0.1648, -0.0692, -0.4158, -0.2821, -0.3347], [0.4309, 0.2264, 0.3747, 0.4866, 0.1121, 0.4313], [0.0357, -0.0813, 0.4481, 0.4031, 0.4496, -0.0158], [0.2735, -0.0930, 0.4973, 0.4203, -0.2080, 0.4342], [-0.3154, -0.4041, 0.2224, -0.2057, 0.0195, 0.1393], [-0.4594, 0.2452, -0.2240, -0.0676, -0.1552, 0.2421]]> : tensor<8x6xf32>} : () -> tensor<8x6xf32>
  %0 = "graph.matmul"(%a, %w) : (tensor<10x8xf32>, tensor<8x6xf32>) -> tensor<10x6xf32>
  return %0 : tensor<10x6xf32>
}

// A constant weight read through a transpose (linear), packed at compile time.
func.func @const_transposed(%x: tensor<5x18xf32>) -> tensor<5x12xf32> {
  %w = "graph.constant"() {value = dense<[[0.2468, -0.2127, -0.3966, -0.2007, -0.0889, -0.4224, -0.3468, 0.2627, 0.2004, 0.4764, 0.4797, 0.3761, -0.1274, -0.3387, -0.1881, -0.0368, 0.0259, 0.0421], [-0.1403, 0.3527, -0.2148, -0.0368, 0.3868, 0.3071, -0.2026, -0.2574, 0.3067, -0.4899, -0.3685, 0.0309, 0.0358, -0.3343, -0.4497, -0.2961, 0.2700, -0.0343], [0.4793, 0.2855, 0.4792, -0.4649, -0.3150, -0.4868, -0.0676, -0.1617, -0.4487, 0.0460, -0.4062, -0.1884, -0.2528, 0.3021, -0.0818, -0.2396, -0.4560, -0.0704], [0.1275, 0.1752, 0.4126, 0.3086, -0.2526, -0.3643, 0.2583, 0.2895, 0.0088, 0.3310, 0.0519, -0.2204, -0.3313, -0.4830, 0.1431, 0.3970, 0.4062, -0.0325], [0.1655, 0.4286, 0.3140, 0.1026, -0.0856, 0.0184, -0.3292, -0.3171, 0.1838, 0.4921, 0.0471, -0.0919, -0.1481, -0.0451, 0.3029, -0.0475, 0.4593, -0.3447], [-0.1851, 0.0220, -0.0881, 0.3511, 0.3276, 0.4313, 0.1125, -0.4694, 0.0745, 0.0497, -0.0124, -0.2202, 0.2094, 0.4116, -0.3975, 0.1687, -0.1287, 0.0148], [0.3957, 0.4603, 0.1436, -0.3049, 0.4207, -0.3189, -0.1167, 0.3282, -0.1838, -0.2291, 0.4499, 0.4438, -0.1826, -0.1075, -0.2181, -0.3685, -0.2498, 0.4802], [-0.4207, -0.2702, -0.3000, -0.4205, 0.0262, 0.2430, 0.3383, 0.1311, 0.3178, -0.4946, -0.2178, 0.4612, -0.4306, -0.2324, -0.0172, -0.2321, 0.0461, -0.4529], [-0.2641, 0.4576, -0.3558, 0.4055, -0.3221, 0.4928, 0.1746, 0.1469, -0.3578, -0.4454, 0.2595, -0.3238, -0.3104, 0.3227, 0.3748, -0.4512, 0.4608, 0.0347], [-0.1176, -0.3929, -0.1101, 0.4875, -0.2192, -0.3687, -0.3547, -0.3731, -0.1476, 0.4150, -0.4230, -0.3080, 0.4393, 0.4969, 0.4799, -0.2541, -0.1456, 0.4508], [-0.0149, 0.2034, -0.1867, -0.4787, -0.1546, 0.2482, 0.2819, 0.0689, -0.0359, 0.0381, -0.0577, 0.0344, 0.3330, -0.2995, 0.0943, 0.4328, 0.3483, -0.3205], [0.4635, 0.3400, -0.3321, -0.2341, -0.2976, -0.4469, 0.4784, -0.0907, 0.3727, -0.3854, -0.4861, 0.3698, 0.2940, 0.4916, 0.1855, 0.0252, 0.2660, -0.4075]]> : tensor<12x18xf32>} : () -> tensor<12x18xf32>
  %b = "graph.constant"() {value = dense<[0.0404, -0.0588, -0.3537, 0.1004, -0.1768, 0.0064, -0.1265, -0.1819, -0.1416, 0.1010, 0.4805, 0.4362]> : tensor<12xf32>} : () -> tensor<12xf32>
  %0 = "graph.linear"(%x, %w, %b) : (tensor<5x18xf32>, tensor<12x18xf32>, tensor<12xf32>) -> tensor<5x12xf32>
  return %0 : tensor<5x12xf32>
}

// W7's first product: batched, B transposed, a scalar scale in the epilogue.
func.func @attention_scores(%q: tensor<2x33x8xf32>, %k: tensor<2x40x8xf32>) -> tensor<2x33x40xf32> {
  %kt = "graph.transpose"(%k) {perm = array<i64: 0, 2, 1>} : (tensor<2x40x8xf32>) -> tensor<2x8x40xf32>
  %s = "graph.batch_matmul"(%q, %kt) : (tensor<2x33x8xf32>, tensor<2x8x40xf32>) -> tensor<2x33x40xf32>
  %c = "graph.constant"() {value = dense<0.125> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.mul"(%s, %c) : (tensor<2x33x40xf32>, tensor<f32>) -> tensor<2x33x40xf32>
  return %0 : tensor<2x33x40xf32>
}

// A batched constant weight: one packed panel set per batch position.
func.func @const_batched(%a: tensor<2x5x8xf32>) -> tensor<2x5x6xf32> {
  %w = "graph.constant"() {value = dense<[[[0.1229, 0.2418, 0.2952, 0.4425, 0.2399, 0.4223], [-0.4710, -0.0344, 0.4434, 0.1490, 0.4009, -0.3868], [-0.0309, -0.2534, 0.0438, 0.0739, -0.4869, -0.2833], [-0.2205, 0.4163, 0.2657, -0.3404, 0.2971, -0.3612], [0.1175, -0.3733, -0.4982, 0.3714, -0.2905, -0.2845], [0.4824, 0.3724, -0.2107, 0.4615, 0.0392, 0.1778], [-0.2952, 0.4410, 0.1906, 0.4666, 0.3937, -0.2012], [-0.1388, -0.3340, -0.3543, -0.4349, -0.1986, 0.1031]], [[-0.4966, 0.1779, -0.1621, -0.1900, 0.3185, -0.0193], [-0.1842, -0.0188, 0.2047, -0.4430, 0.4751, -0.4771], [0.2498, 0.3449, -0.4819, 0.2877, -0.1338, 0.0785], [-0.4909, -0.4533, -0.3191, 0.4552, -0.3035, 0.2557], [0.4297, 0.4420, -0.1556, -0.1452, 0.0247, 0.2756], [-0.3919, 0.2484, 0.2972, 0.3597, -0.4634, 0.4458], [-0.4088, -0.1593, 0.1108, 0.4181, -0.1600, 0.4242], [0.0451, -0.1875, -0.1832, -0.3225, -0.4218, -0.3511]]]> : tensor<2x8x6xf32>} : () -> tensor<2x8x6xf32>
  %0 = "graph.batch_matmul"(%a, %w) : (tensor<2x5x8xf32>, tensor<2x8x6xf32>) -> tensor<2x5x6xf32>
  return %0 : tensor<2x5x6xf32>
}

// The product returned twice and its epilogue once.
func.func @returned_twice(%a: tensor<4x3xf32>, %b: tensor<3x19xf32>) -> (tensor<4x19xf32>, tensor<4x19xf32>, tensor<4x19xf32>) {
  %0 = "graph.matmul"(%a, %b) : (tensor<4x3xf32>, tensor<3x19xf32>) -> tensor<4x19xf32>
  %1 = "graph.exp"(%0) : (tensor<4x19xf32>) -> tensor<4x19xf32>
  return %0, %1, %0 : tensor<4x19xf32>, tensor<4x19xf32>, tensor<4x19xf32>
}

func.func @half(%a: tensor<21x30xf16>, %b: tensor<30x37xf16>, %c: tensor<37xf16>) -> tensor<21x37xf16> {
  %0 = "graph.matmul"(%a, %b) : (tensor<21x30xf16>, tensor<30x37xf16>) -> tensor<21x37xf16>
  %1 = "graph.add"(%0, %c) : (tensor<21x37xf16>, tensor<37xf16>) -> tensor<21x37xf16>
  return %1 : tensor<21x37xf16>
}

func.func @bfloat(%a: tensor<21x30xbf16>, %b: tensor<30x37xbf16>) -> tensor<21x37xbf16> {
  %0 = "graph.matmul"(%a, %b) : (tensor<21x30xbf16>, tensor<30x37xbf16>) -> tensor<21x37xbf16>
  %1 = "graph.relu"(%0) : (tensor<21x37xbf16>) -> tensor<21x37xbf16>
  return %1 : tensor<21x37xbf16>
}

// Transcendental epilogues on f16/bf16 products (computed in f32 on vectors).
func.func @half_gelu_silu(%a: tensor<21x30xf16>, %b: tensor<30x37xf16>) -> tensor<21x37xf16> {
  %0 = "graph.matmul"(%a, %b) : (tensor<21x30xf16>, tensor<30x37xf16>) -> tensor<21x37xf16>
  %1 = "graph.gelu"(%0) {approximate = "none"} : (tensor<21x37xf16>) -> tensor<21x37xf16>
  %2 = "graph.silu"(%1) : (tensor<21x37xf16>) -> tensor<21x37xf16>
  return %2 : tensor<21x37xf16>
}

func.func @bfloat_tanh(%a: tensor<21x30xbf16>, %b: tensor<30x37xbf16>) -> tensor<21x37xbf16> {
  %0 = "graph.matmul"(%a, %b) : (tensor<21x30xbf16>, tensor<30x37xbf16>) -> tensor<21x37xbf16>
  %1 = "graph.tanh"(%0) : (tensor<21x37xbf16>) -> tensor<21x37xbf16>
  return %1 : tensor<21x37xbf16>
}

// W6's gate and up projections of one input (one kernel with horizontal-templates:
// both products from one pass over A, silu(a) * b in the epilogue).
func.func @gate_up(%h: tensor<33x40xf32>, %wg: tensor<40x70xf32>, %wu: tensor<40x70xf32>) -> tensor<33x70xf32> {
  %a = "graph.matmul"(%h, %wg) : (tensor<33x40xf32>, tensor<40x70xf32>) -> tensor<33x70xf32>
  %sa = "graph.silu"(%a) : (tensor<33x70xf32>) -> tensor<33x70xf32>
  %u = "graph.matmul"(%h, %wu) : (tensor<33x40xf32>, tensor<40x70xf32>) -> tensor<33x70xf32>
  %p = "graph.mul"(%sa, %u) : (tensor<33x70xf32>, tensor<33x70xf32>) -> tensor<33x70xf32>
  return %p : tensor<33x70xf32>
}

// The same with transposed weights and biases (linear).
func.func @gate_up_odd(%h: tensor<7x19xf32>, %wg: tensor<45x19xf32>, %wu: tensor<45x19xf32>, %b: tensor<45xf32>, %c: tensor<45xf32>) -> tensor<7x45xf32> {
  %a = "graph.linear"(%h, %wg, %b) : (tensor<7x19xf32>, tensor<45x19xf32>, tensor<45xf32>) -> tensor<7x45xf32>
  %u = "graph.linear"(%h, %wu, %c) : (tensor<7x19xf32>, tensor<45x19xf32>, tensor<45xf32>) -> tensor<7x45xf32>
  %p = "graph.mul"(%a, %u) : (tensor<7x45xf32>, tensor<7x45xf32>) -> tensor<7x45xf32>
  return %p : tensor<7x45xf32>
}
