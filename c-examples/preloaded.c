/*
 * preloaded.c -- 8 queens from a matrix compiled into the program (queens8_matrix.h, made
 * by `xcover dlx3 --export-c queens8.dlx`), solved in a static workspace with no
 * allocation at all: malloc & co. abort (no_malloc.c). Each solution is checked to be a
 * real placement of 8 non-attacking queens (decoded from the item names r<row> c<col>),
 * and the count must agree with the library's statistics and with an independent
 * backtracking count done here.
 */
#include <stdio.h>
#include <string.h>

#include "xcover.h"
#include "queens8_matrix.h"
#include "no_malloc.h"

#define N 8
#define LEVELS 16

static XCOVER_ALIGNED_BUFFER(workspace, QUEENS8_WORKSPACE_SIZE(LEVELS));
static char stdout_buffer[4096]; /* so that stdio does not malloc one */

/* Counts n-queens placements by plain backtracking (the independent reference). */
static unsigned count_queens(int row, unsigned cols, unsigned diag1, unsigned diag2)
{
    unsigned total = 0;
    int col;
    if (row == N)
        return 1;
    for (col = 0; col < N; col++) {
        unsigned c = 1u << col, d1 = 1u << (row + col), d2 = 1u << (row - col + N - 1);
        if (!(cols & c) && !(diag1 & d1) && !(diag2 & d2))
            total += count_queens(row + 1, cols | c, diag1 | d1, diag2 | d2);
    }
    return total;
}

static int fail(const char *what, xcover_status status)
{
    printf("preloaded: %s: %s\n", what, xcover_status_message(status));
    return 1;
}

/* Reads the current solution and checks it places N non-attacking queens. */
static int check_solution(dlx3_workspace *ws)
{
    int row_of_col[N], col;
    size_t len, level, k, items;
    xcover_status status = dlx3_solution_len(ws, &len);
    if (status != XCOVER_OK)
        return fail("solution_len", status);
    if (len != N) {
        printf("preloaded: solution with %u moves\n", (unsigned)len);
        return 1;
    }
    for (col = 0; col < N; col++)
        row_of_col[col] = -1;
    for (level = 0; level < len; level++) {
        uint32_t option, item;
        int row = -1, column = -1;
        char name[9];
        if ((status = dlx3_solution_option(ws, level, &option, NULL)) != XCOVER_OK)
            return fail("solution_option", status);
        if ((status = dlx3_option_len(ws, option, &items)) != XCOVER_OK)
            return fail("option_len", status);
        for (k = 0; k < items; k++) {
            if ((status = dlx3_option_item(ws, option, k, &item, NULL)) != XCOVER_OK)
                return fail("option_item", status);
            if ((status = dlx3_item_name(ws, item, name, sizeof name)) != XCOVER_OK)
                return fail("item_name", status);
            if (name[0] == 'r')
                row = name[1] - '0';
            if (name[0] == 'c')
                column = name[1] - '0';
        }
        if (row < 0 || row >= N || column < 0 || column >= N || row_of_col[column] != -1) {
            printf("preloaded: bad option %u\n", (unsigned)option);
            return 1;
        }
        row_of_col[column] = row;
    }
    for (col = 0; col < N; col++) {
        int other;
        for (other = col + 1; other < N; other++) {
            int dr = row_of_col[col] - row_of_col[other];
            if (dr == 0 || dr == other - col || dr == col - other) {
                printf("preloaded: queens in columns %d and %d attack each other\n", col, other);
                return 1;
            }
        }
    }
    return 0;
}

int main(void)
{
    dlx3_settings settings;
    dlx3_workspace *ws = NULL;
    dlx3_stats stats;
    size_t size, align;
    unsigned found = 0, expected;
    xcover_status status;

    setvbuf(stdout, stdout_buffer, _IOFBF, sizeof stdout_buffer);
    no_malloc_arm(1);

    status = dlx3_preloaded_workspace_size(&queens8_image, LEVELS, &size, &align);
    if (status != XCOVER_OK)
        return fail("preloaded_workspace_size", status);
    if (size != sizeof workspace.bytes || align > sizeof(uint64_t)) {
        printf("preloaded: size macro %u, library %u\n", (unsigned)sizeof workspace.bytes, (unsigned)size);
        return 1;
    }
    dlx3_settings_default(&settings);
    settings.verbosity = 0;
    status = dlx3_init_preloaded(workspace.bytes, sizeof workspace.bytes, &queens8_image, LEVELS,
                                 &settings, &ws);
    if (status != XCOVER_OK)
        return fail("init_preloaded", status);
    while ((status = dlx3_solve_step(ws, UINT64_MAX)) == XCOVER_SOLUTION) {
        if (check_solution(ws))
            return 1;
        found++;
    }
    if (status != XCOVER_DONE)
        return fail("solve_step", status);
    if ((status = dlx3_get_stats(ws, &stats)) != XCOVER_OK)
        return fail("get_stats", status);
    dlx3_release(ws);
    expected = count_queens(0, 0, 0, 0);
    printf("%u solutions (library count %u, backtracking %u), %u bytes of workspace, "
           "%lu mems, %lu nodes\n",
           found, (unsigned)stats.solutions, expected, (unsigned)sizeof workspace.bytes,
           (unsigned long)stats.mems, (unsigned long)stats.nodes);
    fflush(stdout);
    no_malloc_arm(0);
    return found == expected && stats.solutions == found && stats.input_mems == 0 ? 0 : 1;
}
