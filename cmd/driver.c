/* driver.c: tilec's command line, gcc-style.
 *
 *   tilec [options] FILE.tile.c         compile to FILE.cu + FILE.h
 *   tilec layout|promote|broadcast ...  inspect the layout algebra and types
 *
 * Exit status: 0 success, 1 errors in the source, 2 usage or I/O errors.
 * Outputs are generated in memory and committed atomically at the end, so a
 * failed or interrupted run leaves no partial or stale-looking file. */
#include "cmd/driver.h"

#include <clang-c/Index.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/layout_cli.h"
#include "cmd/output.h"
#include "cmd/tuning.h"
#include "cmd/types_cli.h"
#include "codegen/codegen.h"
#include "frontend/ast_dump.h"
#include "frontend/simt_dump.h"
#include "frontend/diag.h"
#include "frontend/frontend.h"
#include "sema/layout.h"
#include "sema/sema.h"

#ifndef TILEC_VERSION
#define TILEC_VERSION "0.0.0"
#endif

typedef enum Target { TARGET_CUDA, TARGET_HOST } Target;
typedef enum Emit { EMIT_CODE, EMIT_AST, EMIT_TYPED, EMIT_TIR } Emit;

typedef struct Options {
    const char *inputs[256];
    int ninputs;
    const char *output;
    const char *header;
    Target target;
    int arch;       /* the highest of archs */
    int archs[8];   /* --arch=sm_80,sm_90: every architecture listed */
    int narchs;
    int opt_level;
    int max_threads;
    int min_blocks;
    bool sm90_clusters; /* --sm90-clusters */
    Emit emit;
    bool check_only;
    bool remarks;            /* --remarks: which graph calls fused and why the others did not; Hopper and flash variants */
    bool line_directives;
    bool write_if_changed;
    bool python;             /* --python: also the Python module */
    const char *python_file; /* --python=FILE */
    DiagOptions diag;
    FrontendOptions fe;
    const char *includes[256];
    const char *macros[256];
    char macro_kinds[256];
    /* dependency files */
    bool dep_only;      /* -M / -MM: write dependencies, no outputs */
    bool dep_side;      /* -MD / -MMD: dependencies beside the outputs */
    bool dep_user_only; /* -MM / -MMD: leave out system headers */
    bool dep_phony;     /* -MP */
    const char *dep_file;
    const char *dep_targets[64];
    bool dep_target_quote[64];
    int ndep_targets;
    const char *prefix_old[16], *prefix_new[16];
    int nprefix;
    const char *system_dirs[64];     /* -isystem */
    const char *wflags[256];         /* -W options for diag (DiagOptions.wflags) */
    int nwflags;
    const char *clang_flags[256];    /* -W options for libclang */
    int nclang_flags;
    const char *wnames[256];         /* -WNAME, -Wno-NAME, -Werror=NAME, -Wno-error=NAME as given */
    int nwnames;
    char *owned[256];                /* strings built here, freed at the end */
    int nowned;
    const char *symbol_prefix;       /* --symbol-prefix */
    const char *rename_old[64], *rename_new[64]; /* --rename=OLD=NEW */
    int nrename;
    const char *tuning[64]; /* --tuning FILE */
    bool tune;              /* tilec tune */
    const char *shapes;     /* --shapes FILE (tilec tune) */
    int ntuning;
    bool verbose;                    /* -v */
} Options;

/* ---- response files ----------------------------------------------------- */

typedef struct Args {
    char **v;
    int n, cap;
    char **owned; /* strings to free */
    int nowned, capowned;
} Args;

static void args_push(Args *a, char *s, bool owned)
{
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 64;
        a->v = realloc(a->v, sizeof(char *) * (size_t)a->cap);
        if (!a->v) abort();
    }
    a->v[a->n++] = s;
    if (owned) {
        if (a->nowned == a->capowned) {
            a->capowned = a->capowned ? a->capowned * 2 : 64;
            a->owned = realloc(a->owned, sizeof(char *) * (size_t)a->capowned);
            if (!a->owned) abort();
        }
        a->owned[a->nowned++] = s;
    }
}

static void args_free(Args *a)
{
    for (int i = 0; i < a->nowned; i++) free(a->owned[i]);
    free(a->owned);
    free(a->v);
}

/* Splits a response file like gcc: whitespace-separated, with '...', "..."
 * and backslash escapes; may itself name @files (depth-limited). */
static bool expand_response(Args *a, const char *path, int depth)
{
    if (depth > 16) {
        fprintf(stderr, "tilec: error: response files nested too deeply at '%s'\n", path);
        return false;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "tilec: error: cannot read response file '%s': %s\n", path, strerror(errno));
        return false;
    }
    size_t cap = 256, len = 0;
    char *cur = malloc(cap);
    bool in_word = false;
    int quote = 0, c;
    bool ok = true;
    while (ok) {
        c = fgetc(f);
        bool end = c == EOF;
        if (!end && quote) {
            if (c == quote) { quote = 0; continue; }
            if (c == '\\' && quote == '"') {
                int d = fgetc(f);
                if (d != EOF) c = d;
            }
        } else if (!end && (c == '\'' || c == '"')) {
            quote = c;
            in_word = true;
            continue;
        } else if (!end && c == '\\') {
            int d = fgetc(f);
            if (d != EOF) c = d;
        } else if (end || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (in_word) {
                cur[len] = 0;
                if (cur[0] == '@') {
                    ok = expand_response(a, cur + 1, depth + 1);
                    free(cur);
                } else {
                    args_push(a, cur, true);
                }
                cap = 256;
                len = 0;
                cur = malloc(cap);
                in_word = false;
            }
            if (end) break;
            continue;
        }
        if (len + 2 > cap) cur = realloc(cur, cap *= 2);
        cur[len++] = (char)c;
        in_word = true;
    }
    free(cur);
    fclose(f);
    return ok;
}

/* ---- finding tilec.h ---------------------------------------------------- */

static bool file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* tilec.h sits in ../runtime (a build tree) or ../include[/tilec] (an install)
 * relative to the executable; TILEC_INCLUDE overrides both. */
static char *find_tilec_include(void)
{
    const char *env = getenv("TILEC_INCLUDE");
    char buf[PATH_MAX + 64];
    if (env && *env) {
        snprintf(buf, sizeof buf, "%s/tilec.h", env);
        if (file_exists(buf)) return strdup(env);
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return NULL;
    *slash = 0;
    static const char *const rel[] = {"/../include", "/../include/tilec", "/../runtime", "/../../runtime"};
    for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
        snprintf(buf, sizeof buf, "%s%s/tilec.h", exe, rel[i]);
        if (file_exists(buf)) {
            char *dir = malloc(strlen(exe) + strlen(rel[i]) + 1);
            sprintf(dir, "%s%s", exe, rel[i]);
            return dir;
        }
    }
    return NULL;
}

