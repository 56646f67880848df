/* SPDX-License-Identifier: MIT */
/* Buffers and views: device memory that remembers its context. */
#include "check.h"
#include "error.h"
#include "handles.h"
#include "interop.h"

#include <stdint.h>
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

/* The storage loses a handle; the last one frees (or unwraps) it. */
static void storage_drop(prism_context *ctx, prism__storage *st) {
  if (--st->handles > 0)
    return;
  if (st->native) {
    if (st->owned)
      ctx->backend->mem_free(ctx, st->native);
    else if (ctx->backend->mem_unwrap)
      ctx->backend->mem_unwrap(ctx, st->native);
  }
  free(st);
}

static void release(prism_buffer *buf) {
  storage_drop(buf->ctx, buf->storage);
  free(buf);
}

/* A new handle on bytes [offset, offset + bytes) of storage, registered and
 * linked; the storage gains a handle. */
static prism_status new_handle(prism_context *ctx, prism__storage *storage,
                               size_t offset, size_t bytes, const char *fn,
                               prism_buffer **out) {
  prism_buffer *buf = calloc(1, sizeof *buf);
  if (!buf)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "%s: out of host memory", fn);
  buf->ctx = ctx;
  buf->storage = storage;
  buf->offset = offset;
  buf->bytes = bytes;
  prism_status st = prism__handle_add(ctx, buf, PRISM__HANDLE_BUFFER, fn);
  if (st != PRISM_OK) {
    free(buf);
    return st;
  }
  storage->handles++;
  link_buffer(ctx, buf);
  *out = buf;
  return PRISM_OK;
}

/* Storage over native (prism's when owned), with its identity; on failure
 * the caller still holds native. */
static prism_status new_storage(prism_context *ctx, void *native, size_t bytes,
                                int owned, const char *fn,
                                prism__storage **out) {
  prism__storage *st = calloc(1, sizeof *st);
  if (!st)
    return prism__fail(ctx, PRISM_OUT_OF_MEMORY, "%s: out of host memory", fn);
  st->native = native;
  st->bytes = bytes;
  st->owned = owned;
  st->space = NULL;
  st->base = (uint64_t)(uintptr_t)st; /* an empty buffer's own */
  if (native)
    ctx->backend->mem_identity(ctx, native, &st->space, &st->base);
  *out = st;
  return PRISM_OK;
}

/* A handle over the whole of a new storage; on failure native is released
 * as an owned one would be (or left to the caller when not owned). */
static prism_status whole(prism_context *ctx, void *native, size_t bytes,
                          int owned, const char *fn, prism_buffer **out) {
  prism__storage *storage = NULL;
  prism_status st = new_storage(ctx, native, bytes, owned, fn, &storage);
  if (st == PRISM_OK &&
      (st = new_handle(ctx, storage, 0, bytes, fn, out)) != PRISM_OK)
    free(storage);
  if (st != PRISM_OK && owned && native)
    ctx->backend->mem_free(ctx, native);
  return st;
}

static prism_status create(prism_context *ctx, size_t bytes,
                           prism_buffer **out) {
  static const char fn[] = "prism_buffer_create";
  if (!out)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  void *native = NULL;
  if (bytes > 0) {
    prism_status st = ctx->backend->mem_alloc(ctx, bytes, &native);
    if (st != PRISM_OK)
      return st;
  }
  return whole(ctx, native, bytes, 1, fn, out);
}

prism_status prism_buffer_create(prism_context *ctx, size_t bytes,
                                 prism_buffer **out) {
  PRISM__ENTER(ctx, "prism_buffer_create");
  return prism__leave(ctx, create(ctx, bytes, out));
}

prism_status prism__buffer_wrap(prism_context *ctx, void *native, size_t bytes,
                                const char *fn, prism_buffer **out) {
  if (!out)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  return whole(ctx, native, bytes, 0, fn, out);
}

