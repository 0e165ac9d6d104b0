/*
 * xcover_static_asserts.h -- hand-written companion of the generated xcover.h (which
 * includes it at its end; include xcover.h, not this file).
 *
 * 1. Size macros for static workspaces (no malloc): the same numbers as
 *    dlx3_workspace_size() / dlx3_preloaded_workspace_size() / gridcheck_workspace_size()
 *    (tests check they agree).
 * 2. Compile-time checks that the structs declared in xcover.h have the sizes the library
 *    was built with (the Rust side asserts the same numbers at its compile time).
 */
#ifndef XCOVER_STATIC_ASSERTS_H
#define XCOVER_STATIC_ASSERTS_H

#include <stddef.h>
#include <stdint.h>

/* Every region of a workspace starts on an 8-byte boundary. */
#define XCOVER_ROUND8(n) ((((size_t)(n)) + 7u) / 8u * 8u)

/* The workspace header (record and engine) in front of the arrays: a formula that holds on
 * 32- and 64-bit targets alike (the library asserts it at its compile time). */
#define XCOVER_DLX3_HEADER_SIZE                                                            \
    XCOVER_ROUND8(DLX3_HEADER_FIXED_BYTES + DLX3_HEADER_POINTERS * sizeof(void *))
#define XCOVER_DLX3_COMPACT_HEADER_SIZE                                                    \
    XCOVER_ROUND8(DLX3_COMPACT_HEADER_FIXED_BYTES + DLX3_COMPACT_HEADER_POINTERS * sizeof(void *))

/* Bytes for dlx3_init(buf, len, items, nodes, levels, ...): items items (Knuth's max_cols),
 * nodes node slots (item headers + option nodes + spacers), levels levels. */
#define XCOVER_DLX3_WORKSPACE_SIZE(items, nodes, levels)                                   \
    (XCOVER_DLX3_HEADER_SIZE                                                               \
     + XCOVER_ROUND8((size_t)DLX3_ITEM_BYTES * ((size_t)(items) + 2u))                     \
     + XCOVER_ROUND8((size_t)DLX3_NAME_BYTES * ((size_t)(items) + 2u))                     \
     + XCOVER_ROUND8((size_t)DLX3_SCRATCH_BYTES * ((size_t)(items) + 2u))                  \
     + XCOVER_ROUND8((size_t)DLX3_NODE_BYTES * (size_t)(nodes))                            \
     + XCOVER_ROUND8((size_t)DLX3_LEVEL_BYTES * (size_t)(levels)))

/* Bytes for dlx3_init_preloaded() of an image with the given last_itm and last_node
 * (the names stay in the image). */
#define XCOVER_DLX3_PRELOADED_SIZE(last_itm, last_node, levels)                            \
    (XCOVER_DLX3_HEADER_SIZE                                                               \
     + XCOVER_ROUND8((size_t)DLX3_ITEM_BYTES * ((size_t)(last_itm) + 1u))                  \
     + XCOVER_ROUND8((size_t)DLX3_NODE_BYTES * ((size_t)(last_node) + 1u))                 \
     + XCOVER_ROUND8((size_t)DLX3_LEVEL_BYTES * (size_t)(levels)))

/* Bytes for dlx3_init_compact() (16-bit links) of an image with the given last_itm and
 * last_node: about half of XCOVER_DLX3_PRELOADED_SIZE. */
#define XCOVER_DLX3_COMPACT_SIZE(last_itm, last_node, levels)                              \
    (XCOVER_DLX3_COMPACT_HEADER_SIZE                                                       \
     + XCOVER_ROUND8((size_t)DLX3_COMPACT_ITEM_BYTES * ((size_t)(last_itm) + 1u))          \
     + XCOVER_ROUND8((size_t)DLX3_COMPACT_NODE_BYTES * ((size_t)(last_node) + 1u))         \
     + XCOVER_ROUND8((size_t)DLX3_LEVEL_BYTES * (size_t)(levels)))

/* Bytes for gridcheck_init(buf, len, &limits, ...) with limits {max_ua, keep_ua,
 * ua_scratch, max_clues}: the formula of gridcheck_workspace_size() (keep_ua does not
 * change the size). */
#define XCOVER_GRIDCHECK_RATING(max_ua)                                                    \
    (8u * (size_t)(max_ua) < 4096u     ? (size_t)4096u                                     \
     : 8u * (size_t)(max_ua) > 262144u ? (size_t)262144u                                   \
                                       : 8u * (size_t)(max_ua))
