/*
 * firmware.c -- what a firmware author writes: a matrix preloaded in flash (the const
 * arrays of queens8_matrix.h, from `xcover dlx3 --export-c`), a few KiB of RAM the program
 * owns, and the search run from the main loop in budgeted slices, with other work between
 * them. Copy it, replace the matrix header, and keep the checks you need.
 *
 * It checks that the sliced search ends with the same totals as one uninterrupted call,
 * then prints the count and the first solution (Knuth's format, through a writer) over the
 * debug console. Exit status 0 when everything agrees.
 *
 * Printing solutions links the library's text output (about 50 KB of flash); built with
 * -DFIRMWARE_FIRST_SOLUTION=0 (parts with 64 KB of flash) it prints only the count.
 */
#include <stdio.h>

#include "xcover.h"
#include "queens8_matrix.h"

#ifndef FIRMWARE_FIRST_SOLUTION
#define FIRMWARE_FIRST_SOLUTION 1
#endif

/* The only RAM the solver uses: the compact (16-bit) workspace for this matrix, with the
 * level count the exporter computed (enough for every search of it). */
static XCOVER_ALIGNED_BUFFER(solver_ram, QUEENS8_COMPACT_WORKSPACE_SIZE(QUEENS8_LEVELS));

/* Mems per call of dlx3_solve_step. The search runs about 6 instructions per mem on a
 * Cortex-M4: .ci/mcu counts them under QEMU (8 queens and Langford pairs, the step
 * "instructions per mem") and fails above 0.85 of Knuth's dlx3.c, 6.35 on 8 queens. So a
 * slice of 1000 mems returns to the main loop within about 6,000 instructions. */
#define SLICE_MEMS 1000u

/* Stands for the rest of the firmware's main loop (sensors, radio, watchdog ...). */
static unsigned long other_work;
static void do_other_work(void)
{
    other_work++;
}

#if FIRMWARE_FIRST_SOLUTION
/* Writes the library's text to the debug console (here: semihosting stdout). */
static void to_console(void *ctx, const char *bytes, size_t len)
{
    (void)ctx;
    fwrite(bytes, 1, len, stdout);
}
#endif

/* Counts the solutions with `slice` mems per call; fills *stats. Returns -1 on an error. */
static long solve(uint64_t slice, dlx3_stats *stats)
{
    dlx3_workspace *ws;
    long solutions = 0;
    xcover_status status;

    if (dlx3_init_compact(solver_ram.bytes, sizeof solver_ram.bytes, &queens8_image,
                          QUEENS8_LEVELS, NULL, &ws)
        != XCOVER_OK)
        return -1;
    for (;;) {
        status = dlx3_solve_step(ws, slice);
        if (status == XCOVER_SOLUTION)
            solutions++;
        else if (status == XCOVER_BUDGET_EXHAUSTED)
            do_other_work();
        else if (status == XCOVER_DONE)
            break;
        else {
            printf("solve: %s\n", xcover_status_message(status));
            return -1;
        }
    }
    if (dlx3_get_stats(ws, stats) != XCOVER_OK || dlx3_release(ws) != XCOVER_OK)
        return -1;
    return solutions;
}

#if FIRMWARE_FIRST_SOLUTION
/* Prints the first solution as Knuth's dlx3 prints it. */
static int print_first_solution(void)
{
    dlx3_settings settings = dlx3_settings_DEFAULT;
    dlx3_writers writers = {{to_console, NULL}, {NULL, NULL}, {NULL, NULL}};
    dlx3_workspace *ws;

    settings.spacing = 1;   /* print every solution found ... */
    settings.max_count = 1; /* ... and stop after the first */
    if (dlx3_init_compact(solver_ram.bytes, sizeof solver_ram.bytes, &queens8_image,
                          QUEENS8_LEVELS, &settings, &ws)
            != XCOVER_OK
        || dlx3_set_writers(ws, &writers) != XCOVER_OK)
        return 1;
    while (dlx3_solve_step(ws, SLICE_MEMS) == XCOVER_BUDGET_EXHAUSTED)
        do_other_work();
    return dlx3_release(ws) == XCOVER_OK ? 0 : 1;
}
#endif

int main(void)
{
    dlx3_stats sliced, whole;
    long in_slices = solve(SLICE_MEMS, &sliced);
    unsigned long slices = other_work;
    long at_once = solve(UINT64_MAX, &whole);

    if (in_slices != 92 || at_once != 92 || sliced.mems != whole.mems
        || sliced.nodes != whole.nodes || sliced.updates != whole.updates) {
        printf("firmware: totals differ: %ld/%ld solutions, %lu/%lu mems\n", in_slices, at_once,
               (unsigned long)sliced.mems, (unsigned long)whole.mems);
        return 1;
    }
    printf("8 queens from flash: %ld solutions, %lu mems, %lu nodes; %lu slices of %u mems "
           "give the same totals as one call; %u bytes of RAM\n",
           in_slices, (unsigned long)sliced.mems, (unsigned long)sliced.nodes, slices,
           SLICE_MEMS, (unsigned)sizeof solver_ram.bytes);
#if FIRMWARE_FIRST_SOLUTION
    return print_first_solution();
#else
    return 0;
#endif
}
