/* A stand-in libcuda.so.1 for testing the CUDA runtime (runtime/cuda/) on machines
 * without a GPU: "device" memory is host memory, kernels do not run (a launch is
 * logged with its kernel, grid, block and arguments), copies really copy. Every call
 * the runtime makes is logged to stdout as "mock: ...". Kernel arguments are printed
 * as bufN+OFFSET for pointers into allocation N (so a test sees which buffer and which
 * workspace offset each kernel gets). The parameter list comes from the PTX, so tests
 * that look at launches set MOCK_CUDA_NO_CUBIN=1 (the cubin is refused, as on a GPU
 * it was not built for, and the runtime falls back to the PTX).
 *
 * Every call runs under one lock (device work, done on the calling thread here, is
 * serialized as a GPU's stream work would be), so a ThreadSanitizer build of the
 * runtime reports only the runtime's own races.
 *
 * Several devices (MOCK_CUDA_DEVICES=N, at most 8; default 1): a primary context per
 * device, current per thread; each call's log line says the device of the calling
 * thread's context ("mock[d1]: ..."), and allocations, streams and events are numbered
 * per device ("d1.buf0"), so each device's log is the same whatever the threads'
 * interleaving. With one device the log is as it always was.
 *
 * Environment: MOCK_CUDA_NO_DEVICE=1 (cuInit fails), MOCK_CUDA_NO_CUBIN=1,
 * MOCK_CUDA_NO_PTX=1, MOCK_CUDA_LAUNCH_FAIL=1, MOCK_CUDA_OOM_AT=N (the Nth cuMemAlloc,
 * counting from 1, fails once with CUDA_ERROR_OUT_OF_MEMORY), MOCK_CUDA_STATIC_SMEM=B (every
 * kernel's static shared memory, bytes). */
#include <cuda.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct CUctx_st {
  int device;
};
struct CUmod_st {
  const char *ptx; /* NULL for a cubin */
  const unsigned char *image;
};
struct CUfunc_st {
  char name[256];
  int num_params;
  int param_bytes[64];
};
struct CUstream_st {
  int id;
};
struct CUgraph_st {
  int launches;
};
struct CUgraphExec_st {
  int launches;
};

static pthread_mutex_t mock_lock = PTHREAD_MUTEX_INITIALIZER;
/* Each entry point: its body under mock_lock. */
#define LOCKED(body)                                                                                                   \
  do {                                                                                                                 \
    pthread_mutex_lock(&mock_lock);                                                                                    \
    CUresult locked_result = (body);                                                                                   \
    pthread_mutex_unlock(&mock_lock);                                                                                  \
    return locked_result;                                                                                              \
  } while (0)

enum { MAX_DEVICES = 8 };
static struct CUctx_st contexts[MAX_DEVICES] = {{0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}};
static _Thread_local CUcontext current;
static _Thread_local int capturing, captured; /* capture is per thread (THREAD_LOCAL mode) */

enum { MAX_ALLOCS = 256 };
static struct {
  unsigned char *base;
  size_t bytes;
  int device, number; /* the number among its device's allocations */
} allocs[MAX_ALLOCS];
static int num_allocs;
static int per_device_allocs[MAX_DEVICES];

static int env(const char *name) { return getenv(name) && *getenv(name) == '1'; }

static int num_devices(void) {
  const char *n = getenv("MOCK_CUDA_DEVICES");
  int d = n ? atoi(n) : 1;
  return d < 1 ? 1 : d > MAX_DEVICES ? MAX_DEVICES : d;
}

/* The device of the calling thread's context (0 without one). */
static int device_now(void) { return current ? current->device : 0; }

/* What log lines name the calling thread by: "" with one device, else "[dN]" for
 * its context's device or "[-]" where it has none. */
static const char *tag(void) {
  static _Thread_local char text[16];
  if (num_devices() == 1)
    return "";
  if (!current)
    return "[-]";
  snprintf(text, sizeof text, "[d%d]", current->device);
  return text;
}

