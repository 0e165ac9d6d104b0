/*
 * langford11.c -- the colors-and-multiplicities speed workload: Langford pairs of 11 with
 * a multiplicity item and parity colors (langford11.dlx, exported to langford11_matrix.h
 * by `xcover dlx3 --export-c langford11.dlx --name langford11`), searched in a compact
 * workspace from flash. The exit status is the solution count (10; Knuth's dlx3 finds 10
 * in 741,519 mems). Built with -DSTOP_BEFORE_SEARCH it stops after init: .ci/mcu
 * subtracts that program's instruction count from this one's to count the search's.
 */
#include "xcover.h"
#include "langford11_matrix.h"

static XCOVER_ALIGNED_BUFFER(workspace, LANGFORD11_COMPACT_WORKSPACE_SIZE(LANGFORD11_LEVELS));

int main(void)
{
    dlx3_workspace *ws;
    unsigned solutions = 0;
    if (dlx3_init_compact(workspace.bytes, sizeof workspace.bytes, &langford11_image,
                          LANGFORD11_LEVELS, 0, &ws)
        != XCOVER_OK)
        return 200;
#ifndef STOP_BEFORE_SEARCH
    while (dlx3_solve_step(ws, UINT64_MAX) == XCOVER_SOLUTION)
        solutions++;
#endif
    return (int)solutions;
}
