/* What the libFuzzer targets in fuzz/ share (docs/reliability.md).
 *
 * One braze context per process, made on first use and remade every
 * FZ_CONTEXT_INPUTS inputs (a context keeps every type, attribute and location it
 * has seen, so a long run would otherwise grow without bound). Diagnostics are
 * collected, not printed, and dropped after each input; BRAZE_FUZZ_VERBOSE=1 prints
 * them instead (for reading what a reproducer does). */
#ifndef BRAZE_FUZZ_HARNESS_H
#define BRAZE_FUZZ_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "support/strbuf.h"

enum { FZ_CONTEXT_INPUTS = 500 };

/* The context for this input; fz_done() ends the input. Nothing of an input's
 * (operations, modules) may outlive its fz_done(). */
MlirContext fz_context(void);
void fz_done(void);
/* Errors emitted since the input began. */
size_t fz_errors(void);

/* A malloc'd NUL-terminated copy of the input (the tools read files that way). */
char *fz_text(const uint8_t *data, size_t size);

/* Parse MLIR text and run the graph verifier, as `braze` loads a file: a null
 * operation when either fails. */
MlirOperation fz_load(const char *text, size_t len, const char *name);

/* Run pipeline text on `module` between the entry capture and finalization, as
 * braze_target_compile does before lowering to LLVM (docs/architecture.md). */
bool fz_run_to_target_ir(MlirOperation module, const char *pipeline);

/* The text of a named pipeline (pipelines/NAME.pipeline), normalized; aborts when it
 * is unknown (a harness bug). The result lives until exit. */
const char *fz_pipeline(const char *name);

/* A private scratch directory for this process (files the targets write). */
const char *fz_scratch_dir(void);

#endif
