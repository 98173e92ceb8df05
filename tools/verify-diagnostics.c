/* --verify-diagnostics, with mlir-opt's rules (mlir/lib/IR/Diagnostics.cpp):
 *
 *   expected-(error|warning|remark|note)(-re)? *(@(+N|-N|above|below|unknown))? *{{TEXT}}
 *
 * at the end of a line. A line holding such a designator is a "designator line";
 * @above means the last line before it that is not one, @below the next such line
 * after it. TEXT must be a substring of the message; with -re, the parts inside
 * nested {{...}} are (POSIX extended) regular expressions and the rest is literal. */
#include "tools/verify-diagnostics.h"

#include <ctype.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/strbuf.h"

typedef struct {
  BrazeSeverity severity;
  unsigned line;      /* the line the diagnostic must be on; 0 for @unknown */
  unsigned file_line; /* where the designator is, for messages */
  bool unknown;
  char *text;
  bool is_regex;
  regex_t regex;
  bool matched;
} Expectation;

typedef struct {
  Expectation *items;
  size_t count, cap;
} Expectations;

static const struct {
  const char *word;
  BrazeSeverity severity;
} kinds[] = {{"error", BRAZE_DIAG_ERROR},
             {"warning", BRAZE_DIAG_WARNING},
             {"remark", BRAZE_DIAG_REMARK},
             {"note", BRAZE_DIAG_NOTE}};

/* A parsed designator before its line is resolved. */
typedef struct {
  BrazeSeverity severity;
  bool is_regex;
  enum { AT_SAME, AT_OFFSET, AT_ABOVE, AT_BELOW, AT_UNKNOWN } at;
  long offset;
  const char *text;
  size_t text_len;
} Designator;

static bool skip_word(const char **p, const char *end, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(end - *p) < n || memcmp(*p, word, n) != 0)
    return false;
  *p += n;
  return true;
}

static void skip_spaces(const char **p, const char *end) {
  while (*p < end && **p == ' ')
    ++*p;
}

static bool parse_location(const char **p, const char *end, Designator *d) {
  d->at = AT_SAME;
  if (*p >= end || **p != '@')
    return true;
  ++*p;
  if (skip_word(p, end, "above"))
    d->at = AT_ABOVE;
  else if (skip_word(p, end, "below"))
    d->at = AT_BELOW;
  else if (skip_word(p, end, "unknown"))
    d->at = AT_UNKNOWN;
  else if (*p < end && (**p == '+' || **p == '-') && *p + 1 < end && isdigit((unsigned char)(*p)[1])) {
    bool minus = **p == '-';
    ++*p;
    long n = 0;
    while (*p < end && isdigit((unsigned char)**p))
      n = n * 10 + (*(*p)++ - '0');
    d->at = AT_OFFSET;
    d->offset = minus ? -n : n;
  } else {
    return false;
  }
  return true;
}

/* Match one designator in [line, end) (end excludes trailing spaces). Returns false
 * when the line holds none. */
static bool match_designator(const char *line, const char *end, Designator *d) {
  for (const char *s = line; s < end; ++s) {
    const char *p = s;
    if (!skip_word(&p, end, "expected-"))
      continue;
    size_t k = 0;
    while (k < sizeof kinds / sizeof *kinds && !skip_word(&p, end, kinds[k].word))
      ++k;
    if (k == sizeof kinds / sizeof *kinds)
      continue;
    d->severity = kinds[k].severity;
    d->is_regex = skip_word(&p, end, "-re");
    skip_spaces(&p, end);
    if (!parse_location(&p, end, d))
      continue;
    skip_spaces(&p, end);
    if (end - p < 4 || memcmp(p, "{{", 2) != 0 || memcmp(end - 2, "}}", 2) != 0)
      continue;
    d->text = p + 2;
    d->text_len = (size_t)(end - p - 4);
    return true;
  }
  return false;
}

/* -re text: literal parts escaped, {{...}} parts kept as regular expressions. */
static bool compile_regex(const char *text, regex_t *out) {
  BrazeStr re = {0};
  for (const char *p = text; *p;) {
    const char *open = strstr(p, "{{");
    const char *literal_end = open ? open : p + strlen(p);
    for (; p < literal_end; ++p) {
      if (strchr(".[]{}()\\*+?|^$", *p))
        braze_str_puts(&re, "\\");
      braze_str_append(&re, p, 1);
    }
    if (!open)
      break;
    const char *close = strstr(open + 2, "}}");
    if (!close) {
      braze_str_free(&re);
      return false;
    }
    braze_str_puts(&re, "(");
    braze_str_append(&re, open + 2, (size_t)(close - open - 2));
    braze_str_puts(&re, ")");
    p = close + 2;
  }
  bool ok = regcomp(out, braze_str_cstr(&re), REG_EXTENDED | REG_NOSUB) == 0;
  braze_str_free(&re);
  return ok;
}

