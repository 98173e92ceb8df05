/* The plugin loader: dlopen, the registrar braze_plugin_init receives, and the
 * all-or-nothing commit of what a plugin registered (include/braze/plugin.h,
 * docs/decisions/0013-plugin-abi.md). */
#include "plugins/loader.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "braze/plugin.h"
#include "mlir-c/Pass.h"
#include "passes/passes.h"
#include "support/context.h"
#include "support/diag.h"
#include "targets/target.h"

typedef struct {
  const char *name, *text;
} NamedText;

typedef struct {
  BrazePluginRegistrar registrar; /* first: the registrar handed out is the plugin */
  char *path, *name;
  void *handle;
  bool declared, open; /* open: inside braze_plugin_init */
  BrazeStr error;      /* the first failure */
  MlirContext scratch; /* for checking dialect and upstream pass names, made on demand */
  const BrazePassInfo **passes;
  size_t num_passes;
  NamedText *pipelines;
  size_t num_pipelines;
  NamedText *dialects;
  size_t num_dialects;
  const BrazeTarget **targets;
  size_t num_targets;
} Plugin;

static Plugin **plugins;
static size_t num_plugins;

#define GROW(array, count) ((array) = realloc((array), ((count) + 1) * sizeof *(array)))

static bool fail(Plugin *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Plugin *p, const char *fmt, ...) {
  if (p->error.len) /* keep the first reason */
    return false;
  braze_str_printf(&p->error, "plugin '%s'%s%s%s: ", p->path, p->name ? " (" : "", p->name ? p->name : "",
                   p->name ? ")" : "");
  va_list ap;
  va_start(ap, fmt);
  braze_str_vprintf(&p->error, fmt, ap);
  va_end(ap);
  return false;
}

/* Registration is allowed only inside the entry, after the version was declared. */
static bool may_register(Plugin *p, const char *what) {
  if (!p->open)
    return fail(p, "registers %s after braze_plugin_init returned", what);
  if (!p->declared)
    return fail(p, "registers %s before declaring its ABI version (define the entry with BRAZE_PLUGIN from "
                   "braze/plugin.h)",
                what);
  return !p->error.len;
}

static bool valid_name(const char *s) {
  if (!s || !*s)
    return false;
  for (; *s; ++s)
    if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.')
      return false;
  return true;
}

static MlirContext scratch_context(Plugin *p) {
  if (mlirContextIsNull(p->scratch))
    p->scratch = braze_context_create();
  return p->scratch;
}

static void ignore(MlirStringRef piece, void *user_data) {
  (void)piece;
  (void)user_data;
}

/* Who has pass `name` already, as the end of a sentence "..., which ...", or NULL. */
static const char *pass_owner(Plugin *p, const char *name, BrazeStr *buf) {
  for (size_t i = 0; i < p->num_passes; ++i)
    if (strcmp(p->passes[i]->argument, name) == 0)
      return "it registered already";
  for (size_t i = 0; i < braze_pass_count(); ++i) {
    if (strcmp(braze_pass_at(i)->argument, name) != 0)
      continue;
    if (!braze_pass_origin_at(i))
      return "is one of braze's passes";
    braze_str_printf(buf, "plugin '%s' registered already", braze_pass_origin_at(i));
    return buf->data;
  }
  /* An upstream pass of that name would be shadowed in every pipeline. */
  MlirContext ctx = scratch_context(p);
  if (mlirContextIsNull(ctx))
    return NULL;
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, braze_ref("builtin.module"));
  MlirOpPassManager top = mlirPassManagerGetAsOpPassManager(pm);
  MlirOpPassManager nested = mlirOpPassManagerGetNestedUnder(top, braze_ref("func.func"));
  bool upstream = mlirLogicalResultIsSuccess(mlirOpPassManagerAddPipeline(top, braze_ref(name), ignore, NULL)) ||
                  mlirLogicalResultIsSuccess(mlirOpPassManagerAddPipeline(nested, braze_ref(name), ignore, NULL));
  mlirPassManagerDestroy(pm);
  return upstream ? "is an upstream MLIR pass" : NULL;
}

