/* diag.c: gcc-style diagnostics with the quoted source line and a caret.
 * Source files are read lazily and cached so a run with many errors reads
 * each file once.  Output is never wrapped: editors and CI parse it. */
#include "frontend/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct CachedFile {
    char *path;
    char *text; /* NULL when unreadable */
    struct CachedFile *next;
} CachedFile;

static DiagOptions g_opts;
static bool g_color;
static int g_errors, g_warnings;
static CachedFile *g_files;

/* Warnings already reported for the current input, as "file:line: text":
 * sema checks a kernel once per TILE_CONST specialization, and clang may
 * have said the same thing at another column, so a warning repeats only
 * when its text or line differs. */
typedef struct SeenWarning {
    char *key;
    struct SeenWarning *next;
} SeenWarning;
static SeenWarning *g_seen;

/* tilec's own warnings (docs/cli.md, "Warnings", lists them). */
const DiagWarningInfo diag_warnings[] = {
    {"unused-value", 0, "a statement computes a value and drops it (anything but a store, scatter, atomic or call)"},
    {"narrow-reduction", 0,
     "tile_sum or tile_prod of a 16-bit float tile is rounded to 16 bits before it becomes a float or double"},
    {"missing-kernels", 0, "the source defines no TILE_KERNEL or TILE_FUNC"},
    {"unknown-warning-option", 0, "a -W option that neither tilec nor libclang knows"},
    {"tuning-device", 0, "a --tuning file measured on another device (cc) or written by another tilec version"},
    {"tuning-kernel", 0,
     "a --tuning file line for a kernel that the source lacks or that has no TILE_TUNABLE constant, or a kernel with "
     "TILE_TUNABLE constants that no line of tilec tune's shapes file is for"},
    {"tuning-bucket", 0,
     "a --tuning file line whose shape falls into the bucket of an earlier line with other values (the earlier one is used)"},
};
const int diag_nwarnings = (int)(sizeof diag_warnings / sizeof diag_warnings[0]);

const DiagWarningInfo *diag_find_warning(const char *name)
{
    for (int i = 0; i < diag_nwarnings; i++)
        if (!strcmp(diag_warnings[i].name, name)) return &diag_warnings[i];
    return NULL;
}

void diag_init(const DiagOptions *opts)
{
    g_opts = *opts;
    if (!g_opts.out) g_opts.out = stderr;
    const char *no_color = getenv("NO_COLOR");
    switch (g_opts.color) {
    case DIAG_COLOR_ALWAYS: g_color = true; break;
    case DIAG_COLOR_NEVER: g_color = false; break;
    default:
        g_color = isatty(fileno(g_opts.out)) && !(no_color && *no_color);
        break;
    }
    g_errors = g_warnings = 0;
}

void diag_reset_counts(void) { g_errors = g_warnings = 0; }
int diag_error_count(void) { return g_errors; }
int diag_warning_count(void) { return g_warnings; }

void diag_forget_files(void)
{
    while (g_seen) {
        SeenWarning *n = g_seen->next;
        free(g_seen->key);
        free(g_seen);
        g_seen = n;
    }
    while (g_files) {
        CachedFile *n = g_files->next;
        free(g_files->path);
        free(g_files->text);
        free(g_files);
        g_files = n;
    }
}

