/* SPDX-License-Identifier: MIT */
/* Argument checks shared by the public entry points. */
#include "check.h"
#include "error.h"
#include "handles.h"

#include <stdint.h>

prism_status prism__check_buffer(prism_context *ctx, const prism_buffer *buf,
                                 size_t offset, size_t need, const char *fn,
                                 const char *arg) {
  if (!buf)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: %s is NULL", fn, arg);
  /* The registry says whose it is without reading it; once it is known to
   * be ctx's, the caller's hold on ctx keeps it alive. */
  prism_context *owner = prism__handle_context(buf, PRISM__HANDLE_BUFFER);
  if (!owner)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: %s is not a live prism buffer (destroyed, or "
                       "never created)",
                       fn, arg);
  if (owner != ctx)
    return prism__fail(ctx, PRISM_CONTEXT_MISMATCH,
                       "%s: %s belongs to another context", fn, arg);
  if (offset > buf->bytes || need > buf->bytes - offset)
    return prism__fail(ctx, PRISM_BUFFER_TOO_SMALL,
                       "%s: %s holds %zu bytes; the request needs %zu bytes "
                       "from offset %zu",
                       fn, arg, buf->bytes, need, offset);
  return PRISM_OK;
}

prism_status prism__check_type(prism_context *ctx, prism_type type,
                               const char *fn) {
  if ((unsigned)type >= PRISM_TYPE_COUNT)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: type %d is not a prism_type", fn, (int)type);
  if (!((ctx->info.type_mask >> type) & 1u))
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: type %s is not supported on %s", fn,
                       prism_type_name(type), ctx->info.device_name);
  return PRISM_OK;
}

prism_status prism__check_int_type(prism_context *ctx, prism_type type,
                                   const char *fn, const char *arg,
                                   int allow_u8) {
  if ((type == PRISM_U8 && allow_u8) || type == PRISM_U32 ||
      type == PRISM_I32 || type == PRISM_U64 || type == PRISM_I64)
    return PRISM_OK;
  return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                     "%s: %s %d (%s) is not an integer type (%su32, i32, u64, "
                     "i64)",
                     fn, arg, (int)type, prism_type_name(type),
                     allow_u8 ? "u8, " : "");
}

prism_status prism__check_type_op(prism_context *ctx, prism_type type,
                                  prism_op op, const char *fn) {
  prism_status st = PRISM_OK;
  if ((unsigned)type >= PRISM_TYPE_COUNT)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: type %d is not a prism_type", fn, (int)type);
  if (type == PRISM_U8)
    return prism__fail(ctx, PRISM_UNSUPPORTED,
                       "%s: type u8 is not supported (u8 is for histograms "
                       "and stream compaction)",
                       fn);
  if ((st = prism__check_type(ctx, type, fn)) != PRISM_OK)
    return st;
  if (op != PRISM_SUM && op != PRISM_MIN && op != PRISM_MAX)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: op %d is not a prism_op (sum, min, max)", fn,
                       (int)op);
  return PRISM_OK;
}

prism_status prism__check_count(prism_context *ctx, prism_type type, size_t n,
                                const char *fn, size_t *bytes) {
  size_t size = prism_type_size(type);
  if (n > SIZE_MAX / size)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: n = %zu elements of %s overflow the address space",
                       fn, n, prism_type_name(type));
  *bytes = n * size;
  return PRISM_OK;
}

/* Where bytes from offset of buf lie: its memory's space and the first
 * byte's address there. */
static void locate(const prism_buffer *buf, size_t offset, const void **space,
                   uint64_t *at) {
  *space = buf->storage->space;
  *at = buf->storage->base + buf->offset + offset;
}

/* 0: apart (or an empty range), 1: exactly the same range, 2: overlapping
 * otherwise. */