static bool reg_pass(BrazePluginRegistrar *r, const BrazePassInfo *info) {
  Plugin *p = (Plugin *)r;
  if (!may_register(p, "a pass"))
    return false;
  if (!info || !valid_name(info->argument))
    return fail(p, "registers a pass without a valid name (letters, digits, '-', '_', '.')");
  if (!info->summary || !info->anchor || !info->run)
    return fail(p, "pass '%s' lacks a summary, an anchor or a run function", info->argument);
  if (*info->anchor && strcmp(info->anchor, "func.func") != 0 && strcmp(info->anchor, "builtin.module") != 0)
    return fail(p, "pass '%s' has anchor '%s' (expected func.func, builtin.module or \"\")", info->argument,
                info->anchor);
  BrazeStr buf = {0};
  const char *owner = pass_owner(p, info->argument, &buf);
  if (owner)
    fail(p, "registers pass '%s', which %s", info->argument, owner);
  braze_str_free(&buf);
  if (owner)
    return false;
  GROW(p->passes, p->num_passes);
  p->passes[p->num_passes++] = info;
  return true;
}

static bool staged_text(const NamedText *items, size_t n, const char *name) {
  for (size_t i = 0; i < n; ++i)
    if (strcmp(items[i].name, name) == 0)
      return true;
  return false;
}

static bool reg_pipeline(BrazePluginRegistrar *r, const char *name, const char *text) {
  Plugin *p = (Plugin *)r;
  if (!may_register(p, "a pipeline"))
    return false;
  if (!valid_name(name) || strcmp(name, "none") == 0 ||
      (strlen(name) >= 9 && strcmp(name + strlen(name) - 9, ".pipeline") == 0))
    return fail(p, "registers a pipeline named '%s' (expected letters, digits, '-', '_', not 'none' nor "
                   "ending in .pipeline)",
                name ? name : "(null)");
  if (!text)
    return fail(p, "pipeline '%s' has no text", name);
  bool exists = staged_text(p->pipelines, p->num_pipelines, name);
  for (size_t i = 0; !exists && i < braze_pipeline_count(); ++i)
    exists = strcmp(braze_pipeline_name_at(i), name) == 0;
  if (exists)
    return fail(p, "registers pipeline '%s', which exists already", name);
  GROW(p->pipelines, p->num_pipelines);
  p->pipelines[p->num_pipelines++] = (NamedText){name, text};
  return true;
}

static bool reg_dialect(BrazePluginRegistrar *r, const char *name, const char *irdl_text) {
  Plugin *p = (Plugin *)r;
  if (!may_register(p, "a dialect"))
    return false;
  if (!valid_name(name) || !irdl_text)
    return fail(p, "registers a dialect without a valid name or IRDL text");
  if (staged_text(p->dialects, p->num_dialects, name))
    return fail(p, "registers dialect '%s' twice", name);
  MlirContext ctx = scratch_context(p);
  if (mlirContextIsNull(ctx))
    return fail(p, "cannot create an MLIR context to check dialect '%s'", name);
  if (!mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, braze_ref(name))))
    return fail(p, "registers dialect '%s', which exists already", name);
  /* Load it here so that a bad definition fails now, not in every later context. */
  if (!braze_context_load_irdl(ctx, irdl_text))
    return fail(p, "dialect '%s': its IRDL text does not parse or load (MLIR's diagnostics above)", name);
  if (mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, braze_ref(name))))
    return fail(p, "dialect '%s': its IRDL text defines no dialect of that name", name);
  GROW(p->dialects, p->num_dialects);
  p->dialects[p->num_dialects++] = (NamedText){name, irdl_text};
  return true;
}

static bool reg_target(BrazePluginRegistrar *r, const BrazeTarget *t) {
  Plugin *p = (Plugin *)r;
  if (!may_register(p, "a target"))
    return false;
  if (!t || !valid_name(t->name))
    return fail(p, "registers a target without a valid name");
  if (!t->description || !t->default_pipeline || !t->codegen_pipeline || !t->lower_to_llvm || !t->emit ||
      !t->query_costs || !t->runtime_link_args)
    return fail(p, "target '%s' leaves a field empty (description, default_pipeline, codegen_pipeline, "
                   "lower_to_llvm, emit, query_costs and runtime_link_args are required)",
                t->name);
  bool exists = strcmp(t->name, "reference") == 0 || braze_target_lookup(t->name);
  for (size_t i = 0; !exists && i < p->num_targets; ++i)
    exists = strcmp(p->targets[i]->name, t->name) == 0;
  if (exists)
    return fail(p, "registers target '%s', which exists already", t->name);
  GROW(p->targets, p->num_targets);
  p->targets[p->num_targets++] = t;
  return true;
}