/* ---- dependency files --------------------------------------------------- */

static void put_make_escaped(FILE *o, const char *s, bool for_target_quote)
{
    for (const char *p = s; *p; p++) {
        if (*p == ' ' || *p == '\t') {
            for (const char *q = p - 1; q >= s && *q == '\\'; q--) fputc('\\', o);
            fputc('\\', o);
        } else if (*p == '$') {
            fputc('$', o);
        } else if (*p == '#') {
            fputc('\\', o);
        }
        (void)for_target_quote;
        fputc(*p, o);
    }
}

static void write_deps(FILE *o, const Options *op, const Program *p, const char **targets, int ntargets)
{
    int col = 0;
    if (op->ndep_targets) {
        for (int i = 0; i < op->ndep_targets; i++) {
            if (i) fputc(' ', o);
            if (op->dep_target_quote[i]) put_make_escaped(o, op->dep_targets[i], true);
            else fputs(op->dep_targets[i], o);
        }
    } else {
        for (int i = 0; i < ntargets; i++) {
            if (i) fputc(' ', o);
            put_make_escaped(o, targets[i], false);
        }
    }
    fputs(":", o);
    col = 40;
    const char *files[1024];
    int nfiles = 0;
    files[nfiles++] = p->main_file;
    for (int i = 0; i < p->ndeps && nfiles < 1024; i++) {
        bool is_tilec_h = strlen(p->deps[i]) >= 7 && !strcmp(p->deps[i] + strlen(p->deps[i]) - 7, "tilec.h");
        if (op->dep_user_only && p->dep_system[i] && !is_tilec_h) continue;
        files[nfiles++] = p->deps[i];
    }
    /* the tuning files are inputs too: a new measurement rebuilds */
    for (int i = 0; i < op->ntuning && nfiles < 1024; i++) files[nfiles++] = op->tuning[i];
    for (int i = 0; i < nfiles; i++) {
        if (col + (int)strlen(files[i]) > 76) {
            fputs(" \\\n ", o);
            col = 1;
        }
        fputc(' ', o);
        put_make_escaped(o, files[i], false);
        col += 1 + (int)strlen(files[i]);
    }
    fputc('\n', o);
    if (op->dep_phony)
        for (int i = 1; i < nfiles; i++) {
            fputc('\n', o);
            put_make_escaped(o, files[i], false);
            fputs(":\n", o);
        }
}

/* ---- paths -------------------------------------------------------------- */

static char *replace_ext(const char *path, const char *ext)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t stem = dot ? (size_t)(dot - path) : strlen(path);
    char *r = malloc(stem + strlen(ext) + 1);
    memcpy(r, path, stem);
    strcpy(r + stem, ext);
    return r;
}

/* Default output: the input's basename in the current directory, with
 * ".tile.c" (or the last extension) replaced. */
