/* SPDX-License-Identifier: MIT */
/*
 * Argument checks shared by the public entry points. Each returns PRISM_OK
 * or records a message naming the function and the argument, and returns
 * the failing status.
 */
#ifndef PRISM_CORE_CHECK_H
#define PRISM_CORE_CHECK_H

#include "context.h"

/** buf is non-NULL, live, belongs to ctx and holds at least need bytes
 * from offset (offset + need must not overflow). */
prism_status prism__check_buffer(prism_context *ctx, const prism_buffer *buf,
                                 size_t offset, size_t need, const char *fn,
                                 const char *arg);

/** As prism__check_buffer from offset 0, and buf (a view, perhaps) starts
 * on a multiple of element_size in its memory: what a primitive needs of
 * each buffer argument. */
prism_status prism__check_view(prism_context *ctx, const prism_buffer *buf,
                               size_t element_size, size_t need, const char *fn,
                               const char *arg);

/** The byte ranges [a_offset, a_offset + a_bytes) of a and [b_offset,
 * b_offset + b_bytes) of b (views counted from their own start) name
 * memory apart: an argument the call writes must not be memory another
 * argument reads or writes (unless documented as in place). Decided on the
 * memory (views of one buffer, wrapped native objects), not on handles.
 * Refusals name both arguments. Empty ranges never overlap; NULL passes. */
prism_status prism__check_apart(prism_context *ctx, const char *fn,
                                const prism_buffer *a, size_t a_offset,
                                size_t a_bytes, const char *a_name,
                                const prism_buffer *b, size_t b_offset,
                                size_t b_bytes, const char *b_name);

/** For a pair that may be in place (the first a_bytes of a, the first
 * b_bytes of b): the same range or apart, never a partial overlap. */
prism_status prism__check_in_place(prism_context *ctx, const char *fn,
                                   const prism_buffer *a, size_t a_bytes,
                                   const char *a_name, const prism_buffer *b,
                                   size_t b_bytes, const char *b_name);

/** type is a prism_type the device supports (u8 included). */
prism_status prism__check_type(prism_context *ctx, prism_type type,
                               const char *fn);

/** type is an integer type usable as an index, offset or flag: u32, i32,
 * u64, i64, and u8 when allow_u8. arg names the argument. */
prism_status prism__check_int_type(prism_context *ctx, prism_type type,
                                   const char *fn, const char *arg,
                                   int allow_u8);

/** type is a prism_type the device supports, other than u8 (no arithmetic
 * primitive takes bytes), and op a prism_op. */
prism_status prism__check_type_op(prism_context *ctx, prism_type type,
                                  prism_op op, const char *fn);

/** n elements of type fit in size_t bytes; stores the byte count. */
prism_status prism__check_count(prism_context *ctx, prism_type type, size_t n,
                                const char *fn, size_t *bytes);

/** offsets holds num_segments + 1 integers of offset_type (u32, i32, u64,
 * i64): segment offsets as the segmented primitives take them. */
prism_status prism__check_offsets(prism_context *ctx, prism_type offset_type,
                                  const prism_buffer *offsets,
                                  size_t num_segments, const char *fn);

/** The identity of op for type (see prism_reduce), written to out (one
 * element of type). */
void prism__identity(prism_type type, prism_op op, void *out);

#endif /* PRISM_CORE_CHECK_H */