static bool declare(BrazePluginRegistrar *r, uint32_t plugin_abi_version, const char *plugin_name) {
  Plugin *p = (Plugin *)r;
  if (!p->open)
    return fail(p, "declares itself after braze_plugin_init returned");
  free(p->name);
  p->name = plugin_name && *plugin_name ? strdup(plugin_name) : NULL;
  if (plugin_abi_version != BRAZE_PLUGIN_ABI_VERSION)
    return fail(p, "was built for braze plugin ABI version %u, this braze has version %u: rebuild it against "
                   "this braze's braze/plugin.h",
                (unsigned)plugin_abi_version, (unsigned)BRAZE_PLUGIN_ABI_VERSION);
  if (!p->name)
    return fail(p, "declares no name");
  for (size_t i = 0; i < num_plugins; ++i)
    if (strcmp(plugins[i]->name, p->name) == 0)
      return fail(p, "is named like the plugin loaded from '%s'", plugins[i]->path);
  p->declared = true;
  return true;
}

/* ---- services ---- */

static void service_error(BrazeStr *error, const char *message) {
  if (error && message)
    braze_str_puts(error, message);
}

static void service_emit(MlirLocation loc, BrazePluginSeverity severity, const char *message) {
  static const BrazeSeverity map[] = {BRAZE_DIAG_ERROR, BRAZE_DIAG_WARNING, BRAZE_DIAG_NOTE, BRAZE_DIAG_REMARK};
  braze_emit(loc, (unsigned)severity < 4 ? map[severity] : BRAZE_DIAG_ERROR, "%s", message ? message : "");
}

/* ---- loading ---- */

static void plugin_free(Plugin *p) {
  if (!mlirContextIsNull(p->scratch))
    braze_context_destroy(p->scratch);
  if (p->handle)
    dlclose(p->handle);
  free(p->passes);
  free(p->pipelines);
  free(p->dialects);
  free(p->targets);
  braze_str_free(&p->error);
  free(p->path);
  free(p->name);
  free(p);
}

/* Everything checked: hand the staged registrations to the registries. */
static void commit(Plugin *p) {
  for (size_t i = 0; i < p->num_passes; ++i)
    braze_pass_register_extra(p->passes[i], p->name);
  for (size_t i = 0; i < p->num_pipelines; ++i)
    braze_pipeline_register_extra(p->pipelines[i].name, p->pipelines[i].text, p->name);
  for (size_t i = 0; i < p->num_dialects; ++i)
    braze_context_add_irdl(p->dialects[i].name, p->dialects[i].text);
  for (size_t i = 0; i < p->num_targets; ++i)
    braze_target_register_extra(p->targets[i], p->name);
}

/* A target's default pipeline must exist once the plugin's own are counted. */
static bool targets_complete(Plugin *p) {
  for (size_t i = 0; i < p->num_targets; ++i) {
    const char *dp = p->targets[i]->default_pipeline;
    if (staged_text(p->pipelines, p->num_pipelines, dp))
      continue;
    BrazeStr text = {0}, why = {0};
    bool ok = braze_pipeline_resolve(dp, &text, &why);
    braze_str_free(&text);
    braze_str_free(&why);
    if (!ok)
      return fail(p, "target '%s' names default pipeline '%s', which neither braze nor the plugin has",
                  p->targets[i]->name, dp);
  }
  return true;
}