/* A log line: "mock: ...", or "mock[dN]: ..." with several devices; written with one
 * stdio call, so that the stand-in NCCL's lines (other threads) never split it. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
  char line[8192];
  int n = snprintf(line, sizeof line, "mock%s: ", tag());
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
  va_end(ap);
  fputs(line, stdout);
}

/* "bufN+OFF" for an address inside allocation N ("dD.bufN+OFF", N counted per device,
 * with several devices), else the number. */
static void describe(unsigned long long addr, char *out, size_t n) {
  for (int i = 0; i < num_allocs; ++i)
    if (allocs[i].base && addr >= (uintptr_t)allocs[i].base && addr < (uintptr_t)allocs[i].base + allocs[i].bytes) {
      if (num_devices() > 1)
        snprintf(out, n, "d%d.buf%d+%llu", allocs[i].device, allocs[i].number, addr - (uintptr_t)allocs[i].base);
      else
        snprintf(out, n, "buf%d+%llu", i, addr - (uintptr_t)allocs[i].base);
      return;
    }
  snprintf(out, n, "%llu", addr);
}

/* For the stand-in NCCL (mock_nccl.c), which names buffers the same way. */
__attribute__((visibility("default"))) void mock_cuda_describe(unsigned long long addr, char *out, size_t n) {
  pthread_mutex_lock(&mock_lock);
  describe(addr, out, n);
  pthread_mutex_unlock(&mock_lock);
}

/* For the stand-in NCCL, whose log lines name threads the same way. */
__attribute__((visibility("default"))) const char *mock_cuda_tag(void) { return tag(); }

static CUresult impl_cuInit(unsigned int flags) {
  (void)flags;
  say("cuInit\n");
  return env("MOCK_CUDA_NO_DEVICE") ? CUDA_ERROR_NO_DEVICE : CUDA_SUCCESS;
}

static CUresult impl_cuGetErrorName(CUresult r, const char **s) {
  *s = r == CUDA_ERROR_NO_DEVICE             ? "CUDA_ERROR_NO_DEVICE"
       : r == CUDA_ERROR_NO_BINARY_FOR_GPU   ? "CUDA_ERROR_NO_BINARY_FOR_GPU"
       : r == CUDA_ERROR_INVALID_PTX         ? "CUDA_ERROR_INVALID_PTX"
       : r == CUDA_ERROR_NOT_FOUND           ? "CUDA_ERROR_NOT_FOUND"
       : r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES ? "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"
       : r == CUDA_ERROR_OUT_OF_MEMORY       ? "CUDA_ERROR_OUT_OF_MEMORY"
                                             : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}

static CUresult impl_cuGetErrorString(CUresult r, const char **s) {
  (void)r;
  *s = "mock error";
  return CUDA_SUCCESS;
}

static CUresult impl_cuDeviceGetCount(int *n) {
  *n = num_devices();
  return CUDA_SUCCESS;
}

static CUresult impl_cuDeviceGet(CUdevice *d, int ordinal) {
  *d = ordinal;
  return CUDA_SUCCESS;
}

static CUresult impl_cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d) {
  if (d < 0 || d >= num_devices())
    return CUDA_ERROR_INVALID_DEVICE;
  say("retain primary context of device %d\n", d);
  *ctx = &contexts[d];
  return CUDA_SUCCESS;
}

static CUresult impl_cuCtxGetCurrent(CUcontext *ctx) {
  *ctx = current;
  return CUDA_SUCCESS;
}

static CUresult impl_cuCtxSetCurrent(CUcontext ctx) {
  current = ctx;
  return CUDA_SUCCESS;
}

static CUresult impl_cuCtxSynchronize(void) {
  say("synchronize\n");
  return CUDA_SUCCESS;
}

static CUresult impl_cuModuleLoadData(CUmodule *m, const void *image) {
  const unsigned char *bytes = image;
  int elf = memcmp(bytes, "\x7f" "ELF", 4) == 0;
  say("load %s\n", elf ? "cubin" : "ptx");
  if (elf && env("MOCK_CUDA_NO_CUBIN"))
    return CUDA_ERROR_NO_BINARY_FOR_GPU;
  if (!elf && (env("MOCK_CUDA_NO_PTX") || !strstr(image, ".version")))
    return CUDA_ERROR_INVALID_PTX;
  *m = calloc(1, sizeof **m);
  (*m)->ptx = elf ? NULL : image;
  (*m)->image = bytes;
  return CUDA_SUCCESS;
}

