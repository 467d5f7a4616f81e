/* format.h: tile_printf's format strings.  sema checks a format against
 * its arguments with the parse; code generation expands it (one conversion
 * per element of a tile argument) from the same parse. */
#ifndef TILEC_FORMAT_H
#define TILEC_FORMAT_H
#include <stdbool.h>
#include <stdint.h>

/* One piece of a format: literal text, or a conversion. */
typedef struct FmtItem {
    bool conv;          /* a conversion (else literal text) */
    int64_t start, end; /* its bytes in the format: [start, end); `%%` is literal "%" */
    char spec[32];      /* conversion: flags, width and precision as written ("-08.3") */
    char c;             /* conversion: d i u o x X e E f F g G a A */
    int64_t c_at;       /* conversion: the offset of its conversion character */
} FmtItem;

/* Where a format is wrong: bytes [at, at + len) and what to say (a fix, or
 * NULL). */
typedef struct FmtError {
    int64_t at, len;
    char msg[160];
    const char *fix;
} FmtError;

/* Splits fmt (n bytes) into items (at most cap; *nitems of them).  False,
 * with *err, for an unsupported or malformed conversion. */
bool fmt_parse(const char *fmt, int64_t n, FmtItem *items, int cap, int *nitems, FmtError *err);
/* Whether conversion c prints a floating value (else an integer). */
bool fmt_is_float_conv(char c);
#endif