static Expectation *push(Expectations *list) {
  if (list->count == list->cap) {
    list->cap = list->cap ? list->cap * 2 : 8;
    list->items = realloc(list->items, list->cap * sizeof *list->items);
  }
  Expectation *e = &list->items[list->count++];
  memset(e, 0, sizeof *e);
  return e;
}

static bool add_expectation(Expectations *list, const Designator *d, unsigned line, const char *file) {
  Expectation *e = push(list);
  e->severity = d->severity;
  e->file_line = line;
  e->unknown = d->at == AT_UNKNOWN;
  e->text = strndup(d->text, d->text_len);
  e->is_regex = d->is_regex;
  if (e->is_regex && !compile_regex(e->text, &e->regex)) {
    fprintf(stderr, "%s:%u: error: invalid regular expression in expected-%s-re {{%s}}\n", file, line,
            braze_severity_name(e->severity), e->text);
    e->is_regex = false;
    return false;
  }
  return true;
}

/* Scan every line for designators and resolve the line each applies to. */
static bool collect(const char *file, const char *text, size_t len, Expectations *list) {
  bool ok = true;
  unsigned line = 0, last_plain_line = 0;
  size_t *below = NULL, num_below = 0; /* @below designators waiting for a plain line */
  for (const char *start = text; start <= text + len;) {
    const char *eol = memchr(start, '\n', (size_t)(text + len - start));
    if (!eol)
      eol = text + len;
    const char *end = eol;
    while (end > start && isspace((unsigned char)end[-1]))
      --end;
    ++line;
    Designator d;
    if (!match_designator(start, end, &d)) {
      for (size_t i = 0; i < num_below; ++i)
        list->items[below[i]].line = line;
      num_below = 0;
      last_plain_line = line;
    } else {
      size_t index = list->count;
      ok = add_expectation(list, &d, line, file) && ok;
      Expectation *e = &list->items[index];
      if (d.at == AT_OFFSET)
        e->line = (unsigned)((long)line + d.offset);
      else if (d.at == AT_ABOVE)
        e->line = last_plain_line;
      else if (d.at == AT_SAME)
        e->line = line;
      if (d.at == AT_BELOW) {
        below = realloc(below, (num_below + 1) * sizeof *below);
        below[num_below++] = index; /* line 0 (matches nothing) if no plain line follows */
      }
    }
    if (eol == text + len)
      break;
    start = eol + 1;
  }
  free(below);
  return ok;
}

static bool text_matches(const Expectation *e, const char *message) {
  if (e->is_regex)
    return regexec(&e->regex, message, 0, NULL, 0) == 0;
  return strstr(message, e->text) != NULL;
}

/* Match one diagnostic; report it when nothing expected it. */
static bool check_diagnostic(const char *file, const BrazeDiag *d, Expectations *list) {
  Expectation *near_miss = NULL;
  for (size_t j = 0; j < list->count; ++j) {
    Expectation *e = &list->items[j];
    if (e->matched || e->unknown != (d->file == NULL) || (d->file && e->line != d->line))
      continue;
    if (d->file && strcmp(d->file, file) != 0)
      continue; /* a position in another file: only this file's designators exist */
    if (!text_matches(e, d->message))
      continue;
    if (e->severity == d->severity) {
      e->matched = true;
      return true;
    }
    near_miss = e;
  }
  if (near_miss)
    fprintf(stderr, "%s:%u: error: '%s' diagnostic emitted when expecting a '%s'\n", file,
            near_miss->file_line, braze_severity_name(d->severity), braze_severity_name(near_miss->severity));
  else if (d->file)
    fprintf(stderr, "%s:%u:%u: error: unexpected %s: %s\n", d->file, d->line, d->column,
            braze_severity_name(d->severity), d->message);
  else
    fprintf(stderr, "%s: error: unexpected %s at an unknown location: %s\n", file,
            braze_severity_name(d->severity), d->message);
  return false;
}

bool braze_verify_diagnostics(const char *file, const char *text, size_t len, const BrazeDiagSink *sink) {
  Expectations list = {0};
  bool ok = collect(file, text, len, &list);
  for (size_t i = 0; i < sink->count; ++i) {
    const BrazeDiag *d = &sink->items[i];
    /* MLIR attaches the failing op as a note; mlir-opt turns that off when it
     * verifies diagnostics, and so does braze (the C API cannot switch it off). */
    if (d->severity == BRAZE_DIAG_NOTE && strncmp(d->message, "see current operation:", 22) == 0)
      continue;
    ok = check_diagnostic(file, d, &list) && ok;
  }
  for (size_t j = 0; j < list.count; ++j) {
    Expectation *e = &list.items[j];
    if (!e->matched) {
      ok = false;
      fprintf(stderr, "%s:%u: error: expected %s \"%s\" was not produced\n", file, e->file_line,
              braze_severity_name(e->severity), e->text);
    }
    if (e->is_regex)
      regfree(&e->regex);
    free(e->text);
  }
  free(list.items);
  return ok;
}