static const char *file_text(const char *path)
{
    for (CachedFile *f = g_files; f; f = f->next)
        if (strcmp(f->path, path) == 0) return f->text;
    CachedFile *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    f->path = strdup(path);
    FILE *fp = fopen(path, "rb");
    if (fp) {
        size_t cap = 4096, len = 0;
        char *buf = malloc(cap);
        size_t n;
        while (buf && (n = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
            len += n;
            if (cap - len < 2) {
                char *nb = realloc(buf, cap *= 2);
                if (!nb) { free(buf); buf = NULL; break; }
                buf = nb;
            }
        }
        if (buf) buf[len] = '\0';
        f->text = buf;
        fclose(fp);
    }
    f->next = g_files;
    g_files = f;
    return f->text;
}

const char *diag_source_line(const char *path, int line, size_t *len)
{
    const char *p = path ? file_text(path) : NULL;
    if (!p || line <= 0) return NULL;
    for (int l = 1; l < line; l++) {
        p = strchr(p, '\n');
        if (!p) return NULL;
        p++;
    }
    *len = strcspn(p, "\r\n");
    return p;
}

/* Prints "   12 |     source line" and the caret line under it. */
static void quote_line(SrcLoc loc)
{
    const char *text = loc.file ? file_text(loc.file) : NULL;
    if (!text || loc.line <= 0) return;
    const char *p = text;
    for (int l = 1; l < loc.line && *p; l++) {
        p = strchr(p, '\n');
        if (!p) return;
        p++;
    }
    const char *end = strchr(p, '\n');
    int len = end ? (int)(end - p) : (int)strlen(p);
    if (len > 0 && p[len - 1] == '\r') len--;
    FILE *o = g_opts.out;
    fprintf(o, "%5d | %.*s\n", loc.line, len, p);
    fprintf(o, "      | ");
    /* Keep tabs so the caret lines up under the same tab stops. */
    for (int i = 0; i < loc.col - 1 && i < len; i++) fputc(p[i] == '\t' ? '\t' : ' ', o);
    if (g_color) fputs("\033[1;32m", o);
    fputc('^', o);
    for (int i = 1; i < loc.len && loc.col - 1 + i < len; i++) fputc('~', o);
    if (g_color) fputs("\033[0m", o);
    fputc('\n', o);
}

/* tag: the option after the message, "-Wunused-value" or
 * "-Werror=unused-value" (gcc's "[...]"), or NULL. */
static void report(const char *kind, const char *color, SrcLoc loc, const char *fixit, const char *tag,
                   const char *fmt, va_list ap)
{
    FILE *o = g_opts.out;
    if (g_color) fputs("\033[1m", o);
    if (loc.file && loc.line > 0)
        fprintf(o, "%s:%d:%d: ", loc.file, loc.line, loc.col);
    else if (loc.file)
        fprintf(o, "%s: ", loc.file);
    else
        fputs("tilec: ", o);
    if (g_color) fprintf(o, "%s", color);
    fprintf(o, "%s:", kind);
    if (g_color) fputs("\033[0m\033[1m", o);
    fputc(' ', o);
    vfprintf(o, fmt, ap);
    if (g_color) fputs("\033[0m", o);
    if (tag) fprintf(o, " [%s]", tag);
    fputc('\n', o);
    quote_line(loc);
    if (loc.macro && loc.file && loc.line > 0)
        fprintf(o, "%s:%d:%d: note: in expansion of macro '%s'\n", loc.file, loc.line, loc.col,
                loc.macro);
    if (fixit && loc.file && loc.line > 0)
        fprintf(o, "%s:%d:%d: note: fix: %s\n", loc.file, loc.line, loc.col, fixit);
    else if (fixit)
        fprintf(o, "tilec: note: fix: %s\n", fixit);
}

static bool seen_before(SrcLoc loc, bool error, const char *fmt, va_list ap);
/* The notes after an error that repeated one already reported go too. */
static bool g_quiet_notes;

void diag_error(SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_errors++;
    g_quiet_notes = seen_before(loc, true, fmt, ap);
    if (!g_quiet_notes) report("error", "\033[1;31m", loc, NULL, NULL, fmt, ap);
    va_end(ap);
}

void diag_error_fix(SrcLoc loc, const char *fixit, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_errors++;
    g_quiet_notes = seen_before(loc, true, fmt, ap);
    if (!g_quiet_notes) report("error", "\033[1;31m", loc, fixit, NULL, fmt, ap);
    va_end(ap);
}

/* True when this warning (by file, line and text), or this error (by
 * file, line, column and text), was already reported: the same user
 * expression is checked in more than one copy (sema's specializations,
 * an array kernel's chunks, a graph's parts), and one report is enough. */
static bool seen_before(SrcLoc loc, bool error, const char *fmt, va_list ap)
{
    char text[1024];
    va_list cp;
    va_copy(cp, ap);
    vsnprintf(text, sizeof text, fmt, cp);
    va_end(cp);
    size_t n = strlen(text) + (loc.file ? strlen(loc.file) : 0) + 48;
    char *key = malloc(n);
    if (!key) return false;
    if (error) snprintf(key, n, "E%s:%d:%d: %s", loc.file ? loc.file : "", loc.line, loc.col, text);
    else snprintf(key, n, "%s:%d: %s", loc.file ? loc.file : "", loc.line, text);
    for (SeenWarning *w = g_seen; w; w = w->next)
        if (strcmp(w->key, key) == 0) {
            free(key);
            return true;
        }
    SeenWarning *w = malloc(sizeof *w);
    if (!w) {
        free(key);
        return false;
    }
    w->key = key;
    w->next = g_seen;
    g_seen = w;
    return false;
}

/* Whether warning name is enabled, and whether it is an error, after the
 * -W options in order (gcc's rules: -Werror=NAME and -Wno-error=NAME beat
 * -Werror and -Wno-error whatever their order).  A name tilec does not know
 * is libclang's: clang was given the same options and decided whether to
 * report it, so it stays enabled unless -Wno-NAME names it exactly. */
static void warning_state(const char *name, bool *enabled, bool *as_error)
{
    const DiagWarningInfo *w = diag_find_warning(name);
    bool en = w ? w->level == 0 : true;
    int err = -1;
    for (int i = 0; i < g_opts.nwflags; i++) {
        const char *f = g_opts.wflags[i];
        if (!strcmp(f, "all")) {
            if (w && w->level <= 1) en = true;
        } else if (!strcmp(f, "extra")) {
            if (w && w->level == 2) en = true;
        } else if (!strncmp(f, "no-error=", 9)) {
            if (!strcmp(f + 9, name)) err = 0;
        } else if (!strncmp(f, "error=", 6)) {
            if (!strcmp(f + 6, name)) err = 1, en = true;
        } else if (!strncmp(f, "no-", 3)) {
            if (!strcmp(f + 3, name)) en = false;
        } else if (!strcmp(f, name)) {
            en = true;
        }
    }
    *enabled = en;
    *as_error = err >= 0 ? err == 1 : g_opts.werror;
}

void diag_warning(const char *name, SrcLoc loc, const char *fmt, ...)
{
    if (g_opts.no_warnings) return;
    if (name && !*name) name = NULL;
    bool enabled = true, as_error = g_opts.werror;
    if (name) warning_state(name, &enabled, &as_error);
    if (!enabled) return;
    va_list ap;
    va_start(ap, fmt);
    g_quiet_notes = seen_before(loc, false, fmt, ap);
    if (g_quiet_notes) {
        va_end(ap);
        return;
    }
    char tag[160] = "";
    if (name) snprintf(tag, sizeof tag, "-W%s%s", as_error ? "error=" : "", name);
    if (as_error) {
        g_errors++;
        report("error", "\033[1;31m", loc, NULL, name ? tag : NULL, fmt, ap);
    } else {
        g_warnings++;
        report("warning", "\033[1;35m", loc, NULL, name ? tag : NULL, fmt, ap);
    }
    va_end(ap);
}

void diag_error_named(const char *name, SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_errors++;
    g_quiet_notes = false;
    char tag[160];
    if (name && *name) snprintf(tag, sizeof tag, "-W%s", name);
    report("error", "\033[1;31m", loc, NULL, name && *name ? tag : NULL, fmt, ap);
    va_end(ap);
}

void diag_note(SrcLoc loc, const char *fmt, ...)
{
    if (g_quiet_notes) return;
    va_list ap;
    va_start(ap, fmt);
    report("note", "\033[1;36m", loc, NULL, NULL, fmt, ap);
    va_end(ap);
}

void diag_remark(SrcLoc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report("remark", "\033[1;32m", loc, NULL, NULL, fmt, ap);
    va_end(ap);
}

int diag_edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 127 || m > 127) return 1000;
    static _Thread_local int d[128][128];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < v) v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}
