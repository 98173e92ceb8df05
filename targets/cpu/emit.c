/* CPU artifact emission with LLVM-C: translate the LLVM-dialect module, add the ABI
 * wrappers and their CPU check, optimize at O3 for the selected CPU (--cpu, decision
 * 0026), then write LLVM IR, an object, or a shared library linked (by the system C
 * compiler driver) against libomp. */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "llvm-c/Analysis.h"
#include "llvm-c/Target.h"
#include "llvm-c/TargetMachine.h"
#include "llvm-c/Transforms/PassBuilder.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Target/LLVMIR.h"
#include "support/context.h"
#include "support/progress.h"
#include "targets/cpu/cpu-model.h"
#include "targets/cpu/cpu-target.h"
#include "targets/cpu/matmul/matmul.h"

extern char **environ;

/* The selected CPU's machine: its LLVM CPU name and feature string (cpu-model.c). */
static LLVMTargetMachineRef cpu_target_machine(BrazeStr *error) {
  static bool initialized = false;
  if (!initialized) {
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
    LLVMInitializeNativeAsmParser(); /* the CPU check's cpuid/xgetbv inline asm */
    initialized = true;
  }
  char *triple = LLVMGetDefaultTargetTriple();
  LLVMTargetRef target = NULL;
  char *message = NULL;
  LLVMTargetMachineRef tm = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &message)) {
    braze_str_printf(error, "no LLVM target for '%s': %s", triple, message);
    LLVMDisposeMessage(message);
  } else {
    const BrazeCpuModel *cpu = braze_cpu_selected();
    tm = LLVMCreateTargetMachine(target, triple, cpu->llvm_cpu, cpu->features, LLVMCodeGenLevelAggressive,
                                 LLVMRelocPIC, LLVMCodeModelDefault);
  }
  LLVMDisposeMessage(triple);
  return tm;
}

static bool take_llvm_error(LLVMErrorRef err, const char *what, BrazeStr *error) {
  if (!err)
    return true;
  char *msg = LLVMGetErrorMessage(err);
  braze_str_printf(error, "%s: %s", what, msg);
  LLVMDisposeErrorMessage(msg);
  return false;
}

/* LLVM's loop vectorizer prefers 256-bit vectors on AVX-512 CPUs (x86's
 * prefer-vector-width default, against frequency drops on older parts); the loop
 * kernels' row loops ran at half width beside the template's explicit 512-bit
 * vectors (W7's softmax: ymm). Ask for the host's full width in every function. */
static void prefer_full_vectors(LLVMModuleRef m) {
  char bits[16];
  snprintf(bits, sizeof bits, "%d", 32 * cg_default_vector_lanes());
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMAttributeRef attr = LLVMCreateStringAttribute(ctx, "prefer-vector-width", 19, bits, (unsigned)strlen(bits));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (!LLVMIsDeclaration(fn))
      LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, attr);
}

static void set_target(LLVMModuleRef m, LLVMTargetMachineRef tm) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(m, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(m, layout);
  LLVMDisposeTargetData(layout);
}

static bool optimize(LLVMModuleRef m, LLVMTargetMachineRef tm, BrazeStr *error) {
  prefer_full_vectors(m);
  if (!(braze_cpu_selected()->mask & BRAZE_CPU_F(AVX512BF16)))
    braze_cpu_expand_bf16_rounding(m);
  char *message = NULL;
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &message)) {
    braze_str_printf(error, "internal error: invalid LLVM module: %s", message);
    LLVMDisposeMessage(message);
    return false;
  }
  LLVMDisposeMessage(message);
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(po, 1);
  LLVMPassBuilderOptionsSetSLPVectorization(po, 1);
  bool ok = take_llvm_error(LLVMRunPasses(m, "default<O3>", tm, po), "LLVM optimization failed", error);
  LLVMDisposePassBuilderOptions(po);
  if (ok)
    braze_cpu_half_masked_as_i16(m);
  return ok;
}

/* ---- kernel dumps: DIR/NAME.ll holds the kernel and its OpenMP outlined bodies ---- */

static bool belongs_to_kernel(const char *fn, const char *kernel) {
  size_t n = strlen(kernel);
  return strncmp(fn, kernel, n) == 0 && (fn[n] == '\0' || fn[n] == '.');
}