static int relation(const prism_buffer *a, size_t a_offset, size_t a_bytes,
                    const prism_buffer *b, size_t b_offset, size_t b_bytes) {
  if (!a || !b || a_bytes == 0 || b_bytes == 0)
    return 0;
  const void *a_space, *b_space;
  uint64_t a_at, b_at;
  locate(a, a_offset, &a_space, &a_at);
  locate(b, b_offset, &b_space, &b_at);
  if (a_space != b_space || a_at >= b_at + b_bytes || b_at >= a_at + a_bytes)
    return 0;
  return a_at == b_at && a_bytes == b_bytes ? 1 : 2;
}

static prism_status overlap(prism_context *ctx, const char *fn,
                            const prism_buffer *a, size_t a_offset,
                            size_t a_bytes, const char *a_name,
                            const prism_buffer *b, size_t b_offset,
                            size_t b_bytes, const char *b_name,
                            const char *rule) {
  if (a == b)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: %s and %s are the same buffer and their ranges "
                       "overlap (bytes [%zu, %zu) and [%zu, %zu)); %s",
                       fn, a_name, b_name, a_offset, a_offset + a_bytes,
                       b_offset, b_offset + b_bytes, rule);
  size_t a_first = a->offset + a_offset, b_first = b->offset + b_offset;
  return prism__fail(
      ctx, PRISM_INVALID_ARGUMENT,
      "%s: %s and %s name overlapping memory (bytes [%zu, %zu) "
      "and [%zu, %zu) of %s); %s",
      fn, a_name, b_name, a_first, a_first + a_bytes, b_first,
      b_first + b_bytes,
      a->storage == b->storage ? "one allocation" : "one native object", rule);
}

prism_status prism__check_apart(prism_context *ctx, const char *fn,
                                const prism_buffer *a, size_t a_offset,
                                size_t a_bytes, const char *a_name,
                                const prism_buffer *b, size_t b_offset,
                                size_t b_bytes, const char *b_name) {
  if (relation(a, a_offset, a_bytes, b, b_offset, b_bytes) == 0)
    return PRISM_OK;
  return overlap(ctx, fn, a, a_offset, a_bytes, a_name, b, b_offset, b_bytes,
                 b_name, "they must not");
}

prism_status prism__check_in_place(prism_context *ctx, const char *fn,
                                   const prism_buffer *a, size_t a_bytes,
                                   const char *a_name, const prism_buffer *b,
                                   size_t b_bytes, const char *b_name) {
  const int r = relation(a, 0, a_bytes, b, 0, b_bytes);
  /* In place is the same handle and offset to a backend: the same memory
   * through two native objects (an OpenCL sub-buffer and its parent) would
   * look apart to it. */
  if (r == 0 || (r == 1 && prism__mem_same(prism__mem_of(a), prism__mem_of(b))))
    return PRISM_OK;
  return overlap(ctx, fn, a, 0, a_bytes, a_name, b, 0, b_bytes, b_name,
                 r == 1 ? "in place, both must be views of one prism buffer"
                        : "in place, both must name the same range");
}

prism_status prism__check_view(prism_context *ctx, const prism_buffer *buf,
                               size_t element_size, size_t need, const char *fn,
                               const char *arg) {
  prism_status st = prism__check_buffer(ctx, buf, 0, need, fn, arg);
  if (st == PRISM_OK && element_size > 1 && buf->offset % element_size)
    st = prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                     "%s: %s is a view at byte %zu of its memory, not a "
                     "multiple of its element size (%zu bytes)",
                     fn, arg, buf->offset, element_size);
  return st;
}

prism_status prism__check_offsets(prism_context *ctx, prism_type offset_type,
                                  const prism_buffer *offsets,
                                  size_t num_segments, const char *fn) {
  prism_status st =
      prism__check_int_type(ctx, offset_type, fn, "offset_type", 0);
  if (st != PRISM_OK)
    return st;
  size_t bytes = 0;
  if (num_segments == SIZE_MAX)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: num_segments = %zu overflows the address space", fn,
                       num_segments);
  if ((st = prism__check_count(ctx, offset_type, num_segments + 1, fn,
                               &bytes)) != PRISM_OK)
    return st;
  return prism__check_view(ctx, offsets, prism_type_size(offset_type), bytes,
                           fn, "offsets");
}
