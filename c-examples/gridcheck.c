/*
 * gridcheck.c -- the grid checker from C: every N-clue puzzle with a unique solution inside
 * a Sudoku solution grid, with a clue mask, in a static workspace (no malloc: malloc & co.
 * abort while the library runs, see no_malloc.c).
 *
 *   gridcheck N GRID [MASK]    prints the puzzles found, sorted, one per line, like
 *                              `xcover gridcheck --clues N --mask MASK GRID`; a summary
 *                              goes to stderr; exit 0 (1 on error)
 *   gridcheck --misuse         every misuse gets its status; guard bytes around the
 *                              workspace stay intact; exit 0 when all checks pass
 *
 * The scan is split into its chunks (as threads or machines would share them) and each
 * chunk runs in budgeted steps, so the example also shows that pausing changes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "no_malloc.h"
#include "xcover.h"

/* Capacities: a masked scan has a few hundred unavoidable sets (UA). A list that fills up
 * only costs speed (XCOVER_GRIDCHECK_UA_LIST_FULL keeps the sets that fit). */
#define MAX_UA 2048u
#define KEEP_UA 768u /* xcover gridcheck's default for a masked scan */
#define UA_SCRATCH 2048u
#define MAX_CLUES 81u
#define UA_SEED 1u /* xcover gridcheck's default --seed */
#define STEP_BUDGET 100000u
#define MAX_PUZZLES 20000u

static XCOVER_ALIGNED_BUFFER(workspace,
                             XCOVER_GRIDCHECK_WORKSPACE_SIZE(MAX_UA, KEEP_UA, UA_SCRATCH,
                                                             MAX_CLUES));
static uint32_t chunk_ids[GRIDCHECK_MAX_CHUNKS];
static char puzzles[MAX_PUZZLES][GRIDCHECK_PUZZLE_BYTES];
static size_t puzzle_count;
static int puzzles_overflowed;
static char stdout_buffer[1 << 16];
static char stderr_buffer[1 << 12];

static const gridcheck_limits LIMITS = {MAX_UA, KEEP_UA, UA_SCRATCH, MAX_CLUES};

/* gridcheck_found_fn: keeps each puzzle (the library's text is valid during the call). */
static int32_t keep_puzzle(void *ctx, const char *puzzle)
{
    (void)ctx;
    if (puzzle_count == MAX_PUZZLES) {
        puzzles_overflowed = 1;
        return 1; /* stop: we could not print them all */
    }
    memcpy(puzzles[puzzle_count++], puzzle, GRIDCHECK_PUZZLE_BYTES);
    return 0;
}