static bool dump_kernel_llvm(LLVMModuleRef m, const char *kernel, const char *dir, BrazeStr *error) {
  BrazeStr text = {0}, path = {0};
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    size_t len = 0;
    const char *name = LLVMGetValueName2(fn, &len);
    if (LLVMIsDeclaration(fn) || !belongs_to_kernel(name, kernel))
      continue;
    char *s = LLVMPrintValueToString(fn);
    braze_str_printf(&text, "%s\n", s);
    LLVMDisposeMessage(s);
  }
  braze_str_printf(&path, "%s/%s.ll", dir, kernel);
  bool ok = braze_write_file(path.data, braze_str_cstr(&text), text.len);
  if (!ok)
    braze_str_printf(error, "cannot write '%s'", path.data);
  braze_str_free(&text);
  braze_str_free(&path);
  return ok;
}

/* Kernels are the llvm.func ops that kept their kernel.kind attribute. */
static bool dump_kernels_llvm(MlirOperation module, LLVMModuleRef m, const char *dir, BrazeStr *error) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (mlirAttributeIsNull(mlirOperationGetAttributeByName(op, braze_ref("kernel.kind"))))
      continue;
    MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(op, braze_ref("sym_name")));
    char *kernel = strndup(name.data, name.length);
    bool ok = dump_kernel_llvm(m, kernel, dir, error);
    free(kernel);
    if (!ok)
      return false;
  }
  return true;
}

/* ---- writing the artifact ---- */

static bool emit_object(LLVMTargetMachineRef tm, LLVMModuleRef m, LLVMMemoryBufferRef *out, BrazeStr *error) {
  char *message = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &message, out)) {
    braze_str_printf(error, "LLVM code generation failed: %s", message);
    LLVMDisposeMessage(message);
    return false;
  }
  return true;
}

/* A fresh temp file path from `template` (ending in XXXXXX), created empty. */
static char *make_temp(const char *prefix) {
  size_t n = strlen(prefix) + 8;
  char *path = malloc(n);
  snprintf(path, n, "%sXXXXXX", prefix);
  int fd = mkstemp(path);
  if (fd < 0) {
    free(path);
    return NULL;
  }
  close(fd);
  return path;
}

static bool write_all(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(data, 1, len, f) == len;
  return (fclose(f) == 0) && ok;
}

/* Link `object` into `output`; `shown` is the path named in messages. `blas`: the
 * object calls cblas_sgemm (the matmul extern kernel), link OpenBLAS too. */
static bool run_linker(const char *object, const char *output, const char *shown, bool blas, BrazeStr *error) {
  const char *cc = getenv("BRAZE_CC");
  if (!cc || !*cc)
    cc = "cc";
  /* --no-undefined: a call into a runtime braze does not ship (e.g. MLIR's memrefCopy
   * for strided copies) fails here, not when the library is loaded. */
  const char *argv[32] = {cc, "-shared", "-o", output, object, "-Wl,--no-undefined"};
  size_t n = 6;
  for (const char *const *r = braze_target_cpu.runtime_link_args; *r && n + 1 < 32; ++r)
    argv[n++] = *r;
  if (blas)
    argv[n++] = "-lopenblas";
  argv[n] = NULL;
  pid_t pid;
  /* posix_spawnp takes char *const[]; it does not modify the strings. */
  int rc = posix_spawnp(&pid, cc, NULL, NULL, (char *const *)argv, environ);
  if (rc != 0) {
    braze_str_printf(error, "cannot run the linker driver '%s': %s", cc, strerror(rc));
    return false;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    braze_str_printf(error, "linking '%s' with '%s' failed (see the linker's messages above)", shown, cc);
    return false;
  }
  return true;
}

