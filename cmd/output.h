/* output.h: writing output files the way build tools need: into a temporary
 * file beside the target, then renamed over it; an output whose content did
 * not change is only touched (so make sees every target of a rule renewed and
 * settles), or left alone entirely in write-if-changed mode (for Ninja's
 * restat); temporaries are removed on failure and on SIGINT/SIGTERM, so no
 * partial output is ever left behind.  A special file (/dev/null, a FIFO)
 * is written in place: it cannot be replaced atomically, and must not be. */
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
/* What happens to an output whose bytes would not change: by default its
 * modification time is set to now (as if rewritten: make compares every
 * target of a rule with its prerequisites, so an old time would keep the
 * rule out of date forever); with write_if_changed true it is not touched at
 * all (build tools that re-stat outputs, such as Ninja, then skip what
 * depends on it). */
void output_set_write_if_changed(bool write_if_changed);
/* Writes buf to path atomically; when path already holds exactly buf it is
 * touched or left alone, as output_set_write_if_changed says.
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
/* Whether path names an existing special file (a device such as
 * /dev/null, a FIFO, a socket): the commits above write such a file in
 * place, and the driver derives no sibling outputs (FILE.h) from it. */
bool output_is_special(const char *path);
#endif
