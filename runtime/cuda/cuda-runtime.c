/* The runtime of the CUDA target, compiled into every library `braze compile
 * --target=cuda` writes (targets/cuda/emit.c puts this file before the generated
 * host code in one translation unit, built with -fvisibility=hidden: only what is
 * marked BRAZE_CUDA_EXPORT is exported).
 *
 * It uses the CUDA driver API, opened with dlopen("libcuda.so.1") at the first call:
 * the library links and loads on machines without a driver or a GPU, and then every
 * call returns 1 with a message from braze_cuda_last_error(). <cuda.h> gives the
 * declarations only (function pointer types); nothing CUDA is linked.
 *
 * What it keeps per library: the driver's function table (loaded once), the
 * program (its modules, loaded once per process into the context current at the
 * first call, or device 0's primary context when none is; its kernels; its
 * constants, uploaded once), and per entry its kept device workspaces (one per
 * stream) and, with --cuda-graphs, the CUDA graphs of its last four sets of pointers.
 * A partitioned library (the generated code defines BRAZE_CUDA_MESH) also has its
 * mesh and collectives over NCCL: nccl-mesh.c, decision 0018.
 *
 * One process may drive all GPUs of a mesh (braze_cuda_mesh_init_all, decision 0022):
 * then each device's primary context has a slot (below) with its own copy of the
 * program, cuBLASLt handle, capture stream and graphs, kept workspaces, overlap
 * streams and mesh rank; an entry finds its slot from the calling thread's current
 * context. Slot 0 is the one context of every other mode, unchanged. */
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BRAZE_CUDA_EXPORT __attribute__((visibility("default")))

/* ---- errors: a thread-local message per failed call ---- */

static _Thread_local char braze_cu_message[1024];

static int braze_cu_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int braze_cu_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(braze_cu_message, sizeof braze_cu_message, fmt, ap);
  va_end(ap);
  return 1;
}

/* ---- the driver: function pointers typed from <cuda.h>, found by their exported
 * (versioned) names ---- */

#define BRAZE_CU_FUNCTIONS(X)                                                                                         \
  X(Init, cuInit, "cuInit")                                                                                            \
  X(GetErrorName, cuGetErrorName, "cuGetErrorName")                                                                    \
  X(GetErrorString, cuGetErrorString, "cuGetErrorString")                                                              \
  X(DeviceGetCount, cuDeviceGetCount, "cuDeviceGetCount")                                                              \
  X(DeviceGet, cuDeviceGet, "cuDeviceGet")                                                                             \
  X(DevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")                                      \
  X(CtxGetCurrent, cuCtxGetCurrent, "cuCtxGetCurrent")                                                                 \
  X(CtxSetCurrent, cuCtxSetCurrent, "cuCtxSetCurrent")                                                                 \
  X(CtxSynchronize, cuCtxSynchronize, "cuCtxSynchronize")                                                              \
  X(ModuleLoadData, cuModuleLoadData, "cuModuleLoadData")                                                              \
  X(ModuleGetFunction, cuModuleGetFunction, "cuModuleGetFunction")                                                     \
  X(FuncSetAttribute, cuFuncSetAttribute, "cuFuncSetAttribute")                                                        \
  X(FuncGetAttribute, cuFuncGetAttribute, "cuFuncGetAttribute")                                                        \
  X(TensorMapEncodeTiled, cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled")                                            \
  X(LaunchKernel, cuLaunchKernel, "cuLaunchKernel")                                                                    \
  X(MemAlloc, cuMemAlloc, "cuMemAlloc_v2")                                                                             \
  X(MemFree, cuMemFree, "cuMemFree_v2")                                                                                \
  X(MemcpyHtoD, cuMemcpyHtoD, "cuMemcpyHtoD_v2")                                                                       \
  X(MemcpyDtoH, cuMemcpyDtoH, "cuMemcpyDtoH_v2")                                                                       \
  X(MemcpyDtoDAsync, cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2")                                                        \
  X(Memcpy2DAsync, cuMemcpy2DAsync, "cuMemcpy2DAsync_v2")                                                              \
  X(StreamCreate, cuStreamCreate, "cuStreamCreate")                                                                    \
  X(StreamCreateWithPriority, cuStreamCreateWithPriority, "cuStreamCreateWithPriority")                                \
  X(CtxGetStreamPriorityRange, cuCtxGetStreamPriorityRange, "cuCtxGetStreamPriorityRange")                             \
  X(StreamWaitEvent, cuStreamWaitEvent, "cuStreamWaitEvent")                                                           \
  X(StreamIsCapturing, cuStreamIsCapturing, "cuStreamIsCapturing")                                                     \
  X(EventCreate, cuEventCreate, "cuEventCreate")                                                                       \
  X(EventRecord, cuEventRecord, "cuEventRecord")                                                                       \
  X(EventSynchronize, cuEventSynchronize, "cuEventSynchronize")                                                        \
  X(EventElapsedTime, cuEventElapsedTime, "cuEventElapsedTime_v2")                                                     \
  X(EventDestroy, cuEventDestroy, "cuEventDestroy_v2")                                                                 \
  X(StreamBeginCapture, cuStreamBeginCapture, "cuStreamBeginCapture_v2")                                               \
  X(StreamEndCapture, cuStreamEndCapture, "cuStreamEndCapture")                                                        \
  X(GraphInstantiate, cuGraphInstantiate, "cuGraphInstantiateWithFlags")                                               \
  X(GraphLaunch, cuGraphLaunch, "cuGraphLaunch")                                                                       \
  X(GraphDestroy, cuGraphDestroy, "cuGraphDestroy")                                                                    \
  X(GraphExecDestroy, cuGraphExecDestroy, "cuGraphExecDestroy")

static struct {
  void *handle;
  int failed;          /* the driver could not be opened or initialized */
  char message[512];   /* why */
#define BRAZE_CU_FIELD(field, api, symbol) __typeof__(&api) field;
  BRAZE_CU_FUNCTIONS(BRAZE_CU_FIELD)
#undef BRAZE_CU_FIELD
} braze_cu;

static pthread_once_t braze_cu_once = PTHREAD_ONCE_INIT;

static void braze_cu_describe(CUresult r, const char **name, const char **text) {
  *name = *text = NULL;
  if (braze_cu.GetErrorName)
    braze_cu.GetErrorName(r, name);
  if (braze_cu.GetErrorString)
    braze_cu.GetErrorString(r, text);
  if (!*name)
    *name = "unknown CUDA error";
  if (!*text)
    *text = "no description";
}

/* 0 on success; otherwise records "WHAT failed: CUDA_ERROR_X (text)" and returns 1. */
static int braze_cu_check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return 0;
  const char *name, *text;
  braze_cu_describe(r, &name, &text);
  return braze_cu_fail("%s failed: %s (%s)", what, name, text);
}

