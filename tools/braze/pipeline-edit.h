/* Editing a pipeline's text (as braze_pipeline_resolve gives it) for driver flags that
 * reach into one pass: `--fusion-plan=FILE` gives form-kernels `plan=FILE`,
 * `braze fusion-graph` stops the pipeline after form-kernels. */
#ifndef BRAZE_TOOLS_BRAZE_PIPELINE_EDIT_H
#define BRAZE_TOOLS_BRAZE_PIPELINE_EDIT_H

#include <stdbool.h>

#include "support/strbuf.h"

/* Add the option KEY=VALUE to the pipeline's (first) form-kernels element:
 * `form-kernels` becomes `form-kernels{KEY=VALUE}`, `form-kernels{...}` gets it
 * appended inside. False (reason in *error) when there is no form-kernels, when it
 * already has KEY, or when VALUE holds a character option syntax cannot (space,
 * braces, parentheses, comma, '='). */
bool braze_pipeline_add_form_kernels_option(BrazeStr *text, const char *key, const char *value, BrazeStr *error);

/* Drop every pipeline element after the form-kernels element (closing the nests it
 * sits in). False when there is no form-kernels. */
bool braze_pipeline_cut_after_form_kernels(BrazeStr *text, BrazeStr *error);

#endif