static char *default_output(const char *input, const char *ext)
{
    const char *base = strrchr(input, '/');
    base = base ? base + 1 : input;
    size_t n = strlen(base);
    size_t stem = n;
    if (n > 7 && !strcmp(base + n - 7, ".tile.c")) stem = n - 7;
    else if (strrchr(base, '.')) stem = (size_t)(strrchr(base, '.') - base);
    char *r = malloc(stem + strlen(ext) + 1);
    memcpy(r, base, stem);
    strcpy(r + stem, ext);
    return r;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static char *map_prefix(const Options *o, const char *path)
{
    for (int i = 0; i < o->nprefix; i++) {
        size_t n = strlen(o->prefix_old[i]);
        if (!strncmp(path, o->prefix_old[i], n)) {
            char *r = malloc(strlen(o->prefix_new[i]) + strlen(path + n) + 1);
            sprintf(r, "%s%s", o->prefix_new[i], path + n);
            return r;
        }
    }
    return strdup(path);
}

/* FILE.py whose stem is a Python identifier (the module's name). */
static bool is_py_module_name(const char *path)
{
    const char *b = base_name(path);
    size_t n = strlen(b);
    if (n < 4 || strcmp(b + n - 3, ".py") != 0) return false;
    for (size_t i = 0; i < n - 3; i++) {
        char c = b[i];
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9'))) return false;
    }
    return true;
}

/* ---- compile one input -------------------------------------------------- */

typedef struct Mem {
    char *data;
    size_t len;
    FILE *f;
} Mem;

static void mem_open(Mem *m)
{
    m->data = NULL;
    m->len = 0;
    m->f = open_memstream(&m->data, &m->len);
    if (!m->f) abort();
}

static void mem_close(Mem *m)
{
    fclose(m->f);
    m->f = NULL;
}

static int compile_one(const Options *o, const char *input)
{
    struct stat st;
    if (stat(input, &st) != 0) {
        fprintf(stderr, "tilec: error: cannot open '%s': %s\n", input, strerror(errno));
        return 2;
    }
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "tilec: error: '%s' is not a regular file\n", input);
        return 2;
    }
    FILE *probe = fopen(input, "rb");
    if (!probe) {
        fprintf(stderr, "tilec: error: cannot read '%s': %s\n", input, strerror(errno));
        return 2;
    }
    fclose(probe);

    Program *p = frontend_parse(input, &o->fe);
    if (!p) return 1;
    p->remarks = o->remarks;
    int rc = 0;
    if (o->emit != EMIT_CODE) {
        bool ok = o->emit == EMIT_AST || sema_program(p);
        if (!ok) {
            program_free(p);
            return 1;
        }
        Mem m;
        mem_open(&m);
        /* SIMT functions have no tile IR: each mode prints their tree after
         * the tile functions (frontend/simt_dump.h), the tir one with what
         * the target makes of it */
        if (o->emit == EMIT_AST) {
            ast_dump_program(m.f, p, false);
            simt_dump_program(m.f, p, SIMT_DUMP_AST, false);
        } else if (o->emit == EMIT_TIR) {
            /* the tile IR each specialization is emitted from (codegen/tir.h) */
            CodegenOptions co = {.source_name = p->main_file, .header_name = "", .arch = o->arch, .archs = o->archs, .narchs = o->narchs,
                                 .opt_level = o->opt_level, .max_threads = o->max_threads, .min_blocks = o->min_blocks,
                                 .sm90_clusters = o->sm90_clusters};
            fprintf(m.f, "file %s, target %s\n\n", p->main_file, o->target == TARGET_CUDA ? "cuda" : "host");
            if (!codegen_tir(p, &co, o->target == TARGET_CUDA, m.f)) {
                mem_close(&m);
                free(m.data);
                program_free(p);
                return 1;
            }
            simt_dump_program(m.f, p, SIMT_DUMP_TIR, o->target == TARGET_CUDA);
        } else {
            /* Each kernel once per specialization: shapes depend on them. */
            fprintf(m.f, "file %s\n", p->main_file);
            for (int i = 0; i < p->nfuncs; i++) {
                Func *f = p->funcs[i];
                if (!f->is_kernel) continue;
                int nc = ast_nconst(f);
                for (int k = 0; k < f->nspecs; k++) {
                    char label[256];
                    ast_spec_label(f, f->specs[k].vals, label, sizeof label);
                    ast_dump_func(m.f, f->specs[k].typed, true, nc ? label : NULL);
                }
            }
            simt_dump_program(m.f, p, SIMT_DUMP_TYPED, false);
        }
        mem_close(&m);
        if (o->output && strcmp(o->output, "-") != 0) {
            if (!output_commit(o->output, m.data, m.len)) rc = 2;
        } else {
            fwrite(m.data, 1, m.len, stdout);
        }
        free(m.data);
        program_free(p);
        return rc;
    }
    int errors_before = diag_error_count();
    if (!sema_program(p) || !codegen_check_tunable(p) || diag_error_count() > errors_before) { /* -Werror warnings count */
        program_free(p);
        return 1;
    }
    if (o->check_only) {
        program_free(p);
        return 0;
    }

    for (int r = 0; r < o->nrename; r++) {
        bool found = false;
        for (int i = 0; i < p->nfuncs && !found; i++)
            found = p->funcs[i]->is_kernel && !strcmp(p->funcs[i]->name, o->rename_old[r]);
        if (!found) {
            fprintf(stderr, "tilec: error: --rename=%s=%s: '%s' defines no kernel '%s'\n", o->rename_old[r],
                    o->rename_new[r], input, o->rename_old[r]);
            program_free(p);
            return 2;
        }
    }
    TuneEntry *tune = NULL;
    int ntune = 0;
    for (int t = 0; t < o->ntuning; t++) {
        int errs = diag_error_count();
        FILE *tf = fopen(o->tuning[t], "r");
        if (!tf) {
            fprintf(stderr, "tilec: error: --tuning: cannot read '%s': %s\n", o->tuning[t], strerror(errno));
            free(tune);
            program_free(p);
            return 2;
        }
        fclose(tf);
        if (!tuning_load(o->tuning[t], p, o->narchs ? o->archs : &o->arch,
                         o->target != TARGET_CUDA ? 0 : o->narchs ? o->narchs : 1, &tune, &ntune) ||
            diag_error_count() > errs) {
            free(tune);
            program_free(p);
            return 1;
        }
    }
    if (o->tune) {
        /* tilec tune: the tuning program, one file (FILE.tune.cu or .c) */
        char *tout = o->output ? strdup(o->output) : default_output(input, o->target == TARGET_CUDA ? ".tune.cu" : ".tune.c");
        char *src_name = map_prefix(o, input);
        CodegenOptions co = {.source_name = src_name, .header_name = "", .arch = o->arch, .archs = o->archs, .narchs = o->narchs, .opt_level = o->opt_level,
                             .line_directives = o->line_directives, .max_threads = o->max_threads,
                             .min_blocks = o->min_blocks, .sm90_clusters = o->sm90_clusters,
                             .symbol_prefix = o->symbol_prefix, .rename_old = o->rename_old, .rename_new = o->rename_new, .nrename = o->nrename};
        Mem m;
        mem_open(&m);
        bool ok = codegen_tune(p, &co, o->target == TARGET_CUDA, o->shapes, m.f);
        mem_close(&m);
        int trc = 0;
        if (!ok) trc = 1;
        else if (!strcmp(tout, "-")) fwrite(m.data, 1, m.len, stdout);
        else if (!output_commit(tout, m.data, m.len)) trc = 2;
        free(m.data);
        free(tout);
        free(src_name);
        free(tune);
        program_free(p);
        return trc;
    }
    const char *ext = o->target == TARGET_CUDA ? ".cu" : ".c";
    /* -o -: the generated source goes to standard output, as with gcc; the
     * header is written only where --header names it.  The same for a
     * special file (-o /dev/null, a FIFO): it is written in place, and no
     * sibling (/dev/null.h) is derived from its name. */
    bool to_stdout = o->output && !strcmp(o->output, "-");
    bool no_siblings = to_stdout || (o->output && output_is_special(o->output));
    char *out = o->output ? strdup(o->output) : default_output(input, ext);
    char *hdr = o->header ? strdup(o->header) : no_siblings ? NULL : replace_ext(out, ".h");
    /* --python: the module beside the output (FILE.py), or where =FILE says;
     * its stem names the module and the library it loads (libSTEM.so). */
    char *py = !o->python ? NULL : o->python_file ? strdup(o->python_file) : no_siblings ? NULL : replace_ext(out, ".py");
    if (o->python && !py) {
        fprintf(stderr, "tilec: error: -o %s with --python needs --python=FILE\n", o->output);
        free(out);
        free(hdr);
        free(tune);
        program_free(p);
        return 2;
    }
    if (py && !is_py_module_name(py)) {
        fprintf(stderr, "tilec: error: --python: '%s' is not FILE.py with a Python identifier before .py\n", py);
        free(py);
        free(out);
        free(hdr);
        free(tune);
        program_free(p);
        return 2;
    }
    if (no_siblings && o->dep_side && !o->dep_file) {
        fprintf(stderr, "tilec: error: -o %s with -MD/-MMD needs -MF to name the dependency file\n", o->output);
        free(out);
        free(hdr);
        free(tune);
        program_free(p);
        return 2;
    }
    if (!strcmp(out, input) || (hdr && !strcmp(hdr, input))) {
        fprintf(stderr, "tilec: error: output '%s' would overwrite the input; use -o\n", out);
        free(out);
        free(hdr);
        free(tune);
        program_free(p);
        return 2;
    }
    char *src_name = map_prefix(o, input);
    char *hdr_for_include = hdr ? NULL : default_output(input, ".h");
    CodegenOptions co = {.source_name = src_name, .header_name = base_name(hdr ? hdr : hdr_for_include), .arch = o->arch,
                         .archs = o->archs, .narchs = o->narchs,
                         .opt_level = o->opt_level, .line_directives = o->line_directives,
                         .max_threads = o->max_threads, .min_blocks = o->min_blocks,
                         .sm90_clusters = o->sm90_clusters, .symbol_prefix = o->symbol_prefix,
                         .rename_old = o->rename_old, .rename_new = o->rename_new, .nrename = o->nrename,
                         .tuning = tune, .ntuning = ntune};
    /* The rule's targets: the files written (with -o -, the header and the
     * module, if any). */
    const char *targets[3];
    int ntargets = 0;
    if (!to_stdout) targets[ntargets++] = out;
    if (hdr) targets[ntargets++] = hdr;
    if (py) targets[ntargets++] = py;
    if (ntargets == 0) targets[ntargets++] = "-";
    Mem code = {0}, head = {0}, deps = {0}, pym = {0};
    bool ok = true;
    if (!o->dep_only) {
        mem_open(&code);
        mem_open(&head);
        int before = diag_error_count();
        ok = o->target == TARGET_CUDA ? codegen_cuda(p, &co, code.f) : codegen_host(p, &co, code.f);
        ok = ok && codegen_header(p, &co, head.f);
        if (ok && py) {
            char *stem = strdup(base_name(py));
            stem[strlen(stem) - 3] = 0;
            mem_open(&pym);
            ok = codegen_python(p, &co, o->target == TARGET_CUDA, stem, pym.f);
            mem_close(&pym);
            free(stem);
        }
        if (!ok && diag_error_count() == before)
            fprintf(stderr, "%s: error: code generation failed\n", input);
        mem_close(&code);
        mem_close(&head);
    }
    if (ok && (o->dep_only || o->dep_side)) {
        mem_open(&deps);
        write_deps(deps.f, o, p, targets, ntargets);
        mem_close(&deps);
    }
    if (!ok) {
        rc = diag_error_count() ? 1 : 2;
    } else {
        if (!o->dep_only) {
            OutputFile files[3] = {{out, code.data, code.len}, {hdr, head.data, head.len}, {NULL, NULL, 0}};
            int nfiles = 2;
            if (!hdr) nfiles--;
            if (py) files[nfiles++] = (OutputFile){py, pym.data, pym.len};
            /* With -o -, only the header and the module (if any) are files. */
            if (!output_commit_all(files + to_stdout, nfiles - to_stdout)) rc = 2;
            if (rc == 0 && to_stdout && (fwrite(code.data, 1, code.len, stdout) != code.len || fflush(stdout) != 0)) {
                fprintf(stderr, "tilec: error: cannot write to standard output: %s\n", strerror(errno));
                rc = 2;
            }
        }
        if (rc == 0 && deps.f == NULL && deps.data) {
            const char *dpath = o->dep_file;
            char *def = NULL;
            if (!dpath && o->dep_side) dpath = def = replace_ext(out, ".d");
            if (dpath) {
                if (!output_commit(dpath, deps.data, deps.len)) rc = 2;
            } else {
                fwrite(deps.data, 1, deps.len, stdout);
            }
            free(def);
        }
    }
    free(code.data);
    free(head.data);
    free(deps.data);
    free(pym.data);
    free(py);
    free(src_name);
    free(out);
    free(hdr);
    free(hdr_for_include);
    free(tune);
    program_free(p);
    return rc;
}