static void braze_cu_load_driver(void) {
  braze_cu.failed = 1;
  braze_cu.handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!braze_cu.handle) {
    const char *why = dlerror();
    snprintf(braze_cu.message, sizeof braze_cu.message,
             "no CUDA driver on this machine: cannot load libcuda.so.1 (%s)", why ? why : "not found");
    return;
  }
#define BRAZE_CU_LOAD(field, api, symbol)                                                                              \
  *(void **)&braze_cu.field = dlsym(braze_cu.handle, symbol);                                                          \
  if (!braze_cu.field) {                                                                                               \
    snprintf(braze_cu.message, sizeof braze_cu.message, "the CUDA driver lacks %s (a driver older than CUDA 12?)",     \
             symbol);                                                                                                  \
    return;                                                                                                            \
  }
  BRAZE_CU_FUNCTIONS(BRAZE_CU_LOAD)
#undef BRAZE_CU_LOAD
  CUresult r = braze_cu.Init(0);
  int devices = 0;
  if (r == CUDA_SUCCESS)
    r = braze_cu.DeviceGetCount(&devices);
  if (r != CUDA_SUCCESS) {
    const char *name, *text;
    braze_cu_describe(r, &name, &text);
    snprintf(braze_cu.message, sizeof braze_cu.message, "the CUDA driver cannot be initialized: %s (%s)", name, text);
    return;
  }
  if (devices == 0) {
    snprintf(braze_cu.message, sizeof braze_cu.message, "the CUDA driver reports no GPU");
    return;
  }
  braze_cu.failed = 0;
}

static int braze_cu_driver(void) {
  pthread_once(&braze_cu_once, braze_cu_load_driver);
  return braze_cu.failed ? braze_cu_fail("%s", braze_cu.message) : 0;
}

/* Device d's primary context, retained once per process. */
enum { BRAZE_CU_MAX_DEVICES = 64 };
static pthread_mutex_t braze_cu_primary_lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext braze_cu_primaries[BRAZE_CU_MAX_DEVICES];

static int braze_cu_primary_context(int device, CUcontext *out) {
  int count = 0;
  if (braze_cu_check(braze_cu.DeviceGetCount(&count), "cuDeviceGetCount"))
    return 1;
  if (device < 0 || device >= count || device >= BRAZE_CU_MAX_DEVICES)
    return braze_cu_fail("device %d is not in [0, %d): the CUDA driver reports %d GPU%s", device,
                         count < BRAZE_CU_MAX_DEVICES ? count : BRAZE_CU_MAX_DEVICES, count, count == 1 ? "" : "s");
  pthread_mutex_lock(&braze_cu_primary_lock);
  CUdevice dev;
  int failed = 0;
  if (!braze_cu_primaries[device])
    failed = braze_cu_check(braze_cu.DeviceGet(&dev, device), "cuDeviceGet") ||
             braze_cu_check(braze_cu.DevicePrimaryCtxRetain(&braze_cu_primaries[device], dev),
                            "cuDevicePrimaryCtxRetain");
  *out = braze_cu_primaries[device];
  pthread_mutex_unlock(&braze_cu_primary_lock);
  return failed;
}

