/* diag.h: the one place that prints diagnostics, in gcc's format:
 *   file:line:col: error: message
 *      12 |     x = y;
 *         |     ^~~~
 * with optional notes and fix-it hints.  Colour on a terminal, never
 * word-wrapped.  Counts errors so the driver can pick its exit status. */
#ifndef TILEC_DIAG_H
#define TILEC_DIAG_H
#include <stdbool.h>
#include <stdio.h>

#include "frontend/ast.h"

typedef enum DiagColor { DIAG_COLOR_AUTO, DIAG_COLOR_NEVER, DIAG_COLOR_ALWAYS } DiagColor;

typedef struct DiagOptions {
    DiagColor color;
    bool werror;      /* -Werror: warnings become errors (-Wno-error clears it) */
    bool no_warnings; /* -w */
    FILE *out;        /* stderr unless redirected (tests) */
    /* The -W options other than -Werror/-Wno-error, in command-line order,
     * without the "-W": "all", "extra", "unused-value", "no-unused-value",
     * "error=unused-value", "no-error=unused-value". */
    const char *const *wflags;
    int nwflags;
} DiagOptions;

/* tilec's own warnings.  Each has a name, printed as gcc does after the
 * message ("[-Wunused-value]", "[-Werror=unused-value]" when promoted), that
 * -WNAME, -Wno-NAME, -Werror=NAME and -Wno-error=NAME select.  level: 0 on
 * by default, 1 enabled by -Wall, 2 enabled by -Wextra. */
typedef struct DiagWarningInfo {
    const char *name;
    int level;
    const char *what;
} DiagWarningInfo;
extern const DiagWarningInfo diag_warnings[];
extern const int diag_nwarnings;
/* The entry of tilec's warning NAME, or NULL (libclang's or unknown). */
const DiagWarningInfo *diag_find_warning(const char *name);

void diag_init(const DiagOptions *opts);
void diag_reset_counts(void);
int diag_error_count(void);
int diag_warning_count(void);

/* Reports at loc (line 0: no location, only "tilec: error: ...").  fixit,
 * when not NULL, is printed as "note: fix: ..." under the caret. */
void diag_error(SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A warning named name ("unused-value": tilec's table, or libclang's option
 * without "-W"; NULL or "" for none).  Printed with its [-Wname] tag unless
 * -w or -Wno-name silences it; an error under -Werror or -Werror=name. */
void diag_warning(const char *name, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* An error that carries a warning option (libclang's errors by default such
 * as -Wint-conversion): printed with the [-Wname] tag. */
void diag_error_named(const char *name, SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_note(SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An optimization remark (--remarks): what the compiler did, and why not. */
void diag_remark(SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_error_fix(SrcLoc loc, const char *fixit, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Edit distance with transpositions (tile_laod is one edit from tile_load;
 * 1000 for strings over 127 bytes): the "did you mean" of names and options. */
int diag_edit_distance(const char *a, const char *b);

/* Line `line` of file path (not NUL-terminated: *len bytes), from the
 * cached text the quoted lines come from; NULL when unreadable. */
const char *diag_source_line(const char *path, int line, size_t *len);
/* The source text of a file, read once and cached (used for the quoted line). */
void diag_forget_files(void);
#endif
