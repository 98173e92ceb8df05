/* A stand-in libnccl.so.2 for testing the mesh runtime (runtime/cuda/nccl-mesh.c) on
 * machines without GPUs, beside the stand-in driver (mock_cuda.c, whose "device"
 * memory is host memory). It is one rank of a mesh whose other ranks hold the same
 * data as this one (every input replicated), so each collective is computed for real:
 * all_reduce sums n copies (max/min: the value), all_gather concatenates n copies,
 * reduce_scatter keeps chunk `rank` of n copies summed, and a receive from any peer
 * gets what this rank sends to itself (what that peer sends here). Every call is logged
 * as "mock-nccl: ...", buffers named like the driver's (bufN+OFFSET).
 *
 * Environment: MOCK_NCCL_FAIL=NAME (that function, e.g. ncclAllReduce, returns
 * ncclInternalError). The rank comes from ncclCommInitRank. */
#include <dlfcn.h>
#include <nccl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ncclComm {
  int id, size, rank;
};

static int next_comm = 1;

static int failing(const char *name) {
  const char *f = getenv("MOCK_NCCL_FAIL");
  if (f && strcmp(f, name) == 0) {
    printf("mock-nccl: %s fails (MOCK_NCCL_FAIL)\n", name);
    return 1;
  }
  return 0;
}

/* The driver's name of an address ("bufN+OFF"), through mock_cuda.c's helper. */
static void describe(const void *p, char *out, size_t n) {
  static void (*fn)(unsigned long long, char *, size_t);
  if (!fn) {
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (cuda)
      *(void **)&fn = dlsym(cuda, "mock_cuda_describe");
  }
  if (fn)
    fn((unsigned long long)(uintptr_t)p, out, n);
  else
    snprintf(out, n, "%p", p);
}

static size_t type_size(ncclDataType_t t) {
  switch (t) {
  case ncclInt8:
  case ncclUint8:
    return 1;
  case ncclFloat16:
  case ncclBfloat16:
    return 2;
  case ncclInt32:
  case ncclUint32:
  case ncclFloat32:
    return 4;
  default:
    return 8;
  }
}

