/*
 * misuse.c -- every kind of misuse gets its status, the workspace stays usable or is
 * clearly dead, and nothing is written outside the caller's buffer (guard bytes around
 * every workspace are checked after each step).
 *
 * Covered for every dlx3_* function: NULL and misaligned pointers in each argument (a
 * refused call writes no output and no byte of the buffer), zero, short and exact buffers,
 * every capacity (items, nodes, levels, name length, output sizes, size_t overflow) at
 * exactly enough and one less, every handle-taking call in every state of the life cycle
 * (fresh, items, options, ready, preloaded, searching, solution, done, dead, released:
 * calls out of order, re-init over a live workspace, reading a solution when there is
 * none, use after release), and mem budgets of 0. .ci/sanitize runs it under
 * AddressSanitizer and UndefinedBehaviorSanitizer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "queens8_matrix.h"
#include "xcover.h"

/* A workspace buffer of `size` bytes between two guard zones, 8-aligned. */
typedef struct {
    unsigned char *block; /* GUARD + size + GUARD bytes */
    unsigned char *buf;
    size_t size;
} guarded;

static guarded make_guarded(size_t size)
{
    guarded g;
    g.size = size;
    g.block = malloc(GUARD + size + GUARD);
    if (!g.block)
        exit(2);
    memset(g.block, GUARD_BYTE, GUARD + size + GUARD);
    g.buf = g.block + GUARD; /* malloc alignment + 64 keeps 8-byte alignment */
    return g;
}

static void check_guards(const guarded *g, int line)
{
    size_t i;
    for (i = 0; i < GUARD; i++) {
        if (g->block[i] != GUARD_BYTE || g->block[GUARD + g->size + i] != GUARD_BYTE) {
            printf("misuse.c:%d: guard byte %s the buffer overwritten\n", line,
                   g->block[i] != GUARD_BYTE ? "before" : "after");
            failures++;
            return;
        }
    }
}

static const char queens4[] = "| 4 queens\n"
                              "r0 r1 r2 r3 c0 c1 c2 c3 | a0 a1 a2 a3 a4 a5 a6 b0 b1 b2 b3 b4 b5 b6\n"
                              "r0 c0 a0 b3\nr0 c1 a1 b2\nr0 c2 a2 b1\nr0 c3 a3 b0\n"
                              "r1 c0 a1 b4\nr1 c1 a2 b3\nr1 c2 a3 b2\nr1 c3 a4 b1\n"
                              "r2 c0 a2 b5\nr2 c1 a3 b4\nr2 c2 a4 b3\nr2 c3 a5 b2\n"
                              "r3 c0 a3 b6\nr3 c1 a4 b5\nr3 c2 a5 b4\nr3 c3 a6 b3\n";

static size_t workspace_size(size_t items, size_t nodes, size_t levels)
{
    size_t size = 0, align = 0;
    EXPECT(dlx3_workspace_size(items, nodes, levels, &size, &align), XCOVER_OK);
    CHECK(align == DLX3_WORKSPACE_ALIGN);
    CHECK(size == XCOVER_DLX3_WORKSPACE_SIZE(items, nodes, levels));
    return size;
}

/* Solves to the end; returns the number of solutions (or -1 on an error status). */
static long solve_all(dlx3_workspace *ws)
{
    long n = 0;
    xcover_status st;
    while ((st = dlx3_solve_step(ws, UINT64_MAX)) == XCOVER_SOLUTION)
        n++;
    return st == XCOVER_DONE ? n : -1;
}

static void null_and_alignment(void)
{
    size_t size, align, items, nodes;
    dlx3_settings settings;
    dlx3_workspace *ws = NULL;
    uint32_t state;
    dlx3_stats stats;
    guarded g = make_guarded(workspace_size(30, 200, 10));
    char name[9];

    EXPECT(dlx3_settings_default(NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_workspace_size(3, 10, 5, NULL, &align), XCOVER_NULL_POINTER);
    EXPECT(dlx3_workspace_size(0, 10, 5, &size, &align), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_workspace_size((size_t)-1 / 4, 10, 5, &size, &align), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_text_capacity(NULL, 5, &items, &nodes), XCOVER_NULL_POINTER);
    EXPECT(dlx3_init(NULL, 100000, 30, 200, 10, NULL, &ws), XCOVER_NULL_POINTER);
    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_init(g.buf + 1, g.size - 1, 30, 200, 10, NULL, &ws), XCOVER_MISALIGNED);
    EXPECT(dlx3_init(g.buf + 4, g.size - 4, 30, 200, 10, NULL, &ws), XCOVER_MISALIGNED);
    EXPECT(dlx3_init(g.buf, g.size - 1, 30, 200, 10, NULL, &ws), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(dlx3_init(g.buf, 16, 30, 200, 10, NULL, &ws), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 0, NULL, &ws), XCOVER_BAD_ARGUMENT);
    dlx3_settings_default(&settings);
    settings.reserved = 1;
    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, &settings, &ws), XCOVER_BAD_ARGUMENT);
    CHECK(ws == NULL); /* *handle is written only on success */
    check_guards(&g, __LINE__);

    EXPECT(dlx3_parse(NULL, (const unsigned char *)"A\n", 2, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_solve_step(NULL, 1), XCOVER_NULL_POINTER);
    EXPECT(dlx3_get_stats(NULL, &stats), XCOVER_NULL_POINTER);
    EXPECT(dlx3_get_state(NULL, &state), XCOVER_NULL_POINTER);
    EXPECT(dlx3_release(NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_item_name(NULL, 1, name, sizeof name), XCOVER_NULL_POINTER);
    {
        static const dlx3_writers none = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
        EXPECT(dlx3_set_writers(NULL, &none), XCOVER_NULL_POINTER);
    }
    /* A buffer that never held a workspace: no magic number. */
    memset(g.buf, 0, g.size);
    EXPECT(dlx3_solve_step((dlx3_workspace *)(void *)g.buf, 1), XCOVER_NOT_INITIALIZED);
    EXPECT(dlx3_get_stats((dlx3_workspace *)(void *)g.buf, &stats), XCOVER_NOT_INITIALIZED);
    EXPECT(dlx3_solve_step((dlx3_workspace *)(void *)(g.buf + 2), 1), XCOVER_MISALIGNED);

    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_parse(ws, NULL, 5, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_get_stats(ws, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_get_stats(ws, (dlx3_stats *)(void *)((char *)&stats + 1)), XCOVER_MISALIGNED);
    EXPECT(dlx3_set_writers(ws, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_get_state(ws, &state), XCOVER_OK);
    CHECK(state == DLX3_STATE_ITEMS);
    check_guards(&g, __LINE__);
    EXPECT(dlx3_release(ws), XCOVER_OK);
    EXPECT(dlx3_solve_step(ws, 1), XCOVER_NOT_INITIALIZED); /* use after release */
    free(g.block);
}

static void order_and_reinit(void)
{
    size_t len;
    uint32_t option, state;
    char name[9];
    dlx3_workspace *ws = NULL, *other = NULL;
    guarded g = make_guarded(workspace_size(30, 200, 10));

    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_solve_step(ws, UINT64_MAX), XCOVER_BAD_STATE);   /* nothing to solve yet */
    EXPECT(dlx3_solution_len(ws, &len), XCOVER_BAD_STATE);        /* no solution yet */
    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, &other), XCOVER_ALREADY_INITIALIZED);
    CHECK(other == NULL);
    EXPECT(dlx3_parse(ws, (const unsigned char *)queens4, strlen(queens4), NULL), XCOVER_OK);
    EXPECT(dlx3_parse(ws, (const unsigned char *)queens4, strlen(queens4), NULL), XCOVER_BAD_STATE);
    EXPECT(dlx3_solution_option(ws, 0, &option, NULL), XCOVER_BAD_STATE);
    EXPECT(dlx3_item_name(ws, 1, name, 2), XCOVER_BUFFER_TOO_SMALL); /* "r0" needs 3 */
    EXPECT(dlx3_item_name(ws, 99, name, sizeof name), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_item_name(ws, 1, name, sizeof name), XCOVER_OK);
    CHECK(strcmp(name, "r0") == 0);
    /* Still usable after all the refused calls: */
    EXPECT(dlx3_solve_step(ws, UINT64_MAX), XCOVER_SOLUTION);
    EXPECT(dlx3_solution_len(ws, &len), XCOVER_OK);
    CHECK(len == 4);
    EXPECT(dlx3_solution_option(ws, len, &option, NULL), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_option_len(ws, 0, &len), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_option_len(ws, 17, &len), XCOVER_BAD_ARGUMENT);
    CHECK(solve_all(ws) == 1); /* 4 queens: 2 solutions, one seen above */
    EXPECT(dlx3_solve_step(ws, UINT64_MAX), XCOVER_DONE); /* idempotent */
    EXPECT(dlx3_get_state(ws, &state), XCOVER_OK);
    CHECK(state == DLX3_STATE_DONE);
    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, &other), XCOVER_ALREADY_INITIALIZED);
    EXPECT(dlx3_release(ws), XCOVER_OK);
    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, &other), XCOVER_OK); /* after release */
    check_guards(&g, __LINE__);
    free(g.block);
}