#define XCOVER_GRIDCHECK_WORKSPACE_SIZE(max_ua, keep_ua, ua_scratch, max_clues)            \
    ((size_t)8u + GRIDCHECK_HEADER_BYTES + GRIDCHECK_TABLE_BYTES                           \
     + GRIDCHECK_SET_BYTES                                                                 \
           * (2u * (size_t)(max_ua) + (size_t)(ua_scratch) + XCOVER_GRIDCHECK_RATING(max_ua)) \
     + GRIDCHECK_STATE_BYTES * ((size_t)(max_clues) + 1u))

/* A suitably aligned static buffer in C99 (no _Alignas needed):
 *     static XCOVER_ALIGNED_BUFFER(ws, XCOVER_DLX3_PRELOADED_SIZE(...));
 *     dlx3_init_preloaded(ws.bytes, sizeof ws.bytes, ...);                               */
#define XCOVER_ALIGNED_BUFFER(name, size)                                                  \
    union {                                                                                \
        uint64_t xcover_align_u64;                                                         \
        void *xcover_align_ptr;                                                            \
        unsigned char bytes[size];                                                         \
    } name

#if defined(__cplusplus) && __cplusplus >= 201103L
#define XCOVER_STATIC_ASSERT(cond, tag) static_assert(cond, #tag)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define XCOVER_STATIC_ASSERT(cond, tag) _Static_assert(cond, #tag)
#else
#define XCOVER_STATIC_ASSERT(cond, tag) typedef char xcover_static_assert_##tag[(cond) ? 1 : -1]
#endif

XCOVER_STATIC_ASSERT(sizeof(xcover_status) == 4, xcover_status_is_32_bits);
XCOVER_STATIC_ASSERT(sizeof(xcover_writer) == 2 * sizeof(void *), xcover_writer_size);
XCOVER_STATIC_ASSERT(sizeof(dlx3_settings) == DLX3_SETTINGS_SIZE, dlx3_settings_size);
XCOVER_STATIC_ASSERT(sizeof(dlx3_writers) == DLX3_WRITERS_POINTERS * sizeof(void *), dlx3_writers_size);
XCOVER_STATIC_ASSERT(sizeof(dlx3_parse_error) == 16 + 3 * sizeof(void *), dlx3_parse_error_size);
XCOVER_STATIC_ASSERT(sizeof(dlx3_stats) == DLX3_STATS_SIZE, dlx3_stats_size);
XCOVER_STATIC_ASSERT(sizeof(dlx3_item) == DLX3_ITEM_BYTES, dlx3_item_size);
XCOVER_STATIC_ASSERT(sizeof(dlx3_node) == DLX3_NODE_BYTES, dlx3_node_size);
/* dlx3_image: field offsets (the size then follows from the target's alignment of uint64_t,
 * 48 bytes on 32-bit ARM, 64 on LP64). */
XCOVER_STATIC_ASSERT(offsetof(dlx3_image, options) == 16, dlx3_image_options_offset);
XCOVER_STATIC_ASSERT(offsetof(dlx3_image, names) == 24, dlx3_image_names_offset);
XCOVER_STATIC_ASSERT(offsetof(dlx3_image, nodes16) == 24 + 4 * sizeof(void *), dlx3_image_nodes16_offset);
XCOVER_STATIC_ASSERT(sizeof(dlx3_image) >= 24 + 5 * sizeof(void *)
                         && sizeof(dlx3_image) <= XCOVER_ROUND8(24 + 5 * sizeof(void *)),
                     dlx3_image_size);
XCOVER_STATIC_ASSERT(sizeof(dlx3_item16) == 8 && sizeof(dlx3_node16) == 8, dlx3_records16_size);
XCOVER_STATIC_ASSERT(XCOVER_DLX3_HEADER_SIZE % DLX3_WORKSPACE_ALIGN == 0, dlx3_header_aligned);
XCOVER_STATIC_ASSERT(XCOVER_DLX3_COMPACT_HEADER_SIZE % DLX3_WORKSPACE_ALIGN == 0, dlx3_compact_header_aligned);
XCOVER_STATIC_ASSERT(sizeof(gridcheck_limits) == GRIDCHECK_LIMITS_SIZE, gridcheck_limits_size);
XCOVER_STATIC_ASSERT(sizeof(gridcheck_stats) == GRIDCHECK_STATS_SIZE, gridcheck_stats_size);
XCOVER_STATIC_ASSERT(sizeof(gridcheck_grid_error) == GRIDCHECK_GRID_ERROR_SIZE, gridcheck_grid_error_size);
XCOVER_STATIC_ASSERT(GRIDCHECK_HEADER_BYTES % 16 == 0, gridcheck_header_aligned);

#endif /* XCOVER_STATIC_ASSERTS_H */