bool braze_plugin_load(const char *path, BrazeStr *error) {
  dlerror();
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    braze_str_printf(error, "cannot load plugin '%s': %s", path, why ? why : "dlopen failed");
    return false;
  }
  for (size_t i = 0; i < num_plugins; ++i)
    if (plugins[i]->handle == handle) { /* loaded already (BRAZE_PLUGINS and a flag) */
      dlclose(handle);
      return true;
    }
  Plugin *p = calloc(1, sizeof *p);
  p->path = strdup(path);
  p->handle = handle;
  p->registrar = (BrazePluginRegistrar){
      .declare = declare,
      .abi_version = BRAZE_PLUGIN_ABI_VERSION,
      .register_pass = reg_pass,
      .register_pipeline = reg_pipeline,
      .register_dialect = reg_dialect,
      .register_target = reg_target,
      .find_target = braze_target_lookup,
      .target_costs = braze_target_costs_for,
      .error = service_error,
      .emit = service_emit,
  };
  BrazePluginInitFn init;
  void *sym = dlsym(handle, BRAZE_PLUGIN_ENTRY);
  memcpy(&init, &sym, sizeof init); /* object pointer to function pointer, as POSIX allows */
  if (!init) {
    fail(p, "has no entry symbol %s (define it with BRAZE_PLUGIN from braze/plugin.h)", BRAZE_PLUGIN_ENTRY);
  } else {
    p->open = true;
    bool ok = init(&p->registrar);
    p->open = false;
    if (ok && !p->error.len && !p->declared)
      fail(p, "did not declare its ABI version (define the entry with BRAZE_PLUGIN from braze/plugin.h)");
    else if (!ok && !p->error.len)
      fail(p, "%s returned false", BRAZE_PLUGIN_ENTRY);
    else if (ok && !p->error.len)
      targets_complete(p);
  }
  if (!mlirContextIsNull(p->scratch)) {
    braze_context_destroy(p->scratch);
    p->scratch = (MlirContext){NULL};
  }
  if (p->error.len) {
    braze_str_puts(error, braze_str_cstr(&p->error));
    plugin_free(p);
    return false;
  }
  commit(p);
  GROW(plugins, num_plugins);
  plugins[num_plugins++] = p;
  return true;
}

bool braze_plugins_load_env(BrazeStr *error) {
  const char *list = getenv("BRAZE_PLUGINS");
  if (!list)
    return true;
  bool ok = true;
  for (const char *s = list; ok && *s;) {
    const char *colon = strchr(s, ':');
    size_t n = colon ? (size_t)(colon - s) : strlen(s);
    if (n) {
      char *path = strndup(s, n);
      ok = braze_plugin_load(path, error);
      if (!ok)
        braze_str_puts(error, " (from BRAZE_PLUGINS)");
      free(path);
    }
    s += n + (colon != NULL);
  }
  return ok;
}

bool braze_plugins_load_args(const char *tool, int *argc, char **argv) {
  BrazeStr error = {0};
  bool ok = braze_plugins_load_env(&error);
  static const char flag[] = "--load-pass-plugin";
  int out = 1;
  for (int i = 1; i < *argc; ++i) {
    const char *a = argv[i], *path = NULL;
    if (strncmp(a, flag, sizeof flag - 1) == 0 && a[sizeof flag - 1] == '=') {
      path = a + sizeof flag;
    } else if (strcmp(a, flag) == 0) {
      if (i + 1 >= *argc) {
        if (ok)
          braze_str_printf(&error, "%s needs a library path", flag);
        ok = false;
        continue;
      }
      path = argv[++i];
    } else {
      argv[out++] = argv[i];
      continue;
    }
    if (ok && !*path) {
      braze_str_printf(&error, "%s= needs a library path", flag);
      ok = false;
    }
    if (ok)
      ok = braze_plugin_load(path, &error);
  }
  *argc = out;
  argv[out] = NULL;
  if (!ok)
    fprintf(stderr, "%s: %s\n", tool, braze_str_cstr(&error));
  braze_str_free(&error);
  return ok;
}

size_t braze_plugin_count(void) { return num_plugins; }
const char *braze_plugin_name_at(size_t i) { return i < num_plugins ? plugins[i]->name : NULL; }
const char *braze_plugin_path_at(size_t i) { return i < num_plugins ? plugins[i]->path : NULL; }

void braze_plugins_unload(void) {
  braze_pass_extras_clear();
  braze_target_extras_clear();
  braze_context_irdl_clear();
  braze_target_select(NULL);
  for (size_t i = num_plugins; i-- > 0;)
    plugin_free(plugins[i]);
  free(plugins);
  plugins = NULL;
  num_plugins = 0;
}
