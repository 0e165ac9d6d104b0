/*
 * header_macros.c -- every macro and struct of xcover.h used once and checked against
 * the library: the size macros against the size functions, the constants against what the
 * functions report, the static buffers and DEFAULT initializer compiled and used. Built
 * for the host and for Cortex-M (32-bit), so the header is known to compile, and to agree
 * with the library, on ILP32 and LP64 alike. Exit status 0 when everything agrees.
 */
#include <stdio.h>
#include <string.h>

#include "xcover.h"
#include "check.h"
#include "queens8_matrix.h"

/* Static buffers sized by the macros alone (no call needed). */
static XCOVER_ALIGNED_BUFFER(text_ws, XCOVER_DLX3_WORKSPACE_SIZE(30, 200, 10));
static XCOVER_ALIGNED_BUFFER(preloaded_ws, XCOVER_DLX3_PRELOADED_SIZE(QUEENS8_LAST_ITM,
                                                                        QUEENS8_LAST_NODE,
                                                                        QUEENS8_LEVELS));
static XCOVER_ALIGNED_BUFFER(compact_ws, QUEENS8_COMPACT_WORKSPACE_SIZE(QUEENS8_LEVELS));

XCOVER_STATIC_ASSERT(XCOVER_ROUND8(13) == 16, round8_rounds_up);
XCOVER_STATIC_ASSERT(XCOVER_DLX3_COMPACT_HEADER_SIZE < XCOVER_DLX3_HEADER_SIZE, compact_header_smaller);
XCOVER_STATIC_ASSERT(DLX3_COMPACT_ITEM_BYTES < DLX3_ITEM_BYTES && DLX3_COMPACT_NODE_BYTES < DLX3_NODE_BYTES,
                     compact_records_smaller);
XCOVER_STATIC_ASSERT(DLX3_HEADER_FIXED_BYTES > 0 && DLX3_HEADER_POINTERS > 0, header_formula);
XCOVER_STATIC_ASSERT(DLX3_COMPACT_HEADER_FIXED_BYTES > 0 && DLX3_COMPACT_HEADER_POINTERS > 0,
                     compact_header_formula);
XCOVER_STATIC_ASSERT(DLX3_NAME_BYTES == 8 && DLX3_SCRATCH_BYTES == 8 && DLX3_LEVEL_BYTES == 24,
                     record_sizes);
XCOVER_STATIC_ASSERT(GRIDCHECK_PUZZLE_BYTES == 82, puzzle_line_bytes);
XCOVER_STATIC_ASSERT(GRIDCHECK_WORKSPACE_ALIGN <= GRIDCHECK_REGION_ALIGN, region_alignment);
XCOVER_STATIC_ASSERT(GRIDCHECK_STOP_AT_FIRST != GRIDCHECK_MINIMAL, distinct_flags);
XCOVER_STATIC_ASSERT(sizeof(gridcheck_grid_error) == GRIDCHECK_GRID_ERROR_SIZE, grid_error_size);
XCOVER_STATIC_ASSERT(sizeof(((gridcheck_grid_error *)0)->message) == GRIDCHECK_GRID_MESSAGE_BYTES,
                     grid_error_message_bytes);


static void sizes_agree_with_the_functions(void)
{
    size_t size = 0, align = 0;
    gridcheck_limits limits;

    EXPECT(dlx3_workspace_size(30, 200, 10, &size, &align), XCOVER_OK);
    CHECK(size == XCOVER_DLX3_WORKSPACE_SIZE(30, 200, 10) && align == DLX3_WORKSPACE_ALIGN);
    EXPECT(dlx3_preloaded_workspace_size(&queens8_image, QUEENS8_LEVELS, &size, &align), XCOVER_OK);
    CHECK(size == QUEENS8_WORKSPACE_SIZE(QUEENS8_LEVELS));
    EXPECT(dlx3_compact_workspace_size(&queens8_image, QUEENS8_LEVELS, &size, &align), XCOVER_OK);
    CHECK(size == XCOVER_DLX3_COMPACT_SIZE(QUEENS8_LAST_ITM, QUEENS8_LAST_NODE, QUEENS8_LEVELS));
    CHECK(sizeof compact_ws.bytes < sizeof preloaded_ws.bytes);

    limits.max_ua = 512;
    limits.keep_ua = 64;
    limits.ua_scratch = 256;
    limits.max_clues = 18;
    EXPECT(gridcheck_workspace_size(&limits, &size, &align), XCOVER_OK);
    CHECK(size == XCOVER_GRIDCHECK_WORKSPACE_SIZE(512, 64, 256, 18));
    CHECK(align == GRIDCHECK_WORKSPACE_ALIGN);
    CHECK(XCOVER_GRIDCHECK_RATING(1) == 4096u && XCOVER_GRIDCHECK_RATING(1u << 20) == 262144u);
    CHECK(GRIDCHECK_HEADER_BYTES > 0 && GRIDCHECK_TABLE_BYTES > 0 && GRIDCHECK_SET_BYTES > 0
          && GRIDCHECK_STATE_BYTES > 0);
    CHECK(sizeof(gridcheck_limits) == GRIDCHECK_LIMITS_SIZE);
    CHECK(sizeof(gridcheck_stats) == GRIDCHECK_STATS_SIZE);
    CHECK(GRIDCHECK_MAX_CHUNKS > 0 && GRIDCHECK_CHUNK_WHOLE > GRIDCHECK_MAX_CHUNKS);
}