/* The parameters of `.entry NAME(...)`: 8 bytes for .u64/.b64, N for `.align A .b8 x[N]`
 * (a TMA descriptor passed by value), else 4. */
static void read_params(const char *ptx, CUfunction f) {
  char key[300];
  snprintf(key, sizeof key, ".entry %s(", f->name);
  const char *p = strstr(ptx, key);
  const char *end = p ? strchr(p, ')') : NULL;
  for (const char *q = p; q && q < end && f->num_params < 64; ++q) {
    q = strstr(q, ".param ");
    if (!q || q > end)
      break;
    const char *bracket = strchr(q, '[');
    const char *comma = strpbrk(q + 7, ",)");
    if (strncmp(q + 7, ".align", 6) == 0 && bracket && comma && bracket < comma)
      f->param_bytes[f->num_params++] = atoi(bracket + 1);
    else
      f->param_bytes[f->num_params++] = strncmp(q + 7, ".u64", 4) == 0 || strncmp(q + 7, ".b64", 4) == 0 ? 8 : 4;
  }
}

static CUresult impl_cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  if (m->ptx && !strstr(m->ptx, name))
    return CUDA_ERROR_NOT_FOUND;
  *f = calloc(1, sizeof **f);
  snprintf((*f)->name, sizeof (*f)->name, "%s", name);
  if (m->ptx)
    read_params(m->ptx, *f);
  return CUDA_SUCCESS;
}

static CUresult impl_cuFuncSetAttribute(CUfunction f, CUfunction_attribute attr, int value) {
  say("%s attribute %d = %d\n", f->name, (int)attr, value);
  return CUDA_SUCCESS;
}

/* Kernels of the stand-in use no static shared memory, or MOCK_CUDA_STATIC_SMEM bytes. */
static CUresult impl_cuFuncGetAttribute(int *value, CUfunction_attribute attr, CUfunction f) {
  (void)f;
  const char *bytes = getenv("MOCK_CUDA_STATIC_SMEM");
  *value = attr == CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES && bytes ? atoi(bytes) : 0;
  return CUDA_SUCCESS;
}

static CUresult impl_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned smem, CUstream stream, void **params, void **extra) {
  (void)extra;
  char args[64 * 64] = "";
  size_t used = 0;
  for (int i = 0; i < f->num_params && used < sizeof args - 80; ++i) {
    char text[64];
    if (f->param_bytes[i] == 8)
      describe(*(unsigned long long *)params[i], text, sizeof text);
    else if (f->param_bytes[i] == 128) { /* a CUtensorMap: the mock's encoding keeps its base */
      char base[48];
      describe(((unsigned long long *)params[i])[0], base, sizeof base);
      snprintf(text, sizeof text, "map %s", base);
    } else
      snprintf(text, sizeof text, "%d", *(int *)params[i]);
    used += (size_t)snprintf(args + used, sizeof args - used, "%s%s", i ? ", " : "", text);
  }
  say("launch %s grid %u,%u,%u block %u,%u,%u smem %u stream %d%s (%s)\n", f->name, gx, gy, gz, bx, by, bz, smem,
      stream ? stream->id : 0, capturing ? " captured" : "", args);
  captured += capturing;
  return env("MOCK_CUDA_LAUNCH_FAIL") ? CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES : CUDA_SUCCESS;
}

