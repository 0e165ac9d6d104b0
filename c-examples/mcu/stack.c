/*
 * stack.c -- the stack the library's calls need on the target, measured by painting: the
 * free RAM between the end of .bss and the stack pointer is filled with a pattern, one
 * call runs, and the lowest word no longer holding the pattern marks how deep the call's
 * stack went (its high-water mark, from the caller's stack pointer down).
 *
 * Measured, each from a fresh paint:
 *   compact   dlx3_init_compact on the 8-queens image in flash, then its whole search
 *   wide      dlx3_init_preloaded on the same image (a 32-bit workspace of 7.5 KB; left
 *             out with -DSTACK_WIDE=0 on parts with less RAM), then its whole search
 *   text      dlx3_init, dlx3_parse of a matrix with colors and multiplicities (Knuth's
 *             text format), then its search: once in order, once randomized (s17464)
 *
 * Prints one line per workspace and a summary line
 *     stack: init N, search M bytes at most (limit L)
 * and exits with 0 when every count is right and every mark is at most STACK_LIMIT bytes
 * (1 if a count or a call is wrong, 2 if a mark is over the limit, 3 if the stack reached
 * the end of .bss: the measurement is void).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "xcover.h"
#include "queens8_matrix.h"

#ifndef STACK_LIMIT
#define STACK_LIMIT 1024u
#endif
#ifndef STACK_WIDE
#define STACK_WIDE 1
#endif

/* mix00 of the DLX3 conformance corpus: multiplicities (0:2|P0, 2|P2), secondary items
 * with colors; 5 solutions. */
static const char text_matrix[] = "0:2|P0 1|P1 2|P2 | s0 s1\n"
                                  "P0 P2 P1\n"
                                  "P1 P2 P0\n"
                                  "P0 P2 P1\n"
                                  "P0\n"
                                  "P1\n"
                                  "s1:b s0:a\n"
                                  "P0 P1 P2\n"
                                  "P1 s0:a s1:a P0 P2\n"
                                  "s1:a P2 P0\n";
#define TEXT_SOLUTIONS 5u
#define TEXT_ITEMS 32u
#define TEXT_NODES 64u
#define TEXT_LEVELS 16u

#define MAX2(a, b) ((a) > (b) ? (a) : (b))
#if STACK_WIDE
#define WIDE_SIZE QUEENS8_WORKSPACE_SIZE(QUEENS8_LEVELS)
#else
#define WIDE_SIZE 0
#endif
#define RAM_SIZE                                                                                 \
    MAX2(MAX2(QUEENS8_COMPACT_WORKSPACE_SIZE(QUEENS8_LEVELS), WIDE_SIZE),                        \
         XCOVER_DLX3_WORKSPACE_SIZE(TEXT_ITEMS, TEXT_NODES, TEXT_LEVELS))

/* One buffer for every workspace in turn. */
static XCOVER_ALIGNED_BUFFER(ram, RAM_SIZE);

/* picolibc's linker script: the end of .bss, where the free RAM below the stack starts. */
extern uint32_t __heap_start[];

#define PAINT 0xc5c5c5c5u
/* Bytes right under the caller's stack pointer left unpainted (what painting and the
 * measuring function use themselves). */
#define GUARD 64u

static inline __attribute__((always_inline)) uintptr_t stack_pointer(void)
{
    uintptr_t sp;
#if defined(__riscv)
    __asm__ volatile("mv %0, sp" : "=r"(sp));
#else
    __asm__ volatile("mov %0, sp" : "=r"(sp));
#endif
    return sp;
}

/* The caller's stack pointer when it painted. */
static uintptr_t painted_sp;
static int overflowed;

/* Paints from the end of .bss to GUARD bytes under the stack pointer. A macro, so that it
 * runs in main's frame and paints under the stack pointer the measured call starts from. */
#define PAINT_STACK()                                                                            \
    do {                                                                                         \
        volatile uint32_t *p_ = __heap_start;                                                    \
        painted_sp = stack_pointer();                                                            \
        while ((uintptr_t)p_ < painted_sp - GUARD)                                               \
            *p_++ = PAINT;                                                                       \
    } while (0)

/* Bytes of stack used under painted_sp since PAINT_STACK (GUARD when the call stayed
 * within the unpainted part). */
static __attribute__((noinline)) unsigned stack_used(void)
{
    const volatile uint32_t *p = __heap_start;
    if (*p != PAINT)
        overflowed = 1;
    while ((uintptr_t)p < painted_sp - GUARD && *p == PAINT)
        p++;
    return (unsigned)(painted_sp - (uintptr_t)p);
}

