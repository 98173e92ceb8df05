/* Pass options: parsing `key=value key2=a,b flag` and typed access for passes.
 * Apart from the registry (registry.c), which builds every pass: passes read their
 * options here without calling back into the table that lists them. */
#include "passes/passes.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- options ---- */

const BrazeOption *braze_option_find(const BrazePassOptions *opts, const char *key) {
  for (size_t i = 0; opts && i < opts->count; ++i)
    if (strcmp(opts->items[i].key, key) == 0)
      return &opts->items[i];
  return NULL;
}

bool braze_option_flag(const BrazePassOptions *opts, const char *key) {
  const BrazeOption *o = braze_option_find(opts, key);
  if (!o)
    return false;
  return !o->value || strcmp(o->value, "true") == 0 || strcmp(o->value, "1") == 0;
}

bool braze_option_int(const BrazePassOptions *opts, const char *key, long long dflt, long long *out,
                      BrazeStr *error) {
  const BrazeOption *o = braze_option_find(opts, key);
  *out = dflt;
  if (!o)
    return true;
  char *end = NULL;
  if (o->value && *o->value) {
    errno = 0;
    *out = strtoll(o->value, &end, 10);
    if (*end == '\0' && errno != ERANGE && *out > -BRAZE_OPTION_INT_MAX && *out < BRAZE_OPTION_INT_MAX)
      return true;
    if (*end == '\0') {
      braze_str_printf(error, "option '%s' is out of range: '%s' (integer options are below 2^40 in magnitude)", key,
                       o->value);
      return false;
    }
  }
  braze_str_printf(error, "option '%s' expects an integer, got '%s'", key, o->value ? o->value : "");
  return false;
}

bool braze_option_bool(const BrazePassOptions *opts, const char *key, bool dflt, bool *out, BrazeStr *error) {
  const BrazeOption *o = braze_option_find(opts, key);
  *out = dflt;
  if (!o)
    return true;
  if (!o->value || strcmp(o->value, "true") == 0 || strcmp(o->value, "1") == 0) {
    *out = true;
    return true;
  }
  if (strcmp(o->value, "false") == 0 || strcmp(o->value, "0") == 0) {
    *out = false;
    return true;
  }
  braze_str_printf(error, "option '%s' expects true or false, got '%s'", key, o->value);
  return false;
}

bool braze_option_list_has(const BrazePassOptions *opts, const char *key, const char *name) {
  const BrazeOption *o = braze_option_find(opts, key);
  if (!o || !o->value)
    return false;
  size_t n = strlen(name);
  for (const char *p = o->value; *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == n && memcmp(p, name, n) == 0)
      return true;
    if (!comma)
      break;
    p = comma + 1;
  }
  return false;
}

bool braze_options_check(const BrazePassOptions *opts, const char *pass, const char *const *allowed,
                         BrazeStr *error) {
  for (size_t i = 0; opts && i < opts->count; ++i) {
    bool known = false;
    for (const char *const *a = allowed; *a && !known; ++a)
      known = strcmp(*a, opts->items[i].key) == 0;
    if (!known) {
      braze_str_printf(error, "pass '%s' has no option '%s' (options:", pass, opts->items[i].key);
      for (const char *const *a = allowed; *a; ++a)
        braze_str_printf(error, " %s", *a);
      braze_str_puts(error, ")");
      return false;
    }
  }
  return true;
}

bool braze_options_parse(const char *text, size_t len, BrazePassOptions *out, BrazeStr *error) {
  out->items = NULL;
  out->count = 0;
  size_t i = 0;
  while (i < len) {
    while (i < len && isspace((unsigned char)text[i]))
      ++i;
    if (i == len)
      break;
    size_t start = i;
    while (i < len && !isspace((unsigned char)text[i]))
      ++i;
    const char *word = text + start;
    size_t wlen = i - start;
    const char *eq = memchr(word, '=', wlen);
    if (eq == word) {
      braze_str_printf(error, "option '%.*s' has no name", (int)wlen, word);
      braze_options_free(out);
      return false;
    }
    out->items = realloc(out->items, (out->count + 1) * sizeof *out->items);
    BrazeOption *o = &out->items[out->count++];
    o->key = strndup(word, eq ? (size_t)(eq - word) : wlen);
    o->value = eq ? strndup(eq + 1, wlen - (size_t)(eq - word) - 1) : NULL;
  }
  return true;
}

void braze_options_free(BrazePassOptions *opts) {
  for (size_t i = 0; i < opts->count; ++i) {
    free(opts->items[i].key);
    free(opts->items[i].value);
  }
  free(opts->items);
  opts->items = NULL;
  opts->count = 0;
}
