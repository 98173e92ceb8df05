/* A sum all_reduce over a group of two ranks through the partner's memory (decision
 * 0026), included by nccl-mesh.c: no NCCL kernel runs, so no multiprocessor is taken
 * from the kernels beside it, and the exposed last all_reduce of a chunked program
 * costs one copy over NVLink and one local add.
 *
 * At the mesh's init each such group gets a window on each of its two ranks: an inbox
 * per all_reduce of the library that qualifies (BrazeCuCollective.peer_site >= 0; the
 * compiler sized them, BrazeCuGroup.peer_bytes), then a pair of flags per site. Each
 * rank maps its partner's window: one process per GPU through CUDA IPC (the handles
 * exchanged over the group's communicator), one process for all GPUs through peer
 * access between the contexts. Where that fails on either rank (no peer access
 * between the GPUs, say), both keep NCCL for the group; BRAZE_CUDA_PEER=0 at the init
 * keeps NCCL everywhere.
 *
 * One all_reduce, call n of its site, on the stream, nothing on the host waiting:
 *   wait   my ack >= n - 1          the partner has added my previous copy
 *   copy   x -> partner's inbox     the copy engine, over NVLink
 *   write  partner's ready = n      after the copy (the write fences)
 *   wait   my ready >= n            the partner's x is in my inbox
 *   launch y = x + inbox            braze_peer_sum, local memory only
 *   write  partner's ack = n
 * Both ranks add the same two values (a + b and b + a), so their results are the same
 * bits. The waits compare cyclically (CU_STREAM_WAIT_VALUE_GEQ), so the 32-bit counts
 * may wrap. The counts live on the host, so a library whose entries replay captured
 * CUDA graphs (--cuda-graphs) does not take this path (the compiler gives no site). */

/* y[i] = x[i] + inbox[i] over n16 16-byte vectors; dtype 0 f32, 1 bf16, 2 f16; each
 * pair added once, rounded to nearest (bf16x2 and f16x2 adds on sm_90). */
static const char braze_peer_sum_ptx[] =
    ".version 7.8\n"
    ".target sm_90\n"
    ".address_size 64\n"
    "\n"
    ".visible .entry braze_peer_sum(.param .u64 p_y, .param .u64 p_x, .param .u64 p_inbox, .param .u64 p_n16,\n"
    "                               .param .u32 p_dtype)\n"
    "{\n"
    "  .reg .pred %done, %is_f32, %is_bf16;\n"
    "  .reg .b32 %t<4>, %a<4>, %b<4>, %s<4>, %dtype;\n"
    "  .reg .f32 %fa<4>, %fb<4>;\n"
    "  .reg .b64 %y, %x, %inbox, %n16, %i, %stride, %off, %at;\n"
    "  ld.param.u64 %y, [p_y];\n"
    "  ld.param.u64 %x, [p_x];\n"
    "  ld.param.u64 %inbox, [p_inbox];\n"
    "  ld.param.u64 %n16, [p_n16];\n"
    "  ld.param.u32 %dtype, [p_dtype];\n"
    "  mov.u32 %t0, %ctaid.x;\n"
    "  mov.u32 %t1, %ntid.x;\n"
    "  mov.u32 %t2, %tid.x;\n"
    "  mov.u32 %t3, %nctaid.x;\n"
    "  mul.wide.u32 %i, %t0, %t1;\n"
    "  cvt.u64.u32 %off, %t2;\n"
    "  add.u64 %i, %i, %off;\n"
    "  mul.wide.u32 %stride, %t3, %t1;\n"
    "  setp.eq.u32 %is_f32, %dtype, 0;\n"
    "  setp.eq.u32 %is_bf16, %dtype, 1;\n"
    "LOOP:\n"
    "  setp.ge.u64 %done, %i, %n16;\n"
    "  @%done bra END;\n"
    "  shl.b64 %off, %i, 4;\n"
    "  add.u64 %at, %x, %off;\n"
    "  ld.global.v4.b32 {%a0, %a1, %a2, %a3}, [%at];\n"
    "  add.u64 %at, %inbox, %off;\n"
    "  ld.global.cg.v4.b32 {%b0, %b1, %b2, %b3}, [%at];\n"
    "  @%is_f32 bra F32;\n"
    "  @%is_bf16 bra BF16;\n"
    "  add.rn.f16x2 %s0, %a0, %b0;\n"
    "  add.rn.f16x2 %s1, %a1, %b1;\n"
    "  add.rn.f16x2 %s2, %a2, %b2;\n"
    "  add.rn.f16x2 %s3, %a3, %b3;\n"
    "  bra STORE;\n"
    "BF16:\n"
    "  add.rn.bf16x2 %s0, %a0, %b0;\n"
    "  add.rn.bf16x2 %s1, %a1, %b1;\n"
    "  add.rn.bf16x2 %s2, %a2, %b2;\n"
    "  add.rn.bf16x2 %s3, %a3, %b3;\n"
    "  bra STORE;\n"
    "F32:\n"
    "  mov.b32 %fa0, %a0;\n"
    "  mov.b32 %fa1, %a1;\n"
    "  mov.b32 %fa2, %a2;\n"
    "  mov.b32 %fa3, %a3;\n"
    "  mov.b32 %fb0, %b0;\n"
    "  mov.b32 %fb1, %b1;\n"
    "  mov.b32 %fb2, %b2;\n"
    "  mov.b32 %fb3, %b3;\n"
    "  add.rn.f32 %fa0, %fa0, %fb0;\n"
    "  add.rn.f32 %fa1, %fa1, %fb1;\n"
    "  add.rn.f32 %fa2, %fa2, %fb2;\n"
    "  add.rn.f32 %fa3, %fa3, %fb3;\n"
    "  mov.b32 %s0, %fa0;\n"
    "  mov.b32 %s1, %fa1;\n"
    "  mov.b32 %s2, %fa2;\n"
    "  mov.b32 %s3, %fa3;\n"
    "STORE:\n"
    "  add.u64 %at, %y, %off;\n"
    "  st.global.v4.b32 [%at], {%s0, %s1, %s2, %s3};\n"
    "  add.u64 %i, %i, %stride;\n"
    "  bra LOOP;\n"
    "END:\n"
    "  ret;\n"
    "}\n";