/* The calling thread's context; device 0's primary context (made current here) when
 * the thread has none. */
static int braze_cu_context(CUcontext *out) {
  if (braze_cu_driver())
    return 1;
  CUcontext ctx = NULL;
  if (braze_cu_check(braze_cu.CtxGetCurrent(&ctx), "cuCtxGetCurrent"))
    return 1;
  if (!ctx && (braze_cu_primary_context(0, &ctx) || braze_cu_check(braze_cu.CtxSetCurrent(ctx), "cuCtxSetCurrent")))
    return 1;
  *out = ctx;
  return 0;
}

/* ---- slots: the contexts of one process driving several GPUs (decision 0022) ----
 *
 * Slot 0 is the single context of a library used by one device per process. Slots
 * 1..BRAZE_CU_MAX_CONTEXTS are the primary contexts braze_cuda_mesh_init_all made for
 * the mesh's devices, kept for the library's lifetime (a later init reuses them), each
 * with its own lock for what an entry keeps per slot. While such a mesh is up
 * (`active`), every entry call runs in the slot of the calling thread's current
 * context, and a thread whose context is none of the mesh's is refused. */
enum { BRAZE_CU_MAX_CONTEXTS = 8, BRAZE_CU_SLOTS = BRAZE_CU_MAX_CONTEXTS + 1 };

struct BrazeCuProgram;

static struct {
  pthread_mutex_t lock;
  int active;                                   /* read with acquire; set under lock */
  int count;                                    /* slots in use: 1..count */
  CUcontext context[BRAZE_CU_SLOTS];            /* [0] unused */
  int in_mesh[BRAZE_CU_SLOTS];                  /* a device of the mesh now up */
  pthread_mutex_t slot_lock[BRAZE_CU_SLOTS];    /* initialized when the slot is made */
  struct BrazeCuProgram *program[BRAZE_CU_SLOTS]; /* the slot's copy, made at its first call */
} braze_cu_slots = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The slot of the entry call on this thread (braze_cu_enter). */
static _Thread_local int braze_cu_slot;

/* The slot of `ctx` (made when new, under the table's lock); 0 when the table is full. */
static int braze_cu_slot_of(CUcontext ctx) {
  for (int i = 1; i <= braze_cu_slots.count; ++i)
    if (braze_cu_slots.context[i] == ctx)
      return i;
  if (braze_cu_slots.count == BRAZE_CU_MAX_CONTEXTS)
    return 0;
  int i = ++braze_cu_slots.count;
  braze_cu_slots.context[i] = ctx;
  pthread_mutex_init(&braze_cu_slots.slot_lock[i], NULL);
  return i;
}

/* Sets braze_cu_slot for an entry call: 0 unless a one-process mesh is up, else the
 * slot of the thread's current context. */
static int braze_cu_enter(void) {
  braze_cu_slot = 0;
  if (!__atomic_load_n(&braze_cu_slots.active, __ATOMIC_ACQUIRE))
    return 0;
  CUcontext ctx = NULL;
  if (braze_cu_check(braze_cu.CtxGetCurrent(&ctx), "cuCtxGetCurrent"))
    return 1;
  for (int i = 1; i <= braze_cu_slots.count; ++i)
    if (braze_cu_slots.in_mesh[i] && braze_cu_slots.context[i] == ctx) {
      braze_cu_slot = i;
      return 0;
    }
  return braze_cu_fail("the calling thread's CUDA context is not one of the mesh's devices (braze_cuda_mesh_init_all): "
                       "make the rank's device current first (braze_cuda_set_device)");
}

/* What an entry keeps per slot is guarded by its own lock in slot 0 (threads of one
 * context share it) and by the slot's lock in the others, so that a rank blocked in
 * NCCL (its peers not there yet) never holds a lock another rank's thread needs. */
static pthread_mutex_t *braze_cu_slot_lock(pthread_mutex_t *entry_lock) {
  return braze_cu_slot ? &braze_cu_slots.slot_lock[braze_cu_slot] : entry_lock;
}

/* ---- the program: what the generated code describes ---- */

typedef struct {
  const char *name;            /* the gpu.module's symbol */
  const unsigned char *cubin;  /* sm_90a */
  const char *ptx;             /* NUL-terminated; the driver JITs it where the cubin does not load */
  CUmodule module;
} BrazeCuImage;