/* ---- option parsing ----------------------------------------------------- */

/* Every option, once: parsing, --help, "did you mean" and the docs test
 * (tests/docs/options.sh compares it with --help, docs/cli.md and the man
 * page) all read this table.  A row whose help is NULL is another spelling
 * of the row above it and shares its line in --help. */
typedef enum ArgKind {
    A_NONE,   /* exactly the name: --check */
    A_SEP,    /* value attached or in the next argument: -I DIR, -IDIR, --header=FILE */
    A_EQ,     /* value after the name's '=': --target=host */
    A_JOINED, /* value attached, may be empty: -WNAME */
    A_DOC,    /* documented only (parsed elsewhere): @FILE */
} ArgKind;

enum {
    O_OUTPUT, O_HEADER, O_TARGET, O_ARCH, O_I, O_ISYSTEM, O_D, O_U, O_O0, O_O2, O_MAX_THREADS, O_MIN_BLOCKS, O_SM90_CLUSTERS,
    O_EMIT, O_CHECK, O_REMARKS, O_NO_LINE, O_WIC, O_PYTHON, O_PYTHON_EQ, O_PREFIX_MAP, O_SYMBOL_PREFIX, O_RENAME, O_TUNING, O_SHAPES, O_M, O_MM, O_MD, O_MMD, O_MF,
    O_MT, O_MQ, O_MP, O_WALL, O_WEXTRA, O_WERROR, O_WNO_ERROR, O_WERROR_EQ, O_WNO_ERROR_EQ, O_WNO, O_W,
    O_PEDANTIC, O_NO_WARN, O_COLOR, O_VERBOSE, O_AT, O_VERSION, O_HELP,
};

typedef struct OptSpec {
    const char *name;
    ArgKind arg;
    int id;
    const char *meta; /* the value in --help: "FILE", "cuda|host" */
    const char *help;
} OptSpec;