/* Object to a temp file, link to a temp .so beside the output, rename into place. */
static bool write_shared(const char *object, size_t len, const char *output, bool blas, BrazeStr *error) {
  const char *tmpdir = getenv("TMPDIR");
  BrazeStr prefix = {0}, out_prefix = {0};
  braze_str_printf(&prefix, "%s/braze-obj-", tmpdir && *tmpdir ? tmpdir : "/tmp");
  braze_str_printf(&out_prefix, "%s.tmp", output);
  char *obj_path = make_temp(prefix.data);
  char *so_path = make_temp(out_prefix.data);
  bool ok = obj_path && so_path;
  if (!ok)
    braze_str_printf(error, "cannot create a temporary file for '%s': %s", output, strerror(errno));
  if (ok && !(ok = write_all(obj_path, object, len)))
    braze_str_printf(error, "cannot write '%s'", obj_path);
  ok = ok && run_linker(obj_path, so_path, output, blas, error);
  if (ok && !(ok = rename(so_path, output) == 0))
    braze_str_printf(error, "cannot write '%s': %s", output, strerror(errno));
  if (obj_path)
    unlink(obj_path);
  if (so_path && !ok)
    unlink(so_path);
  free(obj_path);
  free(so_path);
  braze_str_free(&prefix);
  braze_str_free(&out_prefix);
  return ok;
}

static bool write_artifact(LLVMTargetMachineRef tm, LLVMModuleRef m, const BrazeEmitOptions *opts,
                           BrazeStr *error) {
  if (opts->kind == BRAZE_EMIT_LLVM) {
    char *text = LLVMPrintModuleToString(m);
    bool ok = braze_write_file(opts->output, text, strlen(text));
    LLVMDisposeMessage(text);
    if (!ok)
      braze_str_printf(error, "cannot write '%s'", opts->output);
    return ok;
  }
  LLVMMemoryBufferRef buf = NULL;
  if (!emit_object(tm, m, &buf, error))
    return false;
  const char *data = LLVMGetBufferStart(buf);
  size_t len = LLVMGetBufferSize(buf);
  bool ok;
  if (opts->kind == BRAZE_EMIT_OBJECT) {
    ok = braze_write_file(opts->output, data, len);
    if (!ok)
      braze_str_printf(error, "cannot write '%s'", opts->output);
  } else {
    braze_progress("link");
    ok = write_shared(data, len, opts->output, LLVMGetNamedFunction(m, "cblas_sgemm") != NULL, error);
  }
  LLVMDisposeMemoryBuffer(buf);
  return ok;
}

static bool write_header(const BrazeEntrySet *entries, const BrazeDynamicEntry *dyn, int n_dyn,
                         const BrazeEmitOptions *opts, BrazeStr *error) {
  const char *base = strrchr(opts->header, '/');
  BrazeStr text = {0};
  braze_cpu_abi_header(entries, dyn, n_dyn, opts->source_name, base ? base + 1 : opts->header, &text);
  bool ok = braze_write_file(opts->header, text.data, text.len);
  if (!ok)
    braze_str_printf(error, "cannot write '%s'", opts->header);
  braze_str_free(&text);
  return ok;
}

bool braze_cpu_emit(MlirOperation module, const BrazeEntrySet *entries, const BrazeEmitOptions *opts,
                    BrazeStr *error) {
  LLVMTargetMachineRef tm = cpu_target_machine(error);
  if (!tm)
    return false;
  braze_progress("llvm");
  int n_dyn = 0;
  BrazeDynamicEntry *dyn = braze_dynamic_entries_read(module, &n_dyn);
  LLVMContextRef llctx = LLVMContextCreate();
  LLVMModuleRef m = mlirTranslateModuleToLLVMIR(module, llctx);
  bool ok = m != NULL;
  if (!ok)
    braze_str_puts(error, "translation to LLVM IR failed");
  if (ok)
    set_target(m, tm);
  ok = ok && braze_cpu_abi_wrap(m, entries, dyn, n_dyn, error) && braze_cpu_guard_entries(m, error) && optimize(m, tm, error);
  if (ok && opts->dump_kernels)
    ok = dump_kernels_llvm(module, m, opts->dump_kernels, error);
  /* The header first: if the artifact then fails, the header is removed again, so a
   * failed compile leaves neither. */
  bool header_written = false;
  if (ok && opts->header)
    ok = header_written = write_header(entries, dyn, n_dyn, opts, error);
  ok = ok && write_artifact(tm, m, opts, error);
  if (!ok && header_written)
    unlink(opts->header);
  if (m)
    LLVMDisposeModule(m);
  LLVMContextDispose(llctx);
  LLVMDisposeTargetMachine(tm);
  free(dyn);
  return ok;
}
