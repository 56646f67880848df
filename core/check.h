/*
 * Argument checks shared by the public entry points. Each returns PRISM_OK
 * or records a message naming the function and the argument, and returns
 * the failing status.
 */
#ifndef PRISM_CORE_CHECK_H
#define PRISM_CORE_CHECK_H

#include "context.h"

prism_status prism__check_ctx(const prism_context *ctx, const char *fn);

/** buf is non-NULL, live, belongs to ctx and holds at least need bytes
 * from offset (offset + need must not overflow). */
prism_status prism__check_buffer(prism_context *ctx, const prism_buffer *buf,
                                 size_t offset, size_t need, const char *fn,
                                 const char *arg);

/** type is a prism_type the device supports, op a prism_op. */
prism_status prism__check_type_op(prism_context *ctx, prism_type type,
                                  prism_op op, const char *fn);

/** n elements of type fit in size_t bytes; stores the byte count. */
prism_status prism__check_count(prism_context *ctx, prism_type type, size_t n,
                                const char *fn, size_t *bytes);

#endif /* PRISM_CORE_CHECK_H */