static const OptSpec opt_table[] = {
    {"-o", A_SEP, O_OUTPUT, "FILE", "output file (.cu for cuda, .c for host; - for standard output); the header goes beside it as .h"},
    {"--header", A_SEP, O_HEADER, "FILE", "write the header to FILE instead"},
    {"--target=", A_EQ, O_TARGET, "cuda|host", "code to generate (default cuda)"},
    {"--arch=", A_EQ, O_ARCH, "sm_XX", "the GPU architecture the code is tuned for (default sm_80)"},
    {"-I", A_SEP, O_I, "DIR", "add DIR to the include path"},
    {"-isystem", A_SEP, O_ISYSTEM, "DIR", "add DIR to the system include path (-MM/-MMD leave its headers out)"},
    {"-D", A_SEP, O_D, "NAME[=VAL]", "define a macro"},
    {"-U", A_SEP, O_U, "NAME", "undefine a macro"},
    {"-O0", A_NONE, O_O0, NULL, "optimisation level (default -O2); -O0 and -O1 compile tile_mma K loops without the copy pipeline"},
    {"-O1", A_NONE, O_O0, NULL, NULL},
    {"-O2", A_NONE, O_O2, NULL, NULL},
    {"-O3", A_NONE, O_O2, NULL, NULL},
    {"-O", A_NONE, O_O2, NULL, NULL},
    {"--max-threads=", A_EQ, O_MAX_THREADS, "N", "CUDA threads per block at most (power of two, 32..1024; default 256)"},
    {"--min-blocks=", A_EQ, O_MIN_BLOCKS, "N", "ask nvcc to fit N blocks per multiprocessor (caps registers; 1..32)"},
    {"--sm90-clusters", A_NONE, O_SM90_CLUSTERS, NULL,
     "--arch=sm_90: launch persistent Hopper kernels in clusters of two sharing loads (TMA multicast)"},
    {"--emit=", A_EQ, O_EMIT, "ast|typed|tir|code", "print the tilec AST (typed: with dtypes and shapes) or the tile IR (and SIMT code's tree) instead of code"},
    {"--check", A_NONE, O_CHECK, NULL, "parse and analyse only, write nothing (several files allowed)"},
    {"--remarks", A_NONE, O_REMARKS, NULL,
     "say which calls of each TILE_GRAPH fused into one kernel and why the others did not; for sm_90, which K loops "
     "have the Hopper variant (and why not) and what attention loops run on"},
    {"--no-line-directives", A_NONE, O_NO_LINE, NULL, "no #line directives back to the .tile.c source"},
    {"--write-if-changed", A_NONE, O_WIC, NULL, "leave outputs whose bytes did not change untouched (for Ninja's restat)"},
    {"--python", A_NONE, O_PYTHON, NULL, "also write a Python module for the launchers, beside the output as .py (--python=FILE: there)"},
    {"--python=", A_EQ, O_PYTHON_EQ, "FILE", NULL},
    {"-ffile-prefix-map=", A_EQ, O_PREFIX_MAP, "OLD=NEW", "rewrite path prefixes in generated code"},
    {"--symbol-prefix=", A_EQ, O_SYMBOL_PREFIX, "PFX", "prepend PFX to every launch function's name"},
    {"--rename=", A_EQ, O_RENAME, "OLD=NEW", "name kernel OLD's launch function NEW"},
    {"--shapes", A_SEP, O_SHAPES, "FILE", "tilec tune: the problems to tune for, one a line (a=4096x4096 b=... eps=1e-5)"},
    {"--tuning", A_SEP, O_TUNING, "FILE", "compile the dispatch tables of TILE_TUNABLE constants from tuning FILE (repeatable)"},
    {"-M", A_NONE, O_M, NULL, "write the dependency rule instead of compiling (-MM: without system headers)"},
    {"-MM", A_NONE, O_MM, NULL, NULL},
    {"-MD", A_NONE, O_MD, NULL, "compile and write the dependency rule to a .d file (-MMD: without system headers)"},
    {"-MMD", A_NONE, O_MMD, NULL, NULL},
    {"-MF", A_SEP, O_MF, "FILE", "the dependency file"},
    {"-MT", A_SEP, O_MT, "TARGET", "the rule's target (-MQ: quoted for make)"},
    {"-MQ", A_SEP, O_MQ, "TARGET", NULL},
    {"-MP", A_NONE, O_MP, NULL, "a phony rule for each header"},
    {"-Wall", A_NONE, O_WALL, NULL, "enable the warnings of -Wall (tilec's and libclang's)"},
    {"-Wextra", A_NONE, O_WEXTRA, NULL, "enable the warnings of -Wextra (tilec's and libclang's)"},
    {"-W", A_JOINED, O_W, "NAME", "enable warning NAME (-Wno-NAME: disable it)"},
    {"-Wno-", A_JOINED, O_WNO, "NAME", NULL},
    {"-Werror", A_NONE, O_WERROR, NULL, "make warnings errors (-Wno-error: undo)"},
    {"-Wno-error", A_NONE, O_WNO_ERROR, NULL, NULL},
    {"-Werror=", A_JOINED, O_WERROR_EQ, "NAME", "make warning NAME an error (-Wno-error=NAME: keep it a warning)"},
    {"-Wno-error=", A_JOINED, O_WNO_ERROR_EQ, "NAME", NULL},
    {"-pedantic", A_NONE, O_PEDANTIC, NULL, "libclang's pedantic warnings"},
    {"-Wpedantic", A_NONE, O_PEDANTIC, NULL, NULL},
    {"-w", A_NONE, O_NO_WARN, NULL, "silence warnings"},
    {"--color=", A_EQ, O_COLOR, "auto|always|never", "colour diagnostics (NO_COLOR is honoured)"},
    {"-fdiagnostics-color=", A_EQ, O_COLOR, "auto|always|never", NULL},
    {"-v", A_NONE, O_VERBOSE, NULL, "print the version, libclang's arguments and the include search list"},
    {"@", A_DOC, O_AT, "FILE", "read more options from FILE"},
    {"--version", A_NONE, O_VERSION, NULL, "print the version and exit"},
    {"--help", A_NONE, O_HELP, NULL, "print this help and exit"},
    {"-h", A_NONE, O_HELP, NULL, NULL},
};
#define NOPTS ((int)(sizeof opt_table / sizeof opt_table[0]))

static void usage(FILE *o)
{
    fputs("usage: tilec [options] FILE.tile.c\n"
          "       tilec --check [options] FILE.tile.c...\n"
          "       tilec tune FILE.tile.c --shapes FILE [-o FILE] [options]\n"
          "       tilec layout OP ARG...      (tilec layout --help)\n"
          "       tilec promote TYPE TYPE [OP]\n"
          "       tilec broadcast SHAPE SHAPE\n"
          "\n"
          "Compiles Tile C kernels to CUDA C++ (FILE.cu) or C (--target=host) plus a C header (FILE.h).\n"
          "\n"
          "options:\n",
          o);
    for (int i = 0; i < NOPTS;) {
        char left[160] = "";
        size_t n = 0;
        const char *help = opt_table[i].help;
        do {
            const OptSpec *s = &opt_table[i];
            n += (size_t)snprintf(left + n, sizeof left - n, "%s%s%s%s", n ? ", " : "", s->name,
                                  s->meta && s->arg == A_SEP ? " " : "", s->meta ? s->meta : "");
            i++;
        } while (i < NOPTS && !opt_table[i].help && n < sizeof left);
        if (strlen(left) < 22) fprintf(o, "  %-22s%s\n", left, help);
        else fprintf(o, "  %s\n  %22s%s\n", left, "", help);
    }
    fputs("\nwarnings: tilec's own (-Wno-NAME, -Werror=NAME):", o);
    for (int i = 0; i < diag_nwarnings; i++) fprintf(o, "%s -W%s", i ? "," : "", diag_warnings[i].name);
    fputs("; libclang's are tagged with clang's names\n"
          "\n"
          "exit status: 0 success, 1 errors in the source, 2 usage or I/O errors\n",
          o);
}

static int usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("tilec: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\ntry 'tilec --help'\n", stderr);
    va_end(ap);
    return 2;
}

/* A close match counts: at most a third of the characters differ. */
static bool close_enough(int d, const char *a, const char *b)
{
    return d > 0 && 3 * d <= (int)strlen(a) && 3 * d <= (int)strlen(b);
}

/* The nearest option to the unknown argument a, written into buf with a's
 * value kept ("--taget=host" -> "--target=host"); false when none is close. */
static bool nearest_option(const char *a, char *buf, size_t size)
{
    int best = 1000;
    const char *eq = strchr(a, '=');
    for (int i = 0; i < NOPTS; i++) {
        const OptSpec *s = &opt_table[i];
        if (s->arg == A_DOC || s->arg == A_JOINED) continue;
        char key[128];
        const char *value = "";
        if (s->arg == A_EQ && eq) {
            snprintf(key, sizeof key, "%.*s", (int)(eq - a + 1), a);
            value = eq + 1;
        } else {
            snprintf(key, sizeof key, "%s", a);
        }
        int d = diag_edit_distance(key, s->name);
        if (close_enough(d, key, s->name) && d < best) {
            best = d;
            snprintf(buf, size, "%s%s", s->name, value);
        }
    }
    return best < 1000;
}

