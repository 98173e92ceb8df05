#!/usr/bin/env python3
"""The GPU-form user kernels of bench/gpu/user_kernels.py as graph modules, at any size.

    python3 bench/gpu/user_kernels_mlir.py NAME [DIMS...] > NAME.mlir

NAME (DIMS; the defaults are issue 46's sizes):
  U1 softmax R C (16384 8192): a row softmax by warp shuffles (one warp a row, 4 rows a
     block, an online max/sum over the row then a butterfly of (max, sum) pairs), then a
     graph scale by a per-column vector: out = softmax(x) * g[col]. C % 32 == 0.
  U2 elementwise R C (16384 8192): 3 * tanh(x) on vector<4xf32> (one vector a thread,
     guarded), then bias + GELU (erf) + residual in the graph: out = gelu(3 tanh(x) +
     b[col]) + res. C % 4 == 0.
  U3 matmul M N K (4096 4096 1024): the CUDA programming guide's tiled matmul (two 16x16
     shared tiles, barriers in the K loop), then bias + GELU: out = gelu(a @ w + b[col]).
     M, N, K % 16 == 0.
  U2B: U2 with the result cast to bf16 in the graph (an epilogue that changes dtype).
`small` instead of DIMS: a size the reference interpreter runs quickly (the lit tests).
Every module has one public function, NAME's graph function, named `u1` .. `u3`, `u2b`."""
import sys

WG = "#gpu.address_space<workgroup>"


def softmax(r, c):
    assert c % 32 == 0 and r % 4 == 0
    t = f"memref<{r}x{c}xf32>"
    return f"""// U1: out = softmax(x, dim=-1) * g[col], x {r}x{c} f32 (bench/gpu/user_kernels_mlir.py)
func.func private @warp_softmax(%x: {t}, %out: {t})
    attributes {{braze.user_kernel, braze.gpu_launch = {{grid = array<i64: {r // 4}>, block = array<i64: 32, 4>}}}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c32 = arith.constant 32 : index
  %cn = arith.constant {c // 32} : index
  %w = arith.constant 32 : i32
  %o16 = arith.constant 16 : i32
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %lane = gpu.thread_id x
  %warp = gpu.thread_id y
  %b = gpu.block_id x
  %r0 = arith.muli %b, %c4 : index
  %row = arith.addi %r0, %warp : index
  %ms:2 = scf.for %j = %c0 to %cn step %c1 iter_args(%m = %ninf, %s = %zero) -> (f32, f32) {{
    %j32 = arith.muli %j, %c32 : index
    %col = arith.addi %j32, %lane : index
    %v = memref.load %x[%row, %col] : {t}
    %m2 = arith.maximumf %m, %v : f32
    %d = arith.subf %m, %m2 : f32
    %sc = math.exp %d : f32
    %e0 = arith.subf %v, %m2 : f32
    %e = math.exp %e0 : f32
    %s1 = arith.mulf %s, %sc : f32
    %s2 = arith.addf %s1, %e : f32
    scf.yield %m2, %s2 : f32, f32
  }}
  %red:2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%m = %ms#0, %s = %ms#1) -> (f32, f32) {{
    %ii = arith.index_cast %i : index to i32
    %off = arith.shrui %o16, %ii : i32
    %mo, %vm = gpu.shuffle xor %m, %off, %w : f32
    %so, %vs = gpu.shuffle xor %s, %off, %w : f32
    %mm = arith.maximumf %m, %mo : f32
    %da = arith.subf %m, %mm : f32
    %db = arith.subf %mo, %mm : f32
    %ea = math.exp %da : f32
    %eb = math.exp %db : f32
    %sa = arith.mulf %s, %ea : f32
    %sb = arith.mulf %so, %eb : f32
    %ss = arith.addf %sa, %sb : f32
    scf.yield %mm, %ss : f32, f32
  }}
  %inv = arith.divf %one, %red#1 : f32
  scf.for %j = %c0 to %cn step %c1 {{
    %j32 = arith.muli %j, %c32 : index
    %col = arith.addi %j32, %lane : index
    %v = memref.load %x[%row, %col] : {t}
    %e0 = arith.subf %v, %red#0 : f32
    %e = math.exp %e0 : f32
    %p = arith.mulf %e, %inv : f32
    memref.store %p, %out[%row, %col] : {t}
  }}
  return
}}

func.func @u1(%x: tensor<{r}x{c}xf32>, %g: tensor<{c}xf32>) -> tensor<{r}x{c}xf32> {{
  %xb = bufferization.to_buffer %x : tensor<{r}x{c}xf32> to {t}
  %o = memref.alloc() : {t}
  func.call @warp_softmax(%xb, %o) : ({t}, {t}) -> ()
  %p = bufferization.to_tensor %o : {t} to tensor<{r}x{c}xf32>
  %y = "graph.mul"(%p, %g) : (tensor<{r}x{c}xf32>, tensor<{c}xf32>) -> tensor<{r}x{c}xf32>
  return %y : tensor<{r}x{c}xf32>
}}
"""


