/*
 * builder.c -- a matrix built with dlx3_add_item / dlx3_add_option searches exactly like the
 * same matrix read as text: same solutions (stdout bytes) and same search counters (only the
 * input mems differ: no text is read). Also checks that bad items/options are refused with
 * the workspace left usable. Exit status 0 if all is well.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "xcover.h"

/* Knuth's color-controls example, as text and as builder calls. */
static const char text[] = "A B 2:3|C | X Y\n"
                           "A B X:0 Y:0\nA C X:1 Y:1\nC X:0\nB X:1\nC Y:1\n";

typedef struct {
    char bytes[4096];
    size_t len;
} sink;

static void collect(void *ctx, const char *bytes, size_t len)
{
    sink *s = (sink *)ctx;
    if (s->len + len <= sizeof s->bytes) {
        memcpy(s->bytes + s->len, bytes, len);
        s->len += len;
    }
}

#define ITEMS 8
#define NODES 64
#define LEVELS 20
static XCOVER_ALIGNED_BUFFER(ws_text, XCOVER_DLX3_WORKSPACE_SIZE(ITEMS, NODES, LEVELS));
static XCOVER_ALIGNED_BUFFER(ws_built, XCOVER_DLX3_WORKSPACE_SIZE(ITEMS, NODES, LEVELS));

static void solve(dlx3_workspace *ws, dlx3_stats *stats)
{
    xcover_status st;
    while ((st = dlx3_solve_step(ws, UINT64_MAX)) == XCOVER_SOLUTION)
        ;
    EXPECT(st, XCOVER_DONE);
    EXPECT(dlx3_get_stats(ws, stats), XCOVER_OK);
}

int main(void)
{
    static const char *const opt1[] = {"A", "B", "X", "Y"}, *const opt2[] = {"A", "C", "X", "Y"};
    static const char *const opt3[] = {"C", "X"}, *const opt4[] = {"B", "X"}, *const opt5[] = {"C", "Y"};
    static const char *const bad_unknown[] = {"A", "Q"}, *const bad_dup[] = {"A", "A"};
    dlx3_settings settings;
    dlx3_writers writers;
    dlx3_workspace *t, *b;
    dlx3_stats st_text, st_built;
    sink out_text, out_built, err;

    memset(&out_text, 0, sizeof out_text);
    memset(&out_built, 0, sizeof out_built);
    memset(&err, 0, sizeof err);
    dlx3_settings_default(&settings);
    settings.spacing = 1;
    settings.verbosity = 0;
    writers.err.write = collect;
    writers.err.ctx = &err;
    writers.shape.write = NULL;
    writers.shape.ctx = NULL;

    writers.out.write = collect;
    writers.out.ctx = &out_text;
    EXPECT(dlx3_init(ws_text.bytes, sizeof ws_text.bytes, ITEMS, NODES, LEVELS, &settings, &t), XCOVER_OK);
    EXPECT(dlx3_set_writers(t, &writers), XCOVER_OK);
    EXPECT(dlx3_parse(t, (const uint8_t *)text, strlen(text), NULL), XCOVER_OK);
    solve(t, &st_text);

    writers.out.ctx = &out_built;
    EXPECT(dlx3_init(ws_built.bytes, sizeof ws_built.bytes, ITEMS, NODES, LEVELS, &settings, &b), XCOVER_OK);
    EXPECT(dlx3_set_writers(b, &writers), XCOVER_OK);
    EXPECT(dlx3_add_option(b, opt1, NULL, 4), XCOVER_BAD_STATE);     /* no items yet */
    EXPECT(dlx3_add_item(b, "X", 0, 0, 1), XCOVER_BAD_ARGUMENT);      /* secondary first */
    EXPECT(dlx3_add_item(b, "A", 1, 1, 0), XCOVER_OK);
    EXPECT(dlx3_add_item(b, "B", 1, 1, 0), XCOVER_OK);
    EXPECT(dlx3_add_item(b, "C", 3, 2, 0), XCOVER_BAD_ARGUMENT);      /* lo > hi */
    EXPECT(dlx3_add_item(b, "TOOLONGNAME", 1, 1, 0), XCOVER_BAD_ARGUMENT);
    EXPECT(dlx3_add_item(b, "A", 1, 1, 0), XCOVER_PARSE_DUPLICATE_ITEM_NAME);
    EXPECT(dlx3_add_item(b, NULL, 1, 1, 0), XCOVER_NULL_POINTER);
    EXPECT(dlx3_add_item(b, "C", 2, 3, 0), XCOVER_OK);
    EXPECT(dlx3_add_item(b, "X", 0, 0, 1), XCOVER_OK);
    EXPECT(dlx3_add_item(b, "D", 1, 1, 0), XCOVER_BAD_ARGUMENT);      /* primary after secondary */
    EXPECT(dlx3_add_item(b, "Y", 0, 0, 1), XCOVER_OK);
    EXPECT(dlx3_add_option(b, bad_unknown, NULL, 2), XCOVER_PARSE_UNKNOWN_ITEM_NAME);
    EXPECT(dlx3_add_option(b, bad_dup, NULL, 2), XCOVER_PARSE_DUPLICATE_IN_OPTION);
    EXPECT(dlx3_add_option(b, opt4, "b", 2), XCOVER_PARSE_PRIMARY_COLORED);
    EXPECT(dlx3_add_option(b, opt1, "\0\0" "0" "0", 4), XCOVER_OK);
    EXPECT(dlx3_add_item(b, "Z", 0, 0, 1), XCOVER_BAD_STATE);         /* items before options */
    EXPECT(dlx3_add_option(b, opt2, "\0\0" "1" "1", 4), XCOVER_OK);
    EXPECT(dlx3_add_option(b, opt3, "\0" "0", 2), XCOVER_OK);
    EXPECT(dlx3_add_option(b, opt4, "\0" "1", 2), XCOVER_OK);
    EXPECT(dlx3_add_option(b, opt5, "\0" "1", 2), XCOVER_OK);
    solve(b, &st_built);

    if (out_text.len == 0 || out_text.len != out_built.len
        || memcmp(out_text.bytes, out_built.bytes, out_text.len) != 0) {
        printf("builder: solutions differ:\n%.*s---\n%.*s", (int)out_text.len, out_text.bytes,
               (int)out_built.len, out_built.bytes);
        failures++;
    }
    if (st_text.solutions != st_built.solutions || st_text.mems != st_built.mems
        || st_text.updates != st_built.updates || st_text.nodes != st_built.nodes
        || st_text.entries != st_built.entries) {
        printf("builder: counters differ (%lu/%lu mems)\n", (unsigned long)st_text.mems,
               (unsigned long)st_built.mems);
        failures++;
    }
    printf("builder: %lu solutions, %lu mems: %s\n", (unsigned long)st_built.solutions,
           (unsigned long)st_built.mems, failures ? "FAILED" : "same as the text");
    return failures ? 1 : 0;
}