static prism_status view(prism_context *ctx, prism_buffer *parent,
                         size_t offset, size_t bytes, prism_buffer **out) {
  static const char fn[] = "prism_buffer_view";
  if (!out)
    return prism__fail(ctx, PRISM_NULL_POINTER, "%s: out is NULL", fn);
  *out = NULL;
  if (offset > parent->bytes || bytes > parent->bytes - offset)
    return prism__fail(ctx, PRISM_BUFFER_TOO_SMALL,
                       "%s: offset %zu + bytes %zu is past the end of parent "
                       "(%zu bytes)",
                       fn, offset, bytes, parent->bytes);
  return new_handle(ctx, parent->storage, parent->offset + offset, bytes, fn,
                    out);
}

prism_status prism_buffer_view(prism_buffer *parent, size_t offset,
                               size_t bytes, prism_buffer **out) {
  prism_context *ctx = NULL;
  if (out)
    *out = NULL;
  prism_status st =
      prism__enter_buffer(parent, "prism_buffer_view", "parent", &ctx);
  if (st != PRISM_OK)
    return st;
  return prism__leave(ctx, view(ctx, parent, offset, bytes, out));
}

/* The native handle and offset of a live buffer, read under the registry's
 * lock; b NULL: any backend. */
static prism_status native_of(const prism_buffer *buf, const prism__backend *b,
                              const char *fn, void **native, size_t *offset) {
  if (!buf)
    return prism__fail(NULL, PRISM_NULL_POINTER, "%s: buf is NULL", fn);
  prism__handle_lock();
  int live = prism__handle_live_locked(buf, PRISM__HANDLE_BUFFER);
  const prism__backend *owner = live ? buf->ctx->backend : NULL;
  void *n = live ? buf->storage->native : NULL;
  size_t o = live ? buf->offset : 0;
  prism__handle_unlock();
  if (!live)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: buf is not a live prism buffer (destroyed, or "
                       "never created)",
                       fn);
  if (b && owner != b)
    return prism__fail(NULL, PRISM_INVALID_ARGUMENT,
                       "%s: buf belongs to a %s context, not %s", fn,
                       owner->name, b->name);
  if (native)
    *native = n;
  if (offset)
    *offset = o;
  return PRISM_OK;
}

prism_status prism_buffer_native(const prism_buffer *buf, void **native,
                                 size_t *offset) {
  return native_of(buf, NULL, "prism_buffer_native", native, offset);
}

prism_status prism__buffer_native_of(const prism_buffer *buf,
                                     const prism__backend *b, const char *fn,
                                     void **native, size_t *offset) {
  return native_of(buf, b, fn, native, offset);
}

void prism_buffer_destroy(prism_buffer *buf) {
  prism_context *ctx = prism__enter_destroy(buf, PRISM__HANDLE_BUFFER);
  if (!ctx)
    return;
  unlink_buffer(buf);
  release(buf);
  prism__leave(ctx, PRISM_OK);
}

void prism__buffers_release_all(prism_context *ctx) {
  while (ctx->buffers) {
    prism_buffer *buf = ctx->buffers;
    ctx->buffers = buf->next;
    prism__handle_remove(buf);
    release(buf);
  }
}

size_t prism_buffer_size(const prism_buffer *buf) {
  prism__handle_lock();
  size_t bytes =
      prism__handle_live_locked(buf, PRISM__HANDLE_BUFFER) ? buf->bytes : 0;
  prism__handle_unlock();
  return bytes;
}

prism_context *prism_buffer_context(const prism_buffer *buf) {
  return prism__handle_context(buf, PRISM__HANDLE_BUFFER);
}

/* Enter the context of a buffer argument and check the range there. */
static prism_status enter_range(const prism_buffer *buf, size_t offset,
                                size_t bytes, const char *fn, const char *arg,
                                prism_context **ctx) {
  prism_status st = prism__enter_buffer(buf, fn, arg, ctx);
  if (st == PRISM_OK && (st = prism__check_buffer(*ctx, buf, offset, bytes, fn,
                                                  arg)) != PRISM_OK) {
    prism__leave(*ctx, st);
    *ctx = NULL;
  }
  return st;
}