static unsigned max_init, max_search;
static int wrong;

static void note(const char *what, unsigned init, unsigned search)
{
    if (init > max_init)
        max_init = init;
    if (search > max_search)
        max_search = search;
    printf("%-22s init %4u bytes, search %4u bytes\n", what, init, search);
}

static void check(const char *what, xcover_status status, xcover_status expected)
{
    if (status != expected) {
        printf("stack: %s: %s\n", what, xcover_status_message(status));
        wrong = 1;
    }
}

/* Runs the search of `ws` to its end, returning the solutions. */
#define SEARCH(ws, solutions, status)                                                            \
    do {                                                                                         \
        solutions = 0;                                                                           \
        while ((status = dlx3_solve_step(ws, UINT64_MAX)) == XCOVER_SOLUTION)                    \
            solutions++;                                                                         \
    } while (0)

static void count(const char *what, unsigned solutions, unsigned expected)
{
    if (solutions != expected) {
        printf("stack: %s: %u solutions, expected %u\n", what, solutions, expected);
        wrong = 1;
    }
}

int main(void)
{
    dlx3_workspace *ws;
    xcover_status status;
    unsigned solutions, init, parse, search;
    dlx3_settings settings = dlx3_settings_DEFAULT;
    size_t items, nodes;
    int randomized;

    PAINT_STACK();
    status = dlx3_init_compact(ram.bytes, sizeof ram.bytes, &queens8_image, QUEENS8_LEVELS, NULL,
                               &ws);
    init = stack_used();
    check("dlx3_init_compact", status, XCOVER_OK);
    PAINT_STACK();
    SEARCH(ws, solutions, status);
    search = stack_used();
    check("compact search", status, XCOVER_DONE);
    count("compact search", solutions, 92);
    dlx3_release(ws);
    note("compact 8 queens:", init, search);

#if STACK_WIDE
    PAINT_STACK();
    status = dlx3_init_preloaded(ram.bytes, sizeof ram.bytes, &queens8_image, QUEENS8_LEVELS,
                                 NULL, &ws);
    init = stack_used();
    check("dlx3_init_preloaded", status, XCOVER_OK);
    PAINT_STACK();
    SEARCH(ws, solutions, status);
    search = stack_used();
    check("wide search", status, XCOVER_DONE);
    count("wide search", solutions, 92);
    dlx3_release(ws);
    note("preloaded 8 queens:", init, search);
#else
    printf("preloaded 8 queens:    left out (its 32-bit workspace takes %u bytes)\n",
           (unsigned)QUEENS8_WORKSPACE_SIZE(QUEENS8_LEVELS));
#endif

    check("dlx3_text_capacity",
          dlx3_text_capacity((const uint8_t *)text_matrix, strlen(text_matrix), &items, &nodes),
          XCOVER_OK);
    if (items > TEXT_ITEMS || nodes > TEXT_NODES) {
        printf("stack: the text matrix needs %u items, %u nodes\n", (unsigned)items,
               (unsigned)nodes);
        return 1;
    }
    for (randomized = 0; randomized <= 1; randomized++) {
        settings.randomize = (uint32_t)randomized;
        settings.random_seed = randomized ? 17464 : 0;
        PAINT_STACK();
        status = dlx3_init(ram.bytes, sizeof ram.bytes, TEXT_ITEMS, TEXT_NODES, TEXT_LEVELS,
                           &settings, &ws);
        init = stack_used();
        check("dlx3_init", status, XCOVER_OK);
        PAINT_STACK();
        status = dlx3_parse(ws, (const uint8_t *)text_matrix, strlen(text_matrix), NULL);
        parse = stack_used();
        check("dlx3_parse", status, XCOVER_OK);
        PAINT_STACK();
        SEARCH(ws, solutions, status);
        search = stack_used();
        check("text search", status, XCOVER_DONE);
        count("text search", solutions, TEXT_SOLUTIONS);
        dlx3_release(ws);
        note(randomized ? "text, randomized:" : "text (colors, mult.):", MAX2(init, parse),
             search);
        printf("%-22s (dlx3_init %u, dlx3_parse %u)\n", "", init, parse);
    }

    printf("stack: init %u, search %u bytes at most (limit %u); %u bytes free for the stack "
           "under main\n",
           max_init, max_search, (unsigned)STACK_LIMIT,
           (unsigned)(painted_sp - (uintptr_t)__heap_start));
    if (overflowed) {
        printf("stack: the stack reached the end of .bss\n");
        return 3;
    }
    if (wrong)
        return 1;
    return max_init <= STACK_LIMIT && max_search <= STACK_LIMIT ? 0 : 2;
}
