/*
 * misuse.c -- every kind of misuse gets its status, the workspace stays usable or is
 * clearly dead, and nothing is written outside the caller's buffer (guard bytes around
 * every workspace are checked after each step).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xcover.h"
#include "queens8_matrix.h"

#define GUARD 64
#define GUARD_BYTE 0xA5

static int failures;

#define EXPECT(call, want)                                                                 \
    do {                                                                                   \
        xcover_status got_ = (call);                                                       \
        if (got_ != (want)) {                                                              \
            printf("misuse.c:%d: %s returned %u (%s), expected %s\n", __LINE__, #call,     \
                   (unsigned)got_, xcover_status_message(got_), #want);                    \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            printf("misuse.c:%d: check failed: %s\n", __LINE__, #cond);                    \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

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
    /* A buffer that never held a workspace: no magic number. */
    memset(g.buf, 0, g.size);
    EXPECT(dlx3_solve_step((dlx3_workspace *)(void *)g.buf, 1), XCOVER_NOT_INITIALIZED);
    EXPECT(dlx3_get_stats((dlx3_workspace *)(void *)g.buf, &stats), XCOVER_NOT_INITIALIZED);
    EXPECT(dlx3_solve_step((dlx3_workspace *)(void *)(g.buf + 2), 1), XCOVER_MISALIGNED);

    EXPECT(dlx3_init(g.buf, g.size, 30, 200, 10, NULL, &ws), XCOVER_OK);
    EXPECT(dlx3_parse(ws, NULL, 5, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_get_stats(ws, NULL), XCOVER_NULL_POINTER);
    EXPECT(dlx3_get_stats(ws, (dlx3_stats *)(void *)((char *)&stats + 1)), XCOVER_MISALIGNED);
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
    static dlx3_node nodes[QUEENS8_LAST_NODE + 1];
    static dlx3_item items[QUEENS8_LAST_ITM + 1];
    dlx3_image image = queens8_image;
    dlx3_workspace *ws = NULL;
    size_t size = 0, align = 0;
    guarded g = make_guarded(QUEENS8_WORKSPACE_SIZE(10));

    EXPECT(dlx3_preloaded_workspace_size(&image, 10, &size, &align), XCOVER_OK);
    CHECK(size == g.size);
    EXPECT(dlx3_init_preloaded(g.buf, g.size - 8, &image, 10, NULL, &ws), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(dlx3_init_preloaded(g.buf, g.size, NULL, 10, NULL, &ws), XCOVER_NULL_POINTER);
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_OK);
    CHECK(solve_all(ws) > 0);
    EXPECT(dlx3_release(ws), XCOVER_OK);
    check_guards(&g, __LINE__);

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

    memcpy(nodes, queens8_nodes, sizeof nodes);
    memcpy(items, queens8_items, sizeof items);
    image = queens8_image;
    image.nodes = nodes;
    image.items = items;
    nodes[QUEENS8_LAST_ITM + 5].down = QUEENS8_LAST_NODE + 1000u; /* a link out of range */
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    memcpy(nodes, queens8_nodes, sizeof nodes);
    nodes[QUEENS8_LAST_ITM + 5].itm = 9999; /* an item that does not exist */
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    memcpy(nodes, queens8_nodes, sizeof nodes);
    nodes[1].itm += 1; /* a wrong list length */
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    memcpy(nodes, queens8_nodes, sizeof nodes);
    items[1].next = 7; /* a broken active list */
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_BAD_IMAGE);
    memcpy(items, queens8_items, sizeof items);
    EXPECT(dlx3_init_preloaded(g.buf, g.size, &image, 10, NULL, &ws), XCOVER_OK); /* repaired */
    check_guards(&g, __LINE__);
    free(g.block);
}

int main(void)
{
    unsigned code;
    for (code = 0; code < 200; code++)
        CHECK(xcover_status_message(code) != NULL);
    CHECK(strcmp(xcover_status_message(XCOVER_PARSE_ILLEGAL_BAR), "Illegal `|' in item name") == 0);
    CHECK(xcover_abi_version() == XCOVER_ABI_VERSION);
    null_and_alignment();
    order_and_reinit();
    capacities_and_errors();
    bad_images();
    if (failures) {
        printf("misuse: %d failures\n", failures);
        return 1;
    }
    printf("misuse: all checks passed\n");
    return 0;
}
