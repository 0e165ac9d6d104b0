/* Self-check helpers shared by the C examples that test the library's statuses (builder.c,
 * gridcheck.c --misuse, misuse.c): EXPECT a status, CHECK a condition, count the failures,
 * and the guard-byte pattern put around workspaces and outputs to catch stray writes. */
#ifndef XCOVER_EXAMPLES_CHECK_H
#define XCOVER_EXAMPLES_CHECK_H

#include <stdio.h>

#include "xcover.h"

/* Guard zone bytes on each side of a checked buffer, and their fill value. */
#define GUARD 64
#define GUARD_BYTE 0xA5

/* Failed expectations so far; an example exits non-zero when there is any. */
static int failures;

/* `call` must return the status `want`. */
#define EXPECT(call, want)                                                                 \
    do {                                                                                   \
        xcover_status got_ = (call);                                                       \
        if (got_ != (want)) {                                                              \
            printf("%s:%d: %s returned %u (%s), expected %s\n", __FILE__, __LINE__, #call, \
                   (unsigned)got_, xcover_status_message(got_), #want);                    \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

/* `cond` must hold. */
#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            printf("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

#endif
