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
    bool werror;      /* warnings become errors */
    bool no_warnings; /* -w */
    FILE *out;        /* stderr unless redirected (tests) */
} DiagOptions;

void diag_init(const DiagOptions *opts);
void diag_reset_counts(void);
/* While muted nothing is printed or counted as a warning (codegen re-runs
 * sema per specialization after everything was reported once). */
void diag_mute(bool mute);
int diag_error_count(void);
int diag_warning_count(void);

/* Reports at loc (line 0: no location, only "tilec: error: ...").  fixit,
 * when not NULL, is printed as "note: fix: ..." under the caret. */
void diag_error(SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_warning(SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_note(SrcLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_error_fix(SrcLoc loc, const char *fixit, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The source text of a file, read once and cached (used for the quoted line). */
void diag_forget_files(void);
#endif
