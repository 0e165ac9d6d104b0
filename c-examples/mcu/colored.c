/*
 * colored.c -- the colored speed workloads of .ci/mcu beside langford11.c, one program
 * per matrix: built with -DWORKLOAD=name -DWORKLOAD_UPPER=NAME it searches name.dlx
 * (exported to name_matrix.h by `xcover dlx3 --export-c name.dlx --name name`) in a
 * compact workspace from flash, and exits with the solution count modulo 256. Built
 * with -DSTOP_BEFORE_SEARCH too it stops after init: .ci/mcu subtracts that program's
 * instruction count from this one's to count the search's.
 *
 *   langford7   Langford pairs of 7, a multiplicity item, colors on few options (42)
 *   tiles5x5    edge matching 5x5, every option colored, no multiplicities (32)
 *   tiles5x6    edge matching 5x6, the same shape larger (832)
 */
#include "xcover.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#include STR(CAT(WORKLOAD, _matrix.h))

#define LEVELS CAT(WORKLOAD_UPPER, _LEVELS)
static XCOVER_ALIGNED_BUFFER(workspace, CAT(WORKLOAD_UPPER, _COMPACT_WORKSPACE_SIZE)(LEVELS));

int main(void)
{
    dlx3_workspace *ws;
    unsigned solutions = 0;
    if (dlx3_init_compact(workspace.bytes, sizeof workspace.bytes, &CAT(WORKLOAD, _image), LEVELS,
                          0, &ws)
        != XCOVER_OK)
        return 200;
#ifndef STOP_BEFORE_SEARCH
    while (dlx3_solve_step(ws, UINT64_MAX) == XCOVER_SOLUTION)
        solutions++;
#endif
    return (int)(solutions % 256);
}
