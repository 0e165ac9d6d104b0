/*
 * queens8_min.c -- the smallest useful program: count the 8-queens solutions of the
 * preloaded matrix in a compact (16-bit) workspace; the exit status is the count (checked
 * by `make test` against preloaded.c's verified count). It never calls dlx3_set_writers,
 * so no printing code is linked: this is what the firmware footprint is measured on.
 */
#include "xcover.h"
#include "queens8_matrix.h"

static XCOVER_ALIGNED_BUFFER(workspace, QUEENS8_COMPACT_WORKSPACE_SIZE(QUEENS8_LEVELS));

int main(void)
{
    dlx3_workspace *ws;
    unsigned solutions = 0;
    if (dlx3_init_compact(workspace.bytes, sizeof workspace.bytes, &queens8_image, QUEENS8_LEVELS,
                          0, &ws)
        != XCOVER_OK)
        return 2;
    while (dlx3_solve_step(ws, UINT64_MAX) == XCOVER_SOLUTION)
        solutions++;
    return (int)solutions;
}
