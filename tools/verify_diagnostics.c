#include "tools/verify_diagnostics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  BrazeSeverity severity;
  unsigned line;      /* 0: @unknown (a diagnostic without a file position) */
  unsigned file_line; /* where the comment is, for messages */
  char *text;
  bool matched;
} Expectation;

static const struct {
  const char *word;
  BrazeSeverity severity;
} kinds[] = {{"expected-error", BRAZE_DIAG_ERROR},
             {"expected-warning", BRAZE_DIAG_WARNING},
             {"expected-remark", BRAZE_DIAG_REMARK},
             {"expected-note", BRAZE_DIAG_NOTE}};

/* Lines holding only an expectation (or other comments) are skipped by @above/@below. */
static bool line_is_comment_only(const char *line, const char *end) {
  while (line < end && (*line == ' ' || *line == '\t'))
    ++line;
  return line + 1 < end && line[0] == '/' && line[1] == '/';
}

static size_t count_lines(const char *text, size_t len, const char ***starts_out) {
  size_t n = 1;
  for (size_t i = 0; i < len; ++i)
    n += text[i] == '\n';
  const char **starts = malloc((n + 1) * sizeof *starts);
  size_t k = 0;
  starts[k++] = text;
  for (size_t i = 0; i < len; ++i)
    if (text[i] == '\n')
      starts[k++] = text + i + 1;
  starts[k] = text + len;
  *starts_out = starts;
  return n;
}

/* Parse one expectation starting at `p` (just after the kind word) on line `line`. */
static bool parse_one(const char *p, const char *eol, unsigned line, const char **starts, size_t nlines,
                      Expectation *e, const char *file) {
  long target = (long)line;
  if (*p == '@') {
    ++p;
    if (strncmp(p, "above", 5) == 0) {
      target = (long)line - 1;
      while (target > 0 && line_is_comment_only(starts[target - 1], starts[target]))
        --target;
      p += 5;
    } else if (strncmp(p, "below", 5) == 0) {
      target = (long)line + 1;
      while ((size_t)target <= nlines && line_is_comment_only(starts[target - 1], starts[target]))
        ++target;
      p += 5;
    } else if (strncmp(p, "unknown", 7) == 0) {
      target = 0;
      p += 7;
    } else if (*p == '+' || *p == '-') {
      char *end;
      long off = strtol(p, &end, 10);
      target = (long)line + off;
      p = end;
    } else {
      fprintf(stderr, "%s:%u: error: bad expected-* offset\n", file, line);
      return false;
    }
  }
  while (p < eol && *p == ' ')
    ++p;
  const char *open = strstr(p, "{{");
  if (!open || open >= eol) {
    fprintf(stderr, "%s:%u: error: expected '{{' in expected-* comment\n", file, line);
    return false;
  }
  const char *close = strstr(open + 2, "}}");
  if (!close || close > eol) {
    fprintf(stderr, "%s:%u: error: expected '}}' in expected-* comment\n", file, line);
    return false;
  }
  e->line = (unsigned)target;
  e->file_line = line;
  e->text = strndup(open + 2, (size_t)(close - open - 2));
  e->matched = false;
  return true;
}

static bool collect(const char *file, const char *text, size_t len, Expectation **out, size_t *count) {
  const char **starts;
  size_t nlines = count_lines(text, len, &starts);
  size_t cap = 0;
  bool ok = true;
  for (size_t l = 0; l < nlines; ++l) {
    const char *eol = starts[l + 1];
    for (const char *p = starts[l]; p < eol; ++p) {
      for (size_t k = 0; k < sizeof kinds / sizeof *kinds; ++k) {
        size_t wl = strlen(kinds[k].word);
        if ((size_t)(eol - p) < wl || memcmp(p, kinds[k].word, wl) != 0)
          continue;
        if (*count == cap) {
          cap = cap ? cap * 2 : 8;
          *out = realloc(*out, cap * sizeof **out);
        }
        Expectation *e = &(*out)[*count];
        e->severity = kinds[k].severity;
        if (parse_one(p + wl, eol, (unsigned)l + 1, starts, nlines, e, file))
          (*count)++;
        else
          ok = false;
        p += wl;
      }
    }
  }
  free(starts);
  return ok;
}

bool braze_verify_diagnostics(const char *file, const char *text, size_t len, const BrazeDiagSink *sink) {
  Expectation *exp = NULL;
  size_t nexp = 0;
  bool ok = collect(file, text, len, &exp, &nexp);
  for (size_t i = 0; i < sink->count; ++i) {
    const BrazeDiag *d = &sink->items[i];
    bool found = false;
    for (size_t j = 0; j < nexp && !found; ++j) {
      Expectation *e = &exp[j];
      if (e->matched || e->severity != d->severity)
        continue;
      unsigned dline = d->file ? d->line : 0;
      if (e->line != dline || !strstr(d->message, e->text))
        continue;
      e->matched = found = true;
    }
    if (!found) {
      ok = false;
      if (d->file)
        fprintf(stderr, "%s:%u:%u: error: unexpected %s: %s\n", d->file, d->line, d->column,
                braze_severity_name(d->severity), d->message);
      else
        fprintf(stderr, "%s: error: unexpected %s: %s\n", file, braze_severity_name(d->severity), d->message);
    }
  }
  for (size_t j = 0; j < nexp; ++j) {
    if (!exp[j].matched) {
      ok = false;
      fprintf(stderr, "%s:%u: error: expected %s \"%s\" was not produced\n", file, exp[j].file_line,
              braze_severity_name(exp[j].severity), exp[j].text);
    }
    free(exp[j].text);
  }
  free(exp);
  return ok;
}
