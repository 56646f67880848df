/* Buffers: device memory that remembers its context. */
#include "check.h"
#include "error.h"

#include <stdlib.h>
#include <string.h>

static void link_buffer(prism_context *ctx, prism_buffer *buf) {
  buf->next = ctx->buffers;
  if (ctx->buffers)
    ctx->buffers->prev = buf;
  ctx->buffers = buf;
}

static void unlink_buffer(prism_buffer *buf) {
  if (buf->prev)
    buf->prev->next = buf->next;
  else
    buf->ctx->buffers = buf->next;
  if (buf->next)
    buf->next->prev = buf->prev;
}

static void release(prism_buffer *buf) {
  prism_context *ctx = buf->ctx;
  if (buf->native)
    ctx->backend->mem_free(ctx, buf->native);
  buf->magic = 0;
  free(buf);
}

prism_status prism_buffer_create(prism_context *ctx, size_t bytes,
                                 prism_buffer **out) {
  prism_status st = prism__check_ctx(ctx, "prism_buffer_create");
  if (st != PRISM_OK)
    return st;
  if (!out)
    return prism__fail(ctx, PRISM_NULL_POINTER,
                       "prism_buffer_create: out is NULL");
  *out = NULL;
  prism_buffer *buf = calloc(1, sizeof *buf);
  if (!buf)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY,
                       "prism_buffer_create: out of host memory");
  if (bytes > 0) {
    st = ctx->backend->mem_alloc(ctx, bytes, &buf->native);
    if (st != PRISM_OK) {
      free(buf);
      return st;
    }
  }
  buf->magic = PRISM__BUFFER_MAGIC;
  buf->ctx = ctx;
  buf->bytes = bytes;
  link_buffer(ctx, buf);
  *out = buf;
  return PRISM_OK;
}

void prism_buffer_destroy(prism_buffer *buf) {
  if (!buf || buf->magic != PRISM__BUFFER_MAGIC)
    return;
  unlink_buffer(buf);
  release(buf);
}

void prism__buffers_release_all(prism_context *ctx) {
  while (ctx->buffers) {
    prism_buffer *buf = ctx->buffers;
    ctx->buffers = buf->next;
    release(buf);
  }
}

size_t prism_buffer_size(const prism_buffer *buf) {
  return buf && buf->magic == PRISM__BUFFER_MAGIC ? buf->bytes : 0;
}

prism_context *prism_buffer_context(const prism_buffer *buf) {
  return buf && buf->magic == PRISM__BUFFER_MAGIC ? buf->ctx : NULL;
}

/* The context of a buffer argument, or a thread-local error. */
static prism_status buffer_ctx(const prism_buffer *buf, const char *fn,
                               const char *arg, prism_context **ctx) {
  if (!buf)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: %s is NULL", fn, arg);
  if (buf->magic != PRISM__BUFFER_MAGIC)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: %s is not a live prism buffer", fn, arg);
  *ctx = buf->ctx;
  return PRISM_OK;
}

prism_status prism_buffer_write(prism_buffer *dst, size_t offset,
                                const void *src, size_t bytes) {
  static const char fn[] = "prism_buffer_write";
  prism_context *ctx = NULL;
  prism_status st = buffer_ctx(dst, fn, "dst", &ctx);
  if (st == PRISM_OK)
    st = prism__check_buffer(ctx, dst, offset, bytes, fn, "dst");
  if (st != PRISM_OK || bytes == 0)
    return st;
  if (!src)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: src is NULL", fn);
  return ctx->backend->mem_write(ctx, dst->native, offset, src, bytes);
}

prism_status prism_buffer_read(const prism_buffer *src, size_t offset,
                               void *dst, size_t bytes) {
  static const char fn[] = "prism_buffer_read";
  prism_context *ctx = NULL;
  prism_status st = buffer_ctx(src, fn, "src", &ctx);
  if (st == PRISM_OK)
    st = prism__check_buffer(ctx, src, offset, bytes, fn, "src");
  if (st != PRISM_OK || bytes == 0)
    return st;
  if (!dst)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: dst is NULL", fn);
  return ctx->backend->mem_read(ctx, src->native, offset, dst, bytes);
}

prism_status prism_buffer_fill(prism_buffer *buf, size_t offset,
                               const void *pattern, size_t pattern_size,
                               size_t bytes) {
  static const char fn[] = "prism_buffer_fill";
  prism_context *ctx = NULL;
  prism_status st = buffer_ctx(buf, fn, "buf", &ctx);
  if (st == PRISM_OK)
    st = prism__check_buffer(ctx, buf, offset, bytes, fn, "buf");
  if (st != PRISM_OK)
    return st;
  if (!pattern)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: pattern is NULL", fn);
  if (pattern_size != 1 && pattern_size != 2 && pattern_size != 4 &&
      pattern_size != 8)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: pattern_size is %zu; must be 1, 2, 4 or 8", fn,
                       pattern_size);
  if (offset % pattern_size || bytes % pattern_size)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: offset (%zu) and bytes (%zu) must be multiples of "
                       "pattern_size (%zu)",
                       fn, offset, bytes, pattern_size);
  if (bytes == 0)
    return PRISM_OK;
  return ctx->backend->mem_fill(ctx, buf->native, offset, pattern, pattern_size,
                                bytes);
}

prism_status prism_buffer_copy(prism_buffer *dst, size_t dst_offset,
                               const prism_buffer *src, size_t src_offset,
                               size_t bytes) {
  static const char fn[] = "prism_buffer_copy";
  prism_context *ctx = NULL;
  prism_status st = buffer_ctx(dst, fn, "dst", &ctx);
  if (st == PRISM_OK)
    st = prism__check_buffer(ctx, dst, dst_offset, bytes, fn, "dst");
  if (st == PRISM_OK)
    st = prism__check_buffer(ctx, src, src_offset, bytes, fn, "src");
  if (st != PRISM_OK || bytes == 0)
    return st;
  if (src == dst && src_offset < dst_offset + bytes &&
      dst_offset < src_offset + bytes)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: src and dst ranges overlap in the same buffer", fn);
  return ctx->backend->mem_copy(ctx, dst->native, dst_offset, src->native,
                                src_offset, bytes);
}