static void capacities_and_errors(void)
{
    dlx3_workspace *ws = NULL;
    dlx3_parse_error where;
    dlx3_stats stats;
    uint32_t state;
    guarded g = make_guarded(workspace_size(3, 200, 10));
    guarded n = make_guarded(workspace_size(30, 40, 10));
    guarded l = make_guarded(workspace_size(30, 200, 2));

    /* Too many items for the capacity: Knuth's "Too many items", workspace dead. */
    EXPECT(dlx3_init(g.buf, g.size, 3, 200, 10, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_parse(ws, (const unsigned char *)queens4, strlen(queens4), &where),
           XCOVER_PARSE_TOO_MANY_ITEMS);
    CHECK(where.status == XCOVER_PARSE_TOO_MANY_ITEMS && where.line == 2);
    CHECK(where.message && strcmp(where.message, "Too many items") == 0);
    EXPECT(dlx3_get_state(ws, &state), XCOVER_OK);
    CHECK(state == DLX3_STATE_DEAD);
    EXPECT(dlx3_solve_step(ws, UINT64_MAX), XCOVER_DEAD);
    EXPECT(dlx3_get_stats(ws, &stats), XCOVER_OK); /* counters stay readable */
    EXPECT(dlx3_init(g.buf, g.size, 3, 200, 10, NULL, &ws), XCOVER_OK); /* dead: may reinit */
    check_guards(&g, __LINE__);

    /* Too many nodes. */
    EXPECT(dlx3_init(n.buf, n.size, 30, 40, 10, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_parse(ws, (const unsigned char *)queens4, strlen(queens4), &where),
           XCOVER_PARSE_TOO_MANY_NODES);
    EXPECT(dlx3_solve_step(ws, 1), XCOVER_DEAD);
    check_guards(&n, __LINE__);

    /* Too many levels: 4 queens needs 4 levels. */
    EXPECT(dlx3_init(l.buf, l.size, 30, 200, 2, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_parse(ws, (const unsigned char *)queens4, strlen(queens4), NULL), XCOVER_OK);
    EXPECT(dlx3_solve_step(ws, UINT64_MAX), XCOVER_TOO_MANY_LEVELS);
    EXPECT(dlx3_solve_step(ws, UINT64_MAX), XCOVER_DEAD);
    check_guards(&l, __LINE__);

    /* Malformed text: Knuth's message and position. */
    EXPECT(dlx3_init(l.buf, l.size, 30, 200, 2, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_parse(ws, (const unsigned char *)"A B\n| c\nA X\n", 12, &where),
           XCOVER_PARSE_UNKNOWN_ITEM_NAME);
    CHECK(where.line == 3 && where.position == 2 && where.line_offset == 8 && where.line_length == 4);
    EXPECT(dlx3_init(l.buf, l.size, 30, 200, 2, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_parse(ws, (const unsigned char *)"A B\nA B", 7, &where),
           XCOVER_PARSE_OPTION_LINE_TOO_LONG); /* no final newline */
    EXPECT(dlx3_init(l.buf, l.size, 30, 200, 2, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_parse(ws, (const unsigned char *)"", 0, &where), XCOVER_PARSE_NO_ITEMS);
    check_guards(&l, __LINE__);
    free(g.block);
    free(n.block);
    free(l.block);
}

/* Images come from C: the library must refuse inconsistent ones, not trust them. */
static void bad_images(void)
{
    static dlx3_node16 nodes[QUEENS8_LAST_NODE + 1];
    static dlx3_item16 items[QUEENS8_LAST_ITM + 1];
    static dlx3_node wide_nodes[QUEENS8_LAST_NODE + 1];
    static dlx3_item wide_items[QUEENS8_LAST_ITM + 1];
    dlx3_image image = queens8_image;
    dlx3_workspace *ws = NULL;
    dlx3_settings randomized;
    size_t size = 0, align = 0, k;
    long count;
    guarded g = make_guarded(QUEENS8_WORKSPACE_SIZE(10));
    guarded c = make_guarded(QUEENS8_COMPACT_WORKSPACE_SIZE(10));

    EXPECT(dlx3_preloaded_workspace_size(&image, 10, &size, &align), XCOVER_OK);
    CHECK(size == g.size);
    EXPECT(dlx3_compact_workspace_size(&image, 10, &size, &align), XCOVER_OK);
    CHECK(size == c.size && c.size < g.size);
    EXPECT(dlx3_init_preloaded(g.buf, g.size - 8, &image, 10, NULL, &ws), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(dlx3_init_compact(c.buf, c.size - 8, &image, 10, NULL, &ws), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(dlx3_init_preloaded(g.buf, g.size, NULL, 10, NULL, &ws), XCOVER_NULL_POINTER);
    EXPECT(dlx3_init_compact(c.buf, c.size, NULL, 10, NULL, &ws), XCOVER_NULL_POINTER);
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_OK);
    count = solve_all(ws);
    CHECK(count > 0);
    EXPECT(dlx3_release(ws), XCOVER_OK);
    EXPECT(dlx3_init_compact(c.buf, c.size, &image, 10, NULL, &ws), XCOVER_OK);
    CHECK(solve_all(ws) == count);
    EXPECT(dlx3_release(ws), XCOVER_OK);
    /* Compact engines carry no random generator. */
    dlx3_settings_default(&randomized);
    randomized.randomize = 1;
    EXPECT(dlx3_init_compact(c.buf, c.size, &image, 10, &randomized, &ws), XCOVER_BAD_ARGUMENT);
    check_guards(&g, __LINE__);
    check_guards(&c, __LINE__);

    image.version = 0;
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    image = queens8_image;
    image.names = NULL;
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    image = queens8_image;
    image.second = image.last_itm + 1;
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    image = queens8_image;
    image.options += 1;
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    EXPECT(dlx3_init_compact(c.buf, c.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);

    memcpy(nodes, queens8_nodes16, sizeof nodes);
    memcpy(items, queens8_items16, sizeof items);
    image = queens8_image;
    image.nodes16 = nodes;
    image.items16 = items;
    nodes[QUEENS8_LAST_ITM + 5].down = QUEENS8_LAST_NODE + 1000u; /* a link out of range */
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    EXPECT(dlx3_init_compact(c.buf, c.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    memcpy(nodes, queens8_nodes16, sizeof nodes);
    nodes[QUEENS8_LAST_ITM + 5].itm = 9999; /* an item that does not exist */
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    EXPECT(dlx3_init_compact(c.buf, c.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    memcpy(nodes, queens8_nodes16, sizeof nodes);
    nodes[1].itm += 1; /* a wrong list length */
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    EXPECT(dlx3_init_compact(c.buf, c.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    memcpy(nodes, queens8_nodes16, sizeof nodes);
    items[1].next = 7; /* a broken active list */
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    EXPECT(dlx3_init_compact(c.buf, c.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    memcpy(items, queens8_items16, sizeof items);
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_OK); /* repaired */
    EXPECT(dlx3_release(ws), XCOVER_OK);

    /* The same matrix with 32-bit records works with both init functions. */
    for (k = 0; k <= QUEENS8_LAST_NODE; k++) {
        wide_nodes[k].up = nodes[k].up;
        wide_nodes[k].down = nodes[k].down;
        wide_nodes[k].itm = nodes[k].itm;
        wide_nodes[k].color = nodes[k].color;
    }
    for (k = 0; k <= QUEENS8_LAST_ITM; k++) {
        wide_items[k].prev = items[k].prev;
        wide_items[k].next = items[k].next;
        wide_items[k].bound = items[k].bound;
        wide_items[k].slack = items[k].slack;
    }
    image.items = wide_items;
    image.nodes = wide_nodes;
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE); /* both forms */
    image.items16 = NULL;
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE); /* half a form */
    image.nodes16 = NULL;
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_OK);
    CHECK(solve_all(ws) == count);
    EXPECT(dlx3_release(ws), XCOVER_OK);
    EXPECT(dlx3_init_compact(c.buf, c.size, &image, 10, NULL, &ws), XCOVER_OK);
    CHECK(solve_all(ws) == count);
    EXPECT(dlx3_release(ws), XCOVER_OK);
    /* A value that does not fit 16 bits: refused by the compact workspace only. */
    wide_items[1].bound = 40000;
    wide_items[1].slack = 39999;
    EXPECT(dlx3_init_compact(c.buf, c.size, &image, 10, NULL, &ws), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_release(ws), XCOVER_OK);
    check_guards(&g, __LINE__);
    check_guards(&c, __LINE__);
    free(g.block);
    free(c.block);
}

/* ---- Every pointer argument of every function: NULL and misaligned ------------------ */

/* An output variable inside guard bytes: `at` is CELL_AT bytes in (8-aligned) or one more
 * (misaligned). A refused call must leave every byte of the cell as it was; a successful
 * one may write only its own output. */
#define CELL_AT 32
typedef union {
    uint64_t align;
    unsigned char bytes[CELL_AT + 128 + CELL_AT];
} cell;

static void *cell_at(cell *c, int misaligned)
{
    memset(c->bytes, GUARD_BYTE, sizeof c->bytes);
    return c->bytes + CELL_AT + (misaligned ? 1 : 0);
}

/* Nothing outside bytes [CELL_AT, CELL_AT + written) of the cell changed. */
static int cell_kept(const cell *c, size_t written)
{
    size_t i;
    for (i = 0; i < sizeof c->bytes; i++)
        if ((i < CELL_AT || i >= CELL_AT + written) && c->bytes[i] != GUARD_BYTE)
            return 0;
    return 1;
}

/* The whole guarded block (guards and buffer) still holds the fill pattern. */
static int block_untouched(const guarded *g)
{
    size_t i;
    for (i = 0; i < GUARD + g->size + GUARD; i++)
        if (g->block[i] != GUARD_BYTE)
            return 0;
    return 1;
}

static uint32_t state_of(dlx3_workspace *ws)
{
    uint32_t state = 0;
    EXPECT(dlx3_get_state(ws, &state), XCOVER_OK);
    return state;
}

static void sizing_arguments(void)
{
    cell a, b, c;
    dlx3_image image = queens8_image;
    dlx3_image *odd_image;
    union {
        dlx3_image image;
        unsigned char bytes[sizeof(dlx3_image) + 8];
    } shifted;
    const size_t huge = (size_t)-1;

    EXPECT(dlx3_settings_default(cell_at(&a, 1)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0));
    EXPECT(dlx3_settings_default(cell_at(&a, 0)), XCOVER_OK);
    CHECK(cell_kept(&a, sizeof(dlx3_settings)));

    /* dlx3_workspace_size: outputs untouched on every error, the first one included. */
    EXPECT(dlx3_workspace_size(3, 10, 5, cell_at(&a, 1), cell_at(&b, 0)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0) && cell_kept(&b, 0));
    EXPECT(dlx3_workspace_size(3, 10, 5, cell_at(&a, 0), cell_at(&b, 1)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0) && cell_kept(&b, 0));
    EXPECT(dlx3_workspace_size(3, 10, 5, cell_at(&a, 0), NULL), XCOVER_OK); /* align optional */
    CHECK(cell_kept(&a, sizeof(size_t)));
    EXPECT(dlx3_workspace_size(3, 1, 5, cell_at(&a, 0), cell_at(&b, 0)), XCOVER_BAD_ARGUMENT);
    CHECK(cell_kept(&a, 0) && cell_kept(&b, 0));
    EXPECT(dlx3_workspace_size(3, 0, 5, cell_at(&a, 0), NULL), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_workspace_size(3, 10, 0, cell_at(&a, 0), NULL), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_workspace_size(huge, 10, 5, cell_at(&a, 0), NULL), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_workspace_size(huge - 1, 10, 5, cell_at(&a, 0), NULL), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_workspace_size(3, huge / 8, 5, cell_at(&a, 0), NULL), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_workspace_size(3, huge / 16, 5, cell_at(&a, 0), NULL), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_workspace_size(3, 10, huge / 24, cell_at(&a, 0), NULL), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_workspace_size(3, 10, huge, cell_at(&a, 0), NULL), XCOVER_BAD_ARGUMENT);
    CHECK(cell_kept(&a, 0));

    /* dlx3_text_capacity */
    EXPECT(dlx3_text_capacity((const uint8_t *)"A\n", 2, NULL, cell_at(&b, 0)), XCOVER_NULL_POINTER);
    CHECK(cell_kept(&b, 0));
    EXPECT(dlx3_text_capacity((const uint8_t *)"A\n", 2, cell_at(&a, 0), NULL), XCOVER_NULL_POINTER);
    CHECK(cell_kept(&a, 0));
    EXPECT(dlx3_text_capacity((const uint8_t *)"A\n", 2, cell_at(&a, 1), cell_at(&b, 0)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0) && cell_kept(&b, 0));
    EXPECT(dlx3_text_capacity((const uint8_t *)"A\n", 2, cell_at(&a, 0), cell_at(&b, 1)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0) && cell_kept(&b, 0));
    EXPECT(dlx3_text_capacity(NULL, 0, cell_at(&a, 0), cell_at(&b, 0)), XCOVER_OK); /* empty text */
    CHECK(cell_kept(&a, sizeof(size_t)) && cell_kept(&b, sizeof(size_t)));

    /* dlx3_preloaded_workspace_size */
    shifted.bytes[0] = 0;
    odd_image = (dlx3_image *)(void *)(shifted.bytes + 4);
    memcpy(odd_image, &image, sizeof image);
    EXPECT(dlx3_preloaded_workspace_size(NULL, 10, cell_at(&a, 0), NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_preloaded_workspace_size(odd_image, 10, cell_at(&a, 0), NULL), XCOVER_MISALIGNED);
    EXPECT(dlx3_preloaded_workspace_size(&image, 10, NULL, cell_at(&b, 0)), XCOVER_NULL_POINTER);
    CHECK(cell_kept(&b, 0));
    EXPECT(dlx3_preloaded_workspace_size(&image, 10, cell_at(&a, 1), cell_at(&b, 0)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0) && cell_kept(&b, 0));
    EXPECT(dlx3_preloaded_workspace_size(&image, 10, cell_at(&a, 0), cell_at(&b, 1)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0) && cell_kept(&b, 0));
    EXPECT(dlx3_preloaded_workspace_size(&image, 0, cell_at(&a, 0), NULL), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_preloaded_workspace_size(&image, huge / 16, cell_at(&a, 0), NULL), XCOVER_BAD_ARGUMENT);
    image.last_node = 0xffffffffu;
    EXPECT(dlx3_preloaded_workspace_size(&image, 10, cell_at(&a, 0), NULL), XCOVER_BAD_IMAGE);
    CHECK(cell_kept(&a, 0));
    image = queens8_image;
    EXPECT(dlx3_preloaded_workspace_size(&image, 10, cell_at(&a, 0), cell_at(&c, 0)), XCOVER_OK);
    CHECK(cell_kept(&a, sizeof(size_t)) && cell_kept(&c, sizeof(size_t)));
}

/* Init calls that are refused must not write a single byte: not the buffer, not *handle. */
static void init_arguments(void)
{
    cell h, s;
    dlx3_settings settings, *odd_settings;
    dlx3_image image = queens8_image;
    size_t size = workspace_size(30, 200, 10);
    guarded g = make_guarded(size);
    guarded p = make_guarded(QUEENS8_WORKSPACE_SIZE(10));
    const size_t huge = (size_t)-1;
    union {
        dlx3_settings settings;
        unsigned char bytes[sizeof(dlx3_settings) + 8];
    } shifted;
    static dlx3_item16 odd_items[QUEENS8_LAST_ITM + 2];
    static dlx3_node16 odd_nodes[QUEENS8_LAST_NODE + 2];

    dlx3_settings_default(&settings);
    odd_settings = (dlx3_settings *)(void *)(shifted.bytes + 4);
    memcpy(odd_settings, &settings, sizeof settings);

    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, cell_at(&h, 1)), XCOVER_MISALIGNED);
    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, odd_settings, cell_at(&h, 0)), XCOVER_MISALIGNED);
    EXPECT(dlx3_init(g.buf, 0, 30, 200, 10, NULL, cell_at(&h, 0)), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(dlx3_init(g.buf + 2, g.size - 2, 30, 200, 10, NULL, cell_at(&h, 0)), XCOVER_MISALIGNED);
    EXPECT(dlx3_init(g.buf, g.size, 0, 200, 10, NULL, cell_at(&h, 0)), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_init(g.buf, g.size, 30, 1, 10, NULL, cell_at(&h, 0)), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_init(g.buf, g.size, 30, 0, 10, NULL, cell_at(&h, 0)), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_init(g.buf, g.size, huge, 200, 10, NULL, cell_at(&h, 0)), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_init(g.buf, g.size, huge - 1, 200, 10, NULL, cell_at(&h, 0)), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_init(g.buf, g.size, 30, huge / 16, 10, NULL, cell_at(&h, 0)), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_init(g.buf, g.size, 30, 200, huge / 24, NULL, cell_at(&h, 0)), XCOVER_BAD_ARGUMENT);
    /* a huge claimed length does not make a too-big capacity fit */
    EXPECT(dlx3_init(g.buf, huge, 30, 200, huge, NULL, cell_at(&h, 0)), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_init(g.buf, g.size, 31, 200, 10, NULL, cell_at(&h, 0)), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(dlx3_init(g.buf, g.size, 30, 201, 10, NULL, cell_at(&h, 0)), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 11, NULL, cell_at(&h, 0)), XCOVER_BUFFER_TOO_SMALL);
    CHECK(cell_kept(&h, 0));
    CHECK(block_untouched(&g));

    /* dlx3_init_preloaded */
    EXPECT(dlx3_init_preloaded(NULL, p.size, &image, 10, NULL, cell_at(&h, 0)), XCOVER_NULL_POINTER);
    EXPECT(dlx3_init_preloaded(p.buf + 4, p.size - 4, &image, 10, NULL, cell_at(&h, 0)), XCOVER_MISALIGNED);
    EXPECT(dlx3_init_preloaded(p.buf, 0, &image, 10, NULL, cell_at(&h, 0)), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, 11, NULL, cell_at(&h, 0)), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, 10, NULL, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, 10, NULL, cell_at(&h, 1)), XCOVER_MISALIGNED);
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, 10, odd_settings, cell_at(&h, 0)), XCOVER_MISALIGNED);
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, 0, NULL, cell_at(&h, 0)), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, huge / 24, NULL, cell_at(&h, 0)), XCOVER_BAD_ARGUMENT);
    settings.reserved = 7;
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, 10, &settings, cell_at(&h, 0)), XCOVER_BAD_ARGUMENT);
    settings.reserved = 0;
    memcpy((unsigned char *)odd_items + 1, queens8_items16, sizeof queens8_items16);
    image.items16 = (const dlx3_item16 *)(const void *)((unsigned char *)odd_items + 1);
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, 10, NULL, cell_at(&h, 0)), XCOVER_MISALIGNED);
    image = queens8_image;
    memcpy((unsigned char *)odd_nodes + 1, queens8_nodes16, sizeof queens8_nodes16);
    image.nodes16 = (const dlx3_node16 *)(const void *)((unsigned char *)odd_nodes + 1);
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, 10, NULL, cell_at(&h, 0)), XCOVER_MISALIGNED);
    image = queens8_image;
    image.items16 = NULL;
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, 10, NULL, cell_at(&h, 0)), XCOVER_BAD_IMAGE);
    image = queens8_image;
    image.last_itm = 1;
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, 10, NULL, cell_at(&h, 0)), XCOVER_BAD_IMAGE);
    image = queens8_image;
    image.last_node = image.last_itm - 1;
    EXPECT(dlx3_init_preloaded(p.buf, p.size, &image, 10, NULL, cell_at(&h, 0)), XCOVER_BAD_IMAGE);
    CHECK(cell_kept(&h, 0));
    CHECK(block_untouched(&p));

    /* A settings struct is only read: the caller's copy stays as it was. */
    memcpy(cell_at(&s, 0), &settings, sizeof settings);
    {
        dlx3_workspace *ws = NULL;
        EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, (const dlx3_settings *)(void *)(s.bytes + CELL_AT), &ws), XCOVER_OK);
        CHECK(memcmp(s.bytes + CELL_AT, &settings, sizeof settings) == 0);
        CHECK(ws == (dlx3_workspace *)(void *)g.buf);
        EXPECT(dlx3_release(ws), XCOVER_OK);
    }
    check_guards(&g, __LINE__);
    free(g.block);
    free(p.block);
}