def elementwise(r, c, cast=False):
    assert c % 4 == 0
    n4 = r * c // 4
    block = 256
    grid = (n4 + block - 1) // block
    t = f"memref<{r}x{c}xf32>"
    tt = f"tensor<{r}x{c}xf32>"
    out_t = f"tensor<{r}x{c}xbf16>" if cast else tt
    name = "u2b" if cast else "u2"
    cast_op = (f'  %z = "graph.cast"(%y) : ({tt}) -> {out_t}\n  return %z : {out_t}\n' if cast
               else f"  return %y : {tt}\n")
    what = "bf16(gelu(3 tanh(x) + b[col]) + res)" if cast else "gelu(3 tanh(x) + b[col]) + res"
    return f"""// {name.upper()}: out = {what}, x {r}x{c} f32 (bench/gpu/user_kernels_mlir.py)
func.func private @tanh3_vec4(%x: {t}, %out: {t})
    attributes {{braze.user_kernel, braze.gpu_launch = {{grid = array<i64: {grid}>, block = array<i64: {block}>}}}} {{
  %c4 = arith.constant 4 : index
  %cc = arith.constant {c} : index
  %cn = arith.constant {n4} : index
  %three = arith.constant dense<3.0> : vector<4xf32>
  %t = gpu.thread_id x
  %b = gpu.block_id x
  %n = gpu.block_dim x
  %o = arith.muli %b, %n : index
  %g = arith.addi %o, %t : index
  %in = arith.cmpi ult, %g, %cn : index
  scf.if %in {{
    %flat = arith.muli %g, %c4 : index
    %row = arith.divui %flat, %cc : index
    %col = arith.remui %flat, %cc : index
    %v = vector.load %x[%row, %col] : {t}, vector<4xf32>
    %th = math.tanh %v : vector<4xf32>
    %y = arith.mulf %th, %three : vector<4xf32>
    vector.store %y, %out[%row, %col] : {t}, vector<4xf32>
  }}
  return
}}

func.func @{name}(%x: {tt}, %bias: tensor<{c}xf32>, %res: {tt}) -> {out_t} {{
  %xb = bufferization.to_buffer %x : {tt} to {t}
  %o = memref.alloc() : {t}
  func.call @tanh3_vec4(%xb, %o) : ({t}, {t}) -> ()
  %p = bufferization.to_tensor %o : {t} to {tt}
  %a = "graph.add"(%p, %bias) : ({tt}, tensor<{c}xf32>) -> {tt}
  %ge = "graph.gelu"(%a) {{approximate = "none"}} : ({tt}) -> {tt}
  %y = "graph.add"(%ge, %res) : ({tt}, {tt}) -> {tt}
{cast_op}}}
"""