typedef struct {
  int image;
  const char *name;
  unsigned max_dynamic_smem; /* the largest dynamic shared memory any launch asks for */
  CUfunction function;
} BrazeCuKernel;

typedef struct {
  const unsigned char *data;
  size_t bytes;
  CUdeviceptr device;
} BrazeCuConstant;

typedef struct BrazeCuProgram {
  BrazeCuImage *images;
  int num_images;
  BrazeCuKernel *kernels;
  int num_kernels;
  BrazeCuConstant *constants;
  int num_constants;
  pthread_mutex_t lock;
  int loaded; /* read with acquire; set under lock */
  CUcontext context;
} BrazeCuProgram;

/* The cubin, else the PTX (JIT-compiled by the driver for the GPU at hand).
 * BRAZE_CUDA_PTX=1 skips the cubin: the fallback path, tested on any GPU. */
static int braze_cu_load_image(BrazeCuImage *img) {
  const char *force_ptx = getenv("BRAZE_CUDA_PTX");
  CUresult r = force_ptx && strcmp(force_ptx, "1") == 0 ? CUDA_ERROR_NO_BINARY_FOR_GPU
                                                        : braze_cu.ModuleLoadData(&img->module, img->cubin);
  if (r == CUDA_SUCCESS)
    return 0;
  CUresult jit = braze_cu.ModuleLoadData(&img->module, img->ptx);
  if (jit == CUDA_SUCCESS)
    return 0;
  const char *name, *text, *jit_name, *jit_text;
  braze_cu_describe(r, &name, &text);
  braze_cu_describe(jit, &jit_name, &jit_text);
  return braze_cu_fail("cannot load the kernels of @%s: the sm_90a cubin: %s (%s); the PTX: %s (%s)", img->name, name,
                       text, jit_name, jit_text);
}

static int braze_cu_load_program(BrazeCuProgram *p) {
  for (int i = 0; i < p->num_images; ++i)
    if (!p->images[i].module && braze_cu_load_image(&p->images[i])) /* loaded ones stay for the next try */
      return 1;
  for (int i = 0; i < p->num_kernels; ++i) {
    BrazeCuKernel *k = &p->kernels[i];
    CUresult r = braze_cu.ModuleGetFunction(&k->function, p->images[k->image].module, k->name);
    if (r != CUDA_SUCCESS) {
      const char *name, *text;
      braze_cu_describe(r, &name, &text);
      return braze_cu_fail("cuModuleGetFunction(%s) failed: %s (%s)", k->name, name, text);
    }
    /* past 48 KiB in all (the kernel's static shared memory, mbarriers, counts too) a
     * launch needs the opt-in */
    int static_smem = 0;
    if (braze_cu_check(braze_cu.FuncGetAttribute(&static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k->function),
                       "cuFuncGetAttribute(SHARED_SIZE_BYTES)"))
      return 1;
    if (k->max_dynamic_smem + (unsigned)static_smem > 48 * 1024 &&
        braze_cu_check(braze_cu.FuncSetAttribute(k->function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                 (int)k->max_dynamic_smem),
                       "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)"))
      return 1;
  }
  for (int i = 0; i < p->num_constants; ++i) {
    BrazeCuConstant *c = &p->constants[i];
    if (c->device) /* uploaded by an earlier, failed try */
      continue;
    CUdeviceptr d = 0;
    if (braze_cu_check(braze_cu.MemAlloc(&d, c->bytes ? c->bytes : 1), "cuMemAlloc (constants)"))
      return 1;
    if (c->bytes && braze_cu_check(braze_cu.MemcpyHtoD(d, c->data, c->bytes), "cuMemcpyHtoD (constants)")) {
      braze_cu.MemFree(d);
      return 1;
    }
    c->device = d;
  }
  return 0;
}

/* Loads the program on first use (once, under its lock) and checks the caller's
 * context is the one it was loaded into. */
static int braze_cu_ready(BrazeCuProgram *p) {
  CUcontext ctx;
  if (braze_cu_context(&ctx))
    return 1;
  if (!__atomic_load_n(&p->loaded, __ATOMIC_ACQUIRE)) {
    pthread_mutex_lock(&p->lock);
    int failed = 0;
    if (!p->loaded) {
      failed = braze_cu_load_program(p);
      if (!failed) {
        p->context = ctx;
        __atomic_store_n(&p->loaded, 1, __ATOMIC_RELEASE);
      }
    }
    pthread_mutex_unlock(&p->lock);
    if (failed)
      return 1;
  }
  if (ctx != p->context)
    return braze_cu_fail("the library's kernels were loaded into another CUDA context (one context per process)");
  return 0;
}