static int by_text(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static int fail(const char *what, xcover_status status)
{
    fprintf(stderr, "gridcheck: %s: %s (%u)\n", what, xcover_status_message(status),
            (unsigned)status);
    return 1;
}

static int scan(unsigned clues, const char *grid_text, const char *mask)
{
    gridcheck_workspace *h = NULL;
    gridcheck_stats stats;
    size_t bytes = 0, align = 0, chunks = 0, i;
    xcover_status s;

    s = gridcheck_workspace_size(&LIMITS, &bytes, &align);
    if (s != XCOVER_OK)
        return fail("gridcheck_workspace_size", s);
    if (bytes != sizeof workspace.bytes) {
        fprintf(stderr, "gridcheck: the size macro says %lu bytes, the library %lu\n",
                (unsigned long)sizeof workspace.bytes, (unsigned long)bytes);
        return 1;
    }
    no_malloc_arm(1);
    if ((s = gridcheck_init(workspace.bytes, sizeof workspace.bytes, &LIMITS, &h)) != XCOVER_OK)
        return fail("gridcheck_init", s);
    if ((s = gridcheck_set_grid(h, grid_text)) != XCOVER_OK) {
        gridcheck_grid_error why;
        if (gridcheck_get_grid_error(h, &why) == XCOVER_OK && why.kind != GRIDCHECK_GRID_NONE)
            fprintf(stderr, "gridcheck: bad grid: %s\n", why.message);
        return fail("gridcheck_set_grid", s);
    }
    if ((s = gridcheck_set_options(h, clues, mask, 0)) != XCOVER_OK)
        return fail("gridcheck_set_options", s);
    /* The UA xcover gridcheck generates when given no count. */
    s = gridcheck_generate_default_ua(h, UA_SEED);
    if (s != XCOVER_OK && s != XCOVER_GRIDCHECK_UA_LIST_FULL)
        return fail("gridcheck_generate_default_ua", s);
    if ((s = gridcheck_prepare(h)) != XCOVER_OK)
        return fail("gridcheck_prepare", s);
    s = gridcheck_chunk_list(h, chunk_ids, GRIDCHECK_MAX_CHUNKS, &chunks);
    if (s != XCOVER_OK)
        return fail("gridcheck_chunk_list", s);
    for (i = 0; i < chunks; i++) {
        if ((s = gridcheck_chunk_begin(h, chunk_ids[i])) != XCOVER_OK)
            return fail("gridcheck_chunk_begin", s);
        do
            s = gridcheck_step(h, STEP_BUDGET, keep_puzzle, NULL);
        while (s == XCOVER_BUDGET_EXHAUSTED);
        if (s != XCOVER_DONE)
            return fail(puzzles_overflowed ? "too many puzzles" : "gridcheck_step", s);
    }
    if ((s = gridcheck_get_stats(h, &stats)) != XCOVER_OK)
        return fail("gridcheck_get_stats", s);
    if ((s = gridcheck_release(h)) != XCOVER_OK)
        return fail("gridcheck_release", s);
    no_malloc_arm(0);

    qsort(puzzles, puzzle_count, sizeof puzzles[0], by_text);
    for (i = 0; i < puzzle_count; i++)
        if (i == 0 || strcmp(puzzles[i], puzzles[i - 1]) != 0)
            printf("%s\n", puzzles[i]);
    fprintf(stderr,
            "gridcheck: workspace %lu bytes; UA %lu, %lu after forced cells, %lu kept; "
            "forced givens %u; clique %u; chunks %lu (%lu done); steps %llu; candidates "
            "%llu; found %llu\n",
            (unsigned long)bytes, (unsigned long)stats.ua_count,
            (unsigned long)stats.ua_after_forced, (unsigned long)stats.ua_kept,
            (unsigned)stats.forced_givens, (unsigned)stats.clique_size, (unsigned long)chunks,
            (unsigned long)stats.chunks_done, (unsigned long long)stats.steps,
            (unsigned long long)stats.candidates, (unsigned long long)stats.found);
    return stats.found == puzzle_count && stats.chunks_done == chunks ? 0 : 1;
}

/* ---- misuse ------------------------------------------------------------------------ */

/* The workspace between two guard zones (the static buffer is big enough for the small
 * limits used here plus both guards). */
static unsigned char *guarded(size_t size)
{
    CHECK(GUARD + size + GUARD <= sizeof workspace.bytes);
    memset(workspace.bytes, GUARD_BYTE, GUARD + size + GUARD);
    return workspace.bytes + GUARD;
}

static void check_guards(size_t size, int line)
{
    size_t i;
    for (i = 0; i < GUARD; i++) {
        if (workspace.bytes[i] != GUARD_BYTE || workspace.bytes[GUARD + size + i] != GUARD_BYTE) {
            printf("gridcheck.c:%d: a guard byte was overwritten\n", line);
            failures++;
            return;
        }
    }
}

static int32_t stop_now(void *ctx, const char *puzzle)
{
    (void)puzzle;
    ++*(int *)ctx;
    return 1;
}

static int32_t count_only(void *ctx, const char *puzzle)
{
    CHECK(strlen(puzzle) == 81);
    ++*(int *)ctx;
    return 0;
}

/* Runs a whole scan to its end; returns the final status. */
static xcover_status run_whole(gridcheck_workspace *h, gridcheck_found_fn fn, void *ctx)
{
    xcover_status s = gridcheck_chunk_begin(h, GRIDCHECK_CHUNK_WHOLE);
    if (s != XCOVER_OK)
        return s;
    do
        s = gridcheck_step(h, 1000, fn, ctx);
    while (s == XCOVER_BUDGET_EXHAUSTED);
    return s;
}

/* gridcheck_get_grid_error must describe the last gridcheck_set_grid as `kind`, `a` and
 * `b` (the kind's two numbers: length and 0, position and byte, or digit and house number)
 * and the message `words`. */
static void expect_grid_error(gridcheck_workspace *h, xcover_status status, uint32_t kind,
                              uint32_t a, uint32_t b, const char *words, int line)
{
    gridcheck_grid_error why;
    uint32_t got_a = 0, got_b = 0;

    memset(&why, 0xA5, sizeof why);
    EXPECT(gridcheck_get_grid_error(h, &why), XCOVER_OK);
    if (why.kind == GRIDCHECK_GRID_WRONG_LENGTH)
        got_a = why.length;
    else if (why.kind == GRIDCHECK_GRID_BAD_CHAR)
        got_a = why.position, got_b = why.byte;
    else if (why.kind == GRIDCHECK_GRID_REPEATED_DIGIT)
        got_a = why.digit, got_b = why.house_number;
    if (why.status != status || why.kind != kind || got_a != a || got_b != b
        || memchr(why.message, 0, sizeof why.message) == NULL || strcmp(why.message, words) != 0) {
        printf("gridcheck.c:%d: grid error {%u, kind %u, %u, %u, \"%.*s\"}, expected {%u, kind "
               "%u, %u, %u, \"%s\"}\n",
               line, (unsigned)why.status, (unsigned)why.kind, (unsigned)got_a, (unsigned)got_b,
               (int)sizeof why.message, why.message, (unsigned)status, (unsigned)kind,
               (unsigned)a, (unsigned)b, words);
        failures++;
    }
}

static int misuse(void)
{
    /* The c00 case of cli/tests/fixtures/gridcheck/cases18.tsv: 81 puzzles of 18 clues. */
    static const char grid[] =
        "216378945487259163359146782673521894948637251125894637591462378732985416864713529";
    static const char mask[] =
        "...1..1..11..........1.....11..1...........11.1.....1............................";
    static const char bad_solution[] = /* two cells of row 1 swapped: columns repeat */
        "126378945487259163359146782673521894948637251125894637591462378732985416864713529";
    static const char bad_char[] =
        "21637894548725916335914678267352189494863725112589463759146237873298541686471352x";
    static const char too_long[] =
        "2163789454872591633591467826735218949486372511258946375914623787329854168647135291";
    static const char way_too_long[] =
        "216378945487259163359146782673521894948637251125894637591462378732985416864713529123456789";
    static const char long_mask[] =
        "..................................................................................";
    gridcheck_limits small = {512, 64, 256, 18};
    gridcheck_limits bad = small;
    gridcheck_workspace *h = NULL, *other = NULL;
    gridcheck_stats stats;
    size_t size = 0, align = 0, count = 0;
    uint32_t state = 0, id = 0;
    char ua[82], puzzle[GRIDCHECK_PUZZLE_BYTES], tiny[10];
    union {
        gridcheck_grid_error info;
        unsigned char bytes[sizeof(gridcheck_grid_error) + 8];
    } why;
    unsigned char *buf;
    int calls = 0, i;
    xcover_status code;

    /* Sizing. */
    EXPECT(gridcheck_workspace_size(NULL, &size, &align), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_workspace_size(&small, NULL, &align), XCOVER_NULL_POINTER);
    bad.max_clues = 0;
    EXPECT(gridcheck_workspace_size(&bad, &size, &align), XCOVER_BAD_ARGUMENT);
    bad.max_clues = 82;
    EXPECT(gridcheck_workspace_size(&bad, &size, &align), XCOVER_BAD_ARGUMENT);
    bad = small;
    bad.max_ua = 0;
    EXPECT(gridcheck_workspace_size(&bad, &size, &align), XCOVER_BAD_ARGUMENT);
    bad = small;
    bad.keep_ua = 0;
    EXPECT(gridcheck_workspace_size(&bad, &size, &align), XCOVER_BAD_ARGUMENT);
    EXPECT(gridcheck_workspace_size(&small, &size, NULL), XCOVER_OK);
    EXPECT(gridcheck_workspace_size(&small, &size, &align), XCOVER_OK);
    CHECK(align == GRIDCHECK_WORKSPACE_ALIGN);
    CHECK(size == XCOVER_GRIDCHECK_WORKSPACE_SIZE(512, 64, 256, 18));
    printf("misuse: workspace for {512 UA, keep 64, scratch 256, 18 clues}: %lu bytes\n",
           (unsigned long)size);

    /* Init: NULL, misaligned, short, bad limits, then a good one and a second init. */
    buf = guarded(size);
    EXPECT(gridcheck_init(NULL, size, &small, &h), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_init(buf, size, NULL, &h), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_init(buf, size, &small, NULL), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_init(buf + 4, size, &small, &h), XCOVER_MISALIGNED);
    EXPECT(gridcheck_init(buf, size - 1, &small, &h), XCOVER_BUFFER_TOO_SMALL);
    EXPECT(gridcheck_init(buf, size, &bad, &h), XCOVER_BAD_ARGUMENT);
    CHECK(h == NULL);
    check_guards(size, __LINE__);
    EXPECT(gridcheck_init(buf, size, &small, &h), XCOVER_OK);
    CHECK(h != NULL);
    EXPECT(gridcheck_init(buf, size, &small, &other), XCOVER_ALREADY_INITIALIZED);
    EXPECT(gridcheck_get_state(h, &state), XCOVER_OK);
    CHECK(state == GRIDCHECK_STATE_EMPTY);

    /* Bad handles. */
    EXPECT(gridcheck_set_grid(NULL, grid), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_set_grid((gridcheck_workspace *)(void *)(buf + 4), grid), XCOVER_MISALIGNED);
    EXPECT(gridcheck_set_grid((gridcheck_workspace *)(void *)(buf + 64), grid),
           XCOVER_NOT_INITIALIZED);

    /* Out of order before the grid. */
    EXPECT(gridcheck_set_options(h, 18, mask, 0), XCOVER_BAD_STATE);
    EXPECT(gridcheck_add_ua(h, "{11,12}"), XCOVER_BAD_STATE);
    EXPECT(gridcheck_prepare(h), XCOVER_BAD_STATE);
    EXPECT(gridcheck_chunk_list(h, NULL, 0, &count), XCOVER_BAD_STATE);
    EXPECT(gridcheck_chunk_begin(h, GRIDCHECK_CHUNK_WHOLE), XCOVER_BAD_STATE);
    EXPECT(gridcheck_step(h, 10, NULL, NULL), XCOVER_BAD_STATE);

    /* Bad grid text, and why (gridcheck_get_grid_error: the words of xcover gridcheck). */
    EXPECT(gridcheck_get_grid_error(NULL, &why.info), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_get_grid_error(h, NULL), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_get_grid_error(h, (gridcheck_grid_error *)(void *)(why.bytes + 1)),
           XCOVER_MISALIGNED);
    EXPECT(gridcheck_get_grid_error((gridcheck_workspace *)(void *)(buf + 4), &why.info),
           XCOVER_MISALIGNED);
    EXPECT(gridcheck_get_grid_error((gridcheck_workspace *)(void *)(buf + 64), &why.info),
           XCOVER_NOT_INITIALIZED);
    expect_grid_error(h, XCOVER_OK, GRIDCHECK_GRID_NONE, 0, 0, "", __LINE__);
    EXPECT(gridcheck_set_grid(h, NULL), XCOVER_NULL_POINTER);
    expect_grid_error(h, XCOVER_NULL_POINTER, GRIDCHECK_GRID_NONE, 0, 0, "", __LINE__);
    EXPECT(gridcheck_set_grid(h, ""), XCOVER_GRIDCHECK_BAD_GRID);
    expect_grid_error(h, XCOVER_GRIDCHECK_BAD_GRID, GRIDCHECK_GRID_WRONG_LENGTH, 0, 0,
                      "expected 81 characters, found 0", __LINE__);
    EXPECT(gridcheck_set_grid(h, grid + 1), XCOVER_GRIDCHECK_BAD_GRID);
    expect_grid_error(h, XCOVER_GRIDCHECK_BAD_GRID, GRIDCHECK_GRID_WRONG_LENGTH, 80, 0,
                      "expected 81 characters, found 80", __LINE__);
    EXPECT(gridcheck_set_grid(h, bad_char), XCOVER_GRIDCHECK_BAD_GRID);
    expect_grid_error(h, XCOVER_GRIDCHECK_BAD_GRID, GRIDCHECK_GRID_BAD_CHAR, 80, 'x',
                      "character 81 (row 9, column 9): unexpected `x`", __LINE__);
    /* Cell 45 (row 6, column 1) holds the 1 that the swap also put at the top of column 1. */
    EXPECT(gridcheck_set_grid(h, bad_solution), XCOVER_GRIDCHECK_BAD_GRID);
    expect_grid_error(h, XCOVER_GRIDCHECK_BAD_GRID, GRIDCHECK_GRID_REPEATED_DIGIT, 1, 1,
                      "not a valid solution: digit 1 appears twice in column 1", __LINE__);
    EXPECT(gridcheck_get_grid_error(h, &why.info), XCOVER_OK);
    CHECK(why.info.house == GRIDCHECK_HOUSE_COLUMN && why.info.house != GRIDCHECK_HOUSE_ROW
          && why.info.house != GRIDCHECK_HOUSE_BOX);
    EXPECT(gridcheck_set_grid(h, too_long), XCOVER_GRIDCHECK_BAD_GRID);
    expect_grid_error(h, XCOVER_GRIDCHECK_BAD_GRID, GRIDCHECK_GRID_WRONG_LENGTH, 82, 0,
                      "expected 81 characters, found 82", __LINE__);
    EXPECT(gridcheck_set_grid(h, way_too_long), XCOVER_GRIDCHECK_BAD_GRID); /* 84 bytes read */
    expect_grid_error(h, XCOVER_GRIDCHECK_BAD_GRID, GRIDCHECK_GRID_WRONG_LENGTH, 84, 0,
                      "expected 81 characters, found 84 or more", __LINE__);
    EXPECT(gridcheck_get_state(h, &state), XCOVER_OK);
    CHECK(state == GRIDCHECK_STATE_EMPTY);
    EXPECT(gridcheck_set_grid(h, grid), XCOVER_OK);
    expect_grid_error(h, XCOVER_OK, GRIDCHECK_GRID_NONE, 0, 0, "", __LINE__);
    EXPECT(gridcheck_set_grid(h, grid), XCOVER_BAD_STATE);
    expect_grid_error(h, XCOVER_BAD_STATE, GRIDCHECK_GRID_NONE, 0, 0, "", __LINE__);
    EXPECT(gridcheck_generate_ua(h, 10, 1), XCOVER_BAD_STATE); /* needs the options */
    EXPECT(gridcheck_generate_default_ua(h, 1), XCOVER_BAD_STATE);

    /* Options. */
    EXPECT(gridcheck_set_options(h, 0, mask, 0), XCOVER_GRIDCHECK_BAD_CLUES);
    EXPECT(gridcheck_set_options(h, 19, mask, 0), XCOVER_GRIDCHECK_BAD_CLUES); /* > max_clues */
    EXPECT(gridcheck_set_options(h, 18, long_mask, 0), XCOVER_GRIDCHECK_BAD_MASK);
    EXPECT(gridcheck_set_options(h, 11, mask, 0), XCOVER_GRIDCHECK_TOO_MANY_FORCED);
    EXPECT(gridcheck_set_options(h, 18, mask, 4), XCOVER_BAD_ARGUMENT);
    EXPECT(gridcheck_prepare(h), XCOVER_BAD_STATE);
    EXPECT(gridcheck_set_options(h, 18, mask, GRIDCHECK_STOP_AT_FIRST), XCOVER_OK);

    /* Unavoidable sets: text, verification, a real one. */
    EXPECT(gridcheck_add_ua(h, NULL), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_add_ua(h, "hello"), XCOVER_GRIDCHECK_BAD_UA_TEXT);
    EXPECT(gridcheck_add_ua(h, ""), XCOVER_GRIDCHECK_BAD_UA_TEXT);
    EXPECT(gridcheck_add_ua(h, "{11,12"), XCOVER_GRIDCHECK_BAD_UA_TEXT);
    EXPECT(gridcheck_add_ua(h, "{11}"), XCOVER_GRIDCHECK_NOT_A_UA);
    EXPECT(gridcheck_add_ua(h, "{11,12,13,14,15,16,17,18,19}"), XCOVER_GRIDCHECK_NOT_A_UA);
    for (i = 0; i < 81; i++) /* the cells of digits 1 and 2: swapping them is a UA */
        ua[i] = (grid[i] == '1' || grid[i] == '2') ? '1' : '0';
    ua[81] = 0;
    EXPECT(gridcheck_add_ua(h, ua), XCOVER_OK);
    EXPECT(gridcheck_ua_count(h, &count), XCOVER_OK);
    CHECK(count == 1);
    EXPECT(gridcheck_generate_ua(h, 20, 7), XCOVER_OK);
    EXPECT(gridcheck_ua_count(h, &count), XCOVER_OK);
    CHECK(count > 1);
    printf("misuse: %lu UA after generation\n", (unsigned long)count);

    /* No puzzle yet. */
    EXPECT(gridcheck_last_puzzle(h, puzzle, sizeof puzzle), XCOVER_GRIDCHECK_NO_PUZZLE);
    EXPECT(gridcheck_last_puzzle(h, NULL, sizeof puzzle), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_last_puzzle(h, tiny, sizeof tiny), XCOVER_BUFFER_TOO_SMALL);

    /* Prepare, chunks, bad chunk ids, and the calls no longer allowed. */
    EXPECT(gridcheck_prepare(h), XCOVER_OK);
    EXPECT(gridcheck_prepare(h), XCOVER_BAD_STATE);
    EXPECT(gridcheck_add_ua(h, ua), XCOVER_BAD_STATE);
    EXPECT(gridcheck_set_options(h, 18, mask, 0), XCOVER_BAD_STATE);
    EXPECT(gridcheck_step(h, 10, NULL, NULL), XCOVER_BAD_STATE);
    EXPECT(gridcheck_chunk_list(h, NULL, 0, NULL), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_chunk_list(h, NULL, 5, &count), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_chunk_list(h, NULL, 0, &count), XCOVER_BUFFER_TOO_SMALL);
    CHECK(count > 1 && count <= GRIDCHECK_MAX_CHUNKS);
    EXPECT(gridcheck_chunk_list(h, &id, 1, &count), XCOVER_BUFFER_TOO_SMALL);
    /* Ids are top << 16 | second << 8 | third, 255 for an open level. */
    EXPECT(gridcheck_chunk_begin(h, 0x1000000u), XCOVER_GRIDCHECK_BAD_CHUNK);
    EXPECT(gridcheck_chunk_begin(h, (5u << 16) | (5u << 8) | 0xffu), XCOVER_GRIDCHECK_BAD_CHUNK);
    EXPECT(gridcheck_chunk_begin(h, (200u << 16) | 0xffffu), XCOVER_GRIDCHECK_BAD_CHUNK);
    EXPECT(gridcheck_chunk_begin(h, (0xffu << 16) | (3u << 8) | 0xffu), XCOVER_GRIDCHECK_BAD_CHUNK);
    EXPECT(gridcheck_chunk_begin(h, id), XCOVER_OK);

    /* Stop at first: STOPPED, then again STOPPED; the puzzle is readable. */
    code = run_whole(h, count_only, &calls);
    EXPECT(code, XCOVER_STOPPED);
    CHECK(calls == 1);
    EXPECT(gridcheck_step(h, 10, count_only, &calls), XCOVER_STOPPED);
    CHECK(calls == 1);
    EXPECT(gridcheck_last_puzzle(h, puzzle, sizeof puzzle), XCOVER_OK);
    CHECK(strlen(puzzle) == 81);
    for (i = 0, count = 0; i < 81; i++) {
        CHECK(puzzle[i] == '0' || puzzle[i] == grid[i]);
        CHECK(mask[i] != '1' || puzzle[i] == grid[i]);
        count += puzzle[i] != '0';
    }
    CHECK(count == 18);
    EXPECT(gridcheck_get_stats(h, NULL), XCOVER_NULL_POINTER);
    EXPECT(gridcheck_get_stats(h, &stats), XCOVER_OK);
    CHECK(stats.found == 1 && stats.ua_count > 1 && stats.forced_givens >= 12);
    check_guards(size, __LINE__);

    /* Release: the handle is refused afterwards, the buffer can be reused. */
    EXPECT(gridcheck_release(h), XCOVER_OK);
    EXPECT(gridcheck_get_state(h, &state), XCOVER_NOT_INITIALIZED);
    EXPECT(gridcheck_step(h, 10, NULL, NULL), XCOVER_NOT_INITIALIZED);
    EXPECT(gridcheck_release(h), XCOVER_NOT_INITIALIZED);

    /* Same buffer: a callback that stops, then the whole scan counted without one. */
    EXPECT(gridcheck_init(buf, size, &small, &h), XCOVER_OK);
    EXPECT(gridcheck_set_grid(h, grid), XCOVER_OK);
    EXPECT(gridcheck_set_options(h, 18, mask, 0), XCOVER_OK);
    calls = 0;
    EXPECT(run_whole(h, stop_now, &calls), XCOVER_BAD_STATE); /* not prepared */
    EXPECT(gridcheck_generate_ua(h, 50, 2), XCOVER_OK);
    EXPECT(gridcheck_prepare(h), XCOVER_OK);
    EXPECT(run_whole(h, stop_now, &calls), XCOVER_STOPPED);
    CHECK(calls == 1);
    calls = 0;
    EXPECT(run_whole(h, count_only, &calls), XCOVER_DONE);
    EXPECT(gridcheck_step(h, 10, count_only, &calls), XCOVER_DONE);
    CHECK(calls == 81);
    EXPECT(gridcheck_get_stats(h, &stats), XCOVER_OK);
    CHECK(stats.ua_count > 0 && stats.found == 82 && stats.chunks_done == 2);
    check_guards(size, __LINE__);
    EXPECT(gridcheck_release(h), XCOVER_OK);

    /* A full UA list. */
    small.max_ua = 1;
    EXPECT(gridcheck_workspace_size(&small, &size, &align), XCOVER_OK);
    buf = guarded(size);
    EXPECT(gridcheck_init(buf, size, &small, &h), XCOVER_OK);
    EXPECT(gridcheck_set_grid(h, grid), XCOVER_OK);
    EXPECT(gridcheck_add_ua(h, ua), XCOVER_OK);
    EXPECT(gridcheck_add_ua(h, ua), XCOVER_GRIDCHECK_UA_LIST_FULL);
    EXPECT(gridcheck_set_options(h, 18, mask, 0), XCOVER_OK);
    EXPECT(gridcheck_generate_ua(h, 5, 1), XCOVER_GRIDCHECK_UA_LIST_FULL);
    EXPECT(gridcheck_ua_count(h, &count), XCOVER_OK);
    CHECK(count == 1);
    EXPECT(gridcheck_prepare(h), XCOVER_OK); /* still usable */
    EXPECT(gridcheck_release(h), XCOVER_OK);
    check_guards(size, __LINE__);

    /* Every status has a message. */
    for (code = 0; code < 192; code++)
        if (code >= XCOVER_GRIDCHECK_BAD_GRID && code <= XCOVER_GRIDCHECK_NO_PUZZLE)
            CHECK(strcmp(xcover_status_message(code), "unknown status") != 0);
    CHECK(strcmp(xcover_status_message(XCOVER_STOPPED), "unknown status") != 0);

    if (failures) {
        printf("gridcheck misuse: %d checks FAILED\n", failures);
        return 1;
    }
    printf("gridcheck misuse: all checks passed\n");
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
    setvbuf(stderr, stderr_buffer, _IOLBF, sizeof stderr_buffer);
    if (argc == 2 && strcmp(argv[1], "--misuse") == 0)
        return misuse();
    if (argc == 3 || argc == 4) {
        int clues = atoi(argv[1]);
        if (clues <= 0) {
            fprintf(stderr, "gridcheck: bad clue count %s\n", argv[1]);
            return 1;
        }
        return scan((unsigned)clues, argv[2], argc == 4 ? argv[3] : NULL);
    }
    fprintf(stderr, "usage: gridcheck N GRID [MASK]\n       gridcheck --misuse\n");
    return 1;
}