/* A stand-in descriptor: the base address in word 0, the rest zero; the encoding printed. */
static CUresult impl_cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType dtype, cuuint32_t rank, void *base,
                                            const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,
                                            const cuuint32_t *element_strides, CUtensorMapInterleave interleave,
                                            CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2,
                                            CUtensorMapFloatOOBfill oob) {
  (void)interleave, (void)l2, (void)oob;
  char text[64];
  describe((unsigned long long)(uintptr_t)base, text, sizeof text);
  if (rank == 4) /* a conv window's input (decision 0021): all dims, strides and element strides */
    say("tensor map %s dtype %d rank 4 dims %llu,%llu,%llu,%llu strides %llu,%llu,%llu bytes box %u,%u,%u,%u "
        "element strides %u,%u,%u,%u swizzle %d\n", text, (int)dtype, (unsigned long long)dims[0],
        (unsigned long long)dims[1], (unsigned long long)dims[2], (unsigned long long)dims[3],
        (unsigned long long)strides[0], (unsigned long long)strides[1], (unsigned long long)strides[2], box[0], box[1],
        box[2], box[3], element_strides[0], element_strides[1], element_strides[2], element_strides[3], (int)swizzle);
  else
    say("tensor map %s dtype %d rank %u dims %llu,%llu row %llu bytes box %u,%u swizzle %d\n", text, (int)dtype, rank,
        (unsigned long long)dims[0], (unsigned long long)dims[1], (unsigned long long)strides[0], box[0], box[1],
        (int)swizzle);
  memset(map, 0, sizeof *map);
  map->opaque[0] = (cuuint64_t)(uintptr_t)base;
  return env("MOCK_CUDA_TENSOR_MAP_FAIL") ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static CUresult impl_cuMemAlloc(CUdeviceptr *p, size_t bytes) {
  static int calls;
  const char *oom_at = getenv("MOCK_CUDA_OOM_AT");
  if (oom_at && ++calls == atoi(oom_at)) {
    say("alloc of %zu bytes fails (out of memory)\n", bytes);
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  if (num_allocs == MAX_ALLOCS)
    return CUDA_ERROR_OUT_OF_MEMORY;
  unsigned char *mem = aligned_alloc(256, (bytes + 255) / 256 * 256);
  allocs[num_allocs].base = mem;
  allocs[num_allocs].bytes = bytes;
  allocs[num_allocs].device = device_now();
  allocs[num_allocs].number = per_device_allocs[device_now()]++;
  char name[32];
  num_allocs++;
  describe((uintptr_t)mem, name, sizeof name);
  name[strlen(name) - 2] = '\0'; /* drop "+0" */
  say("alloc %s %zu bytes\n", name, bytes);
  *p = (CUdeviceptr)(uintptr_t)mem;
  return CUDA_SUCCESS;
}

static CUresult impl_cuMemFree(CUdeviceptr p) {
  char text[64];
  describe(p, text, sizeof text);
  say("free %s\n", text);
  return CUDA_SUCCESS; /* kept: later addresses stay unambiguous */
}

static CUresult impl_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes) {
  char text[64];
  describe(dst, text, sizeof text);
  unsigned sum = 0;
  for (size_t i = 0; i < bytes; ++i)
    sum += ((const unsigned char *)src)[i];
  say("htod %s %zu bytes (byte sum %u)\n", text, bytes, sum);
  memcpy((void *)(uintptr_t)dst, src, bytes);
  return CUDA_SUCCESS;
}

static CUresult impl_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes) {
  memcpy(dst, (void *)(uintptr_t)src, bytes);
  return CUDA_SUCCESS;
}

static CUresult impl_cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  char from[64], to[64];
  describe(src, from, sizeof from);
  describe(dst, to, sizeof to);
  say("copy %s -> %s %zu bytes stream %d%s\n", from, to, bytes, stream ? stream->id : 0,
         capturing ? " captured" : "");
  memmove((void *)(uintptr_t)dst, (void *)(uintptr_t)src, bytes);
  return CUDA_SUCCESS;
}

/* Strided copies (the collectives' staging, runtime/cuda/nccl-mesh.c). */
static CUresult impl_cuMemcpy2DAsync(const CUDA_MEMCPY2D *c, CUstream stream) {
  char from[64], to[64];
  describe(c->srcDevice, from, sizeof from);
  describe(c->dstDevice, to, sizeof to);
  say("copy2d %s (pitch %zu) -> %s (pitch %zu) %zu bytes x %zu rows stream %d\n", from, c->srcPitch, to,
         c->dstPitch, c->WidthInBytes, c->Height, stream ? stream->id : 0);
  for (size_t r = 0; r < c->Height; ++r)
    memmove((unsigned char *)(uintptr_t)c->dstDevice + r * c->dstPitch,
            (const unsigned char *)(uintptr_t)c->srcDevice + r * c->srcPitch, c->WidthInBytes);
  return CUDA_SUCCESS;
}

