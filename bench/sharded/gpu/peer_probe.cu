// Kernels of peer_probe.py (issue 27): a two-GPU sum all_reduce done by loads from the
// peer's buffer over NVLink (one shot: each rank reads the whole peer buffer), with the
// cross-GPU barrier in the kernel (flags written with st.release.sys, read with
// ld.acquire.sys), against NCCL's ring. Built here, carried to the GPU machine:
//   nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC bench/sharded/gpu/peer_probe.cu -o P.so
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdint.h>

static __device__ void store_release(unsigned *p, unsigned v) {
  asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

static __device__ unsigned load_acquire(const unsigned *p) {
  unsigned v;
  asm volatile("ld.acquire.sys.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

static __device__ uint4 add8(uint4 a, uint4 b) {
  const __nv_bfloat162 *x = reinterpret_cast<const __nv_bfloat162 *>(&a);
  const __nv_bfloat162 *y = reinterpret_cast<const __nv_bfloat162 *>(&b);
  uint4 r;
  __nv_bfloat162 *z = reinterpret_cast<__nv_bfloat162 *>(&r);
  for (int i = 0; i < 4; ++i)
    z[i] = __float22bfloat162_rn(make_float2(__low2float(x[i]) + __low2float(y[i]), __high2float(x[i]) + __high2float(y[i])));
  return r;
}

// flags: [0] peer's "my input is ready" epoch, [1] peer's "I have read yours" epoch,
// [2] this kernel's finished-block counter. wait_first = 0 when the host already waited
// (cuStreamWaitValue32) for the peer's ready flag.
extern "C" __global__ void one_shot(const uint4 *mine, const uint4 *peer, uint4 *out, size_t n16, unsigned *my_flags,
                                    unsigned *peer_flags, unsigned epoch, int wait_first) {
  if (wait_first) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
      __threadfence_system();
      store_release(&peer_flags[0], epoch);
    }
    if (threadIdx.x == 0)
      while (load_acquire(&my_flags[0]) < epoch) {
      }
    __syncthreads();
  }
  size_t stride = (size_t)gridDim.x * blockDim.x;
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n16; i += 4 * stride) {
    uint4 a0 = mine[i], a1 = mine[i + stride], a2 = mine[i + 2 * stride], a3 = mine[i + 3 * stride];
    uint4 b0 = peer[i], b1 = peer[i + stride], b2 = peer[i + 2 * stride], b3 = peer[i + 3 * stride];
    out[i] = add8(a0, b0);
    out[i + stride] = add8(a1, b1);
    out[i + 2 * stride] = add8(a2, b2);
    out[i + 3 * stride] = add8(a3, b3);
  }
  for (; i < n16; i += stride)
    out[i] = add8(mine[i], peer[i]);
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence_system();
    unsigned done = atomicAdd(&my_flags[2], 1);
    if (done == gridDim.x * epoch - 1) { // the last block of this call: both ranks have read
      store_release(&peer_flags[1], epoch);
      while (load_acquire(&my_flags[1]) < epoch) {
      }
    }
  }
}

extern "C" int probe_enable_peer(int dev, int peer) {
  cudaSetDevice(dev);
  cudaError_t e = cudaDeviceEnablePeerAccess(peer, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) {
    cudaGetLastError();
    return 0;
  }
  return (int)e;
}

extern "C" int probe_one_shot(int dev, const void *mine, const void *peer, void *out, size_t bytes, unsigned *my_flags,
                              unsigned *peer_flags, unsigned epoch, int blocks, int wait_first, void *stream) {
  cudaSetDevice(dev);
  one_shot<<<blocks, 512, 0, (cudaStream_t)stream>>>((const uint4 *)mine, (const uint4 *)peer, (uint4 *)out, bytes / 16,
                                                     my_flags, peer_flags, epoch, wait_first);
  return (int)cudaGetLastError();
}
