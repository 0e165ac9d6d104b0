/*
 * budget.c -- pause and resume: solves the matrix on stdin twice, once in one go and once
 * in slices of N mems (argv[1]), and checks that both runs produce the same bytes on every
 * stream, the same solutions (option numbers, level by level) and the same counters.
 * Exit status 0 if they agree, 1 otherwise. Knuth's arguments may follow N (e.g. v7 m1).
 *
 *   budget N [v<n>] [m<n>] [s<n>] ... < foo.dlx
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xcover.h"

/* A growing byte buffer that collects one output stream. */
typedef struct {
    char *bytes;
    size_t len, cap;
} text;

static void collect(void *ctx, const char *bytes, size_t len)
{
    text *t = (text *)ctx;
    if (t->len + len > t->cap) {
        size_t cap = t->cap ? t->cap : 4096;
        while (cap < t->len + len)
            cap *= 2;
        t->bytes = realloc(t->bytes, cap);
        if (!t->bytes) {
            fprintf(stderr, "budget: out of memory\n");
            exit(1);
        }
        t->cap = cap;
    }
    memcpy(t->bytes + t->len, bytes, len);
    t->len += len;
}

/* Everything one run produced. */
typedef struct {
    text out, err, moves; /* moves: the solutions' option numbers, as text */
    dlx3_stats stats;
    unsigned long pauses, steps;
} run_result;

static unsigned char *read_all(size_t *len)
{
    size_t cap = 1 << 16, used = 0, got;
    unsigned char *buf = malloc(cap);
    while (buf && (got = fread(buf + used, 1, cap - used, stdin)) > 0) {
        used += got;
        if (used == cap)
            buf = realloc(buf, cap *= 2);
    }
    if (!buf) {
        fprintf(stderr, "budget: out of memory\n");
        exit(1);
    }
    *len = used;
    return buf;
}

static void die(const char *what, xcover_status status)
{
    fprintf(stderr, "budget: %s: %s\n", what, xcover_status_message(status));
    exit(1);
}

/* One complete run with the given budget per dlx3_solve_step call. */
static void solve(const unsigned char *input, size_t len, const dlx3_settings *base,
                  uint64_t budget, run_result *r)
{
    dlx3_settings settings = *base;
    dlx3_writers writers;
    size_t items, nodes, size, align, level, depth;
    dlx3_workspace *ws;
    void *buf;
    xcover_status status;
    char line[32];

    memset(r, 0, sizeof *r);
    writers.out.write = collect;
    writers.out.ctx = &r->out;
    writers.err.write = collect;
    writers.err.ctx = &r->err;
    writers.shape.write = NULL;
    writers.shape.ctx = NULL;
    if ((status = dlx3_text_capacity(input, len, &items, &nodes)) != XCOVER_OK)
        die("text_capacity", status);
    if ((status = dlx3_workspace_size(items ? items : 1, nodes, DLX3_KNUTH_MAX_LEVELS, &size, &align)) != XCOVER_OK)
        die("workspace_size", status);
    if (!(buf = malloc(size)))
        die("malloc", XCOVER_BUFFER_TOO_SMALL);
    if ((status = dlx3_init(buf, size, items ? items : 1, nodes, DLX3_KNUTH_MAX_LEVELS, &settings, &ws)) != XCOVER_OK)
        die("init", status);
    if ((status = dlx3_set_writers(ws, &writers)) != XCOVER_OK)
        die("set_writers", status);
    if ((status = dlx3_parse(ws, input, len, NULL)) != XCOVER_OK)
        die("parse", status);
    for (;;) {
        status = dlx3_solve_step(ws, budget);
        r->steps++;
        if (status == XCOVER_BUDGET_EXHAUSTED) {
            r->pauses++;
            continue;
        }
        if (status != XCOVER_SOLUTION)
            break;
        if (dlx3_solution_len(ws, &depth) != XCOVER_OK)
            die("solution_len", status);
        for (level = 0; level < depth; level++) {
            uint32_t option, null_item;
            if ((status = dlx3_solution_option(ws, level, &option, &null_item)) != XCOVER_OK)
                die("solution_option", status);
            if (option == DLX3_NULL_MOVE)
                sprintf(line, " null%lu", (unsigned long)null_item);
            else
                sprintf(line, " %lu", (unsigned long)option);
            collect(&r->moves, line, strlen(line));
        }
        collect(&r->moves, "\n", 1);
    }
    if (status != XCOVER_DONE)
        die("solve_step", status);
    if ((status = dlx3_get_stats(ws, &r->stats)) != XCOVER_OK)
        die("get_stats", status);
    dlx3_release(ws);
    free(buf);
}

