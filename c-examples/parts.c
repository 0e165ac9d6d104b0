/*
 * parts.c -- 8 queens (the preloaded matrix of queens8_matrix.h, compact workspace) searched
 * in 3 parts, as 3 machines would: each part walks the levels above the split level and
 * explores only its own units (dlx3_set_part). The parts' solutions must be one run's, each
 * found once, and their counters, added with dlx3_stats_add, one run's dlx3_get_stats,
 * field by field. Prints each part's share and the sum; exits 0 iff everything agrees.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "xcover.h"
#include "queens8_matrix.h"

#define PARTS 3
#define MAX_SOLUTIONS 128

static XCOVER_ALIGNED_BUFFER(workspace, QUEENS8_COMPACT_WORKSPACE_SIZE(QUEENS8_LEVELS));

/* A solution as the set of its options (8 queens has 64 options, numbered 1..64). */
static uint64_t solution_mask(dlx3_workspace *ws)
{
    size_t len = 0, level;
    uint64_t mask = 0;
    EXPECT(dlx3_solution_len(ws, &len), XCOVER_OK);
    for (level = 0; level < len; level++) {
        uint32_t option = 0;
        EXPECT(dlx3_solution_option(ws, level, &option, NULL), XCOVER_OK);
        CHECK(option >= 1 && option <= 64);
        mask |= (uint64_t)1 << ((option - 1) & 63);
    }
    return mask;
}

static dlx3_workspace *start(void)
{
    dlx3_workspace *ws = NULL;
    EXPECT(dlx3_init_compact(workspace.bytes, sizeof workspace.bytes, &queens8_image,
                             QUEENS8_LEVELS, NULL, &ws),
           XCOVER_OK);
    return ws;
}

/* Solves in slices of `budget` mems, appending the solutions to `found`. */
static void solve(dlx3_workspace *ws, uint64_t budget, uint64_t *found, unsigned *count)
{
    xcover_status status;
    while ((status = dlx3_solve_step(ws, budget)) != XCOVER_DONE) {
        if (status == XCOVER_SOLUTION) {
            uint64_t mask = solution_mask(ws);
            if (*count < MAX_SOLUTIONS)
                found[*count] = mask;
            ++*count;
        } else if (status != XCOVER_BUDGET_EXHAUSTED) {
            EXPECT(status, XCOVER_BUDGET_EXHAUSTED);
            return;
        }
    }
}

static void print_stats(const char *who, const dlx3_stats *s)
{
    printf("%-13s %3llu solutions, %7llu mems, %6llu nodes, %6llu updates, max level %u\n", who,
           (unsigned long long)s->solutions, (unsigned long long)s->mems,
           (unsigned long long)s->nodes, (unsigned long long)s->updates, (unsigned)s->max_level);
}

static int same_stats(const dlx3_stats *a, const dlx3_stats *b)
{
    return a->solutions == b->solutions && a->input_mems == b->input_mems && a->mems == b->mems
        && a->choice_mems == b->choice_mems && a->updates == b->updates
        && a->cleansings == b->cleansings && a->nodes == b->nodes
        && a->knuth_bytes == b->knuth_bytes && a->max_level == b->max_level
        && a->options == b->options && a->primary_items == b->primary_items
        && a->secondary_items == b->secondary_items && a->entries == b->entries;
}

int main(void)
{
    static uint64_t whole[MAX_SOLUTIONS], parts[MAX_SOLUTIONS];
    unsigned whole_count = 0, parts_count = 0, i, j, part;
    uint32_t split = 0;
    dlx3_stats one, share, total;
    dlx3_workspace *ws;

    /* One run, the reference. */
    ws = start();
    solve(ws, UINT64_MAX, whole, &whole_count);
    EXPECT(dlx3_get_stats(ws, &one), XCOVER_OK);
    EXPECT(dlx3_release(ws), XCOVER_OK);

    /* The split level every part agrees on: the shallowest with at least 3 units per part. */
    ws = start();
    EXPECT(dlx3_choose_split_level(ws, 3 * PARTS, &split), XCOVER_OK);
    EXPECT(dlx3_release(ws), XCOVER_OK);
    printf("split level %u, %d parts\n", (unsigned)split, PARTS);

    memset(&total, 0, sizeof total);
    for (part = 0; part < PARTS; part++) {
        char who[32];
        unsigned before = parts_count;
        ws = start();
        EXPECT(dlx3_set_part(ws, part, PARTS, split), XCOVER_OK);
        /* Any budget: part 1 runs in slices of 1,000 mems. */
        solve(ws, part == 1 ? 1000 : UINT64_MAX, parts, &parts_count);
        EXPECT(dlx3_get_part_stats(ws, &share), XCOVER_OK);
        CHECK(share.solutions == parts_count - before);
        sprintf(who, "part %u of %d:", part, PARTS);
        print_stats(who, &share);
        EXPECT(dlx3_stats_add(&total, &share), XCOVER_OK);
        EXPECT(dlx3_release(ws), XCOVER_OK);
    }
    print_stats("sum:", &total);
    print_stats("one run:", &one);
    CHECK(same_stats(&total, &one));

    /* The same solutions, each found by exactly one part. */
    CHECK(whole_count == 92 && parts_count == whole_count);
    for (i = 0; i < whole_count && i < MAX_SOLUTIONS; i++) {
        unsigned seen = 0;
        for (j = 0; j < parts_count && j < MAX_SOLUTIONS; j++)
            seen += parts[j] == whole[i];
        CHECK(seen == 1);
    }

    if (failures) {
        printf("parts: %d check(s) failed\n", failures);
        return 1;
    }
    printf("parts: the %d parts add up to one run\n", PARTS);
    return 0;
}