/* Handle-taking calls with NULL / misaligned / wrong handles, and bad output pointers. */
static void call_arguments(void)
{
    cell a, b;
    dlx3_workspace *ws = NULL, *odd, *inside;
    dlx3_parse_error *odd_error;
    guarded g = make_guarded(workspace_size(30, 200, 10));
    const char *names[2] = {"r0", "c0"};
    const char *with_null[2] = {"r0", NULL};
    const char **odd_names;
    union {
        const char *names[3];
        unsigned char bytes[3 * sizeof(const char *)];
    } shifted;
    char name[9];
    size_t len;
    uint32_t option;

    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, &ws), XCOVER_OK);
    odd = (dlx3_workspace *)(void *)(g.buf + 4);
    inside = (dlx3_workspace *)(void *)(g.buf + 8); /* aligned, but not a workspace's start */

    /* Every handle-taking function refuses NULL, misaligned and non-workspace handles. */
#define EVERY_HANDLE_CALL(H, WANT)                                                          \
    do {                                                                                    \
        EXPECT(dlx3_parse(H, (const uint8_t *)queens4, strlen(queens4), NULL), WANT);       \
        EXPECT(dlx3_add_item(H, "r9", 1, 1, 0), WANT);                                      \
        EXPECT(dlx3_add_option(H, names, NULL, 2), WANT);                                   \
        EXPECT(dlx3_solve_step(H, UINT64_MAX), WANT);                                       \
        EXPECT(dlx3_solution_len(H, &len), WANT);                                           \
        EXPECT(dlx3_solution_option(H, 0, &option, NULL), WANT);                            \
        EXPECT(dlx3_option_len(H, 1, &len), WANT);                                          \
        EXPECT(dlx3_option_item(H, 1, 0, &option, NULL), WANT);                             \
        EXPECT(dlx3_item_name(H, 1, name, sizeof name), WANT);                              \
        EXPECT(dlx3_get_stats(H, cell_at(&a, 0)), WANT);                                    \
        CHECK(cell_kept(&a, 0));                                                            \
        EXPECT(dlx3_get_state(H, cell_at(&a, 0)), WANT);                                    \
        CHECK(cell_kept(&a, 0));                                                            \
        EXPECT(dlx3_release(H), WANT);                                                      \
    } while (0)
    EVERY_HANDLE_CALL(NULL, XCOVER_NULL_POINTER);
    EVERY_HANDLE_CALL(odd, XCOVER_MISALIGNED);
    EVERY_HANDLE_CALL(inside, XCOVER_NOT_INITIALIZED);
    CHECK(state_of(ws) == DLX3_STATE_ITEMS); /* the real workspace did not notice */
    check_guards(&g, __LINE__);

    /* Output pointers: NULL and misaligned, nothing written. */
    EXPECT(dlx3_get_state(ws, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_get_state(ws, cell_at(&a, 1)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0));
    EXPECT(dlx3_get_stats(ws, cell_at(&a, 1)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0));
    EXPECT(dlx3_get_stats(ws, cell_at(&a, 0)), XCOVER_OK);
    CHECK(cell_kept(&a, sizeof(dlx3_stats)));

    /* dlx3_parse: a misaligned err_info is refused before anything happens. */
    odd_error = cell_at(&b, 1);
    EXPECT(dlx3_parse(ws, (const uint8_t *)queens4, strlen(queens4), odd_error), XCOVER_MISALIGNED);
    CHECK(cell_kept(&b, 0));
    CHECK(state_of(ws) == DLX3_STATE_ITEMS);
    EXPECT(dlx3_parse(ws, NULL, 3, cell_at(&b, 0)), XCOVER_NULL_POINTER);
    CHECK(cell_kept(&b, sizeof(dlx3_parse_error)));
    CHECK(state_of(ws) == DLX3_STATE_ITEMS);

    /* dlx3_add_item: names that are not 1..8 non-space bytes; nothing changes. */
    EXPECT(dlx3_add_item(ws, NULL, 1, 1, 0), XCOVER_NULL_POINTER);
    EXPECT(dlx3_add_item(ws, "", 1, 1, 0), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_add_item(ws, "abcdefghi", 1, 1, 0), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_add_item(ws, "a b", 1, 1, 0), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_add_item(ws, "\t", 1, 1, 0), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_add_item(ws, "r0", 0, 0, 0), XCOVER_BAD_ARGUMENT);             /* hi 0 */
    EXPECT(dlx3_add_item(ws, "r0", 1, 0x80000000u, 0), XCOVER_BAD_ARGUMENT);   /* hi > INT_MAX */
    EXPECT(dlx3_add_item(ws, "r0", 1, 1, 0), XCOVER_OK);
    EXPECT(dlx3_add_item(ws, "c0", 1, 1, 0), XCOVER_OK);
    EXPECT(dlx3_add_item(ws, "abcdefgh", 0, 0, 1), XCOVER_OK); /* 8 bytes is the limit */
    CHECK(state_of(ws) == DLX3_STATE_ITEMS);

    /* dlx3_add_option */
    shifted.names[0] = NULL;
    odd_names = (const char **)(void *)(shifted.bytes + sizeof(char *) / 2); /* 32- or 64-bit */
    memcpy((void *)odd_names, names, sizeof names);
    EXPECT(dlx3_add_option(ws, NULL, NULL, 2), XCOVER_NULL_POINTER);
    EXPECT(dlx3_add_option(ws, odd_names, NULL, 2), XCOVER_MISALIGNED);
    EXPECT(dlx3_add_option(ws, with_null, NULL, 2), XCOVER_NULL_POINTER);
    EXPECT(dlx3_add_option(ws, names, NULL, 0), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_add_option(ws, names, "\0 ", 2), XCOVER_BAD_ARGUMENT); /* a space color */
    EXPECT(dlx3_add_option(ws, names, "\0x", 2), XCOVER_PARSE_PRIMARY_COLORED);
    /* n pointers would take more than PTRDIFF_MAX bytes (on 32- and 64-bit targets alike) */
    EXPECT(dlx3_add_option(ws, names, NULL, (size_t)-1 / 2 / sizeof(char *) + 1), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_add_option(ws, names, NULL, (size_t)-1), XCOVER_BAD_ARGUMENT);
    CHECK(state_of(ws) == DLX3_STATE_ITEMS);
    EXPECT(dlx3_add_option(ws, names, NULL, 2), XCOVER_OK);

    /* Reading a solution */
    EXPECT(dlx3_solve_step(ws, UINT64_MAX), XCOVER_SOLUTION);
    EXPECT(dlx3_solution_len(ws, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_solution_len(ws, cell_at(&a, 1)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0));
    EXPECT(dlx3_solution_option(ws, 0, NULL, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_solution_option(ws, 0, cell_at(&a, 1), NULL), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0));
    EXPECT(dlx3_solution_option(ws, 0, cell_at(&a, 0), cell_at(&b, 1)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0) && cell_kept(&b, 0));
    EXPECT(dlx3_solution_option(ws, (size_t)-1, cell_at(&a, 0), cell_at(&b, 0)), XCOVER_BAD_ARGUMENT);
    CHECK(cell_kept(&a, 0) && cell_kept(&b, 0));
    EXPECT(dlx3_solution_option(ws, 0, cell_at(&a, 0), cell_at(&b, 0)), XCOVER_OK);
    CHECK(cell_kept(&a, sizeof(uint32_t)) && cell_kept(&b, sizeof(uint32_t)));

    /* Reading options */
    EXPECT(dlx3_option_len(ws, 1, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_option_len(ws, 1, cell_at(&a, 1)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0));
    EXPECT(dlx3_option_len(ws, 2, cell_at(&a, 0)), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_option_len(ws, 0xffffffffu, cell_at(&a, 0)), XCOVER_BAD_ARGUMENT);
    CHECK(cell_kept(&a, 0));
    EXPECT(dlx3_option_item(ws, 1, 0, cell_at(&a, 1), cell_at(&b, 0)), XCOVER_MISALIGNED);
    CHECK(cell_kept(&a, 0) && cell_kept(&b, 0));
    EXPECT(dlx3_option_item(ws, 1, 2, cell_at(&a, 0), cell_at(&b, 0)), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_option_item(ws, 1, (size_t)-1, cell_at(&a, 0), cell_at(&b, 0)), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_option_item(ws, 0, 0, cell_at(&a, 0), cell_at(&b, 0)), XCOVER_BAD_ARGUMENT);
    CHECK(cell_kept(&a, 0) && cell_kept(&b, 0));
    EXPECT(dlx3_option_item(ws, 1, 1, NULL, NULL), XCOVER_OK); /* nothing wanted */
    EXPECT(dlx3_option_item(ws, 1, 1, cell_at(&a, 0), cell_at(&b, 0)), XCOVER_OK);
    CHECK(cell_kept(&a, sizeof(uint32_t)) && cell_kept(&b, 1));

    /* dlx3_item_name: zero, short and exact buffers */
    EXPECT(dlx3_item_name(ws, 1, NULL, 9), XCOVER_NULL_POINTER);
    EXPECT(dlx3_item_name(ws, 3, cell_at(&a, 1), 0), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(dlx3_item_name(ws, 3, cell_at(&a, 1), 8), XCOVER_BUFFER_TOO_SMALL); /* 8 + NUL */
    CHECK(cell_kept(&a, 0));
    EXPECT(dlx3_item_name(ws, 0, cell_at(&a, 0), 9), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_item_name(ws, 4, cell_at(&a, 0), 9), XCOVER_BAD_ARGUMENT);
    CHECK(cell_kept(&a, 0));
    EXPECT(dlx3_item_name(ws, 3, cell_at(&a, 1), 9), XCOVER_OK); /* exact; any alignment */
    CHECK(memcmp(a.bytes + CELL_AT + 1, "abcdefgh", 9) == 0);
    CHECK(a.bytes[CELL_AT] == GUARD_BYTE && a.bytes[CELL_AT + 10] == GUARD_BYTE);
    EXPECT(dlx3_item_name(ws, 1, cell_at(&a, 0), 100), XCOVER_OK); /* only name + NUL written */
    CHECK(cell_kept(&a, 3) && memcmp(a.bytes + CELL_AT, "r0", 3) == 0);

    CHECK(state_of(ws) == DLX3_STATE_SOLUTION);
    EXPECT(dlx3_solve_step(ws, UINT64_MAX), XCOVER_DONE);
    check_guards(&g, __LINE__);
    free(g.block);
}

/* ---- Every handle-taking call in every state --------------------------------------- */

enum { AT_FRESH, AT_ITEMS, AT_OPTIONS, AT_READY, AT_PRELOADED, AT_SEARCHING, AT_SOLUTION,
       AT_DONE, AT_DEAD, AT_RELEASED, AT_COUNT };
static const char *const at_name[AT_COUNT] = {"fresh", "items", "options", "ready", "preloaded",
                                              "searching", "solution", "done", "dead", "released"};

enum { DO_PARSE, DO_ADD_ITEM, DO_ADD_OPTION, DO_SOLVE, DO_SOLUTION_LEN, DO_SOLUTION_OPTION,
       DO_OPTION_LEN, DO_OPTION_ITEM, DO_ITEM_NAME, DO_GET_STATS, DO_GET_STATE, DO_RELEASE,
       DO_INIT, DO_INIT_PRELOADED, DO_SET_WRITERS, DO_COUNT };
static const char *const do_name[DO_COUNT] = {"parse", "add_item", "add_option", "solve_step",
    "solution_len", "solution_option", "option_len", "option_item", "item_name", "get_stats",
    "get_state", "release", "init", "init_preloaded", "set_writers"};

/* Puts a workspace in `buf` into state `at`. */
static dlx3_workspace *reach(guarded *g, int at)
{
    const char *names[2] = {"r0", "c0"};
    dlx3_workspace *ws = NULL;
    const uint8_t *text = (const uint8_t *)queens4;
    size_t len = strlen(queens4);

    memset(g->buf, 0, g->size); /* whatever was there before is gone */
    if (at == AT_PRELOADED) {
        EXPECT(dlx3_init_preloaded(g->buf, g->size, &queens8_image, 10, NULL, &ws), XCOVER_OK);
        return ws;
    }
    EXPECT(dlx3_init(g->buf, g->size, 30, 200, 10, NULL, &ws), XCOVER_OK);
    switch (at) {
    case AT_FRESH:
        break;
    case AT_ITEMS:
    case AT_OPTIONS:
        EXPECT(dlx3_add_item(ws, "r0", 1, 1, 0), XCOVER_OK);
        EXPECT(dlx3_add_item(ws, "c0", 1, 1, 0), XCOVER_OK);
        if (at == AT_OPTIONS)
            EXPECT(dlx3_add_option(ws, names, NULL, 2), XCOVER_OK);
        break;
    case AT_DEAD:
        EXPECT(dlx3_parse(ws, (const uint8_t *)"A\nB\n", 4, NULL), XCOVER_PARSE_UNKNOWN_ITEM_NAME);
        break;
    default:
        EXPECT(dlx3_parse(ws, text, len, NULL), XCOVER_OK);
        if (at == AT_SEARCHING)
            EXPECT(dlx3_solve_step(ws, 1), XCOVER_BUDGET_EXHAUSTED);
        if (at == AT_SOLUTION)
            EXPECT(dlx3_solve_step(ws, UINT64_MAX), XCOVER_SOLUTION);
        if (at == AT_DONE)
            CHECK(solve_all(ws) == 2);
        if (at == AT_RELEASED)
            EXPECT(dlx3_release(ws), XCOVER_OK);
        break;
    }
    return ws;
}

static xcover_status call(int what, dlx3_workspace *ws, guarded *g)
{
    static const dlx3_writers discard_all = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    const char *names[2] = {"r0", "c0"};
    dlx3_workspace *other = NULL;
    dlx3_stats stats;
    size_t len;
    uint32_t u32;
    uint8_t color;
    char name[9];
    xcover_status st = XCOVER_INTERNAL_ERROR;

    switch (what) {
    case DO_PARSE: st = dlx3_parse(ws, (const uint8_t *)queens4, strlen(queens4), NULL); break;
    case DO_ADD_ITEM: st = dlx3_add_item(ws, "r1", 1, 1, 0); break;
    case DO_ADD_OPTION: st = dlx3_add_option(ws, names, NULL, 2); break;
    case DO_SOLVE: st = dlx3_solve_step(ws, UINT64_MAX); break;
    case DO_SOLUTION_LEN: st = dlx3_solution_len(ws, &len); break;
    case DO_SOLUTION_OPTION: st = dlx3_solution_option(ws, 0, &u32, NULL); break;
    case DO_OPTION_LEN: st = dlx3_option_len(ws, 1, &len); break;
    case DO_OPTION_ITEM: st = dlx3_option_item(ws, 1, 0, &u32, &color); break;
    case DO_ITEM_NAME: st = dlx3_item_name(ws, 1, name, sizeof name); break;
    case DO_GET_STATS: st = dlx3_get_stats(ws, &stats); break;
    case DO_GET_STATE: st = dlx3_get_state(ws, &u32); break;
    case DO_RELEASE: st = dlx3_release(ws); break;
    case DO_SET_WRITERS: st = dlx3_set_writers(ws, &discard_all); break;
    case DO_INIT: st = dlx3_init(g->buf, g->size, 30, 200, 10, NULL, &other); break;
    case DO_INIT_PRELOADED:
        st = dlx3_init_preloaded(g->buf, g->size, &queens8_image, 10, NULL, &other);
        break;
    }
    if (other != NULL)
        CHECK(st == XCOVER_OK && other == ws); /* same buffer, same handle */
    return st;
}

static void every_call_in_every_state(void)
{
    /* What each call returns in each state, and the state it leaves (0: unchanged; -1: the
     * handle is refused afterwards). */
    enum { OK = XCOVER_OK, SOL = XCOVER_SOLUTION, DONE = XCOVER_DONE, BS = XCOVER_BAD_STATE,
           BA = XCOVER_BAD_ARGUMENT, DEAD = XCOVER_DEAD, NI = XCOVER_NOT_INITIALIZED,
           AI = XCOVER_ALREADY_INITIALIZED };
    static const struct { int status, then; } want[AT_COUNT][DO_COUNT] = {
        /* parse              add_item                add_option              solve */
        /* sol_len  sol_option  option_len  option_item  item_name  stats  state  release init init_preloaded
           set_writers */
        [AT_FRESH] = {{OK, DLX3_STATE_READY}, {OK, 0}, {BS, 0}, {BS, 0},
                      {BS, 0}, {BS, 0}, {BS, 0}, {BS, 0}, {BA, 0}, {OK, 0}, {OK, 0}, {OK, -1},
                      {AI, 0}, {AI, 0}, {OK, 0}},
        [AT_ITEMS] = {{BS, 0}, {OK, 0}, {OK, DLX3_STATE_OPTIONS}, {DONE, DLX3_STATE_DONE},
                      {BS, 0}, {BS, 0}, {BS, 0}, {BS, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, -1},
                      {AI, 0}, {AI, 0}, {OK, 0}},
        [AT_OPTIONS] = {{BS, 0}, {BS, 0}, {OK, 0}, {SOL, DLX3_STATE_SOLUTION},
                        {BS, 0}, {BS, 0}, {BS, 0}, {BS, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, -1},
                        {AI, 0}, {AI, 0}, {OK, 0}},
        [AT_READY] = {{BS, 0}, {BS, 0}, {BS, 0}, {SOL, DLX3_STATE_SOLUTION},
                      {BS, 0}, {BS, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, -1},
                      {AI, 0}, {AI, 0}, {OK, 0}},
        [AT_PRELOADED] = {{BS, 0}, {BS, 0}, {BS, 0}, {SOL, DLX3_STATE_SOLUTION},
                          {BS, 0}, {BS, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, -1},
                          {AI, 0}, {AI, 0}, {OK, 0}},
        [AT_SEARCHING] = {{BS, 0}, {BS, 0}, {BS, 0}, {SOL, DLX3_STATE_SOLUTION},
                          {BS, 0}, {BS, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, -1},
                          {AI, 0}, {AI, 0}, {OK, 0}},
        [AT_SOLUTION] = {{BS, 0}, {BS, 0}, {BS, 0}, {SOL, 0},
                         {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, -1},
                         {AI, 0}, {AI, 0}, {OK, 0}},
        [AT_DONE] = {{BS, 0}, {BS, 0}, {BS, 0}, {DONE, 0},
                     {BS, 0}, {BS, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, 0}, {OK, -1},
                     {AI, 0}, {AI, 0}, {OK, 0}},
        [AT_DEAD] = {{DEAD, 0}, {DEAD, 0}, {DEAD, 0}, {DEAD, 0},
                     {DEAD, 0}, {DEAD, 0}, {DEAD, 0}, {DEAD, 0}, {DEAD, 0}, {OK, 0}, {OK, 0},
                     {OK, -1}, {OK, DLX3_STATE_ITEMS}, {OK, DLX3_STATE_READY}, {DEAD, 0}},
        [AT_RELEASED] = {{NI, 0}, {NI, 0}, {NI, 0}, {NI, 0},
                         {NI, 0}, {NI, 0}, {NI, 0}, {NI, 0}, {NI, 0}, {NI, 0}, {NI, 0}, {NI, 0},
                         {OK, DLX3_STATE_ITEMS}, {OK, DLX3_STATE_READY}, {NI, 0}},
    };
    static const int state_at[AT_COUNT] = {DLX3_STATE_ITEMS, DLX3_STATE_ITEMS, DLX3_STATE_OPTIONS,
        DLX3_STATE_READY, DLX3_STATE_READY, DLX3_STATE_SEARCHING, DLX3_STATE_SOLUTION,
        DLX3_STATE_DONE, DLX3_STATE_DEAD, 0};
    size_t text_size = workspace_size(30, 200, 10), image_size = QUEENS8_WORKSPACE_SIZE(10);
    guarded g = make_guarded(text_size > image_size ? text_size : image_size);
    int at, what;

    for (at = 0; at < AT_COUNT; at++) {
        for (what = 0; what < DO_COUNT; what++) {
            dlx3_workspace *ws = reach(&g, at);
            xcover_status got = call(what, ws, &g);
            uint32_t state = 0;
            xcover_status readable = dlx3_get_state(ws, &state);
            int then = want[at][what].then == 0 ? state_at[at] : want[at][what].then;
            if ((int)got != want[at][what].status) {
                printf("misuse.c: %s in state %s returned %u (%s), expected %d\n", do_name[what],
                       at_name[at], (unsigned)got, xcover_status_message(got),
                       want[at][what].status);
                failures++;
            }
            if (then <= 0 ? readable != XCOVER_NOT_INITIALIZED
                          : (readable != XCOVER_OK || (int)state != then)) {
                printf("misuse.c: %s in state %s left state %u (%s), expected %d\n",
                       do_name[what], at_name[at], (unsigned)state,
                       xcover_status_message(readable), then);
                failures++;
            }
            check_guards(&g, __LINE__);
        }
    }
    free(g.block);
}

/* ---- Capacities: exactly enough works, one less gets its status -------------------- */

/* Parses `text` in a workspace of exactly the size for (items, nodes, levels), malloc'd
 * to that size (so AddressSanitizer sees any overrun) and inside guard bytes (so a plain
 * build does too), then solves it to the end. Returns the parse status, or the solve
 * status if parsing succeeded; *solutions gets the count. */
static xcover_status parse_and_solve(const char *text, size_t items, size_t nodes,
                                     size_t levels, long *solutions)
{
    size_t size = workspace_size(items, nodes, levels);
    unsigned char *exact = malloc(size);
    guarded g = make_guarded(size);
    dlx3_workspace *ws = NULL;
    xcover_status st, result = XCOVER_OK;
    int pass;

    if (!exact)
        exit(2);
    *solutions = 0;
    for (pass = 0; pass < 2; pass++) {
        unsigned char *buf = pass == 0 ? exact : g.buf;
        long n = 0;
        EXPECT(dlx3_init(buf, size, items, nodes, levels, NULL, &ws), XCOVER_OK);
        st = dlx3_parse(ws, (const uint8_t *)text, strlen(text), NULL);
        if (st == XCOVER_OK) {
            while ((st = dlx3_solve_step(ws, UINT64_MAX)) == XCOVER_SOLUTION)
                n++;
            if (st == XCOVER_DONE)
                st = XCOVER_OK;
        }
        CHECK(pass == 0 || (st == result && n == *solutions));
        result = st;
        *solutions = n;
        EXPECT(dlx3_release(ws), XCOVER_OK);
    }
    check_guards(&g, __LINE__);
    free(exact);
    free(g.block);
    return result;
}

static void capacity_edges(void)
{
    size_t items = 0, nodes = 0, levels = 0, n;
    long solutions = 0, reference = 0;
    dlx3_workspace *ws = NULL;
    dlx3_stats stats;
    guarded g;

    /* The smallest capacity in each dimension that works, one at a time. */
    CHECK(parse_and_solve(queens4, 30, 200, 10, &reference) == XCOVER_OK && reference == 2);
    for (n = 1; n <= 30 && !items; n++)
        if (parse_and_solve(queens4, n, 200, 10, &solutions) == XCOVER_OK)
            items = n;
    for (n = 2; n <= 200 && !nodes; n++)
        if (parse_and_solve(queens4, 30, n, 10, &solutions) == XCOVER_OK)
            nodes = n;
    for (n = 1; n <= 10 && !levels; n++)
        if (parse_and_solve(queens4, 30, 200, n, &solutions) == XCOVER_OK)
            levels = n;
    CHECK(items == 22); /* the item line has 22 names */
    CHECK(parse_and_solve(queens4, items - 1, 200, 10, &solutions) == XCOVER_PARSE_TOO_MANY_ITEMS);
    CHECK(parse_and_solve(queens4, items, nodes, levels, &solutions) == XCOVER_OK &&
          solutions == reference);
    CHECK(parse_and_solve(queens4, 30, nodes - 1, 10, &solutions) == XCOVER_PARSE_TOO_MANY_NODES);
    CHECK(parse_and_solve(queens4, 30, 200, levels - 1, &solutions) == XCOVER_TOO_MANY_LEVELS);
    /* The documented sufficient node count: items + 1 + entries + 1. */
    g = make_guarded(workspace_size(30, 200, 10));
    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_parse(ws, (const uint8_t *)queens4, strlen(queens4), NULL), XCOVER_OK);
    EXPECT(dlx3_get_stats(ws, &stats), XCOVER_OK);
    CHECK(nodes <= items + 1 + stats.entries + 1);
    CHECK(levels >= 4 && levels <= stats.primary_items + 1);

    /* Builder: the item capacity, exactly. A refused item leaves the workspace usable. */
    EXPECT(dlx3_init(g.buf, g.size, 2, 200, 10, NULL, &ws), XCOVER_ALREADY_INITIALIZED);
    EXPECT(dlx3_release(ws), XCOVER_OK);
    EXPECT(dlx3_init(g.buf, workspace_size(2, 200, 10), 2, 200, 10, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_add_item(ws, "A", 1, 1, 0), XCOVER_OK);
    EXPECT(dlx3_add_item(ws, "X", 0, 0, 1), XCOVER_OK);
    EXPECT(dlx3_add_item(ws, "Y", 0, 0, 1), XCOVER_TOO_MANY_ITEMS);
    CHECK(state_of(ws) == DLX3_STATE_ITEMS);
    {
        const char *ax[2] = {"A", "X"};
        const char *a[1] = {"A"};
        EXPECT(dlx3_add_option(ws, ax, "\0c", 2), XCOVER_OK);
        EXPECT(dlx3_add_option(ws, a, NULL, 1), XCOVER_OK);
    }
    CHECK(solve_all(ws) == 2);
    EXPECT(dlx3_release(ws), XCOVER_OK);
    check_guards(&g, __LINE__);
    free(g.block);

    /* Builder: the node capacity. Options are added until the nodes run out; the refused
     * one changes nothing and every option added before it is solved. */
    {
        const char *ab[2] = {"A", "B"};
        const char *a[1] = {"A"};
        size_t cap = 12, added = 0;
        xcover_status st;
        g = make_guarded(workspace_size(2, cap, 20));
        EXPECT(dlx3_init(g.buf, g.size, 2, cap, 20, NULL, &ws), XCOVER_OK);
        EXPECT(dlx3_add_item(ws, "A", 0, 5, 0), XCOVER_OK); /* 0..5 times */
        EXPECT(dlx3_add_item(ws, "B", 0, 5, 0), XCOVER_OK);
        while ((st = dlx3_add_option(ws, added % 2 ? a : ab, NULL, added % 2 ? 1 : 2)) == XCOVER_OK)
            added++;
        EXPECT(st, XCOVER_TOO_MANY_NODES);
        CHECK(added > 0);
        EXPECT(dlx3_get_stats(ws, &stats), XCOVER_OK);
        CHECK(stats.options == added);
        CHECK(solve_all(ws) > 0);
        check_guards(&g, __LINE__);
        free(g.block);
    }

    /* Builder: node storage too small even for the item headers. */
    g = make_guarded(workspace_size(8, 4, 4));
    EXPECT(dlx3_init(g.buf, g.size, 8, 4, 4, NULL, &ws), XCOVER_OK);
    {
        static const char *const many[8] = {"a", "b", "c", "d", "e", "f", "g", "h"};
        xcover_status st = XCOVER_OK;
        for (n = 0; n < 8 && st == XCOVER_OK; n++)
            st = dlx3_add_item(ws, many[n], 1, 1, 0);
        EXPECT(st, XCOVER_TOO_MANY_NODES);
        CHECK(n == 3); /* headers 1, 2 and the first spacer at 3 fill nodes 0..3 */
        CHECK(state_of(ws) == DLX3_STATE_ITEMS); /* refused before anything changed */
        EXPECT(dlx3_add_option(ws, many, NULL, 1), XCOVER_TOO_MANY_NODES);
        CHECK(solve_all(ws) == 0); /* a and b, no options: no solution, but no error */
    }
    check_guards(&g, __LINE__);
    free(g.block);

    /* Builder: the first option is checked against the nodes after the first spacer. */
    g = make_guarded(workspace_size(2, 6, 4));
    EXPECT(dlx3_init(g.buf, g.size, 2, 6, 4, NULL, &ws), XCOVER_OK);
    {
        static const char *const ab[2] = {"a", "b"};
        EXPECT(dlx3_add_item(ws, "a", 1, 1, 0), XCOVER_OK);
        EXPECT(dlx3_add_item(ws, "b", 0, 1, 0), XCOVER_OK);
        EXPECT(dlx3_add_option(ws, ab, NULL, 2), XCOVER_TOO_MANY_NODES); /* 4, 5, spacer 6 */
        CHECK(state_of(ws) == DLX3_STATE_ITEMS);
        EXPECT(dlx3_add_option(ws, ab, NULL, 1), XCOVER_OK); /* 4, spacer 5 */
        CHECK(solve_all(ws) == 1);
    }
    check_guards(&g, __LINE__);
    free(g.block);

    /* Preloaded: the level capacity, exactly. */
    {
        size_t need = 0;
        for (n = 1; n <= 20 && !need; n++) {
            g = make_guarded(QUEENS8_WORKSPACE_SIZE(n));
            EXPECT(dlx3_init_preloaded(g.buf, g.size, &queens8_image, n, NULL, &ws), XCOVER_OK);
            if (solve_all(ws) == 92)
                need = n;
            else
                EXPECT(dlx3_solve_step(ws, 1), XCOVER_DEAD);
            check_guards(&g, __LINE__);
            free(g.block);
        }
        CHECK(need >= 8 && need <= 9);
        g = make_guarded(QUEENS8_WORKSPACE_SIZE(need - 1));
        EXPECT(dlx3_init_preloaded(g.buf, g.size, &queens8_image, need - 1, NULL, &ws), XCOVER_OK);
        CHECK(solve_all(ws) == -1);
        CHECK(state_of(ws) == DLX3_STATE_DEAD);
        check_guards(&g, __LINE__);
        free(g.block);
    }

    /* A buffer longer than needed: only the first `size` bytes are the workspace's. */
    {
        size_t size = workspace_size(30, 200, 10), i;
        g = make_guarded(size + 64);
        EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, &ws), XCOVER_OK);
        EXPECT(dlx3_parse(ws, (const uint8_t *)queens4, strlen(queens4), NULL), XCOVER_OK);
        CHECK(solve_all(ws) == 2);
        for (i = size; i < size + 64; i++)
            if (g.buf[i] != GUARD_BYTE) {
                printf("misuse.c:%d: byte %lu past the workspace size written\n", __LINE__,
                       (unsigned long)(i - size));
                failures++;
                break;
            }
        check_guards(&g, __LINE__);
        free(g.block);
    }

    /* Item names: 8 bytes is Knuth's limit in text too. */
    CHECK(parse_and_solve("abcdefgh\nabcdefgh\n", 5, 20, 5, &solutions) == XCOVER_OK && solutions == 1);
    CHECK(parse_and_solve("abcdefghi\nabcdefghi\n", 5, 20, 5, &solutions) == XCOVER_PARSE_ITEM_NAME_TOO_LONG);

    /* A budget of 0 still makes progress: slices of 0 mems end like one run. */
    g = make_guarded(workspace_size(30, 200, 10));
    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_parse(ws, (const uint8_t *)queens4, strlen(queens4), NULL), XCOVER_OK);
    {
        long calls = 0, found = 0;
        xcover_status st;
        while ((st = dlx3_solve_step(ws, 0)) != XCOVER_DONE && calls < 1000000) {
            calls++;
            found += st == XCOVER_SOLUTION;
            CHECK(st == XCOVER_SOLUTION || st == XCOVER_BUDGET_EXHAUSTED);
        }
        CHECK(st == XCOVER_DONE && found == reference);
    }
    check_guards(&g, __LINE__);
    free(g.block);
}

int main(void)
{
    unsigned code;
    for (code = 0; code < 200; code++)
        CHECK(xcover_status_message(code) != NULL);
    CHECK(strcmp(xcover_status_message(0xffffffffu), "unknown status") == 0);
    CHECK(strcmp(xcover_status_message(1000), "unknown status") == 0);
    CHECK(strcmp(xcover_status_message(XCOVER_PARSE_ILLEGAL_BAR), "Illegal `|' in item name") == 0);
    CHECK(xcover_abi_version() == XCOVER_ABI_VERSION);
    null_and_alignment();
    order_and_reinit();
    capacities_and_errors();
    bad_images();
    sizing_arguments();
    init_arguments();
    call_arguments();
    every_call_in_every_state();
    capacity_edges();
    if (failures) {
        printf("misuse: %d failures\n", failures);
        return 1;
    }
    printf("misuse: all checks passed\n");
    return 0;
}
