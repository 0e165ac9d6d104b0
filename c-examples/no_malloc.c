/*
 * no_malloc.c -- malloc, calloc, realloc and free that abort() once armed, linked into
 * preloaded.c: if libxcover.a (or anything main calls) allocated, the test would die.
 * They are armed only while main runs, so the C runtime's own start-up and shut-down are
 * not counted against the library.
 */
#include <stdlib.h>

#include "no_malloc.h"

static int armed;

void no_malloc_arm(int on)
{
    armed = on;
}

static void *refuse(void)
{
    if (armed)
        abort();
    return NULL; /* before main: report failure rather than pretend */
}

void *malloc(size_t size)
{
    (void)size;
    return refuse();
}

void *calloc(size_t count, size_t size)
{
    (void)count;
    (void)size;
    return refuse();
}

void *realloc(void *ptr, size_t size)
{
    (void)ptr;
    (void)size;
    return refuse();
}

void free(void *ptr)
{
    if (ptr != NULL)
        abort(); /* nothing was ever allocated, so nothing can be freed */
}
