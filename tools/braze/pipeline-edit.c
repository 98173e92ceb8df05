/* Editing a pipeline's text (see tools/braze/pipeline-edit.h). */
#include "tools/braze/pipeline-edit.h"

#include <ctype.h>
#include <string.h>

static const char PASS[] = "form-kernels";

static bool is_element_end(char c) { return c == '\0' || c == ',' || c == ')' || c == '{' || c == ' '; }

/* Where the form-kernels element starts, or NULL: the name standing alone (not a
 * part of a longer pass name). */
static const char *find_form_kernels(const char *t) {
  const char *at = t;
  while ((at = strstr(at, PASS)) && !((at == t || strchr(",( ", at[-1])) && is_element_end(at[sizeof PASS - 1])))
    at += sizeof PASS - 1;
  return at;
}

/* The end of the element starting at `at`: past its name and its {...} options. */
static const char *element_end(const char *at) {
  const char *end = at + sizeof PASS - 1;
  if (*end == '{') {
    const char *close = strchr(end, '}');
    end = close ? close + 1 : end + strlen(end);
  }
  return end;
}

static bool has_key(const char *opts, size_t len, const char *key) {
  size_t k = strlen(key);
  for (size_t i = 1; i + k < len; ++i)
    if (strchr("{ ", opts[i - 1]) && strncmp(opts + i, key, k) == 0 && opts[i + k] == '=')
      return true;
  return false;
}

bool braze_pipeline_add_form_kernels_option(BrazeStr *text, const char *key, const char *value, BrazeStr *error) {
  for (const char *c = value; *c; ++c)
    if (isspace((unsigned char)*c) || strchr("{}(),=", *c)) {
      braze_str_printf(error, "'%s' has a character a pipeline option cannot hold", value);
      return false;
    }
  const char *t = braze_str_cstr(text), *at = find_form_kernels(t);
  if (!at) {
    braze_str_puts(error, "the pipeline has no form-kernels pass");
    return false;
  }
  size_t pos = (size_t)(at - t) + sizeof PASS - 1;
  const char *end = element_end(at);
  if (t[pos] == '{' && has_key(t + pos, (size_t)(end - t - pos), key)) {
    braze_str_printf(error, "the pipeline's form-kernels already has a %s= option", key);
    return false;
  }
  BrazeStr out = {0};
  if (t[pos] == '{') {
    braze_str_append(&out, t, (size_t)(end - 1 - t));
    braze_str_printf(&out, " %s=%s", key, value);
    braze_str_puts(&out, end - 1);
  } else {
    braze_str_append(&out, t, pos);
    braze_str_printf(&out, "{%s=%s}%s", key, value, t + pos);
  }
  braze_str_free(text);
  *text = out;
  return true;
}

bool braze_pipeline_cut_after_form_kernels(BrazeStr *text, BrazeStr *error) {
  const char *t = braze_str_cstr(text), *at = find_form_kernels(t);
  if (!at) {
    braze_str_puts(error, "the pipeline has no form-kernels pass");
    return false;
  }
  const char *end = element_end(at);
  int open = 0;
  for (const char *c = t; c < end; ++c)
    open += *c == '(' ? 1 : *c == ')' ? -1 : 0;
  BrazeStr out = {0};
  braze_str_append(&out, t, (size_t)(end - t));
  for (; open > 0; --open)
    braze_str_puts(&out, ")");
  braze_str_free(text);
  *text = out;
  return true;
}
