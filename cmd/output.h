/* output.h: writing output files the way build tools need: into a temporary
 * file beside the target, then renamed over it, and only when the content
 * changed (stable timestamps for make); temporaries are removed on failure
 * and on SIGINT/SIGTERM, so no partial output is ever left behind. */
#ifndef TILEC_OUTPUT_H
#define TILEC_OUTPUT_H
#include <stdbool.h>
#include <stddef.h>

/* An in-memory output buffer. */
typedef struct OutBuf {
    char *data;
    size_t len;
} OutBuf;

void output_install_signal_handlers(void);
/* Writes buf to path atomically unless path already holds exactly buf.
 * Returns false (after printing "tilec: error: ...") on I/O failure. */
bool output_commit(const char *path, const char *data, size_t len);

/* Several outputs that appear together or not at all (the .cu and its .h):
 * each is written to a temporary beside its target first; only when all
 * are written are they renamed into place. */
typedef struct OutputFile {
    const char *path;
    const char *data;
    size_t len;
} OutputFile;
bool output_commit_all(const OutputFile *files, int n);
#endif
