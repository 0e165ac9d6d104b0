/*
 * queens8_min.c -- the smallest useful program: count the 8-queens solutions of the
 * preloaded matrix; the exit status is the count (checked by `make test` against
 * preloaded.c's verified count). Used to measure what libxcover adds to a binary (`size`).
 */
#include "xcover.h"
#include "queens8_matrix.h"

#define LEVELS 10

static XCOVER_ALIGNED_BUFFER(workspace, QUEENS8_WORKSPACE_SIZE(LEVELS));

int main(void)
{
    dlx3_workspace *ws;
    unsigned solutions = 0;
    if (dlx3_init_preloaded(workspace.bytes, sizeof workspace.bytes, &queens8_image, LEVELS, 0, &ws)
        != XCOVER_OK)
        return 2;
    while (dlx3_solve_step(ws, UINT64_MAX) == XCOVER_SOLUTION)
        solutions++;
    return (int)solutions;
}
