/*
 * The backend vtable: what a backend provides to core.
 *
 * One static const struct per backend (prism__backend_cuda,
 * prism__backend_opencl). core validates every argument before it calls a
 * member, so a member may assume: the context is live, buffers belong to it,
 * ranges lie inside the buffers, n > 0, the type is supported by the device
 * (prism_context_supports) and the operator is valid.
 *
 * Members are appended, never reordered. A NULL primitive member means the
 * backend does not implement it; core then returns PRISM_UNSUPPORTED.
 *
 * Buffers reach a backend as their native handle (void *): a device pointer
 * for CUDA, a cl_mem for OpenCL.
 *
 * A backend reports failure by returning a status after calling
 * prism__fail / prism__fail_native on the context (core/error.h), so the
 * message names what went wrong.
 */
#ifndef PRISM_CORE_BACKEND_H
#define PRISM_CORE_BACKEND_H

#include "prism.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What the caller asked for: a device index and, for OpenCL, a platform. */
typedef struct prism__device_request {
  int device;           /* >= 0 */
  const char *platform; /* NULL = first platform with a device */
} prism__device_request;

/** What a backend fills in at context_init. */
typedef struct prism__device_info {
  char device_name[256];
  char platform_name[256];
  int is_cpu;
  unsigned type_mask; /* bit (1u << prism_type) set when supported */
} prism__device_info;

typedef struct prism__reduce_args {
  prism_type type;
  prism_op op;
  const void *in; /* native handle, at least n elements */
  size_t n;       /* > 0 */
  void *result;   /* host, one element */
} prism__reduce_args;

typedef struct prism__scan_args {
  prism_type type;
  prism_op op;
  prism_scan_kind kind;
  const void *in; /* native handle, at least n elements */
  void *out;      /* native handle, at least n elements; may equal in */
  size_t n;       /* > 0 */
} prism__scan_args;

typedef struct prism__sort_args {
  prism_type key_type;
  const void *keys_in;   /* native handle, n keys */
  void *keys_out;        /* native handle, n keys; may equal keys_in */
  const void *values_in; /* NULL for keys only */
  void *values_out;      /* NULL for keys only; may equal values_in */
  size_t value_size;     /* 0 (keys only), 4 or 8 */
  size_t n;              /* > 0 */
  int descending;
  unsigned begin_bit, end_bit; /* 0 <= begin < end <= key bits */
} prism__sort_args;

/* Gather (out[i] = in[idx[i]]) or scatter (out[idx[i]] = in[i]). */
typedef struct prism__move_args {
  int scatter;           /* 0: gather, 1: scatter */
  size_t element_size;   /* 4 or 8 */
  prism_type index_type; /* PRISM_U32, PRISM_I32, PRISM_U64, PRISM_I64 */
  const void *in;        /* native handle */
  const void *indices;   /* native handle, n indices */
  void *out;             /* native handle; never the same as in */
  size_t n;              /* > 0 */
  size_t bound;          /* indices must lie in [0, bound): in_count for a
                            gather, out_count for a scatter */
  /* NULL: unchecked (queued). Otherwise wait and store the first position
   * whose index is out of range, or SIZE_MAX when there is none. */
  size_t *first_bad;
} prism__move_args;

typedef struct prism__backend {
  const char *name;
  prism_backend kind;

  /* Devices this backend can use (0 is not an error). reason gets a line
   * explaining a zero or a missing driver. PRISM_BACKEND_UNAVAILABLE when
   * the driver/runtime cannot be used at all. */
  prism_status (*probe)(int *count, char *reason, size_t reason_size);

  /* Open the requested device; store backend state in ctx->impl and fill
   * info. On failure, leave ctx->impl NULL and set the error on ctx. */
  prism_status (*context_init)(prism_context *ctx,
                               const prism__device_request *request,
                               prism__device_info *info);
  /* Finish queued work and release everything context_init made. */
  void (*context_fini)(prism_context *ctx);

  prism_status (*mem_alloc)(prism_context *ctx, size_t bytes, void **native);
  void (*mem_free)(prism_context *ctx, void *native);
  prism_status (*mem_write)(prism_context *ctx, void *dst, size_t offset,
                            const void *src, size_t bytes);
  prism_status (*mem_read)(prism_context *ctx, const void *src, size_t offset,
                           void *dst, size_t bytes);
  prism_status (*mem_fill)(prism_context *ctx, void *dst, size_t offset,
                           const void *pattern, size_t pattern_size,
                           size_t bytes);
  prism_status (*mem_copy)(prism_context *ctx, void *dst, size_t dst_offset,
                           const void *src, size_t src_offset, size_t bytes);
  prism_status (*finish)(prism_context *ctx);

  /* Primitives. */
  prism_status (*reduce)(prism_context *ctx, const prism__reduce_args *args);
  prism_status (*scan)(prism_context *ctx, const prism__scan_args *args);
  prism_status (*sort)(prism_context *ctx, const prism__sort_args *args);
  prism_status (*move)(prism_context *ctx, const prism__move_args *args);
} prism__backend;

#ifdef PRISM_HAVE_CUDA
extern const prism__backend prism__backend_cuda;
#endif
#ifdef PRISM_HAVE_OPENCL
extern const prism__backend prism__backend_opencl;
#endif

/* Backend state of a context (the member ctx->impl). */
void *prism__impl(const prism_context *ctx);
void prism__set_impl(prism_context *ctx, void *impl);

/*
 * Scratch memory pooled per context: one device allocation that grows to the
 * largest request seen and is reused afterwards, so a primitive's hot path
 * allocates only the first time it needs more. The returned native handle
 * stays valid until the next prism__scratch call on the context; work queued
 * on the context's single in-order queue may use it. Growing releases the old
 * allocation after the queue has drained.
 */
prism_status prism__scratch(prism_context *ctx, size_t bytes, void **native);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_CORE_BACKEND_H */