static void constants_are_what_the_library_says(void)
{
    dlx3_settings defaults = dlx3_settings_DEFAULT, filled;
    dlx3_writers discard = {{NULL, NULL}, {NULL, NULL}, {NULL, NULL}};
    dlx3_workspace *ws = NULL;
    dlx3_stats stats;
    uint32_t state = 0, option = 0, item = 0;
    size_t len = 0;

    CHECK(xcover_abi_version() == XCOVER_ABI_VERSION);
    /* The DEFAULT initializer and dlx3_settings_default() agree field by field. */
    EXPECT(dlx3_settings_default(&filled), XCOVER_OK);
    CHECK(defaults.verbosity == filled.verbosity && defaults.spacing == filled.spacing
          && defaults.randomize == filled.randomize && defaults.delta == filled.delta
          && defaults.show_choices_max == filled.show_choices_max
          && defaults.show_levels_max == filled.show_levels_max
          && defaults.show_choices_gap == filled.show_choices_gap
          && defaults.max_count == filled.max_count && defaults.timeout == filled.timeout);
    CHECK(sizeof defaults == DLX3_SETTINGS_SIZE && sizeof(dlx3_stats) == DLX3_STATS_SIZE);
    CHECK(sizeof discard == DLX3_WRITERS_POINTERS * sizeof(void *));
    CHECK(queens8_image.version == DLX3_IMAGE_VERSION);
    CHECK(DLX3_KNUTH_MAX_LEVELS == 500 && DLX3_KNUTH_MAX_ITEMS == 10000
          && DLX3_KNUTH_MAX_NODES == 100000000);

    /* A text workspace in the macro-sized static buffer: Knuth's limits are refused. */
    EXPECT(dlx3_init(text_ws.bytes, sizeof text_ws.bytes, 30, 200, 10, &defaults, &ws), XCOVER_OK);
    EXPECT(dlx3_set_writers(ws, &discard), XCOVER_OK);
    EXPECT(dlx3_get_state(ws, &state), XCOVER_OK);
    CHECK(state == DLX3_STATE_ITEMS);
    EXPECT(dlx3_release(ws), XCOVER_OK);

    /* A preloaded one: a null move never appears in 8 queens, a full run has 92. */
    EXPECT(dlx3_init_preloaded(preloaded_ws.bytes, sizeof preloaded_ws.bytes, &queens8_image,
                               QUEENS8_LEVELS, &defaults, &ws),
           XCOVER_OK);
    EXPECT(dlx3_solve_step(ws, UINT64_MAX), XCOVER_SOLUTION);
    EXPECT(dlx3_solution_len(ws, &len), XCOVER_OK);
    EXPECT(dlx3_solution_option(ws, 0, &option, &item), XCOVER_OK);
    CHECK(len == 8 && option != DLX3_NULL_MOVE);
    EXPECT(dlx3_release(ws), XCOVER_OK);

    /* The compact one, sized by the exported macro, counts the same. */
    EXPECT(dlx3_init_compact(compact_ws.bytes, sizeof compact_ws.bytes, &queens8_image,
                             QUEENS8_LEVELS, &defaults, &ws),
           XCOVER_OK);
    while (dlx3_solve_step(ws, UINT64_MAX) == XCOVER_SOLUTION)
        ;
    EXPECT(dlx3_get_stats(ws, &stats), XCOVER_OK);
    CHECK(stats.solutions == 92 && stats.max_level < QUEENS8_LEVELS);
    EXPECT(dlx3_get_state(ws, &state), XCOVER_OK);
    CHECK(state == DLX3_STATE_DONE);
    EXPECT(dlx3_release(ws), XCOVER_OK);

    /* The gridcheck enumerations are distinct values. */
    CHECK(GRIDCHECK_POSSIBLE != GRIDCHECK_IMPOSSIBLE_CLIQUE_EXCEEDS_CLUES
          && GRIDCHECK_IMPOSSIBLE_FORCED_EXCEED_CLUES != GRIDCHECK_IMPOSSIBLE_NOT_ENOUGH_FREE_CELLS
          && GRIDCHECK_IMPOSSIBLE_UA_IN_FORCED_EMPTIES != GRIDCHECK_POSSIBLE);
    CHECK(GRIDCHECK_GRID_NONE == 0 && GRIDCHECK_GRID_WRONG_LENGTH != GRIDCHECK_GRID_BAD_CHAR
          && GRIDCHECK_GRID_BAD_CHAR != GRIDCHECK_GRID_REPEATED_DIGIT
          && GRIDCHECK_GRID_REPEATED_DIGIT != GRIDCHECK_GRID_NONE);
    CHECK(GRIDCHECK_HOUSE_ROW != GRIDCHECK_HOUSE_COLUMN && GRIDCHECK_HOUSE_COLUMN != GRIDCHECK_HOUSE_BOX
          && GRIDCHECK_HOUSE_BOX != GRIDCHECK_HOUSE_ROW);
    CHECK(GRIDCHECK_STATE_EMPTY != GRIDCHECK_STATE_GRID && GRIDCHECK_STATE_OPTIONS != GRIDCHECK_STATE_PREPARED
          && GRIDCHECK_STATE_RUNNING != GRIDCHECK_STATE_CHUNK_DONE && GRIDCHECK_STATE_DEAD != GRIDCHECK_STATE_EMPTY);
}

int main(void)
{
    sizes_agree_with_the_functions();
    constants_are_what_the_library_says();
    if (failures) {
        printf("header_macros: %d checks failed\n", failures);
        return 1;
    }
    printf("header_macros: every macro agrees with the library (%u-bit pointers)\n",
           (unsigned)(8 * sizeof(void *)));
    return 0;
}