def matmul(m, n, k):
    assert m % 16 == 0 and n % 16 == 0 and k % 16 == 0
    ta, tb, tc = f"memref<{m}x{k}xf32>", f"memref<{k}x{n}xf32>", f"memref<{m}x{n}xf32>"
    tile = f"memref<16x16xf32, {WG}>"
    return f"""// U3: out = gelu(a @ w + b[col]), {m}x{n}x{k} f32 (bench/gpu/user_kernels_mlir.py)
func.func private @tiled_matmul(%a: {ta}, %b: {tb}, %c: {tc})
    attributes {{braze.user_kernel, braze.gpu_launch = {{grid = array<i64: {n // 16}, {m // 16}>, block = array<i64: 16, 16>}}}} {{
  %as = memref.alloca() : {tile}
  %bs = memref.alloca() : {tile}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %ck = arith.constant {k} : index
  %zero = arith.constant 0.0 : f32
  %tx = gpu.thread_id x
  %ty = gpu.thread_id y
  %bx = gpu.block_id x
  %by = gpu.block_id y
  %r0 = arith.muli %by, %c16 : index
  %row = arith.addi %r0, %ty : index
  %c0s = arith.muli %bx, %c16 : index
  %col = arith.addi %c0s, %tx : index
  %acc = scf.for %kb = %c0 to %ck step %c16 iter_args(%s = %zero) -> (f32) {{
    %ak = arith.addi %kb, %tx : index
    %av = memref.load %a[%row, %ak] : {ta}
    memref.store %av, %as[%ty, %tx] : {tile}
    %bk = arith.addi %kb, %ty : index
    %bv = memref.load %b[%bk, %col] : {tb}
    memref.store %bv, %bs[%ty, %tx] : {tile}
    gpu.barrier
    %s2 = scf.for %kk = %c0 to %c16 step %c1 iter_args(%u = %s) -> (f32) {{
      %x = memref.load %as[%ty, %kk] : {tile}
      %y = memref.load %bs[%kk, %tx] : {tile}
      %p = arith.mulf %x, %y : f32
      %u2 = arith.addf %u, %p : f32
      scf.yield %u2 : f32
    }}
    gpu.barrier
    scf.yield %s2 : f32
  }}
  memref.store %acc, %c[%row, %col] : {tc}
  return
}}

func.func @u3(%a: tensor<{m}x{k}xf32>, %w: tensor<{k}x{n}xf32>, %bias: tensor<{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %ab = bufferization.to_buffer %a : tensor<{m}x{k}xf32> to {ta}
  %wb = bufferization.to_buffer %w : tensor<{k}x{n}xf32> to {tb}
  %o = memref.alloc() : {tc}
  func.call @tiled_matmul(%ab, %wb, %o) : ({ta}, {tb}, {tc}) -> ()
  %p = bufferization.to_tensor %o : {tc} to tensor<{m}x{n}xf32>
  %s = "graph.add"(%p, %bias) : (tensor<{m}x{n}xf32>, tensor<{n}xf32>) -> tensor<{m}x{n}xf32>
  %y = "graph.gelu"(%s) {{approximate = "none"}} : (tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %y : tensor<{m}x{n}xf32>
}}
"""


GEN = {"U1": (softmax, (16384, 8192)), "U2": (elementwise, (16384, 8192)),
       "U2B": (lambda r, c: elementwise(r, c, cast=True), (16384, 8192)), "U3": (matmul, (4096, 4096, 1024))}
# `small`: sizes the reference interpreter runs in a second (the lit tests).
SMALL = {"U1": (8, 64), "U2": (6, 40), "U2B": (6, 40), "U3": (32, 48, 32)}


def main(argv):
    if len(argv) < 2 or argv[1] not in GEN:
        sys.exit(__doc__)
    fn, dims = GEN[argv[1]]
    if argv[2:] == ["small"]:
        dims = SMALL[argv[1]]
    elif len(argv) > 2:
        dims = tuple(int(a) for a in argv[2:])
    sys.stdout.write(fn(*dims))


if __name__ == "__main__":
    main(sys.argv)
