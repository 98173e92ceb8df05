/* The CUDA runtime's extern GEMM: contractions that cuda-codegen{matmul=extern|auto}
 * hands to cuBLASLt (kernel.gemm in the entry, docs/targets-cuda.md), and the choice
 * between a kernel and its extern twin that matmul=auto leaves to the first call.
 * Included at the end of cuda-runtime.c (one translation unit with the generated host
 * code).
 *
 * libcublasLt.so.13 is opened with dlopen at the first GEMM, like libcuda: a library
 * that never runs an extern GEMM never needs it. Each GEMM site of the library keeps
 * its cuBLASLt descriptors and the algorithm the heuristic chose for its one shape
 * (made once, under the program's lock); the handle and a 32 MiB workspace are the
 * library's, made at the first GEMM, one of each per slot (context) where one process
 * drives several GPUs (cuda-runtime.c, decision 0022).
 *
 * Row-major C[b] = op(A[b]) @ op(B[b]) is computed as the column-major product
 * C^T = op(B)^T op(A)^T, so cuBLASLt's m is N and its n is M; batches are strided, a
 * stride of 0 repeating one matrix for every batch. Accumulation and scaling are f32
 * (CUBLAS_COMPUTE_32F: full f32 for f32 inputs; TF32 only for sites compiled with
 * cuda-codegen{allow-tf32}). */
#include <cublasLt.h>

#define BRAZE_LT_FUNCTIONS(X)                                                                                          \
  X(Create, cublasLtCreate)                                                                                            \
  X(MatmulDescCreate, cublasLtMatmulDescCreate)                                                                        \
  X(MatmulDescSetAttribute, cublasLtMatmulDescSetAttribute)                                                            \
  X(MatrixLayoutCreate, cublasLtMatrixLayoutCreate)                                                                    \
  X(MatrixLayoutSetAttribute, cublasLtMatrixLayoutSetAttribute)                                                        \
  X(MatmulPreferenceCreate, cublasLtMatmulPreferenceCreate)                                                            \
  X(MatmulPreferenceSetAttribute, cublasLtMatmulPreferenceSetAttribute)                                                \
  X(MatmulPreferenceDestroy, cublasLtMatmulPreferenceDestroy)                                                          \
  X(MatmulAlgoGetHeuristic, cublasLtMatmulAlgoGetHeuristic)                                                            \
  X(Matmul, cublasLtMatmul)

enum { BRAZE_LT_WORKSPACE = 32 << 20 };

static struct {
  void *handle;
  int failed;
  char message[512];
#define BRAZE_LT_FIELD(field, api) __typeof__(&api) field;
  BRAZE_LT_FUNCTIONS(BRAZE_LT_FIELD)
#undef BRAZE_LT_FIELD
  int opened;                       /* the library and its functions are there */
  cublasLtHandle_t lt[BRAZE_CU_SLOTS]; /* per slot (context) */
  CUdeviceptr workspace[BRAZE_CU_SLOTS];
} braze_lt;

static pthread_mutex_t braze_lt_lock = PTHREAD_MUTEX_INITIALIZER;

/* One kernel.gemm of the library: its shape and, once made, its descriptors. */
typedef struct {
  int dtype_in, dtype_out; /* cudaDataType of A and B, of C */
  int trans_a, trans_b;    /* A stored [K][M], B stored [N][K] */
  int tf32;                /* f32 inputs on TF32 tensor cores (cuda-codegen{allow-tf32}) */
  int64_t m, n, k, batch, stride_a, stride_b;
  float alpha, beta; /* C = alpha A B + beta X where the call passes an addend X, else A B */
  int ready;
  cublasLtMatmulDesc_t desc;
  cublasLtMatrixLayout_t la, lb, lc; /* cuBLASLt's A (our B), B (our A), C = D */
  cublasLtMatmulAlgo_t algo;
} BrazeLtGemm;