enum { BRAZE_CU_PEER_THREADS = 256, BRAZE_CU_PEER_MAX_BLOCKS = 1056 /* 8 per multiprocessor of an H100 */ };

/* Which all_reduces take the partner's memory, from BRAZE_CUDA_PEER at the init (both
 * ranks agree where their environments do): 0 none, `overlapped` only those on the
 * communication stream (the exposed ones stay on NCCL), anything else all. */
enum { BRAZE_CU_PEER_NONE, BRAZE_CU_PEER_ALL, BRAZE_CU_PEER_OVERLAPPED };

static int braze_cu_peer_policy(void) {
  const char *e = getenv("BRAZE_CUDA_PEER");
  if (e && strcmp(e, "0") == 0)
    return BRAZE_CU_PEER_NONE;
  return e && strcmp(e, "overlapped") == 0 ? BRAZE_CU_PEER_OVERLAPPED : BRAZE_CU_PEER_ALL;
}

static int braze_cu_peer_wanted(BrazeCuRank *r) {
  r->peer_policy = braze_cu_peer_policy();
  return r->peer_policy != BRAZE_CU_PEER_NONE;
}

static size_t braze_cu_peer_window_bytes(const BrazeCuGroup *g) { return (size_t)g->peer_bytes + 8u * g->peer_sites; }

/* This rank's window of group g (zeroed) and its add kernel; 0 when it could not be
 * made (the group then stays on NCCL: not an error). */
static int braze_cu_peer_alloc(const BrazeCuMesh *m, BrazeCuRank *r, int g) {
  BrazeCuPeer *p = &r->peer[g];
  size_t bytes = braze_cu_peer_window_bytes(&m->groups[g]);
  if (!r->peer_sum && (braze_cu.ModuleLoadData(&r->peer_module, braze_peer_sum_ptx) != CUDA_SUCCESS ||
                       braze_cu.ModuleGetFunction(&r->peer_sum, r->peer_module, "braze_peer_sum") != CUDA_SUCCESS)) {
    r->peer_sum = NULL;
    return 0;
  }
  p->calls = calloc((size_t)m->groups[g].peer_sites, sizeof *p->calls);
  if (!p->calls || braze_cu.MemAlloc(&p->mine, bytes) != CUDA_SUCCESS) {
    p->mine = 0;
    return 0;
  }
  p->flags = (size_t)m->groups[g].peer_bytes;
  return braze_cu.MemsetD8(p->mine, 0, bytes) == CUDA_SUCCESS;
}

