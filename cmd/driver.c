/* driver.c: tilec's command line, gcc-style.
 *
 *   tilec [options] FILE.tile.c         compile to FILE.cu + FILE.h
 *   tilec layout|promote|broadcast ...  inspect the layout algebra and types
 *
 * Exit status: 0 success, 1 errors in the source, 2 usage or I/O errors.
 * Outputs are generated in memory and committed atomically at the end, so a
 * failed or interrupted run leaves no partial or stale-looking file. */
#include "cmd/driver.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/output.h"
#include "codegen/codegen.h"
#include "frontend/ast_dump.h"
#include "frontend/diag.h"
#include "frontend/frontend.h"
#include "sema/layout.h"
#include "sema/sema.h"
#include "sema/types_cli.h"

#ifndef TILEC_VERSION
#define TILEC_VERSION "0.0.0"
#endif

typedef enum Target { TARGET_CUDA, TARGET_HOST } Target;
typedef enum Emit { EMIT_CODE, EMIT_AST, EMIT_TYPED } Emit;

typedef struct Options {
    const char *inputs[256];
    int ninputs;
    const char *output;
    const char *header;
    Target target;
    int arch;
    int opt_level;
    int max_threads;
    int min_blocks;
    Emit emit;
    bool check_only;
    bool line_directives;
    bool write_if_changed;
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
} Options;