/* Opens libcublasLt.so.13 and finds its functions (once per process). */
static int braze_lt_load(void) {
  if (braze_lt.opened)
    return 0;
  braze_lt.handle = dlopen("libcublasLt.so.13", RTLD_NOW | RTLD_LOCAL);
  const char *missing = braze_lt.handle ? NULL : "libcublasLt.so.13";
#define BRAZE_LT_LOAD(field, api)                                                                                      \
  if (!missing && !(*(void **)&braze_lt.field = dlsym(braze_lt.handle, #api)))                                         \
    missing = #api;
  BRAZE_LT_FUNCTIONS(BRAZE_LT_LOAD)
#undef BRAZE_LT_LOAD
  if (missing) {
    snprintf(braze_lt.message, sizeof braze_lt.message,
             "the extern GEMM needs cuBLASLt: cannot load %s (%s); compile with cuda-codegen{matmul=template}", missing,
             braze_lt.handle ? "symbol not found" : dlerror());
    braze_lt.failed = 1;
    return braze_cu_fail("%s", braze_lt.message);
  }
  braze_lt.opened = 1;
  return 0;
}

/* The calling slot's handle and workspace, in its context (the handle is published,
 * with release, once both are there). */
static int braze_lt_handle(void) {
  cublasLtHandle_t lt = NULL;
  if (!braze_lt.workspace[braze_cu_slot] &&
      braze_cu_check(braze_cu.MemAlloc(&braze_lt.workspace[braze_cu_slot], BRAZE_LT_WORKSPACE),
                     "cuMemAlloc (cuBLASLt workspace)"))
    return 1;
  if (braze_lt.Create(&lt) != CUBLAS_STATUS_SUCCESS)
    return braze_cu_fail("cublasLtCreate failed (is a CUDA driver with a GPU present?)");
  __atomic_store_n(&braze_lt.lt[braze_cu_slot], lt, __ATOMIC_RELEASE);
  return 0;
}

/* Opens cuBLASLt (once per process), makes the calling slot's handle and workspace
 * (once per slot); under the lock. */
static int braze_lt_open(void) {
  if (braze_lt.lt[braze_cu_slot])
    return 0;
  if (braze_lt.failed)
    return braze_cu_fail("%s", braze_lt.message);
  return braze_lt_load() || braze_lt_handle();
}

static int braze_lt_layout(cublasLtMatrixLayout_t *out, int dtype, uint64_t rows, uint64_t cols, int64_t ld,
                           int64_t batch, int64_t stride) {
  if (braze_lt.MatrixLayoutCreate(out, (cudaDataType)dtype, rows, cols, ld) != CUBLAS_STATUS_SUCCESS)
    return 1;
  int32_t count = (int32_t)batch;
  return braze_lt.MatrixLayoutSetAttribute(*out, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count) ||
         braze_lt.MatrixLayoutSetAttribute(*out, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride);
}

/* The descriptors and the heuristic's first algorithm for g's shape. */
static int braze_lt_prepare(BrazeLtGemm *g) {
  cublasOperation_t ta = g->trans_b ? CUBLAS_OP_T : CUBLAS_OP_N; /* cuBLASLt's A is our B */
  cublasOperation_t tb = g->trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasComputeType_t compute = g->tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  cudaDataType scale = CUDA_R_32F;
  if (braze_lt.MatmulDescCreate(&g->desc, compute, scale) != CUBLAS_STATUS_SUCCESS ||
      braze_lt.MatmulDescSetAttribute(g->desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta) ||
      braze_lt.MatmulDescSetAttribute(g->desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb))
    return braze_cu_fail("cuBLASLt: cannot describe a %lldx%lldx%lld GEMM", (long long)g->m, (long long)g->n,
                         (long long)g->k);
  /* stored shapes, column-major: our B is [K][N] row-major = N x K (ld N), or [N][K] = K x N (ld K) */
  int bad = g->trans_b ? braze_lt_layout(&g->la, g->dtype_in, g->k, g->n, g->k, g->batch, g->stride_b)
                       : braze_lt_layout(&g->la, g->dtype_in, g->n, g->k, g->n, g->batch, g->stride_b);
  bad = bad || (g->trans_a ? braze_lt_layout(&g->lb, g->dtype_in, g->m, g->k, g->m, g->batch, g->stride_a)
                           : braze_lt_layout(&g->lb, g->dtype_in, g->k, g->m, g->k, g->batch, g->stride_a));
  bad = bad || braze_lt_layout(&g->lc, g->dtype_out, g->n, g->m, g->n, g->batch, g->m * g->n);
  if (bad)
    return braze_cu_fail("cuBLASLt: cannot lay out a %lldx%lldx%lld GEMM", (long long)g->m, (long long)g->n,
                         (long long)g->k);
  cublasLtMatmulPreference_t pref;
  uint64_t ws = BRAZE_LT_WORKSPACE;
  cublasLtMatmulHeuristicResult_t found;
  int count = 0;
  if (braze_lt.MatmulPreferenceCreate(&pref) != CUBLAS_STATUS_SUCCESS)
    return braze_cu_fail("cuBLASLt: cannot create a preference");
  cublasStatus_t st = braze_lt.MatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws);
  if (st == CUBLAS_STATUS_SUCCESS)
    st = braze_lt.MatmulAlgoGetHeuristic(braze_lt.lt[braze_cu_slot], g->desc, g->la, g->lb, g->lc, g->lc, pref, 1, &found, &count);
  braze_lt.MatmulPreferenceDestroy(pref);
  if (st != CUBLAS_STATUS_SUCCESS || count < 1)
    return braze_cu_fail("cuBLASLt has no algorithm for a %lldx%lldx%lld GEMM (batch %lld, status %d)", (long long)g->m,
                         (long long)g->n, (long long)g->k, (long long)g->batch, (int)st);
  g->algo = found.algo;
  return 0;
}

/* What the generated entries call for kernel.gemm: C = A @ B on `stream`, or, with an
 * addend x (not 0), C = alpha A @ B + beta x (x laid out as C). */
static int braze_cu_gemm(BrazeLtGemm *g, CUdeviceptr a, CUdeviceptr b, CUdeviceptr x, CUdeviceptr c, CUstream stream) {
  if (!__atomic_load_n(&g->ready, __ATOMIC_ACQUIRE) || !__atomic_load_n(&braze_lt.lt[braze_cu_slot], __ATOMIC_ACQUIRE)) {
    pthread_mutex_lock(&braze_lt_lock);
    int failed = braze_lt_open() || (!g->ready && braze_lt_prepare(g));
    if (!failed)
      __atomic_store_n(&g->ready, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&braze_lt_lock);
    if (failed)
      return 1;
  }
  float one = 1.0f, zero = 0.0f;
  const float *alpha = x ? &g->alpha : &one, *beta = x ? &g->beta : &zero;
  cublasStatus_t st = braze_lt.Matmul(braze_lt.lt[braze_cu_slot], g->desc, alpha, (const void *)(uintptr_t)b, g->la,
                                      (const void *)(uintptr_t)a, g->lb, beta, (const void *)(uintptr_t)(x ? x : c), g->lc,
                                      (void *)(uintptr_t)c, g->lc, &g->algo, (void *)(uintptr_t)braze_lt.workspace[braze_cu_slot],
                                      BRAZE_LT_WORKSPACE, stream);
  if (st != CUBLAS_STATUS_SUCCESS)
    return braze_cu_fail("cublasLtMatmul (%lldx%lldx%lld, batch %lld) failed with status %d", (long long)g->m,
                         (long long)g->n, (long long)g->k, (long long)g->batch, (int)st);
  return 0;
}

/* ---- matmul=auto: which alternative runs, decided on the device ----
 *
 * A site is one contraction compiled both ways (the template or SIMT kernel, choice 0;
 * cuBLASLt, choice 1). While undecided, the generated code runs each alternative
 * BRAZE_CU_PICK_RUNS times (the first a warm-up, the others timed with events on the
 * entry's stream) and keeps the faster; the outputs are those of the last run, which
 * both alternatives compute alike. Where cuBLASLt cannot be opened or initialized the
 * kernel is chosen without a word. BRAZE_CUDA_MATMUL=template|extern forces a choice;
 * under CUDA-graph capture an undecided site runs choice 0 and stays undecided;
 * BRAZE_CUDA_VERBOSE=1 prints each decision; braze_cuda_matmul_choices() lists them. */

enum { BRAZE_CU_PICK_RUNS = 4, BRAZE_CU_MAX_PICKS = 256 };

typedef struct {
  const char *name; /* the kernel's name */
  int choice;       /* -1 until decided */
  float ms[2];      /* the timed mean of each alternative */
} BrazeCuPick;

typedef struct {
  CUevent start, stop;
} BrazeCuTimer;

static BrazeCuPick *braze_picks[BRAZE_CU_MAX_PICKS];
static int braze_num_picks;
static pthread_mutex_t braze_picks_lock = PTHREAD_MUTEX_INITIALIZER;

/* The site's choice, a forced one, 0 under capture, or -1: time both now. */
static int braze_cu_pick(BrazeCuPick *s, CUstream stream) {
  int c = __atomic_load_n(&s->choice, __ATOMIC_ACQUIRE);
  if (c >= 0)
    return c;
  const char *forced = getenv("BRAZE_CUDA_MATMUL");
  if (forced && (strcmp(forced, "template") == 0 || strcmp(forced, "extern") == 0))
    return forced[0] == 'e';
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (braze_cu.StreamIsCapturing(stream, &capture) == CUDA_SUCCESS && capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return 0;
  /* without a usable cuBLASLt the kernel is the only alternative: decided, no error */
  pthread_mutex_lock(&braze_lt_lock);
  int no_lt = braze_lt_open() != 0;
  pthread_mutex_unlock(&braze_lt_lock);
  if (no_lt) {
    braze_cu_message[0] = 0;
    __atomic_store_n(&s->choice, 0, __ATOMIC_RELEASE);
    return 0;
  }
  return -1;
}

static int braze_cu_timer_start(BrazeCuTimer *t, CUstream stream) {
  return braze_cu_check(braze_cu.EventCreate(&t->start, CU_EVENT_DEFAULT), "cuEventCreate") ||
         braze_cu_check(braze_cu.EventCreate(&t->stop, CU_EVENT_DEFAULT), "cuEventCreate") ||
         braze_cu_check(braze_cu.EventRecord(t->start, stream), "cuEventRecord");
}

/* The mean milliseconds of the BRAZE_CU_PICK_RUNS - 1 timed runs since the start. */
static int braze_cu_timer_stop(BrazeCuTimer *t, CUstream stream, float *ms) {
  float total = 0.0f;
  int failed = braze_cu_check(braze_cu.EventRecord(t->stop, stream), "cuEventRecord") ||
               braze_cu_check(braze_cu.EventSynchronize(t->stop), "cuEventSynchronize") ||
               braze_cu_check(braze_cu.EventElapsedTime(&total, t->start, t->stop), "cuEventElapsedTime");
  braze_cu.EventDestroy(t->start);
  braze_cu.EventDestroy(t->stop);
  *ms = total / (BRAZE_CU_PICK_RUNS - 1);
  return failed;
}

static void braze_cu_decide(BrazeCuPick *s, const float *ms) {
  s->ms[0] = ms[0];
  s->ms[1] = ms[1];
  pthread_mutex_lock(&braze_picks_lock);
  if (__atomic_load_n(&s->choice, __ATOMIC_ACQUIRE) < 0 && braze_num_picks < BRAZE_CU_MAX_PICKS)
    braze_picks[braze_num_picks++] = s;
  __atomic_store_n(&s->choice, ms[1] < ms[0] ? 1 : 0, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&braze_picks_lock);
  const char *verbose = getenv("BRAZE_CUDA_VERBOSE");
  if (verbose && strcmp(verbose, "1") == 0)
    fprintf(stderr, "braze: %s: template %.3f ms, extern %.3f ms: %s\n", s->name, ms[0], ms[1],
            ms[1] < ms[0] ? "extern" : "template");
}

/* The decisions so far, one line each ("NAME: template|extern (template X ms, extern Y
 * ms)"), into out (truncated to n bytes, NUL-terminated); returns how many. */
BRAZE_CUDA_EXPORT int braze_cuda_matmul_choices(char *out, size_t n) {
  size_t used = 0;
  pthread_mutex_lock(&braze_picks_lock);
  int count = braze_num_picks;
  if (out && n)
    out[0] = 0;
  for (int i = 0; i < count && out && used < n; ++i) {
    const BrazeCuPick *s = braze_picks[i];
    int w = snprintf(out + used, n - used, "%s: %s (template %.3f ms, extern %.3f ms)\n", s->name,
                     s->choice == 1 ? "extern" : "template", s->ms[0], s->ms[1]);
    used += w > 0 ? (size_t)w : 0;
  }
  pthread_mutex_unlock(&braze_picks_lock);
  return count;
}