/* The window and mapping of group g given up (the rank's context current). */
static void braze_cu_peer_free(BrazeCuPeer *p) {
  if (p->opened)
    braze_cu.IpcCloseMemHandle(p->theirs);
  if (p->mine)
    braze_cu.MemFree(p->mine);
  free(p->calls);
  *p = (BrazeCuPeer){0};
}

/* Whether rank r holds a window of any group. */
static int braze_cu_peer_windows(const BrazeCuRank *r) {
  for (int g = 0; g < BRAZE_CU_MESH_MAX_GROUPS; ++g)
    if (r->peer[g].mine)
      return 1;
  return 0;
}

static void braze_cu_peer_release(BrazeCuRank *r) {
  for (int g = 0; g < BRAZE_CU_MESH_MAX_GROUPS; ++g)
    braze_cu_peer_free(&r->peer[g]);
  r->peer_sum = NULL;
  r->peer_module = NULL; /* unloaded with the context; a module is small */
}

/* Each rank's `bytes` at `mine`, gathered over the group into `all` (position order). */
static int braze_cu_peer_exchange(BrazeCuRank *r, int g, const void *mine, void *all, size_t bytes) {
  CUdeviceptr buf = 0;
  int failed = braze_cu_check(braze_cu.MemAlloc(&buf, 3 * bytes), "cuMemAlloc") ||
               braze_cu_check(braze_cu.MemcpyHtoD(buf, mine, bytes), "cuMemcpyHtoD") ||
               braze_nccl_check(braze_nccl.AllGather((void *)(uintptr_t)buf, (void *)(uintptr_t)(buf + bytes), bytes,
                                                     ncclInt8, r->comms[g], NULL),
                                "ncclAllGather") ||
               braze_cu_check(braze_cu.CtxSynchronize(), "cuCtxSynchronize") ||
               braze_cu_check(braze_cu.MemcpyDtoH(all, buf + bytes, 2 * bytes), "cuMemcpyDtoH");
  if (buf)
    braze_cu.MemFree(buf);
  return failed;
}

/* One rank per process: each window's IPC handle to the partner, the partner's opened;
 * both ranks then say whether theirs worked, and only where both did is it kept. */
static int braze_cu_peer_setup(const BrazeCuMesh *m, BrazeCuRank *r) {
  for (int g = 0; g < m->num_groups; ++g) {
    if (m->groups[g].peer_sites == 0 || r->size[g] != 2)
      continue;
    BrazeCuPeer *p = &r->peer[g];
    struct {
      CUipcMemHandle handle;
      int32_t ok, pad[3];
    } mine = {.ok = braze_cu_peer_wanted(r) && braze_cu_peer_alloc(m, r, g)}, all[2];
    if (mine.ok)
      mine.ok = braze_cu.IpcGetMemHandle(&mine.handle, p->mine) == CUDA_SUCCESS;
    if (braze_cu_peer_exchange(r, g, &mine, all, sizeof mine))
      return 1;
    const int partner = 1 - r->position[g];
    int32_t opened[2] = {0, 0}, ok = mine.ok && all[partner].ok;
    if (ok)
      ok = p->opened = braze_cu.IpcOpenMemHandle(&p->theirs, all[partner].handle,
                                                 CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) == CUDA_SUCCESS;
    if (braze_cu_peer_exchange(r, g, &ok, opened, sizeof ok))
      return 1;
    if (!opened[0] || !opened[1])
      braze_cu_peer_free(p);
  }
  return 0;
}

/* The rank of slots[] that is r's partner in group g (size 2). */
static int braze_cu_peer_partner(const BrazeCuMesh *m, int g, int rank, int n) {
  int color, key, size;
  braze_cu_group_split(&m->groups[g], rank, &color, &key, &size);
  for (int q = 0; q < n; ++q) {
    int c, k;
    braze_cu_group_split(&m->groups[g], q, &c, &k, &size);
    if (q != rank && c == color)
      return q;
  }
  return -1;
}

/* One process for all GPUs: every window in its rank's context, peer access both ways
 * between partners, each partner's window pointer taken directly. */