static CUresult impl_cuStreamCreate(CUstream *s, unsigned flags) {
  static int next[MAX_DEVICES] = {100, 100, 100, 100, 100, 100, 100, 100};
  *s = calloc(1, sizeof **s);
  (*s)->id = next[device_now()]++;
  say("stream %d created (flags %u)\n", (*s)->id, flags);
  return CUDA_SUCCESS;
}

/* Events (matmul=auto times its alternatives): every interval lasts 1 ms, or the
 * MOCK_CUDA_EVENT_MS milliseconds given. */
struct CUevent_st {
  int recorded;
  int id, stream; /* its number; the stream of its last record */
};

static CUresult impl_cuEventCreate(CUevent *e, unsigned flags) {
  static int next[MAX_DEVICES] = {1, 1, 1, 1, 1, 1, 1, 1};
  (void)flags;
  *e = calloc(1, sizeof **e);
  (*e)->id = next[device_now()]++;
  return CUDA_SUCCESS;
}

static CUresult impl_cuEventRecord(CUevent e, CUstream s) {
  e->recorded = 1;
  e->stream = s ? s->id : 0;
  return CUDA_SUCCESS;
}

/* A second stream for collectives (runtime/cuda/nccl-mesh.c): created, then the streams
 * wait for each other's events. */
static CUresult impl_cuStreamCreateWithPriority(CUstream *s, unsigned flags, int priority) {
  static int next[MAX_DEVICES] = {200, 200, 200, 200, 200, 200, 200, 200};
  *s = calloc(1, sizeof **s);
  (*s)->id = next[device_now()]++;
  say("stream %d created (flags %u, priority %d)\n", (*s)->id, flags, priority);
  return CUDA_SUCCESS;
}

static CUresult impl_cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags) {
  (void)flags;
  say("stream %d waits for event %d (recorded on stream %d)\n", s ? s->id : 0, e->id, e->stream);
  return e->recorded ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult impl_cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  const char *given = getenv("MOCK_CUDA_EVENT_MS");
  *ms = given ? (float)atof(given) : 1.0f;
  return a->recorded && b->recorded ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult impl_cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status) {
  (void)s;
  *status = capturing ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
  return CUDA_SUCCESS;
}

static CUresult impl_cuStreamBeginCapture(CUstream s, CUstreamCaptureMode mode) {
  say("begin capture on stream %d (mode %d)\n", s->id, (int)mode);
  capturing = 1;
  captured = 0;
  return CUDA_SUCCESS;
}

static CUresult impl_cuStreamEndCapture(CUstream s, CUgraph *g) {
  say("end capture on stream %d\n", s->id);
  capturing = 0;
  *g = calloc(1, sizeof **g);
  (*g)->launches = captured;
  return CUDA_SUCCESS;
}

static CUresult impl_cuGraphInstantiate(CUgraphExec *e, CUgraph g, unsigned long long flags) {
  (void)flags;
  *e = calloc(1, sizeof **e);
  (*e)->launches = g->launches;
  say("instantiate a graph of %d launches\n", g->launches);
  return CUDA_SUCCESS;
}

static CUresult impl_cuGraphLaunch(CUgraphExec e, CUstream s) {
  say("graph launch (%d launches) on stream %d\n", e->launches, s ? s->id : 0);
  return CUDA_SUCCESS;
}

static CUresult impl_cuGraphDestroy(CUgraph g) {
  free(g);
  return CUDA_SUCCESS;
}

static CUresult impl_cuGraphExecDestroy(CUgraphExec e) {
  say("destroy a graph\n");
  free(e);
  return CUDA_SUCCESS;
}