/* The row that argument a matches: an exact name first, then the longest
 * name that a value may follow. */
static const OptSpec *match_option(const char *a)
{
    const OptSpec *best = NULL;
    for (int i = 0; i < NOPTS; i++)
        if (opt_table[i].arg != A_DOC && !strcmp(a, opt_table[i].name)) return &opt_table[i];
    for (int i = 0; i < NOPTS; i++) {
        const OptSpec *s = &opt_table[i];
        if (s->arg == A_NONE || s->arg == A_DOC) continue;
        size_t n = strlen(s->name);
        if (strncmp(a, s->name, n) != 0) continue;
        /* -Wno-NAME is not -W "no-NAME"; a value joined to a long option
         * needs its '=' (--header=FILE, not --headerFILE). */
        if (s->arg == A_SEP && s->name[1] == '-' && a[n] != '=') continue;
        if (!best || n > strlen(best->name)) best = s;
    }
    return best;
}

static bool is_identifier(const char *s, bool may_start_with_digit)
{
    if (!*s || (!may_start_with_digit && s[0] >= '0' && s[0] <= '9')) return false;
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

/* -W options that are not tilec's own go to libclang too (unknown ones are
 * weeded out by check_warning_options). */
static void add_warning_flag(Options *o, const char *diag_form, const char *name, const char *clang_form)
{
    if (o->nwflags < 256) o->wflags[o->nwflags++] = diag_form;
    if (clang_form && !diag_find_warning(name) && o->nclang_flags < 256) o->clang_flags[o->nclang_flags++] = clang_form;
}

static int parse_args(Options *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (o->nwflags == 256 || o->nclang_flags == 256) return usage_error("too many -W options");
        const char *a = argv[i];
        const char *v = NULL;
        if (a[0] != '-' || !strcmp(a, "-")) {
            if (o->ninputs == 256) return usage_error("too many input files");
            o->inputs[o->ninputs++] = a;
            continue;
        }
        const OptSpec *s = match_option(a);
        if (!s) {
            char near[256];
            if (nearest_option(a, near, sizeof near))
                return usage_error("unknown option '%s'; did you mean '%s'?", a, near);
            return usage_error("unknown option '%s'", a);
        }
        size_t n = strlen(s->name);
        if (s->arg == A_SEP) {
            if (a[n]) v = a + n + (a[n] == '=' && s->name[1] == '-');
            else if (i + 1 < argc) v = argv[++i];
            else return usage_error("option '%s' needs a value", s->name);
        } else if (s->arg == A_EQ || s->arg == A_JOINED) {
            v = a + n;
        }
        switch (s->id) {
        case O_OUTPUT: o->output = v; break;
        case O_HEADER: o->header = v; break;
        case O_TARGET:
            if (!strcmp(v, "cuda")) o->target = TARGET_CUDA;
            else if (!strcmp(v, "host")) o->target = TARGET_HOST;
            else return usage_error("unknown target '%s' (cuda or host)", v);
            break;
        case O_ARCH: { /* sm_XX[a], or a comma-separated list of them */
            o->narchs = 0;
            o->arch = 0;
            for (const char *q = v;;) {
                size_t n = strcspn(q, ",");
                char one[32];
                snprintf(one, sizeof one, "%.*s", (int)(n < sizeof one - 1 ? n : sizeof one - 1), q);
                char *end;
                if (strncmp(one, "sm_", 3) != 0) return usage_error("--arch wants sm_XX or a list, e.g. --arch=sm_80,sm_90");
                long num = strtol(one + 3, &end, 10);
                if ((*end && strcmp(end, "a")) || end == one + 3 || num < 50 || num > 200 || n >= sizeof one)
                    return usage_error("unsupported architecture '%.*s'", (int)n, q);
                bool dup = false;
                for (int i = 0; i < o->narchs; i++) dup |= o->archs[i] == (int)num;
                if (!dup) {
                    if (o->narchs == 8) return usage_error("--arch lists at most 8 architectures");
                    o->archs[o->narchs++] = (int)num;
                }
                if (num > o->arch) o->arch = (int)num;
                if (!q[n]) break;
                q += n + 1;
            }
            break;
        }
        case O_I:
            if (o->fe.ninclude_dirs == 256) return usage_error("too many -I options");
            o->includes[o->fe.ninclude_dirs++] = v;
            break;
        case O_ISYSTEM:
            if (o->fe.nsystem_dirs == 64) return usage_error("too many -isystem options");
            o->system_dirs[o->fe.nsystem_dirs++] = v;
            break;
        case O_D:
        case O_U:
            /* Kept in command-line order: -DX -UX leaves X undefined. */
            if (o->fe.nmacros == 256) return usage_error("too many -D/-U options");
            o->macro_kinds[o->fe.nmacros] = s->id == O_D ? 'D' : 'U';
            o->macros[o->fe.nmacros++] = v;
            break;
        case O_MAX_THREADS: {
            char *end;
            long num = strtol(v, &end, 10);
            if (end == v || *end || num < 32 || num > 1024 || (num & (num - 1)))
                return usage_error("--max-threads wants a power of two from 32 to 1024");
            o->max_threads = (int)num;
            break;
        }
        case O_MIN_BLOCKS: {
            char *end;
            long num = strtol(v, &end, 10);
            if (end == v || *end || num < 1 || num > 32) return usage_error("--min-blocks wants a number from 1 to 32");
            o->min_blocks = (int)num;
            break;
        }
        case O_SM90_CLUSTERS: o->sm90_clusters = true; break;
        case O_O0: o->opt_level = 0; break;
        case O_O2: o->opt_level = 2; break;
        case O_EMIT:
            if (!strcmp(v, "ast")) o->emit = EMIT_AST;
            else if (!strcmp(v, "typed")) o->emit = EMIT_TYPED;
            else if (!strcmp(v, "tir")) o->emit = EMIT_TIR;
            else if (!strcmp(v, "code")) o->emit = EMIT_CODE;
            else return usage_error("unknown --emit kind '%s' (ast, typed, tir or code)", v);
            break;
        case O_CHECK: o->check_only = true; break;
        case O_REMARKS: o->remarks = true; break;
        case O_NO_LINE: o->line_directives = false; break;
        case O_WIC: o->write_if_changed = true; break;
        case O_PYTHON: o->python = true; break;
        case O_PYTHON_EQ:
            if (!*v) return usage_error("--python= wants a file name");
            o->python = true;
            o->python_file = v;
            break;
        case O_PREFIX_MAP: {
            const char *eq = strchr(v, '=');
            if (!eq) return usage_error("-ffile-prefix-map wants OLD=NEW");
            if (o->nprefix == 16) return usage_error("too many -ffile-prefix-map options");
            o->prefix_old[o->nprefix] = strndup(v, (size_t)(eq - v));
            o->prefix_new[o->nprefix++] = eq + 1;
            break;
        }
        case O_SYMBOL_PREFIX:
            if (!is_identifier(v, false)) return usage_error("--symbol-prefix wants a C identifier, not '%s'", v);
            o->symbol_prefix = v;
            break;
        case O_SHAPES: o->shapes = v; break;
        case O_TUNING:
            if (o->ntuning == 64) return usage_error("too many --tuning options");
            o->tuning[o->ntuning++] = v;
            break;
        case O_RENAME: {
            const char *eq = strchr(v, '=');
            if (!eq || eq == v) return usage_error("--rename wants KERNEL=NAME");
            if (!is_identifier(eq + 1, false)) return usage_error("--rename: '%s' is not a C identifier", eq + 1);
            if (o->nrename == 64) return usage_error("too many --rename options");
            o->rename_old[o->nrename] = strndup(v, (size_t)(eq - v));
            o->rename_new[o->nrename++] = eq + 1;
            break;
        }
        case O_M: o->dep_only = true; break;
        case O_MM: o->dep_only = o->dep_user_only = true; break;
        case O_MD: o->dep_side = true; break;
        case O_MMD: o->dep_side = o->dep_user_only = true; break;
        case O_MP: o->dep_phony = true; break;
        case O_MF: o->dep_file = v; break;
        case O_MT:
        case O_MQ:
            if (o->ndep_targets == 64) return usage_error("too many -MT/-MQ targets");
            o->dep_target_quote[o->ndep_targets] = s->id == O_MQ;
            o->dep_targets[o->ndep_targets++] = v;
            break;
        case O_WALL: add_warning_flag(o, "all", "", "-Wall"); break;
        case O_WEXTRA: add_warning_flag(o, "extra", "", "-Wextra"); break;
        case O_WERROR: o->diag.werror = true; break;
        case O_WNO_ERROR: o->diag.werror = false; break;
        case O_W:
        case O_WNO:
        case O_WERROR_EQ:
        case O_WNO_ERROR_EQ: {
            if (!*v) return usage_error("option '%s' needs a warning name", a);
            /* diag sees "NAME", "no-NAME", "error=NAME", "no-error=NAME";
             * libclang -WNAME, -Wno-NAME, -WNAME (tilec promotes it itself)
             * and -Wno-error=NAME. */
            const char *clang_form = a;
            if (s->id == O_WERROR_EQ && o->nowned < 256) {
                char *w = malloc(strlen(v) + 3);
                sprintf(w, "-W%s", v);
                clang_form = o->owned[o->nowned++] = w;
            }
            add_warning_flag(o, a + 2, v, clang_form);
            if (o->nwnames < 256) o->wnames[o->nwnames++] = a;
            break;
        }
        case O_PEDANTIC:
            if (o->nclang_flags < 256) o->clang_flags[o->nclang_flags++] = "-Wpedantic";
            break;
        case O_NO_WARN: o->diag.no_warnings = true; break;
        case O_COLOR:
            if (!strcmp(v, "auto")) o->diag.color = DIAG_COLOR_AUTO;
            else if (!strcmp(v, "always")) o->diag.color = DIAG_COLOR_ALWAYS;
            else if (!strcmp(v, "never")) o->diag.color = DIAG_COLOR_NEVER;
            else return usage_error("--color wants auto, always or never");
            break;
        case O_VERBOSE: o->verbose = true; break;
        case O_VERSION: printf("tilec %s (libclang %s)\n", TILEC_VERSION, "19"); return -1;
        case O_HELP: usage(stdout); return -1;
        }
    }
    return 0;
}