static void free_run(run_result *r)
{
    free(r->out.bytes);
    free(r->err.bytes);
    free(r->moves.bytes);
}

static int same_text(const char *what, const text *a, const text *b)
{
    if (a->len == b->len && (a->len == 0 || memcmp(a->bytes, b->bytes, a->len) == 0))
        return 1;
    fprintf(stderr, "budget: %s differs (%lu bytes vs %lu)\n", what, (unsigned long)a->len,
            (unsigned long)b->len);
    return 0;
}

int main(int argc, char *argv[])
{
    dlx3_settings settings;
    run_result whole, sliced;
    unsigned long slice;
    size_t len;
    unsigned char *input;
    int j, ok = 1;

    if (argc < 2 || sscanf(argv[1], "%lu", &slice) != 1 || slice == 0) {
        fprintf(stderr, "Usage: %s N [v<n>] [m<n>] [s<n>] [d<n>] [t<n>] [T<n>] < foo.dlx\n", argv[0]);
        return 2;
    }
    dlx3_settings_default(&settings);
    settings.spacing = 1; /* print every solution, so the streams say a lot */
    for (j = argc - 1; j > 1; j--) { /* first occurrence wins, as in Knuth's program */
        int v;
        long long big;
        if (argv[j][0] == 'v' && sscanf(argv[j] + 1, "%d", &v) == 1)
            settings.verbosity = (uint32_t)v;
        else if (argv[j][0] == 'm' && sscanf(argv[j] + 1, "%d", &v) == 1)
            settings.spacing = v;
        else if (argv[j][0] == 's' && sscanf(argv[j] + 1, "%d", &v) == 1)
            settings.randomize = 1, settings.random_seed = v;
        else if (argv[j][0] == 'd' && sscanf(argv[j] + 1, "%lld", &big) == 1)
            settings.delta = (uint64_t)big;
        else if (argv[j][0] == 't' && sscanf(argv[j] + 1, "%lld", &big) == 1)
            settings.max_count = (uint64_t)big;
        else if (argv[j][0] == 'T' && sscanf(argv[j] + 1, "%lld", &big) == 1)
            settings.timeout = (uint64_t)big;
        else {
            fprintf(stderr, "budget: bad argument %s\n", argv[j]);
            return 2;
        }
    }
    input = read_all(&len);
    solve(input, len, &settings, UINT64_MAX, &whole);
    solve(input, len, &settings, (uint64_t)slice, &sliced);

    ok &= same_text("stdout", &whole.out, &sliced.out);
    ok &= same_text("stderr", &whole.err, &sliced.err);
    ok &= same_text("solutions", &whole.moves, &sliced.moves);
    if (memcmp(&whole.stats, &sliced.stats, sizeof whole.stats) != 0) {
        fprintf(stderr, "budget: counters differ: %lu/%lu solutions, %lu/%lu mems, %lu/%lu nodes\n",
                (unsigned long)whole.stats.solutions, (unsigned long)sliced.stats.solutions,
                (unsigned long)whole.stats.mems, (unsigned long)sliced.stats.mems,
                (unsigned long)whole.stats.nodes, (unsigned long)sliced.stats.nodes);
        ok = 0;
    }
    if (whole.pauses != 0) {
        fprintf(stderr, "budget: the unlimited run paused\n");
        ok = 0;
    }
    printf("budget %lu: %lu solutions, %lu mems, %lu pauses in %lu calls: %s\n", slice,
           (unsigned long)sliced.stats.solutions, (unsigned long)sliced.stats.mems,
           sliced.pauses, sliced.steps, ok ? "same as one run" : "DIFFERENT");
    free_run(&whole);
    free_run(&sliced);
    free(input);
    return ok ? 0 : 1;
}
