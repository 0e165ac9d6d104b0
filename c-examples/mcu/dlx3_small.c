/*
 * dlx3_small.c -- c-examples/dlx3.c (Knuth's command line over the C API) for parts with
 * a few KB of RAM, unchanged but for its memory: dlx3.c asks malloc for 64 KiB to read
 * the input into and gives the workspace Knuth's 500 levels (12 KB of level records).
 * Here both come from one static arena of MCU_ARENA_BYTES:
 *
 *   - the input is read into the start of the arena;
 *   - the workspace is sized for the items and nodes the text's lines can hold (not the
 *     bound from its length alone) and takes the rest of the arena, with as many levels
 *     as fit, at most Knuth's 500.
 *
 * A case that cannot run so exits with status 124 and says why on the console (the
 * semihosting console, not the redirected streams): its input does not fit, or its
 * workspace does not fit even with one level. A search that goes deeper than the levels
 * that fit ends as Knuth's does at 500 ("Too many levels!", exit status 252): the harness
 * tells it apart from the real thing by the levels printed on the console.
 *
 * Built like dlx3.c with semihost_main.c (streams and arguments over semihosting).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "xcover.h"

#ifndef MCU_ARENA_BYTES
#define MCU_ARENA_BYTES 8192
#endif

static XCOVER_ALIGNED_BUFFER(arena, MCU_ARENA_BYTES);
/* The input's end (the workspace starts at the next multiple of 8), and the levels the
 * workspace got. */
static size_t text_end, levels_given;

/* The console: picolibc's own stdout (the build renames `stdout` to the file that
 * semihost_main.c opens). */
#undef stdout
extern FILE *const stdout;
static void say(const char *what, unsigned long a, unsigned long b)
{
    fprintf(stdout, "dlx3_small: %s %lu %lu\n", what, a, b);
}
#define stdout (*mcu_stdout)

static void does_not_fit(const char *what, unsigned long need)
{
    say(what, need, (unsigned long)MCU_ARENA_BYTES);
    exit(124);
}

/* The free RAM between the heap (semihosting's FILEs) and the stack is painted when the
 * input is read; at exit the stack's high-water mark and the room left are printed. */
#define PAINT 0xc5c5c5c5u
static uint32_t *paint_low, *paint_high;
void *sbrk(ptrdiff_t increment); /* picolibc's, where the heap ends */

static void stack_report(void)
{
    uint32_t *p = paint_low;
    while (p < paint_high && *p == PAINT)
        p++;
    say("stack", (unsigned long)((char *)paint_high - (char *)p),
        (unsigned long)((char *)p - (char *)paint_low));
}

static void paint_free_ram(void)
{
    uint32_t here;
    paint_low = (uint32_t *)(((uintptr_t)sbrk(0) + 3) & ~(uintptr_t)3);
    paint_high = (uint32_t *)(((uintptr_t)&here - 256) & ~(uintptr_t)3);
    for (uint32_t *p = paint_low; p < paint_high; p++)
        *p = PAINT;
    atexit(stack_report);
}

/* The first allocation is dlx3.c's input buffer, the second its workspace. */
static void *small_malloc(size_t size)
{
    static int calls;
    (void)size;
    if (calls++ == 0) {
        paint_free_ram();
        return arena.bytes;
    }
    return arena.bytes + ((text_end + 7) & ~(size_t)7);
}

static void *small_realloc(void *p, size_t size)
{
    (void)p;
    does_not_fit("input over", (unsigned long)size);
    return NULL;
}

static void small_free(void *p)
{
    (void)p;
}

/* Reads the input into the arena, never past its end. */
static size_t small_fread(void *ptr, size_t size, size_t n, FILE *f)
{
    unsigned char *p = ptr;
    size_t room = (size_t)(arena.bytes + sizeof arena.bytes - p), got;
    if (size != 1 || p < arena.bytes || p > arena.bytes + sizeof arena.bytes)
        return fread(ptr, size, n, f);
    got = fread(p, 1, n < room ? n : room, f);
    text_end = (size_t)(p + got - arena.bytes);
    if (got == room && fgetc(f) != EOF)
        does_not_fit("input over", (unsigned long)sizeof arena.bytes);
    return got;
}

/* dlx3_text_capacity's bounds (from the input's length alone: 16.6 KB of workspace for
 * the 921 bytes of 8 queens), lowered to bounds from the text's lines: no more items than
 * the most tokens on a line that is not a comment, no more option nodes than such tokens,
 * no more options than such lines (17 B per input byte at worst, 9 for 8 queens). */
static xcover_status small_text_capacity(const uint8_t *text, size_t len, size_t *items,
                                         size_t *nodes)
{
    size_t i = 0, most = 0, tokens = 0, lines = 0, bound;
    xcover_status status = dlx3_text_capacity(text, len, items, nodes);
    if (status != XCOVER_OK)
        return status;
    while (i < len) {
        size_t on_line = 0;
        int comment = text[i] == '|';
        for (; i < len && text[i] != '\n'; i++)
            if (text[i] != ' ' && text[i] != '\t' && (i == 0 || text[i - 1] == ' '
                                                     || text[i - 1] == '\t' || text[i - 1] == '\n'))
                on_line++;
        i++;
        if (!comment) {
            most = on_line > most ? on_line : most;
            tokens += on_line;
            lines++;
        }
    }
    if (most < *items)
        *items = most ? most : 1;
    bound = *items + 2 + tokens + lines + 1;
    if (bound < *nodes)
        *nodes = bound;
    return XCOVER_OK;
}

/* The size for the levels that fit after the input, at most `levels`. */
static xcover_status small_workspace_size(size_t items, size_t nodes, size_t levels,
                                          size_t *size, size_t *align)
{
    size_t room = sizeof arena.bytes - ((text_end + 7) & ~(size_t)7), one, two, fit;
    xcover_status status = dlx3_workspace_size(items, nodes, 1, &one, align);
    if (status != XCOVER_OK)
        return status;
    if (one > room)
        does_not_fit("workspace over", (unsigned long)one);
    if ((status = dlx3_workspace_size(items, nodes, 2, &two, align)) != XCOVER_OK)
        return status;
    fit = 1 + (room - one) / (two - one);
    levels_given = fit < levels ? fit : levels;
    say("levels", (unsigned long)levels_given, (unsigned long)levels);
    return dlx3_workspace_size(items, nodes, levels_given, size, align);
}

static xcover_status small_init(void *buf, size_t len, size_t items, size_t nodes,
                                size_t levels, const dlx3_settings *settings,
                                dlx3_workspace **handle)
{
    (void)levels;
    return dlx3_init(buf, len, items, nodes, levels_given, settings, handle);
}

#define malloc small_malloc
#define realloc small_realloc
#define free small_free
#define fread small_fread
#define dlx3_text_capacity small_text_capacity
#define dlx3_workspace_size small_workspace_size
#define dlx3_init small_init
#include "../dlx3.c"