/* ---- warning options that nobody knows ---------------------------------- */

/* Asks libclang which of the -W options given are unknown to it too (tilec's
 * own names never get here): an empty translation unit parsed with them
 * reports "unknown warning option '-Wfoo'; did you mean '-Wbar'?".  Those
 * are dropped from libclang's arguments (it would print them itself, per
 * file) and reported once, gcc-style, with the nearest name of tilec's or
 * clang's. */
static void check_warning_options(Options *o)
{
    const char *probe[257];
    int nprobe = 0;
    probe[nprobe++] = "-xc";
    for (int i = 0; i < o->nwnames; i++) {
        const char *a = o->wnames[i];
        const char *name = a[2] == 'n' && !strncmp(a, "-Wno-", 5) ? a + 5 : a + 2;
        if (!strncmp(name, "error=", 6)) name += 6;
        if (diag_find_warning(name)) continue;
        char *w = malloc(strlen(name) + 3);
        sprintf(w, "-W%s", name);
        probe[nprobe++] = w;
    }
    if (nprobe == 1) return;
    struct CXUnsavedFile empty = {"tilec-warning-probe.c", "", 0};
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    /* The clang driver prints the same warnings to stderr itself. */
    fflush(stderr);
    int saved = dup(2), null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, 2);
    clang_parseTranslationUnit2(index, empty.Filename, probe, nprobe, &empty, 1, 0, &tu);
    if (saved >= 0) dup2(saved, 2), close(saved);
    if (null >= 0) close(null);
    unsigned nd = tu ? clang_getNumDiagnostics(tu) : 0;
    for (unsigned d = 0; d < nd; d++) {
        CXDiagnostic dg = clang_getDiagnostic(tu, d);
        CXString sp = clang_getDiagnosticSpelling(dg);
        const char *msg = clang_getCString(sp);
        const char *q = msg ? strstr(msg, "unknown warning option '-W") : NULL;
        if (q) {
            q += strlen("unknown warning option '-W");
            const char *qe = strchr(q, '\'');
            const char *sug = qe ? strstr(qe, "did you mean '-W") : NULL;
            char name[256], clang_sug[256] = "";
            snprintf(name, sizeof name, "%.*s", qe ? (int)(qe - q) : 0, q);
            if (sug) {
                sug += strlen("did you mean '-W");
                const char *se = strchr(sug, '\'');
                if (se) snprintf(clang_sug, sizeof clang_sug, "%.*s", (int)(se - sug), sug);
            }
            /* Every spelling that names it: -Wfoo, -Wno-foo, -Werror=foo. */
            for (int i = 0; i < o->nwnames; i++) {
                const char *a = o->wnames[i];
                bool no = !strncmp(a, "-Wno-", 5);
                const char *form = no ? a + 5 : a + 2;
                const char *nm = !strncmp(form, "error=", 6) ? form + 6 : form;
                if (strcmp(nm, name) != 0) continue;
                /* The nearest name: tilec's, clang's suggestion, or the
                 * -W options of the table (-Wall, -Werror...). */
                char best[256] = "";
                int bd = 1000;
                for (int k = 0; k < diag_nwarnings; k++) {
                    int dd = diag_edit_distance(nm, diag_warnings[k].name);
                    if (close_enough(dd, nm, diag_warnings[k].name) && dd < bd)
                        bd = dd, snprintf(best, sizeof best, "%s", diag_warnings[k].name);
                }
                if (clang_sug[0] && diag_edit_distance(nm, clang_sug) < bd)
                    bd = diag_edit_distance(nm, clang_sug), snprintf(best, sizeof best, "%s", clang_sug);
                static const char *const words[] = {"all", "extra", "error", "pedantic"};
                for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
                    int dd = diag_edit_distance(a + 2, words[k]);
                    if (close_enough(dd, a + 2, words[k]) && dd < bd)
                        bd = dd, snprintf(best, sizeof best, "%s", words[k]);
                }
                char spelled[300] = "";
                if (best[0] && !strcmp(best, "all")) snprintf(spelled, sizeof spelled, "-Wall");
                else if (best[0] && (!strcmp(best, "extra") || !strcmp(best, "error") || !strcmp(best, "pedantic")))
                    snprintf(spelled, sizeof spelled, "-W%s", best);
                else if (best[0])
                    snprintf(spelled, sizeof spelled, "%.*s%s", (int)(nm - a), a, best);
                if (spelled[0])
                    diag_warning("unknown-warning-option", (SrcLoc){0}, "unknown warning option '%s'; did you mean '%s'?",
                                 a, spelled);
                else
                    diag_warning("unknown-warning-option", (SrcLoc){0}, "unknown warning option '%s'", a);
                /* Not for libclang. */
                for (int c = 0; c < o->nclang_flags; c++) {
                    const char *cf = o->clang_flags[c];
                    const char *cn = !strncmp(cf, "-Wno-error=", 11) ? cf + 11 : !strncmp(cf, "-Wno-", 5) ? cf + 5 : cf + 2;
                    if (!strcmp(cn, name)) {
                        memmove(&o->clang_flags[c], &o->clang_flags[c + 1], sizeof(char *) * (size_t)(o->nclang_flags - c - 1));
                        o->nclang_flags--;
                        c--;
                    }
                }
            }
        }
        clang_disposeString(sp);
        clang_disposeDiagnostic(dg);
    }
    if (tu) clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    for (int i = 1; i < nprobe; i++) free((void *)probe[i]);
}