/* The program of the calling entry's slot: `p` itself in slot 0, else the slot's copy
 * of its tables (made at the slot's first call, loaded into its context by
 * braze_cu_ready like the original). */
static BrazeCuProgram *braze_cu_copy_program(const BrazeCuProgram *p) {
  BrazeCuProgram *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  *c = (BrazeCuProgram){.num_images = p->num_images, .num_kernels = p->num_kernels, .num_constants = p->num_constants};
  c->images = calloc((size_t)p->num_images + 1, sizeof *c->images);
  c->kernels = calloc((size_t)p->num_kernels + 1, sizeof *c->kernels);
  c->constants = calloc((size_t)p->num_constants + 1, sizeof *c->constants);
  if (!c->images || !c->kernels || !c->constants) {
    free(c->images);
    free(c->kernels);
    free(c->constants);
    free(c);
    return NULL;
  }
  for (int i = 0; i < p->num_images; ++i)
    c->images[i] = (BrazeCuImage){p->images[i].name, p->images[i].cubin, p->images[i].ptx, NULL};
  for (int i = 0; i < p->num_kernels; ++i)
    c->kernels[i] = (BrazeCuKernel){p->kernels[i].image, p->kernels[i].name, p->kernels[i].max_dynamic_smem, NULL};
  for (int i = 0; i < p->num_constants; ++i)
    c->constants[i] = (BrazeCuConstant){p->constants[i].data, p->constants[i].bytes, 0};
  pthread_mutex_init(&c->lock, NULL);
  return c;
}

static int braze_cu_slot_program(BrazeCuProgram *p, BrazeCuProgram **out) {
  *out = p;
  if (!braze_cu_slot || (*out = __atomic_load_n(&braze_cu_slots.program[braze_cu_slot], __ATOMIC_ACQUIRE)))
    return 0;
  pthread_mutex_lock(&braze_cu_slots.lock);
  BrazeCuProgram **copy = &braze_cu_slots.program[braze_cu_slot];
  if (!*copy)
    __atomic_store_n(copy, braze_cu_copy_program(p), __ATOMIC_RELEASE);
  *out = *copy;
  pthread_mutex_unlock(&braze_cu_slots.lock);
  return *out ? 0 : braze_cu_fail("out of host memory");
}

/* ---- what the generated entries call ---- */

static int braze_cu_launch(BrazeCuProgram *p, int kernel, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                           unsigned by, unsigned bz, unsigned smem, CUstream stream, void **params) {
  const BrazeCuKernel *k = &p->kernels[kernel];
  CUresult r = braze_cu.LaunchKernel(k->function, gx, gy, gz, bx, by, bz, smem, stream, params, NULL);
  if (r == CUDA_SUCCESS)
    return 0;
  const char *name, *text;
  braze_cu_describe(r, &name, &text);
  return braze_cu_fail("launching %s (grid %ux%ux%u, block %ux%ux%u, %u bytes of shared memory) failed: %s (%s)",
                       k->name, gx, gy, gz, bx, by, bz, smem, name, text);
}

/* cuTensorMapEncodeTiled with the template's settings: 128-byte swizzle, 256-byte L2
 * promotion, elements out of bounds read as zero. */
