/*
 * queens8_init.c -- queens8_min.c stopped before the search: the init call alone. Its
 * instruction count under QEMU is subtracted from queens8_min's to count the search's
 * instructions (per mem: .ci/mcu-small).
 */
#include "xcover.h"
#include "queens8_matrix.h"

static XCOVER_ALIGNED_BUFFER(workspace, QUEENS8_COMPACT_WORKSPACE_SIZE(QUEENS8_LEVELS));

int main(void)
{
    dlx3_workspace *ws;
    return dlx3_init_compact(workspace.bytes, sizeof workspace.bytes, &queens8_image,
                             QUEENS8_LEVELS, 0, &ws)
                   == XCOVER_OK
               ? 0
               : 2;
}