/* x * n for a sum of n equal values (max/min: x), element i of type t. */
static void scale(void *dst, const void *src, size_t count, ncclDataType_t t, ncclRedOp_t op, int n) {
  memmove(dst, src, count * type_size(t));
  if (op != ncclSum)
    return;
  for (size_t i = 0; i < count; ++i) {
    if (t == ncclFloat32) {
      ((float *)dst)[i] *= (float)n;
    } else if (t == ncclInt32) {
      ((int32_t *)dst)[i] *= n;
    } else if (t == ncclInt64) {
      ((int64_t *)dst)[i] *= n;
    } else if (t == ncclBfloat16) {
      uint32_t bits = (uint32_t)((uint16_t *)dst)[i] << 16;
      float f;
      memcpy(&f, &bits, 4);
      f *= (float)n;
      memcpy(&bits, &f, 4);
      ((uint16_t *)dst)[i] = (uint16_t)((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
    }
  }
}

const char *ncclGetErrorString(ncclResult_t r) { return r == ncclInternalError ? "mock: internal error" : "mock error"; }

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
  if (failing("ncclGetUniqueId"))
    return ncclInternalError;
  memset(id, 0, sizeof *id);
  strcpy(id->internal, "mock-id");
  printf("mock-nccl: unique id\n");
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int n, ncclUniqueId id, int rank) {
  if (failing("ncclCommInitRank"))
    return ncclInternalError;
  *comm = calloc(1, sizeof **comm);
  **comm = (struct ncclComm){next_comm++, n, rank};
  printf("mock-nccl: init comm %d: rank %d of %d (id %s)\n", (*comm)->id, rank, n, id.internal);
  return ncclSuccess;
}

ncclResult_t ncclCommSplit(ncclComm_t comm, int color, int key, ncclComm_t *out, ncclConfig_t *config) {
  (void)config;
  if (failing("ncclCommSplit"))
    return ncclInternalError;
  *out = calloc(1, sizeof **out);
  **out = (struct ncclComm){next_comm++, comm->size, key};
  printf("mock-nccl: split comm %d from comm %d: color %d key %d\n", (*out)->id, comm->id, color, key);
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  printf("mock-nccl: destroy comm %d\n", comm->id);
  free(comm);
  return ncclSuccess;
}

ncclResult_t ncclCommCount(const ncclComm_t comm, int *count) {
  *count = comm->size;
  return ncclSuccess;
}

ncclResult_t ncclCommUserRank(const ncclComm_t comm, int *rank) {
  *rank = comm->rank;
  return ncclSuccess;
}

ncclResult_t ncclAllReduce(const void *x, void *y, size_t count, ncclDataType_t t, ncclRedOp_t op, ncclComm_t comm,
                           cudaStream_t stream) {
  char a[64], b[64];
  describe(x, a, sizeof a);
  describe(y, b, sizeof b);
  printf("mock-nccl: all_reduce %s -> %s count %zu type %d op %d comm %d stream %s\n", a, b, count, (int)t, (int)op,
         comm->id, stream ? "set" : "0");
  if (failing("ncclAllReduce"))
    return ncclInternalError;
  scale(y, x, count, t, op, comm->size);
  return ncclSuccess;
}

ncclResult_t ncclAllGather(const void *x, void *y, size_t count, ncclDataType_t t, ncclComm_t comm,
                           cudaStream_t stream) {
  char a[64], b[64];
  describe(x, a, sizeof a);
  describe(y, b, sizeof b);
  printf("mock-nccl: all_gather %s -> %s count %zu type %d comm %d stream %s\n", a, b, count, (int)t, comm->id,
         stream ? "set" : "0");
  if (failing("ncclAllGather"))
    return ncclInternalError;
  size_t bytes = count * type_size(t);
  for (int q = 0; q < comm->size; ++q)
    memmove((char *)y + (size_t)q * bytes, x, bytes);
  return ncclSuccess;
}

ncclResult_t ncclReduceScatter(const void *x, void *y, size_t count, ncclDataType_t t, ncclRedOp_t op,
                               ncclComm_t comm, cudaStream_t stream) {
  char a[64], b[64];
  describe(x, a, sizeof a);
  describe(y, b, sizeof b);
  printf("mock-nccl: reduce_scatter %s -> %s count %zu type %d op %d comm %d stream %s\n", a, b, count, (int)t,
         (int)op, comm->id, stream ? "set" : "0");
  if (failing("ncclReduceScatter"))
    return ncclInternalError;
  scale(y, (const char *)x + (size_t)comm->rank * count * type_size(t), count, t, op, comm->size);
  return ncclSuccess;
}

/* Point to point inside a group: the sends to this rank are what every peer sends here. */
enum { MAX_P2P = 64 };
static struct {
  const void *buf;
  void *rbuf;
  size_t bytes;
  int peer;
} sends[MAX_P2P], recvs[MAX_P2P];
static int num_sends, num_recvs, in_group;

ncclResult_t ncclGroupStart(void) {
  printf("mock-nccl: group start\n");
  in_group = 1;
  num_sends = num_recvs = 0;
  return ncclSuccess;
}

ncclResult_t ncclSend(const void *x, size_t count, ncclDataType_t t, int peer, ncclComm_t comm, cudaStream_t stream) {
  (void)stream;
  char a[64];
  describe(x, a, sizeof a);
  printf("mock-nccl: send %s count %zu type %d to %d comm %d\n", a, count, (int)t, peer, comm->id);
  if (failing("ncclSend") || !in_group || num_sends == MAX_P2P)
    return ncclInternalError;
  sends[num_sends].buf = x;
  sends[num_sends].bytes = count * type_size(t);
  sends[num_sends++].peer = peer == comm->rank ? -1 : peer; /* -1: to itself */
  return ncclSuccess;
}

ncclResult_t ncclRecv(void *y, size_t count, ncclDataType_t t, int peer, ncclComm_t comm, cudaStream_t stream) {
  (void)stream;
  char a[64];
  describe(y, a, sizeof a);
  printf("mock-nccl: recv %s count %zu type %d from %d comm %d\n", a, count, (int)t, peer, comm->id);
  if (failing("ncclRecv") || !in_group || num_recvs == MAX_P2P)
    return ncclInternalError;
  recvs[num_recvs].rbuf = y;
  recvs[num_recvs++].bytes = count * type_size(t);
  return ncclSuccess;
}

ncclResult_t ncclGroupEnd(void) {
  printf("mock-nccl: group end\n");
  in_group = 0;
  const void *to_self = NULL;
  for (int i = 0; i < num_sends; ++i)
    if (sends[i].peer < 0)
      to_self = sends[i].buf;
  for (int i = 0; i < num_recvs && to_self; ++i)
    memmove(recvs[i].rbuf, to_self, recvs[i].bytes);
  return failing("ncclGroupEnd") ? ncclInternalError : ncclSuccess;
}
