/*
 * semihost_main.c -- runs a hosted C example (dlx3.c, budget.c, gridcheck.c) on a
 * microcontroller under QEMU, where the host shell can neither pass arguments nor
 * redirect the program's streams. The example is compiled with -Dmain=example_main.
 *
 * With MCU_FIXED_ARGS (a comma-separated list of string literals) the arguments are those,
 * fixed at build time, and the streams stay the semihosting console.
 *
 * Otherwise the example and this file are both compiled with
 *     -Dstdin='(*mcu_stdin)' -Dstdout='(*mcu_stdout)' -Dstderr='(*mcu_stderr)'
 * and get, in QEMU's working directory over semihosting: argv from the file `args` (words
 * separated by white space, after MCU_ARGV0), stdin from `stdin`, stdout to `stdout` and
 * stderr to `stderr`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef MCU_ARGV0
#define MCU_ARGV0 "example"
#endif
/* Room for the `args` file (parts with little RAM build with less). */
#ifndef MCU_ARGS_BYTES
#define MCU_ARGS_BYTES 4096
#endif

int example_main(int argc, char **argv);

#ifdef MCU_FIXED_ARGS

/* The free RAM under main's frame is painted before the example runs and the depth its
 * stack reached is printed after it (one line on stderr: "stack: N bytes"). */
extern uint32_t __heap_start[]; /* picolibc's linker script: the end of .bss */
#define PAINT 0xc5c5c5c5u

int main(void)
{
    static char *argv[] = {MCU_ARGV0, MCU_FIXED_ARGS, NULL};
    volatile uint32_t here = 0, *p = __heap_start;
    /* What painting itself uses (under `here`) stays out. */
    const volatile uint32_t *top = (const volatile uint32_t *)((uintptr_t)&here - 256);
    int status;
    while (p < top)
        *p++ = PAINT;
    status = example_main((int)(sizeof argv / sizeof argv[0]) - 1, argv);
    for (p = __heap_start; p < top && *p == PAINT; p++)
        ;
    fprintf(stderr, "stack: %lu bytes\n", (unsigned long)((uintptr_t)&here - (uintptr_t)p));
    return status;
}

#else

static FILE *in_file, *out_file, *err_file;
FILE *const *mcu_stdin = &in_file;
FILE *const *mcu_stdout = &out_file;
FILE *const *mcu_stderr = &err_file;

/* The example may end with exit(): the output files are closed (flushed) then too. */
static void close_outputs(void)
{
    if (out_file)
        fclose(out_file);
    if (err_file)
        fclose(err_file);
    out_file = err_file = NULL;
}

int main(void)
{
    static char words[MCU_ARGS_BYTES];
    static char *argv[64];
    int argc = 0;
    size_t len = 0;
    char *p;
    FILE *args = fopen("args", "r");

    if (args) {
        len = fread(words, 1, sizeof words - 1, args);
        fclose(args);
    }
    words[len] = 0;
    argv[argc++] = MCU_ARGV0;
    for (p = strtok(words, " \t\r\n"); p && argc < 63; p = strtok(NULL, " \t\r\n"))
        argv[argc++] = p;
    argv[argc] = NULL;

    in_file = fopen("stdin", "r");
    out_file = fopen("stdout", "w");
    err_file = fopen("stderr", "w");
    if (!in_file || !out_file || !err_file)
        return 125; /* the harness could not set up the files */
    atexit(close_outputs);
    return example_main(argc, argv);
}

#endif