static void usage(FILE *o)
{
    fputs(
        "usage: tilec [options] FILE.tile.c\n"
        "       tilec --check [options] FILE.tile.c...\n"
        "       tilec layout OP ARG...      (tilec layout --help)\n"
        "       tilec promote TYPE TYPE [OP]\n"
        "       tilec broadcast SHAPE SHAPE\n"
        "\n"
        "Compiles Tile C kernels to CUDA C++ (FILE.cu) or C (--target=host) plus a C header (FILE.h).\n"
        "\n"
        "options:\n"
        "  -o FILE               output file (.cu for cuda, .c for host); the header goes beside it as .h\n"
        "  --header FILE         write the header to FILE instead\n"
        "  --target=cuda|host    code to generate (default cuda)\n"
        "  --arch=sm_XX          the GPU architecture the code is tuned for (default sm_80)\n"
        "  -I DIR                add DIR to the include path\n"
        "  -D NAME[=VAL]         define a macro;  -U NAME  undefine one\n"
        "  -O0 | -O2             optimisation level (default -O2)\n"
        "  --max-threads=N       CUDA threads per block at most (power of two, 32..1024; default 256)\n"
        "  --min-blocks=N        ask nvcc to fit N blocks per multiprocessor (caps registers; 1..32)\n"
        "  --emit=ast|typed      print the tilec AST (typed: with dtypes and shapes) instead of code\n"
        "  --check               parse and analyse only, write nothing (several files allowed)\n"
        "  --no-line-directives  no #line directives back to the .tile.c source\n"
        "  --write-if-changed    leave outputs whose bytes did not change untouched (for Ninja's restat)\n"
        "  -ffile-prefix-map=OLD=NEW  rewrite path prefixes in generated code\n"
        "  -M, -MM, -MD, -MMD, -MF FILE, -MT TARGET, -MQ TARGET, -MP\n"
        "                        dependency files, as gcc writes them\n"
        "  -Werror               make warnings errors;  -w  silence warnings\n"
        "  --color=auto|always|never  colour diagnostics (NO_COLOR is honoured)\n"
        "  @FILE                 read more options from FILE\n"
        "  --version, --help\n"
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

/* tilec.h sits in ../runtime (a build tree) or ../include (an install)
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
    static const char *const rel[] = {"/../include", "/../runtime", "/../../runtime"};
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
    int rc = 0;
    if (o->emit != EMIT_CODE) {
        bool ok = o->emit == EMIT_AST || sema_program(p);
        if (!ok) {
            program_free(p);
            return 1;
        }
        Mem m;
        mem_open(&m);
        if (o->emit == EMIT_AST) {
            ast_dump_program(m.f, p, false);
        } else {
            /* Each kernel once per specialization: shapes depend on them. */
            fprintf(m.f, "file %s\n", p->main_file);
            for (int i = 0; i < p->nfuncs; i++) {
                Func *f = p->funcs[i];
                if (!f->is_kernel) continue;
                int idx[16] = {0};
                int64_t vals[16];
                int nc = sema_nconst(f);
                for (bool first = true; sema_next_spec(f, idx, vals, first); first = false) {
                    char label[256] = "";
                    for (int j = 0, c = 0; j < f->nparams; j++)
                        if (f->params[j].kind == PARAM_CONST) {
                            size_t len = strlen(label);
                            snprintf(label + len, sizeof label - len, "%s%s=%lld", c ? ", " : "", f->params[j].name,
                                     (long long)vals[c]);
                            c++;
                        }
                    sema_kernel(p, f, nc ? vals : NULL);
                    ast_dump_func(m.f, f, true, nc ? label : NULL);
                }
            }
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
    if (!sema_program(p) || diag_error_count() > errors_before) { /* -Werror warnings count */
        program_free(p);
        return 1;
    }
    if (o->check_only) {
        program_free(p);
        return 0;
    }

    const char *ext = o->target == TARGET_CUDA ? ".cu" : ".c";
    /* -o -: the generated source goes to standard output, as with gcc; the
     * header is written only where --header names it. */
    bool to_stdout = o->output && !strcmp(o->output, "-");
    char *out = o->output ? strdup(o->output) : default_output(input, ext);
    char *hdr = o->header ? strdup(o->header) : to_stdout ? NULL : replace_ext(out, ".h");
    if (to_stdout && o->dep_side && !o->dep_file) {
        fprintf(stderr, "tilec: error: -o - with -MD/-MMD needs -MF to name the dependency file\n");
        free(out);
        free(hdr);
        program_free(p);
        return 2;
    }
    if (!strcmp(out, input) || (hdr && !strcmp(hdr, input))) {
        fprintf(stderr, "tilec: error: output '%s' would overwrite the input; use -o\n", out);
        free(out);
        free(hdr);
        program_free(p);
        return 2;
    }
    char *src_name = map_prefix(o, input);
    char *hdr_for_include = hdr ? NULL : default_output(input, ".h");
    CodegenOptions co = {.source_name = src_name, .header_name = base_name(hdr ? hdr : hdr_for_include), .arch = o->arch,
                         .opt_level = o->opt_level, .line_directives = o->line_directives,
                         .max_threads = o->max_threads, .min_blocks = o->min_blocks};
    /* The rule's targets: the files written (with -o -, only the header). */
    const char *targets[2] = {to_stdout ? hdr : out, hdr};
    int ntargets = to_stdout ? (hdr ? 1 : 0) : 2;
    if (ntargets == 0) targets[ntargets++] = "-";
    Mem code = {0}, head = {0}, deps = {0};
    bool ok = true;
    if (!o->dep_only) {
        mem_open(&code);
        mem_open(&head);
        int before = diag_error_count();
        ok = o->target == TARGET_CUDA ? codegen_cuda(p, &co, code.f) : codegen_host(p, &co, code.f);
        ok = ok && codegen_header(p, &co, head.f);
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
            OutputFile files[2] = {{out, code.data, code.len}, {hdr, head.data, head.len}};
            /* With -o -, only the header (if any) is a file. */
            if (!output_commit_all(files + to_stdout, to_stdout ? (hdr ? 1 : 0) : 2)) rc = 2;
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
    free(src_name);
    free(out);
    free(hdr);
    free(hdr_for_include);
    program_free(p);
    return rc;
}

/* ---- option parsing ----------------------------------------------------- */

/* Takes the value of an option given as "-X VALUE" or "-XVALUE". */
static const char *opt_value(char **argv, int argc, int *i, const char *flag)
{
    size_t n = strlen(flag);
    if (argv[*i][n]) return argv[*i] + n + (argv[*i][n] == '=' && flag[1] == '-');
    if (*i + 1 >= argc) return NULL;
    return argv[++*i];
}

static int parse_args(Options *o, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v;
#define NEED(flag)                                                             \
    do {                                                                       \
        v = opt_value(argv, argc, &i, flag);                                   \
        if (!v) return usage_error("option '%s' needs a value", flag);         \
    } while (0)
        if (a[0] != '-' || !strcmp(a, "-")) {
            if (o->ninputs == 256) return usage_error("too many input files");
            o->inputs[o->ninputs++] = a;
        } else if (!strcmp(a, "-o")) {
            NEED("-o");
            o->output = v;
        } else if (!strncmp(a, "-o", 2)) {
            o->output = a + 2;
        } else if (!strcmp(a, "--header") || !strncmp(a, "--header=", 9)) {
            NEED("--header");
            o->header = v;
        } else if (!strncmp(a, "--target=", 9)) {
            if (!strcmp(a + 9, "cuda")) o->target = TARGET_CUDA;
            else if (!strcmp(a + 9, "host")) o->target = TARGET_HOST;
            else return usage_error("unknown target '%s' (cuda or host)", a + 9);
        } else if (!strncmp(a, "--arch=", 7)) {
            const char *s = a + 7;
            char *end;
            if (strncmp(s, "sm_", 3) != 0) return usage_error("--arch wants sm_XX, e.g. --arch=sm_90");
            long n = strtol(s + 3, &end, 10);
            if ((*end && strcmp(end, "a")) || n < 50 || n > 200)
                return usage_error("unsupported architecture '%s'", s);
            o->arch = (int)n;
        } else if (!strncmp(a, "-I", 2)) {
            NEED("-I");
            o->includes[o->fe.ninclude_dirs++ % 256] = v;
        } else if (!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2)) {
            /* Kept in command-line order: -DX -UX leaves X undefined. */
            bool def = a[1] == 'D';
            NEED(def ? "-D" : "-U");
            if (o->fe.nmacros == 256) return usage_error("too many -D/-U options");
            o->macro_kinds[o->fe.nmacros] = def ? 'D' : 'U';
            o->macros[o->fe.nmacros++] = v;
        } else if (!strncmp(a, "--max-threads=", 14)) {
            char *end;
            long n = strtol(a + 14, &end, 10);
            if (*end || n < 32 || n > 1024 || (n & (n - 1)))
                return usage_error("--max-threads wants a power of two from 32 to 1024");
            o->max_threads = (int)n;
        } else if (!strncmp(a, "--min-blocks=", 13)) {
            char *end;
            long n = strtol(a + 13, &end, 10);
            if (end == a + 13 || *end || n < 1 || n > 32) return usage_error("--min-blocks wants a number from 1 to 32");
            o->min_blocks = (int)n;
        } else if (!strcmp(a, "-O0") || !strcmp(a, "-O1")) {
            o->opt_level = 0;
        } else if (!strcmp(a, "-O2") || !strcmp(a, "-O3") || !strcmp(a, "-O")) {
            o->opt_level = 2;
        } else if (!strncmp(a, "--emit=", 7)) {
            if (!strcmp(a + 7, "ast")) o->emit = EMIT_AST;
            else if (!strcmp(a + 7, "typed")) o->emit = EMIT_TYPED;
            else if (!strcmp(a + 7, "code")) o->emit = EMIT_CODE;
            else return usage_error("unknown --emit kind '%s' (ast, typed or code)", a + 7);
        } else if (!strcmp(a, "--check")) {
            o->check_only = true;
        } else if (!strcmp(a, "--no-line-directives")) {
            o->line_directives = false;
        } else if (!strcmp(a, "--write-if-changed")) {
            o->write_if_changed = true;
        } else if (!strcmp(a, "-Werror")) {
            o->diag.werror = true;
        } else if (!strcmp(a, "-w")) {
            o->diag.no_warnings = true;
        } else if (!strncmp(a, "--color=", 8) || !strncmp(a, "-fdiagnostics-color=", 20)) {
            const char *c = strchr(a, '=') + 1;
            if (!strcmp(c, "auto")) o->diag.color = DIAG_COLOR_AUTO;
            else if (!strcmp(c, "always")) o->diag.color = DIAG_COLOR_ALWAYS;
            else if (!strcmp(c, "never")) o->diag.color = DIAG_COLOR_NEVER;
            else return usage_error("--color wants auto, always or never");
        } else if (!strncmp(a, "-ffile-prefix-map=", 18)) {
            const char *eq = strchr(a + 18, '=');
            if (!eq) return usage_error("-ffile-prefix-map wants OLD=NEW");
            if (o->nprefix == 16) return usage_error("too many -ffile-prefix-map options");
            o->prefix_old[o->nprefix] = strndup(a + 18, (size_t)(eq - (a + 18)));
            o->prefix_new[o->nprefix++] = eq + 1;
        } else if (!strcmp(a, "-M")) {
            o->dep_only = true;
        } else if (!strcmp(a, "-MM")) {
            o->dep_only = o->dep_user_only = true;
        } else if (!strcmp(a, "-MD")) {
            o->dep_side = true;
        } else if (!strcmp(a, "-MMD")) {
            o->dep_side = o->dep_user_only = true;
        } else if (!strcmp(a, "-MP")) {
            o->dep_phony = true;
        } else if (!strncmp(a, "-MF", 3)) {
            NEED("-MF");
            o->dep_file = v;
        } else if (!strncmp(a, "-MT", 3) || !strncmp(a, "-MQ", 3)) {
            bool q = a[2] == 'Q';
            NEED(q ? "-MQ" : "-MT");
            if (o->ndep_targets == 64) return usage_error("too many -MT/-MQ targets");
            o->dep_target_quote[o->ndep_targets] = q;
            o->dep_targets[o->ndep_targets++] = v;
        } else if (!strcmp(a, "--version")) {
            printf("tilec %s (libclang %s)\n", TILEC_VERSION, "19");
            return -1;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return -1;
        } else {
            return usage_error("unknown option '%s'", a);
        }
#undef NEED
    }
    if (o->fe.ninclude_dirs > 256) return usage_error("too many -I options");
    return 0;
}

int driver_main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "layout")) return layout_cli_main(argc - 1, argv + 1, stdout, stderr);
    if (argc >= 2 && !strcmp(argv[1], "promote")) return types_cli_promote(argc - 1, argv + 1, stdout, stderr);
    if (argc >= 2 && !strcmp(argv[1], "broadcast")) return types_cli_broadcast(argc - 1, argv + 1, stdout, stderr);

    Args args = {0};
    args_push(&args, argv[0], false);
    for (int i = 1; i < argc; i++) {
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
        if (o->ninputs == 0) rc = usage_error("no input file");
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
            output_install_signal_handlers();
            output_set_write_if_changed(o->write_if_changed);
            for (int i = 0; i < o->ninputs; i++) {
                int r = compile_one(o, o->inputs[i]);
                if (r > rc) rc = r;
            }
            diag_forget_files();
            free(inc);
        }
    }
    for (int i = 0; i < o->nprefix; i++) free((void *)o->prefix_old[i]);
    free(o);
    args_free(&args);
    return rc < 0 ? 0 : rc;
}