static void braze_cu_peer_setup_all(const BrazeCuMesh *m, const int *slots, int n) {
  for (int g = 0; g < m->num_groups; ++g) {
    if (m->groups[g].peer_sites == 0)
      continue;
    int ok[BRAZE_CU_MAX_CONTEXTS];
    for (int r = 0; r < n; ++r) {
      BrazeCuRank *rank = &braze_mesh_state.ranks[slots[r]];
      ok[r] = rank->size[g] == 2 && braze_cu_peer_wanted(rank) &&
              braze_cu.CtxSetCurrent(braze_cu_slots.context[slots[r]]) == CUDA_SUCCESS &&
              braze_cu_peer_alloc(m, rank, g);
    }
    for (int r = 0; r < n; ++r) {
      int q = braze_cu_peer_partner(m, g, r, n);
      if (q < 0 || !ok[r] || !ok[q] || braze_cu.CtxSetCurrent(braze_cu_slots.context[slots[r]]) != CUDA_SUCCESS)
        continue;
      CUresult e = braze_cu.CtxEnablePeerAccess(braze_cu_slots.context[slots[q]], 0);
      if (e == CUDA_SUCCESS || e == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
        braze_mesh_state.ranks[slots[r]].peer[g].theirs = braze_mesh_state.ranks[slots[q]].peer[g].mine;
    }
    for (int r = 0; r < n; ++r) { /* a pair is kept where both directions are mapped */
      int q = braze_cu_peer_partner(m, g, r, n);
      BrazeCuPeer *p = &braze_mesh_state.ranks[slots[r]].peer[g];
      if (p->mine && (q < 0 || !p->theirs || !braze_mesh_state.ranks[slots[q]].peer[g].theirs)) {
        braze_cu.CtxSetCurrent(braze_cu_slots.context[slots[r]]);
        braze_cu_peer_free(p);
      }
    }
  }
}

/* y = x + the partner's x, as the file's comment says; 1 with a message on failure. */
static int braze_cu_peer_all_reduce(const BrazeCuCollective *c, BrazeCuRank *r, CUdeviceptr x, CUdeviceptr y,
                                    CUstream s) {
  BrazeCuPeer *p = &r->peer[c->group];
  uint32_t n = ++p->calls[c->peer_site];
  size_t flag = p->flags + 8u * (size_t)c->peer_site;
  CUdeviceptr inbox = p->mine + c->peer_offset, ready = p->mine + flag, ack = ready + 4;
  CUdeviceptr partner_inbox = p->theirs + c->peer_offset, partner_ready = p->theirs + flag;
  unsigned long long n16 = c->x_bytes / 16;
  unsigned dtype = c->dtype == ncclFloat32 ? 0 : c->dtype == ncclBfloat16 ? 1 : 2;
  unsigned blocks = (unsigned)((n16 + BRAZE_CU_PEER_THREADS - 1) / BRAZE_CU_PEER_THREADS);
  if (blocks > BRAZE_CU_PEER_MAX_BLOCKS)
    blocks = BRAZE_CU_PEER_MAX_BLOCKS;
  void *args[] = {&y, &x, &inbox, &n16, &dtype};
  return braze_cu_check(braze_cu.StreamWaitValue32(s, ack, n - 1, CU_STREAM_WAIT_VALUE_GEQ), "cuStreamWaitValue32") ||
         braze_cu_copy(partner_inbox, x, c->x_bytes, s) ||
         braze_cu_check(braze_cu.StreamWriteValue32(s, partner_ready, n, CU_STREAM_WRITE_VALUE_DEFAULT),
                        "cuStreamWriteValue32") ||
         braze_cu_check(braze_cu.StreamWaitValue32(s, ready, n, CU_STREAM_WAIT_VALUE_GEQ), "cuStreamWaitValue32") ||
         braze_cu_check(braze_cu.LaunchKernel(r->peer_sum, blocks, 1, 1, BRAZE_CU_PEER_THREADS, 1, 1, 0, s, args, NULL),
                        "cuLaunchKernel (braze_peer_sum)") ||
         braze_cu_check(braze_cu.StreamWriteValue32(s, partner_ready + 4, n, CU_STREAM_WRITE_VALUE_DEFAULT),
                        "cuStreamWriteValue32");
}

/* Whether collective c runs through the partner's memory on this rank. */
static int braze_cu_peer_takes(const BrazeCuCollective *c, const BrazeCuRank *r, int overlapped) {
  return c->kind == BRAZE_CU_ALL_REDUCE && c->peer_site >= 0 && r->peer[c->group].theirs != 0 &&
         (overlapped || r->peer_policy == BRAZE_CU_PEER_ALL);
}