/* -v: what gcc -v says, to standard error: the version, then (per input,
 * from the frontend) libclang's arguments and its include search list. */
static void print_verbose(const Options *o, const char *inc)
{
    CXString v = clang_getClangVersion();
    fprintf(stderr, "tilec version %s (%s)\n", TILEC_VERSION, clang_getCString(v));
    clang_disposeString(v);
    fprintf(stderr, "Target: %s, ", o->target == TARGET_CUDA ? "cuda" : "host");
    if (o->narchs > 1)
        for (int i = 0; i < o->narchs; i++) fprintf(stderr, "%ssm_%d", i ? "," : "", o->archs[i]);
    else
        fprintf(stderr, "sm_%d", o->arch);
    fprintf(stderr, ", -O%d\n", o->opt_level);
    fprintf(stderr, "tilec.h: %s/tilec.h\n", inc);
}

int driver_main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "layout")) return layout_cli_main(argc - 1, argv + 1, stdout, stderr);
    if (argc >= 2 && !strcmp(argv[1], "promote")) return types_cli_promote(argc - 1, argv + 1, stdout, stderr);
    if (argc >= 2 && !strcmp(argv[1], "broadcast")) return types_cli_broadcast(argc - 1, argv + 1, stdout, stderr);

    /* tilec tune FILE --shapes SHAPES [options]: the tuning program */
    bool tune = argc >= 2 && !strcmp(argv[1], "tune");
    Args args = {0};
    args_push(&args, argv[0], false);
    for (int i = tune ? 2 : 1; i < argc; i++) {
        if (argv[i][0] == '@' && argv[i][1]) {
            if (!expand_response(&args, argv[i] + 1, 0)) {
                args_free(&args);
                return 2;
            }
        } else {
            args_push(&args, argv[i], false);
        }
    }
    Options *o = calloc(1, sizeof *o);
    o->opt_level = 2;
    o->line_directives = true;
    o->arch = 80;
    int rc = parse_args(o, args.n, args.v);
    if (rc == 0) {
        o->fe.include_dirs = o->includes;
        o->fe.macros = o->macros;
        o->fe.macro_kinds = o->macro_kinds;
        o->fe.system_dirs = o->system_dirs;
        o->fe.clang_flags = o->clang_flags;
        o->fe.verbose = o->verbose;
        o->diag.wflags = o->wflags;
        o->diag.nwflags = o->nwflags;
        o->tune = tune;
        if (o->ninputs == 0) rc = usage_error("no input file");
        else if (tune && (!o->shapes || o->ninputs != 1 || o->check_only || o->emit != EMIT_CODE))
            rc = usage_error("tilec tune takes one FILE.tile.c and --shapes FILE");
        else if (!tune && o->shapes) rc = usage_error("--shapes belongs to tilec tune");
        else if (o->ninputs > 1 && !o->check_only)
            rc = usage_error("several input files need --check (compile one file per call)");
        else if (o->ninputs > 1 && (o->output || o->dep_file))
            rc = usage_error("-o and -MF take one input file");
    }
    if (rc == 0) {
        char *inc = find_tilec_include();
        if (!inc) {
            fputs("tilec: error: cannot find tilec.h beside the tilec executable; set TILEC_INCLUDE\n", stderr);
            rc = 2;
        } else {
            o->fe.tilec_include_dir = inc;
            diag_init(&o->diag);
            if (o->verbose) print_verbose(o, inc);
            check_warning_options(o);
            o->fe.nclang_flags = o->nclang_flags; /* without the unknown ones */
            /* -Werror made an unknown -W option an error: a usage error. */
            bool flags_ok = diag_error_count() == 0;
            if (!flags_ok) rc = 2;
            output_install_signal_handlers();
            output_set_write_if_changed(o->write_if_changed);
            for (int i = 0; i < o->ninputs && flags_ok; i++) {
                int r = compile_one(o, o->inputs[i]);
                if (r > rc) rc = r;
            }
            diag_forget_files();
            free(inc);
        }
    }
    for (int i = 0; i < o->nprefix; i++) free((void *)o->prefix_old[i]);
    for (int i = 0; i < o->nrename; i++) free((void *)o->rename_old[i]);
    for (int i = 0; i < o->nowned; i++) free(o->owned[i]);
    free(o);
    args_free(&args);
    return rc < 0 ? 0 : rc;
}