/* The entry points, each under the mock's lock. */
CUresult cuInit(unsigned int flags) { LOCKED(impl_cuInit(flags)); }
CUresult cuGetErrorName(CUresult r, const char **s) { LOCKED(impl_cuGetErrorName(r, s)); }
CUresult cuGetErrorString(CUresult r, const char **s) { LOCKED(impl_cuGetErrorString(r, s)); }
CUresult cuDeviceGetCount(int *n) { LOCKED(impl_cuDeviceGetCount(n)); }
CUresult cuDeviceGet(CUdevice *d, int ordinal) { LOCKED(impl_cuDeviceGet(d, ordinal)); }
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d) { LOCKED(impl_cuDevicePrimaryCtxRetain(ctx, d)); }
CUresult cuCtxGetCurrent(CUcontext *ctx) { LOCKED(impl_cuCtxGetCurrent(ctx)); }
CUresult cuCtxSetCurrent(CUcontext ctx) { LOCKED(impl_cuCtxSetCurrent(ctx)); }
CUresult cuCtxSynchronize(void) { LOCKED(impl_cuCtxSynchronize()); }
CUresult cuModuleLoadData(CUmodule *m, const void *image) { LOCKED(impl_cuModuleLoadData(m, image)); }
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) { LOCKED(impl_cuModuleGetFunction(f, m, name)); }
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute attr, int value) { LOCKED(impl_cuFuncSetAttribute(f, attr, value)); }
CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attr, CUfunction f) { LOCKED(impl_cuFuncGetAttribute(value, attr, f)); }
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned smem, CUstream stream, void **params, void **extra) { LOCKED(impl_cuLaunchKernel(f, gx, gy, gz, bx, by, bz, smem, stream, params, extra)); }
CUresult cuMemAlloc(CUdeviceptr *p, size_t bytes) { LOCKED(impl_cuMemAlloc(p, bytes)); }
CUresult cuEventCreate(CUevent *e, unsigned flags) { LOCKED(impl_cuEventCreate(e, flags)); }
CUresult cuEventRecord(CUevent e, CUstream s) { LOCKED(impl_cuEventRecord(e, s)); }
CUresult cuEventSynchronize(CUevent e) { (void)e; return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float *ms, CUevent a, CUevent b) { LOCKED(impl_cuEventElapsedTime(ms, a, b)); }
CUresult cuEventDestroy(CUevent e) { free(e); return CUDA_SUCCESS; }
CUresult cuStreamIsCapturing(CUstream s, CUstreamCaptureStatus *status) { LOCKED(impl_cuStreamIsCapturing(s, status)); }
CUresult cuTensorMapEncodeTiled(CUtensorMap *map, CUtensorMapDataType dtype, cuuint32_t rank, void *base, const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box, const cuuint32_t *element_strides, CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) { LOCKED(impl_cuTensorMapEncodeTiled(map, dtype, rank, base, dims, strides, box, element_strides, interleave, swizzle, l2, oob)); }
CUresult cuMemFree(CUdeviceptr p) { LOCKED(impl_cuMemFree(p)); }
CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes) { LOCKED(impl_cuMemcpyHtoD(dst, src, bytes)); }
CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes) { LOCKED(impl_cuMemcpyDtoH(dst, src, bytes)); }
CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) { LOCKED(impl_cuMemcpyDtoDAsync(dst, src, bytes, stream)); }
CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *c, CUstream stream) { LOCKED(impl_cuMemcpy2DAsync(c, stream)); }
CUresult cuStreamCreate(CUstream *s, unsigned flags) { LOCKED(impl_cuStreamCreate(s, flags)); }
CUresult cuStreamCreateWithPriority(CUstream *s, unsigned flags, int priority) { LOCKED(impl_cuStreamCreateWithPriority(s, flags, priority)); }
CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest) { *least = 0; *greatest = -5; return CUDA_SUCCESS; }
CUresult cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags) { LOCKED(impl_cuStreamWaitEvent(s, e, flags)); }
CUresult cuStreamBeginCapture(CUstream s, CUstreamCaptureMode mode) { LOCKED(impl_cuStreamBeginCapture(s, mode)); }
CUresult cuStreamEndCapture(CUstream s, CUgraph *g) { LOCKED(impl_cuStreamEndCapture(s, g)); }
CUresult cuGraphInstantiate(CUgraphExec *e, CUgraph g, unsigned long long flags) { LOCKED(impl_cuGraphInstantiate(e, g, flags)); }
CUresult cuGraphLaunch(CUgraphExec e, CUstream s) { LOCKED(impl_cuGraphLaunch(e, s)); }
CUresult cuGraphDestroy(CUgraph g) { LOCKED(impl_cuGraphDestroy(g)); }
CUresult cuGraphExecDestroy(CUgraphExec e) { LOCKED(impl_cuGraphExecDestroy(e)); }