static prism_status write_bytes(prism_context *ctx, prism_buffer *dst,
                                size_t offset, const void *src, size_t bytes) {
  if (bytes == 0)
    return PRISM_OK;
  if (!src)
    return prism__fail(ctx, PRISM_NULL_POINTER,
                       "prism_buffer_write: src is "
                       "NULL");
  return ctx->backend->mem_write(ctx, dst->storage->native,
                                 dst->offset + offset, src, bytes);
}

prism_status prism_buffer_write(prism_buffer *dst, size_t offset,
                                const void *src, size_t bytes) {
  prism_context *ctx = NULL;
  prism_status st =
      enter_range(dst, offset, bytes, "prism_buffer_write", "dst", &ctx);
  if (st != PRISM_OK)
    return st;
  return prism__leave(ctx, write_bytes(ctx, dst, offset, src, bytes));
}

static prism_status read_bytes(prism_context *ctx, const prism_buffer *src,
                               size_t offset, void *dst, size_t bytes) {
  if (bytes == 0)
    return PRISM_OK;
  if (!dst)
    return prism__fail(ctx, PRISM_NULL_POINTER,
                       "prism_buffer_read: dst is NULL");
  return ctx->backend->mem_read(ctx, src->storage->native, src->offset + offset,
                                dst, bytes);
}

prism_status prism_buffer_read(const prism_buffer *src, size_t offset,
                               void *dst, size_t bytes) {
  prism_context *ctx = NULL;
  prism_status st =
      enter_range(src, offset, bytes, "prism_buffer_read", "src", &ctx);
  if (st != PRISM_OK)
    return st;
  return prism__leave(ctx, read_bytes(ctx, src, offset, dst, bytes));
}

static prism_status fill(prism_context *ctx, prism_buffer *buf, size_t offset,
                         const void *pattern, size_t pattern_size,
                         size_t bytes) {
  static const char fn[] = "prism_buffer_fill";
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
  if (buf->offset % pattern_size)
    return prism__fail(ctx, PRISM_INVALID_ARGUMENT,
                       "%s: buf is a view at byte %zu of its memory, not a "
                       "multiple of pattern_size (%zu)",
                       fn, buf->offset, pattern_size);
  if (bytes == 0)
    return PRISM_OK;
  return ctx->backend->mem_fill(ctx, buf->storage->native, buf->offset + offset,
                                pattern, pattern_size, bytes);
}

prism_status prism_buffer_fill(prism_buffer *buf, size_t offset,
                               const void *pattern, size_t pattern_size,
                               size_t bytes) {
  prism_context *ctx = NULL;
  prism_status st =
      enter_range(buf, offset, bytes, "prism_buffer_fill", "buf", &ctx);
  if (st != PRISM_OK)
    return st;
  return prism__leave(ctx,
                      fill(ctx, buf, offset, pattern, pattern_size, bytes));
}

static prism_status copy(prism_context *ctx, prism_buffer *dst,
                         size_t dst_offset, const prism_buffer *src,
                         size_t src_offset, size_t bytes) {
  static const char fn[] = "prism_buffer_copy";
  prism_status st = prism__check_buffer(ctx, src, src_offset, bytes, fn, "src");
  if (st == PRISM_OK)
    st = prism__check_apart(ctx, fn, dst, dst_offset, bytes, "dst", src,
                            src_offset, bytes, "src");
  if (st != PRISM_OK || bytes == 0)
    return st;
  return ctx->backend->mem_copy(ctx, dst->storage->native,
                                dst->offset + dst_offset, src->storage->native,
                                src->offset + src_offset, bytes);
}

prism_status prism_buffer_copy(prism_buffer *dst, size_t dst_offset,
                               const prism_buffer *src, size_t src_offset,
                               size_t bytes) {
  prism_context *ctx = NULL;
  prism_status st =
      enter_range(dst, dst_offset, bytes, "prism_buffer_copy", "dst", &ctx);
  if (st != PRISM_OK)
    return st;
  return prism__leave(ctx, copy(ctx, dst, dst_offset, src, src_offset, bytes));
}
