/* check.h: the tiny assertion kit every unit test uses.  A test program calls
 * CHECK* as often as it likes and ends with `return check_done("name");`,
 * which prints "name: N passed, N failed" (the line tests/run.sh adds up) and
 * returns the exit status.  Failures print file:line and the values seen. */
#ifndef TILEC_CHECK_H
#define TILEC_CHECK_H
#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_passed_, check_failed_;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (cond) {                                                        \
            check_passed_++;                                               \
        } else {                                                           \
            check_failed_++;                                               \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__,        \
                    __LINE__, #cond);                                      \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
        }                                                                  \
    } while (0)

#define CHECK_STR(got, want)                                               \
    do {                                                                   \
        const char *g_ = (got), *w_ = (want);                              \
        CHECK(g_ && w_ && strcmp(g_, w_) == 0, "got \"%s\", want \"%s\"",  \
              g_ ? g_ : "(null)", w_ ? w_ : "(null)");                     \
    } while (0)

#define CHECK_INT(got, want)                                               \
    do {                                                                   \
        long long g_ = (long long)(got), w_ = (long long)(want);           \
        CHECK(g_ == w_, "got %lld, want %lld", g_, w_);                    \
    } while (0)

static inline int check_done(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_passed_, check_failed_);
    return check_failed_ ? 1 : 0;
}
#endif
