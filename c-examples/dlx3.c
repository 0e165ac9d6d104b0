/*
 * dlx3.c -- Knuth's DLX3 command line, rebuilt on the xcover C API alone.
 *
 *   dlx3 [v<n>] [m<n>] [s<n>] [d<n>] [c<n>] [C<n>] [l<n>] [t<n>] [T<n>] [S<file>] < foo.dlx
 *
 * Same arguments, output and exit codes as Knuth's program: 0, 102 (input error),
 * 252 ("Too many levels!"), 255 (usage error). The library writes all of Knuth's text
 * through the three callbacks below; this file only parses arguments, reads stdin and
 * drives dlx3_solve_step().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xcover.h"

/* Writes library output to a FILE* (stdout, stderr or the shape file). */
static void write_to_file(void *ctx, const char *bytes, size_t len)
{
    fwrite(bytes, 1, len, (FILE *)ctx);
}

/* Flushes after each chunk, as Knuth flushes stdout after each solution and the shape
 * file after each line. */
static void write_and_flush(void *ctx, const char *bytes, size_t len)
{
    fwrite(bytes, 1, len, (FILE *)ctx);
    fflush((FILE *)ctx);
}

/* Reads all of stdin into a malloc'd buffer; exits with status 1 on failure. */
static unsigned char *read_all(FILE *in, size_t *len)
{
    size_t cap = 1 << 16, used = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, "dlx3: out of memory\n");
        exit(1);
    }
    for (;;) {
        size_t got = fread(buf + used, 1, cap - used, in);
        used += got;
        if (used < cap) {
            if (ferror(in)) {
                fprintf(stderr, "dlx3: error reading standard input\n");
                exit(1);
            }
            break;
        }
        cap *= 2;
        buf = realloc(buf, cap);
        if (!buf) {
            fprintf(stderr, "dlx3: out of memory\n");
            exit(1);
        }
    }
    *len = used;
    return buf;
}

/* Exits after an API call failed for a reason other than Knuth's. */
static void fail(const char *what, xcover_status status)
{
    fprintf(stderr, "dlx3: %s: %s\n", what, xcover_status_message(status));
    exit(1);
}

int main(int argc, char *argv[])
{
    dlx3_settings settings;
    dlx3_writers writers;
    FILE *shape_file = NULL;
    int bad = 0, j;
    xcover_status status;

    status = dlx3_settings_default(&settings);
    if (status != XCOVER_OK)
        fail("settings", status);

    /* Knuth scans the arguments from last to first, so the first occurrence wins; every
     * S argument opens its file, and sscanf decides what a number is. */
    for (j = argc - 1; j > 0; j--) {
        const char *arg = argv[j];
        const char *rest = arg[0] ? arg + 1 : arg;
        int value;
        long long big;
        switch (arg[0]) {
        case 'v':
            if (sscanf(rest, "%d", &value) == 1)
                settings.verbosity = (uint32_t)value;
            else
                bad = 1;
            break;
        case 'm':
            if (sscanf(rest, "%d", &value) == 1)
                settings.spacing = value;
            else
                bad = 1;
            break;
        case 's':
            settings.randomize = 1;
            if (sscanf(rest, "%d", &value) == 1)
                settings.random_seed = value;
            else
                bad = 1;
            break;
        case 'c':
            if (sscanf(rest, "%d", &value) == 1)
                settings.show_choices_max = value;
            else
                bad = 1;
            break;
        case 'C':
            if (sscanf(rest, "%d", &value) == 1)
                settings.show_levels_max = value;
            else
                bad = 1;
            break;
        case 'l':
            if (sscanf(rest, "%d", &value) == 1)
                settings.show_choices_gap = value;
            else
                bad = 1;
            break;
        case 'd':
            if (sscanf(rest, "%lld", &big) == 1)
                settings.delta = (uint64_t)big;
            else
                bad = 1;
            break;
        case 't':
            if (sscanf(rest, "%lld", &big) == 1)
                settings.max_count = (uint64_t)big;
            else
                bad = 1;
            break;
        case 'T':
            if (sscanf(rest, "%lld", &big) == 1)
                settings.timeout = (uint64_t)big;
            else
                bad = 1;
            break;
        case 'S':
            shape_file = fopen(rest, "w");
            if (!shape_file)
                fprintf(stderr, "Sorry, I can't open file `%s' for writing!\n", rest);
            break;
        default:
            bad = 1;
        }
    }
    if (bad) {
        fprintf(stderr,
                "Usage: %s [v<n>] [m<n>] [s<n>] [d<n>] [c<n>] [C<n>] [l<n>] [t<n>] [T<n>] "
                "[S<bar>] < foo.dlx\n",
                argv[0]);
        return 255;
    }

    writers.out.write = write_and_flush;
    writers.out.ctx = stdout;
    writers.err.write = write_to_file;
    writers.err.ctx = stderr;
    writers.shape.write = shape_file ? write_and_flush : NULL;
    writers.shape.ctx = shape_file;

    {
        size_t len, items, nodes, size, align;
        unsigned char *text = read_all(stdin, &len);
        void *buf;
        dlx3_workspace *ws;
        dlx3_parse_error where;
        int exit_code = 0; /* the memory is freed on every way out, for LeakSanitizer */

        status = dlx3_text_capacity(text, len, &items, &nodes);
        if (status != XCOVER_OK)
            fail("measuring the input", status);
        if (items < 1)
            items = 1;
        status = dlx3_workspace_size(items, nodes, DLX3_KNUTH_MAX_LEVELS, &size, &align);
        if (status != XCOVER_OK)
            fail("sizing the workspace", status);
        buf = malloc(size); /* malloc's alignment suffices for DLX3_WORKSPACE_ALIGN */
        if (!buf)
            fail("allocating the workspace", XCOVER_BUFFER_TOO_SMALL);
        status = dlx3_init(buf, size, items, nodes, DLX3_KNUTH_MAX_LEVELS, &settings, &ws);
        if (status != XCOVER_OK)
            fail("init", status);
        /* Everything Knuth prints, from the input warnings on. */
        status = dlx3_set_writers(ws, &writers);
        if (status != XCOVER_OK)
            fail("set_writers", status);

        /* On an input error the library has written Knuth's report to stderr. */
        status = dlx3_parse(ws, text, len, &where);
        if (where.status != status)
            fail("parse error info", XCOVER_INTERNAL_ERROR);
        if (status != XCOVER_OK && status >= XCOVER_PARSE_INPUT_LINE_TOO_LONG
            && status <= XCOVER_PARSE_TOO_MANY_NODES)
            exit_code = 102; /* Knuth's exit(-666) */
        else if (status != XCOVER_OK)
            fail("parse", status);

        while (exit_code == 0) {
            status = dlx3_solve_step(ws, UINT64_MAX);
            if (status == XCOVER_SOLUTION)
                continue;
            if (status == XCOVER_DONE)
                break;
            if (status == XCOVER_TOO_MANY_LEVELS)
                exit_code = 252; /* Knuth's exit(-4); the library printed "Too many levels!" */
            else
                fail("solve", status);
        }
        if (shape_file)
            fclose(shape_file);
        dlx3_release(ws);
        free(buf);
        free(text);
        return exit_code;
    }
}