static CUresult braze_cu_encode_tiled(CUtensorMap *map, CUtensorMapDataType dtype, cuuint32_t rank, CUdeviceptr base,
                                      const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                      const cuuint32_t *element_strides) {
  return braze_cu.TensorMapEncodeTiled(map, dtype, rank, (void *)(uintptr_t)base, dims, strides, box, element_strides,
                                       CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                       CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

/* The TMA descriptor of a row-major [outer][inner] tensor at `base` (row_bytes apart, a
 * multiple of 16) for boxes of box_inner x box_outer elements: 128-byte swizzle (the
 * tensor-core template's shared-memory layout), 256-byte L2 promotion, elements out
 * of bounds read as zero. Encoded on the host at each call (a pure function of its
 * arguments, no device work), passed to the kernel by value. */
static int braze_cu_tensor_map(CUtensorMap *map, CUtensorMapDataType dtype, CUdeviceptr base, uint64_t inner,
                               uint64_t outer, uint64_t row_bytes, uint32_t box_inner, uint32_t box_outer) {
  cuuint64_t dims[2] = {inner, outer}, strides[1] = {row_bytes};
  cuuint32_t box[2] = {box_inner, box_outer}, element_strides[2] = {1, 1};
  CUresult r = braze_cu_encode_tiled(map, dtype, 2, base, dims, strides, box, element_strides);
  if (r == CUDA_SUCCESS)
    return 0;
  const char *name, *text;
  braze_cu_describe(r, &name, &text);
  return braze_cu_fail("cuTensorMapEncodeTiled (a %llux%llu tensor at 0x%llx, %llu-byte rows, %ux%u boxes) failed: %s "
                       "(%s); TMA needs a 16-byte-aligned base address",
                       (unsigned long long)outer, (unsigned long long)inner, (unsigned long long)base,
                       (unsigned long long)row_bytes, box_outer, box_inner, name, text);
}

/* The TMA descriptor of a buffer at `base` viewed as the row-major 4-D tensor dims
 * (innermost first; rows of dims[0] elements a multiple of 16 bytes) for boxes `box`
 * traversed with element strides `strides` (TMA loads box[i] / strides[i] elements
 * along dim i): a conv's input [n][h][w][c] read by one box per filter tap, the
 * strides a strided conv's (decision 0021). 128-byte swizzle, 256-byte L2 promotion,
 * elements out of bounds read as zero. */
static int braze_cu_tensor_map_4d(CUtensorMap *map, CUtensorMapDataType dtype, CUdeviceptr base, uint64_t elem_bytes,
                                  const uint64_t *dims, const uint32_t *box, const uint32_t *strides) {
  cuuint64_t global[4] = {dims[0], dims[1], dims[2], dims[3]}, bytes[3];
  cuuint32_t box_dims[4] = {box[0], box[1], box[2], box[3]}, element_strides[4] = {strides[0], strides[1], strides[2], strides[3]};
  bytes[0] = dims[0] * elem_bytes;
  bytes[1] = bytes[0] * dims[1];
  bytes[2] = bytes[1] * dims[2];
  CUresult r = braze_cu_encode_tiled(map, dtype, 4, base, global, bytes, box_dims, element_strides);
  if (r == CUDA_SUCCESS)
    return 0;
  const char *name, *text;
  braze_cu_describe(r, &name, &text);
  return braze_cu_fail("cuTensorMapEncodeTiled (a %llux%llux%llux%llu tensor at 0x%llx, %ux%ux%ux%u boxes, element strides "
                       "%ux%ux%ux%u) failed: %s (%s); TMA needs a 16-byte-aligned base address",
                       (unsigned long long)dims[3], (unsigned long long)dims[2], (unsigned long long)dims[1],
                       (unsigned long long)dims[0], (unsigned long long)base, box[3], box[2], box[1], box[0], strides[3],
                       strides[2], strides[1], strides[0], name, text);
}

static int braze_cu_copy(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  return braze_cu_check(braze_cu.MemcpyDtoDAsync(dst, src, bytes, stream), "cuMemcpyDtoDAsync");
}

#ifdef BRAZE_CUDA_MESH
/* The mesh and the collectives over NCCL, in their own file beside this one. */
#include "nccl-mesh.c"
#endif

typedef int (*BrazeCuRun)(BrazeCuProgram *p, void *const *args, CUdeviceptr workspace, CUstream stream);

typedef struct {
  int slot;
  CUstream stream;
  CUdeviceptr workspace;
} BrazeCuKept;

/* A captured graph of an entry's launches and the pointers it was captured with. */
enum { BRAZE_CU_GRAPHS = 4 };
typedef struct {
  CUgraphExec exec;
  void **key; /* the arguments' pointers, then the workspace */
  unsigned long long last_use;
} BrazeCuGraph;

/* An entry's graphs in one slot (context), and the stream they are captured on. */
typedef struct {
  CUstream capture_stream;
  BrazeCuGraph graphs[BRAZE_CU_GRAPHS]; /* --cuda-graphs: by (pointers, workspace) */
  unsigned long long clock;             /* counts graph launches, for last_use */
} BrazeCuGraphs;

typedef struct {
  const char *name;
  int num_args;                /* inputs + outputs */
  const uint64_t *arg_bytes;   /* each argument's size */
  size_t workspace_bytes;
  BrazeCuRun run;
  int graph_replay;
  int partitioned; /* runs only once the mesh is initialized (nccl-mesh.c) */
  pthread_mutex_t lock;
  BrazeCuKept *kept; /* one workspace per (slot, stream) the entry was called on without one */
  int num_kept, cap_kept;
  BrazeCuGraphs slot_graphs[BRAZE_CU_SLOTS];
} BrazeCuEntry;

static int braze_cu_kept_workspace(BrazeCuEntry *e, CUstream stream, CUdeviceptr *out) {
  pthread_mutex_lock(&e->lock);
  int failed = 0;
  int i = 0;
  while (i < e->num_kept && (e->kept[i].stream != stream || e->kept[i].slot != braze_cu_slot))
    ++i;
  if (i == e->num_kept) {
    CUdeviceptr ws = 0;
    failed = braze_cu_check(braze_cu.MemAlloc(&ws, e->workspace_bytes), "cuMemAlloc (workspace)");
    if (!failed && e->num_kept == e->cap_kept) {
      int cap = e->cap_kept ? 2 * e->cap_kept : 4;
      BrazeCuKept *grown = realloc(e->kept, (size_t)cap * sizeof *grown);
      if (!grown) {
        braze_cu.MemFree(ws);
        failed = braze_cu_fail("out of host memory");
      } else {
        e->kept = grown;
        e->cap_kept = cap;
      }
    }
    if (!failed)
      e->kept[e->num_kept++] = (BrazeCuKept){braze_cu_slot, stream, ws};
  }
  if (!failed)
    *out = e->kept[i].workspace;
  pthread_mutex_unlock(&e->lock);
  return failed;
}

/* The graph slot holding `key`, or -1. */
static int braze_cu_find_graph(const BrazeCuEntry *e, const BrazeCuGraphs *gs, void *const *key) {
  for (int i = 0; i < BRAZE_CU_GRAPHS; ++i)
    if (gs->graphs[i].exec && memcmp(gs->graphs[i].key, key, (size_t)(e->num_args + 1) * sizeof *key) == 0)
      return i;
  return -1;
}

/* An empty slot, else the least recently launched one (its graph destroyed). */
static int braze_cu_free_slot(BrazeCuGraphs *gs) {
  int victim = 0;
  for (int i = 0; i < BRAZE_CU_GRAPHS; ++i) {
    if (!gs->graphs[i].exec)
      return i;
    if (gs->graphs[i].last_use < gs->graphs[victim].last_use)
      victim = i;
  }
  braze_cu.GraphExecDestroy(gs->graphs[victim].exec); /* in flight: freed when it completes */
  gs->graphs[victim].exec = NULL;
  return victim;
}

/* Capture the entry's launches for this key on a private stream into a graph in a
 * free slot; returns the slot or -1. */
static int braze_cu_capture(BrazeCuProgram *p, BrazeCuEntry *e, BrazeCuGraphs *gs, void *const *args, CUdeviceptr ws,
                            void *const *key) {
  if (!gs->capture_stream &&
      braze_cu_check(braze_cu.StreamCreate(&gs->capture_stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"))
    return -1;
  int slot = braze_cu_free_slot(gs);
  BrazeCuGraph *g = &gs->graphs[slot];
  if (!g->key && !(g->key = malloc((size_t)(e->num_args + 1) * sizeof *key))) {
    braze_cu_fail("out of host memory");
    return -1;
  }
  if (braze_cu_check(braze_cu.StreamBeginCapture(gs->capture_stream, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                     "cuStreamBeginCapture"))
    return -1;
  int failed = e->run(p, args, ws, gs->capture_stream);
  CUgraph graph = NULL;
  CUresult ended = braze_cu.StreamEndCapture(gs->capture_stream, &graph);
  if (!failed)
    failed = braze_cu_check(ended, "cuStreamEndCapture") ||
             braze_cu_check(braze_cu.GraphInstantiate(&g->exec, graph, 0), "cuGraphInstantiate");
  if (graph)
    braze_cu.GraphDestroy(graph);
  if (failed) {
    g->exec = NULL;
    return -1;
  }
  memcpy(g->key, key, (size_t)(e->num_args + 1) * sizeof *key);
  return slot;
}

/* Launch the graph of these pointers (arguments and workspace), captured at their
 * first call; the stream it is launched on is not part of the key. */
static int braze_cu_replay(BrazeCuProgram *p, BrazeCuEntry *e, void *const *args, CUdeviceptr ws, CUstream stream) {
  void *key[e->num_args + 1];
  memcpy(key, args, (size_t)e->num_args * sizeof *key);
  key[e->num_args] = (void *)(uintptr_t)ws;
  BrazeCuGraphs *gs = &e->slot_graphs[braze_cu_slot];
  pthread_mutex_t *lock = braze_cu_slot_lock(&e->lock);
  pthread_mutex_lock(lock);
  int slot = braze_cu_find_graph(e, gs, key);
  if (slot < 0)
    slot = braze_cu_capture(p, e, gs, args, ws, key);
  int failed = slot < 0;
  if (!failed) {
    gs->graphs[slot].last_use = ++gs->clock;
    failed = braze_cu_check(braze_cu.GraphLaunch(gs->graphs[slot].exec, stream), "cuGraphLaunch");
  }
  pthread_mutex_unlock(lock);
  return failed;
}

/* The kernels read and write with 128-bit accesses: a misaligned or NULL buffer would
 * fault on the GPU, and a fault poisons the whole context (every later call of the
 * process, other libraries' and PyTorch's included, fails). Refuse it here instead. */
static int braze_cu_check_pointers(const BrazeCuEntry *e, void *const *args, CUdeviceptr ws) {
  for (int i = 0; i < e->num_args; ++i) {
    uintptr_t p = (uintptr_t)args[i];
    if (e->arg_bytes[i] && !p)
      return braze_cu_fail("%s: argument %d is NULL", e->name, i);
    if (p % 16)
      return braze_cu_fail("%s: argument %d (%p) is not 16-byte aligned", e->name, i, args[i]);
  }
  if (ws % 16)
    return braze_cu_fail("%s: the workspace (%p) is not 16-byte aligned", e->name, (void *)(uintptr_t)ws);
  return 0;
}

/* One call of an entry: `workspace` is the caller's (kept == 0) or the entry's own
 * for `stream` (kept == 1). Launches are asynchronous on `stream` (NULL: the legacy
 * default stream); the status covers the launches, not the kernels' execution. */
static int braze_cu_call(BrazeCuProgram *p, BrazeCuEntry *e, void *const *args, void *workspace, int kept,
                         void *stream) {
  braze_cu_message[0] = '\0';
  CUstream s = (CUstream)stream;
  CUdeviceptr ws = (CUdeviceptr)(uintptr_t)workspace;
  if (braze_cu_enter()) /* the driver is loaded where a one-process mesh is up */
    return 1;
#ifdef BRAZE_CUDA_MESH
  if (e->partitioned && braze_cu_mesh_check(e->name))
    return 1;
#endif
  if (braze_cu_check_pointers(e, args, ws) || braze_cu_slot_program(p, &p) || braze_cu_ready(p))
    return 1;
  if (e->workspace_bytes > 0) {
    if (kept && braze_cu_kept_workspace(e, s, &ws))
      return 1;
    if (!ws)
      return braze_cu_fail("%s_ws: the entry needs a device workspace of %zu bytes, got NULL", e->name,
                           e->workspace_bytes);
  }
  return e->graph_replay ? braze_cu_replay(p, e, args, ws, s) : e->run(p, args, ws, s);
}

/* ---- exported helpers for generic callers (braze run/check, tests, ctypes) ---- */

BRAZE_CUDA_EXPORT const char *braze_cuda_last_error(void) { return braze_cu_message; }

/* 0 when a driver and a GPU are there (the context is then current). */
BRAZE_CUDA_EXPORT int braze_cuda_available(void) {
  CUcontext ctx;
  return braze_cu_context(&ctx);
}

BRAZE_CUDA_EXPORT int braze_cuda_malloc(void **ptr, size_t bytes) {
  CUcontext ctx;
  CUdeviceptr d = 0;
  *ptr = NULL;
  if (braze_cu_context(&ctx) || braze_cu_check(braze_cu.MemAlloc(&d, bytes ? bytes : 1), "cuMemAlloc"))
    return 1;
  *ptr = (void *)(uintptr_t)d;
  return 0;
}

BRAZE_CUDA_EXPORT int braze_cuda_free(void *ptr) {
  CUcontext ctx;
  if (!ptr)
    return 0;
  return braze_cu_context(&ctx) || braze_cu_check(braze_cu.MemFree((CUdeviceptr)(uintptr_t)ptr), "cuMemFree");
}

BRAZE_CUDA_EXPORT int braze_cuda_memcpy_htod(void *dst, const void *src, size_t bytes) {
  CUcontext ctx;
  return braze_cu_context(&ctx) ||
         (bytes && braze_cu_check(braze_cu.MemcpyHtoD((CUdeviceptr)(uintptr_t)dst, src, bytes), "cuMemcpyHtoD"));
}

BRAZE_CUDA_EXPORT int braze_cuda_memcpy_dtoh(void *dst, const void *src, size_t bytes) {
  CUcontext ctx;
  return braze_cu_context(&ctx) ||
         (bytes && braze_cu_check(braze_cu.MemcpyDtoH(dst, (CUdeviceptr)(uintptr_t)src, bytes), "cuMemcpyDtoH"));
}

/* Makes device `device`'s primary context current on the calling thread (what
 * cudaSetDevice does): a one-process mesh's entries run on the current device. */
BRAZE_CUDA_EXPORT int braze_cuda_set_device(int device) {
  CUcontext ctx;
  braze_cu_message[0] = '\0';
  return braze_cu_driver() || braze_cu_primary_context(device, &ctx) ||
         braze_cu_check(braze_cu.CtxSetCurrent(ctx), "cuCtxSetCurrent");
}

/* Waits for all work of the context; reports errors of kernels that already ran. */
BRAZE_CUDA_EXPORT int braze_cuda_synchronize(void) {
  CUcontext ctx;
  return braze_cu_context(&ctx) || braze_cu_check(braze_cu.CtxSynchronize(), "cuCtxSynchronize");
}

/* Tells a generic caller that entry pointers are device pointers. */
BRAZE_CUDA_EXPORT const char braze_target_name[] = "cuda";

/* The extern GEMM (cuBLASLt), in its own file beside this one. */
#include "cublaslt-gemm.c"
