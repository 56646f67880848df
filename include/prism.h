/* SPDX-License-Identifier: MIT */
/*
 * prism: data-parallel primitives on GPUs and other OpenCL devices.
 *
 * One C API, two native backends (CUDA on NVIDIA GPUs, OpenCL C on any
 * OpenCL device), chosen at run time.
 *
 * Conventions
 * - Every call that can fail returns a prism_status; PRISM_OK is 0.
 * - A context owns a device queue. Primitives are queued on it and return
 *   before the device is done, except where a result comes back to the host
 *   (prism_reduce, prism_buffer_read). Calls on one context run in the order
 *   they were made.
 * - A context (with its buffers and graphs) is used by one thread at a time;
 *   different contexts may be used by different threads at once. A call made
 *   while another thread is inside a call on the same context is refused
 *   with PRISM_CONTEXT_BUSY (message in prism_last_error()) and does
 *   nothing; the destroy functions, which cannot fail, wait for the other
 *   call to return instead.
 * - On failure the context keeps a message naming the argument or the cause
 *   (prism_context_last_error). Failures with no context (creation, a NULL,
 *   destroyed or busy context) leave their message in a thread-local slot
 *   (prism_last_error).
 * - A handle passed after it was destroyed (a context, buffer or graph) is
 *   refused with PRISM_INVALID_ARGUMENT ("not a live ..."); prism decides
 *   this from a registry of live handles and never reads the freed object.
 *   Once prism has given the same address to a new handle, the stale one
 *   names the new object, as any pointer would.
 * - Aliasing: a buffer a primitive writes may not be one it reads unless
 *   its documentation says so (in place); two arguments that are only read
 *   may be the same buffer. A forbidden pair is refused with
 *   PRISM_INVALID_ARGUMENT naming both arguments.
 * - Buffers may be views into other buffers (prism_buffer_view) or wrap
 *   the caller's own device memory, and a context may run on the caller's
 *   own CUDA stream or OpenCL queue: see prism_cuda.h and prism_opencl.h,
 *   which hold every declaration that needs a vendor header.
 * - n = 0 is a valid no-op for every primitive. Element counts are size_t;
 *   inputs of more than 2^31 elements work.
 * - Bad input never crashes and never writes outside the caller's buffers;
 *   the context stays usable after any error.
 */
#ifndef PRISM_H
#define PRISM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(PRISM_BUILDING)
#define PRISM_API __declspec(dllexport)
#elif defined(PRISM_BUILDING) && defined(__GNUC__)
#define PRISM_API __attribute__((visibility("default")))
#else
#define PRISM_API
#endif

#define PRISM_VERSION_MAJOR 0
#define PRISM_VERSION_MINOR 1
#define PRISM_VERSION_PATCH 0
#define PRISM_VERSION_NUMBER                                                   \
  (PRISM_VERSION_MAJOR * 10000 + PRISM_VERSION_MINOR * 100 +                   \
   PRISM_VERSION_PATCH)

/** The library's version as "MAJOR.MINOR.PATCH". */
PRISM_API const char *prism_version(void);

/** The library's version as MAJOR * 10000 + MINOR * 100 + PATCH. */
PRISM_API unsigned prism_version_number(void);

/* ------------------------------------------------------------------------ */
/* Status codes                                                              */
/* ------------------------------------------------------------------------ */

/* XX(NAME, value, description). Append only: values are part of the ABI. */
#define PRISM_STATUS_MAP(XX)                                                   \
  XX(OK, 0, "success")                                                         \
  XX(INVALID_ARGUMENT, 1, "invalid argument")                                  \
  XX(NULL_POINTER, 2, "a required pointer or handle is NULL")                  \
  XX(BUFFER_TOO_SMALL, 3, "a buffer is too small for the request")             \
  XX(CONTEXT_MISMATCH, 4, "a buffer belongs to another context")               \
  XX(UNSUPPORTED, 5, "type or operation not supported on this device")         \
  XX(BACKEND_UNAVAILABLE, 6, "backend not built in, or no driver")             \
  XX(DEVICE_NOT_FOUND, 7, "no such device or platform")                        \
  XX(INVALID_ENVIRONMENT, 8, "an environment variable has a bad value")        \
  XX(OUT_OF_MEMORY, 9, "out of host or device memory")                         \
  XX(BUILD_FAILED, 10, "device program build failed")                          \
  XX(BACKEND_ERROR, 11, "the device runtime reported an error")                \
  XX(INTERNAL, 12, "internal error")                                           \
  XX(CONTEXT_BUSY, 13, "the context is in use by another thread")

/** Status of a prism call. */
typedef enum prism_status {
#define PRISM_STATUS_ENUM_(name, value, text) PRISM_##name = value,
  PRISM_STATUS_MAP(PRISM_STATUS_ENUM_)
#undef PRISM_STATUS_ENUM_
} prism_status;

/** The enumerator's name without prefix ("OK", "INVALID_ARGUMENT", ...). */
PRISM_API const char *prism_status_name(prism_status status);

/** A one-line description of the status. Unknown values give "unknown". */
PRISM_API const char *prism_status_string(prism_status status);

/**
 * The message of the last failure on this thread that had no context to
 * keep it (context creation, a NULL context). Empty if none. The pointer is
 * valid until the next prism call on this thread.
 */
PRISM_API const char *prism_last_error(void);

/* ------------------------------------------------------------------------ */
/* Element types and operators                                               */
/* ------------------------------------------------------------------------ */

/** Element types. 64-bit floats need device support (PRISM_UNSUPPORTED
 * otherwise; see prism_context_supports). PRISM_U8 (bytes) is taken by the
 * primitives that do not compute with their elements: histograms (samples),
 * stream compaction (elements and flags); reduce, scan and sort refuse it
 * with PRISM_UNSUPPORTED. Append only. */
typedef enum prism_type {
  PRISM_I32 = 0,
  PRISM_U32 = 1,
  PRISM_F32 = 2,
  PRISM_I64 = 3,
  PRISM_U64 = 4,
  PRISM_F64 = 5,
  PRISM_U8 = 6
} prism_type;

#define PRISM_TYPE_COUNT 7

/** One value of any prism_type, for constants passed by value (select_if
 * predicates). Set the member of the type in use. */
typedef union prism_value {
  int32_t i32;
  uint32_t u32;
  float f32;
  int64_t i64;
  uint64_t u64;
  double f64;
  uint8_t u8;
} prism_value;

/** Size in bytes of one element of the type, 0 for an unknown type. */
PRISM_API size_t prism_type_size(prism_type type);

/** Lower-case type name ("i32", "f64"), or "unknown". */
PRISM_API const char *prism_type_name(prism_type type);

/**
 * Reduction and scan operators.
 * - SUM: integers wrap around modulo 2^bits (two's complement for signed
 *   types). Floats add in an order the backend chooses, so results can differ
 *   from a serial sum by rounding (see README, "Floating point").
 * - MIN, MAX: any NaN operand makes the result NaN; -0.0 orders below +0.0.
 *   With these rules min and max are exact and independent of order.
 */
typedef enum prism_op { PRISM_SUM = 0, PRISM_MIN = 1, PRISM_MAX = 2 } prism_op;

/** Lower-case operator name ("sum", "min", "max"), or "unknown". */
PRISM_API const char *prism_op_name(prism_op op);

/* ------------------------------------------------------------------------ */
/* Contexts                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct prism_context_s prism_context;
typedef struct prism_buffer_s prism_buffer;

/** Backends. AUTO picks CUDA when a CUDA device is present, else OpenCL. */
typedef enum prism_backend {
  PRISM_BACKEND_AUTO = 0,
  PRISM_BACKEND_CUDA = 1,
  PRISM_BACKEND_OPENCL = 2
} prism_backend;

/** Name of a backend ("auto", "cuda", "opencl"), or "unknown". */
PRISM_API const char *prism_backend_name(prism_backend backend);

/**
 * Whether a backend was compiled into this library (1) or not (0). Says
 * nothing about drivers or devices: see prism_backend_probe.
 */
PRISM_API int prism_backend_built(prism_backend backend);

/**
 * How many devices a backend can use here. *count is set to 0 with
 * PRISM_OK when the backend is built but finds no device; a backend that is
 * not built, or whose driver is missing, returns PRISM_BACKEND_UNAVAILABLE.
 * For OpenCL the count is over all platforms. When reason is not NULL, a
 * one-line explanation (why none, or what was found) is written to it,
 * truncated to reason_size bytes; on failure prism_last_error() holds the
 * whole of it.
 */
PRISM_API prism_status prism_backend_probe(prism_backend backend, int *count,
                                           char *reason, size_t reason_size);

/**
 * Explicit context options. Fill with prism_context_options_init, then set
 * the fields you care about. A context created with options ignores the
 * environment entirely.
 */
typedef struct prism_context_options {
  /** Which backend; AUTO as described at prism_backend. */
  prism_backend backend;
  /** Device index within the backend (within the platform for OpenCL). */
  int device;
  /** OpenCL platform: NULL for the first platform that has a device, a
   * decimal index ("1"), or a case-insensitive substring of the platform
   * name or vendor ("nvidia", "pocl"). Ignored by other backends. */
  const char *opencl_platform;
} prism_context_options;

/** Defaults: backend AUTO, device 0, any OpenCL platform. */
PRISM_API void prism_context_options_init(prism_context_options *options);

/**
 * Create a context. With options NULL the choice comes from the
 * environment: PRISM_BACKEND (cuda | opencl | auto, default auto),
 * PRISM_DEVICE (a device index, default 0) and PRISM_OPENCL_PLATFORM (index
 * or name substring). A bad value gives PRISM_INVALID_ENVIRONMENT with a
 * message listing the valid ones; an explicit backend that cannot run gives
 * PRISM_BACKEND_UNAVAILABLE or PRISM_DEVICE_NOT_FOUND and says why. On
 * failure *out is NULL and prism_last_error() holds the message.
 */
PRISM_API prism_status
prism_context_create(const prism_context_options *options, prism_context **out);

/** Destroy a context after finishing its queued work. Accepts NULL and a
 * handle already destroyed. Buffers, graphs and events of the context should
 * be destroyed first; any left are released with it and their handles
 * become invalid (refused as not live). Native objects the caller handed
 * to the context (prism_cuda.h, prism_opencl.h) are not released. */
PRISM_API void prism_context_destroy(prism_context *ctx);

/** The context's backend. */
PRISM_API prism_backend prism_context_backend(const prism_context *ctx);

/** Device name as the driver reports it ("NVIDIA H200", "pthread-..."). */
PRISM_API const char *prism_context_device_name(const prism_context *ctx);

/** Platform name: the OpenCL platform's, or "CUDA <runtime version>". */
PRISM_API const char *prism_context_platform_name(const prism_context *ctx);

/** The tuning policy the context runs with: for OpenCL "gpu" (look-back
 * shapes) or "cpu" (long contiguous runs per work-item), chosen by device
 * type or by PRISM_OPENCL_POLICY; for CUDA "cuda". "" for NULL or a
 * destroyed context. */
PRISM_API const char *prism_context_policy(const prism_context *ctx);

/** 1 if the device is a CPU (OpenCL devices of type CPU), else 0. */
PRISM_API int prism_context_is_cpu(const prism_context *ctx);

/** 1 if the device supports the element type, else 0. */
PRISM_API int prism_context_supports(const prism_context *ctx, prism_type type);

/** Block until all work queued on the context is done. */
PRISM_API prism_status prism_context_finish(prism_context *ctx);

/**
 * The scratch pool: device memory a context keeps for primitives that
 * need temporary space (sort, scan, compaction, BFS, ...), grown to the
 * largest need seen and reused, so that a call at a size already seen
 * neither allocates nor synchronises.
 *
 * prism_context_scratch_size: the bytes the pool holds now (0 for NULL).
 *
 * prism_context_set_scratch_limit: the pool never grows past max_bytes
 * (SIZE_MAX, the default, for no limit); a call that needs more fails with
 * PRISM_OUT_OF_MEMORY saying how much it needs, and the context stays
 * usable. A pool already larger than the new limit is released (after the
 * queued work that may use it).
 *
 * prism_context_release_scratch: finish queued work, then free the pool;
 * the next call that needs scratch allocates it again.
 */
PRISM_API size_t prism_context_scratch_size(const prism_context *ctx);
PRISM_API prism_status prism_context_set_scratch_limit(prism_context *ctx,
                                                       size_t max_bytes);
PRISM_API prism_status prism_context_release_scratch(prism_context *ctx);

/** The message of the context's last failure, "" if none. Valid until the
 * next failing call on the context. */
PRISM_API const char *prism_context_last_error(const prism_context *ctx);

/** Status of the context's last failure, PRISM_OK if none. */
PRISM_API prism_status prism_context_last_status(const prism_context *ctx);

/** The native error code of the last failure (cudaError_t or cl_int), 0 if
 * the failure did not come from the device runtime. */
PRISM_API long long prism_context_last_native_error(const prism_context *ctx);

/** The build log of the last failed OpenCL program build, "" if none. */
PRISM_API const char *prism_context_build_log(const prism_context *ctx);

/* ------------------------------------------------------------------------ */
/* Buffers                                                                   */
/* ------------------------------------------------------------------------ */

/** Allocate bytes of device memory (contents undefined). bytes = 0 gives a
 * valid empty buffer. */
PRISM_API prism_status prism_buffer_create(prism_context *ctx, size_t bytes,
                                           prism_buffer **out);

/** Release a buffer handle after the context's queued work that uses it:
 * the memory goes with the last handle on it (see prism_buffer_view), and
 * memory prism did not allocate (prism_cuda_buffer_wrap,
 * prism_opencl_buffer_wrap) is never freed. Accepts NULL and a handle
 * already destroyed (then does nothing). */
PRISM_API void prism_buffer_destroy(prism_buffer *buf);

/** Size of the buffer in bytes (0 for NULL or a destroyed buffer). */
PRISM_API size_t prism_buffer_size(const prism_buffer *buf);

/** The context the buffer belongs to (NULL for NULL or a destroyed
 * buffer). */
PRISM_API prism_context *prism_buffer_context(const prism_buffer *buf);

/** Copy bytes from host memory into the buffer at offset. Returns once src
 * may be reused. */
PRISM_API prism_status prism_buffer_write(prism_buffer *dst, size_t offset,
                                          const void *src, size_t bytes);

/** Copy bytes from the buffer at offset to host memory, after all work
 * queued before it. Returns when dst holds the data. */
PRISM_API prism_status prism_buffer_read(const prism_buffer *src, size_t offset,
                                         void *dst, size_t bytes);

/** Fill bytes of the buffer from offset with a repeated pattern of 1, 2, 4
 * or 8 bytes; offset and bytes must be multiples of pattern_size. Queued. */
PRISM_API prism_status prism_buffer_fill(prism_buffer *buf, size_t offset,
                                         const void *pattern,
                                         size_t pattern_size, size_t bytes);

/** Copy bytes between two buffers of one context. The ranges must not
 * overlap when src and dst are the same buffer. Queued. */
PRISM_API prism_status prism_buffer_copy(prism_buffer *dst, size_t dst_offset,
                                         const prism_buffer *src,
                                         size_t src_offset, size_t bytes);

/**
 * A view: a new buffer handle naming bytes [offset, offset + bytes) of
 * parent (a buffer or itself a view), usable wherever a buffer is, by every
 * call, read or write. Making one neither allocates device memory nor
 * copies. A view of a view names the same memory as the range it covers.
 * Offsets and sizes passed with a view (prism_buffer_read and the like)
 * count from the view's start; prism_buffer_size gives its bytes.
 *
 * Lifetime: the memory stays allocated while any handle on it lives; the
 * parent may be destroyed before its views. Each view is destroyed with
 * prism_buffer_destroy (or with its context).
 *
 * Aliasing between the arguments of a call is decided on the memory the
 * handles name, not on the handles: two views of one buffer whose ranges
 * overlap are the same memory; where a call allows in place, the two
 * arguments must name exactly the same range.
 *
 * Alignment: a primitive needs each buffer argument to start on a multiple
 * of its element's size (keys, values, samples, counters, flags, offsets,
 * indices: 1, 4 or 8 bytes), counted from the start of the allocation; a
 * view that does not is refused with PRISM_INVALID_ARGUMENT naming the
 * argument. Reads, writes and copies take any byte offset; fills, a
 * multiple of the pattern size. prism checks every other alignment it
 * needs (vector loads) itself.
 *
 * Errors: parent NULL or not live, offset + bytes past the parent's end
 * (or overflowing), out NULL.
 */
PRISM_API prism_status prism_buffer_view(prism_buffer *parent, size_t offset,
                                         size_t bytes, prism_buffer **out);

/**
 * The native memory behind a buffer: *native gets a CUDA device pointer
 * (as void *) or an OpenCL cl_mem, and *offset the byte offset at which buf
 * starts in that memory (0 for a buffer prism_buffer_create made, a view's
 * offset otherwise). Either output may be NULL. An empty buffer from
 * prism_buffer_create has no memory: *native is NULL. The typed forms are
 * prism_cuda_buffer_pointer (prism_cuda.h) and prism_opencl_buffer_mem
 * (prism_opencl.h). The memory is prism's unless it was wrapped: do not
 * free it.
 */
PRISM_API prism_status prism_buffer_native(const prism_buffer *buf,
                                           void **native, size_t *offset);

/* ------------------------------------------------------------------------ */
/* Events                                                                    */
/* ------------------------------------------------------------------------ */

/** A marker on a context's queue (a cudaEvent_t or a cl_event inside). */
typedef struct prism_event_s prism_event;

/**
 * Record an event after all work queued on ctx so far, without waiting for
 * it. Wait for it on the host (prism_event_wait, prism_event_query), order
 * another context's work after it (prism_context_wait_event), or hand its
 * native event to your own code (prism_cuda_event, prism_opencl_event).
 * Destroy it with prism_event_destroy; events left are released with the
 * context.
 */
PRISM_API prism_status prism_event_record(prism_context *ctx,
                                          prism_event **out);

/** Block until the work before the event is done. */
PRISM_API prism_status prism_event_wait(prism_event *event);

/** *done = 1 when the work before the event is done, 0 if not yet; never
 * blocks. */
PRISM_API prism_status prism_event_query(prism_event *event, int *done);

/**
 * Work queued on ctx after this call starts only once the work before
 * event is done; the host does not wait. event may come from another
 * context of the same backend: for CUDA any context (same device or not),
 * for OpenCL a context on the same cl_context (PRISM_CONTEXT_MISMATCH
 * otherwise, as for an event of the other backend).
 */
PRISM_API prism_status prism_context_wait_event(prism_context *ctx,
                                                const prism_event *event);

/** Release an event (its work need not be done). Accepts NULL and a
 * handle already destroyed. */
PRISM_API void prism_event_destroy(prism_event *event);

/* ------------------------------------------------------------------------ */
/* Reduce and scan                                                           */
/* ------------------------------------------------------------------------ */

/**
 * Reduce the first n elements of in with op and store the result (one
 * element of type) at *result on the host. Blocks until the result is
 * there. For n = 0 the result is the identity of op: 0 for SUM, the type's
 * largest value (+inf for floats) for MIN, its smallest (-inf) for MAX.
 */
PRISM_API prism_status prism_reduce(prism_context *ctx, prism_type type,
                                    prism_op op, const prism_buffer *in,
                                    size_t n, void *result);

/**
 * As prism_reduce, but the result (one element of type) is stored at the
 * start of out, a device buffer of at least that size, and the call is
 * queued: no host round trip, for callers that chain primitives. out must
 * be another buffer than in. For n = 0 out gets the identity. The result
 * has the same bits prism_reduce gives.
 */
PRISM_API prism_status prism_reduce_to_buffer(prism_context *ctx,
                                              prism_type type, prism_op op,
                                              const prism_buffer *in, size_t n,
                                              prism_buffer *out);

/** Inclusive or exclusive scan. */
typedef enum prism_scan_kind {
  PRISM_INCLUSIVE = 0,
  PRISM_EXCLUSIVE = 1
} prism_scan_kind;

/**
 * Prefix scan of the first n elements of in into out.
 * inclusive: out[i] = in[0] op ... op in[i];
 * exclusive: out[0] = identity of op (see prism_reduce), out[i] = in[0] op
 * ... op in[i-1].
 * in and out may be the same buffer (in place); otherwise they must not be
 * the same memory. Queued: returns before the device is done.
 */
PRISM_API prism_status prism_scan(prism_context *ctx, prism_type type,
                                  prism_op op, prism_scan_kind kind,
                                  const prism_buffer *in, prism_buffer *out,
                                  size_t n);

/* ------------------------------------------------------------------------ */
/* Radix sort                                                                */
/* ------------------------------------------------------------------------ */

/** Sort order. */
typedef enum prism_order {
  PRISM_ASCENDING = 0,
  PRISM_DESCENDING = 1
} prism_order;

/**
 * Sort options. Fill with prism_sort_options_init, then change what you
 * need.
 *
 * Keys sort by their order-preserving unsigned image: unsigned keys as they
 * are; signed keys with the sign bit flipped; floats in IEEE-754 total
 * order, -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN (NaNs among
 * themselves by bit pattern). Only bits [begin_bit, end_bit) of that image
 * take part, so a caller who knows the keys are small pays for fewer
 * passes; keys equal in those bits keep their input order. Descending
 * order reverses the comparison and is stable too.
 */
typedef struct prism_sort_options {
  prism_order order;
  /** The least significant bit of the image that takes part (default 0). */
  unsigned begin_bit;
  /** One past the most significant (default: the key's width in bits). */
  unsigned end_bit;
} prism_sort_options;

/** Defaults for keys of key_type: ascending, every bit. */
PRISM_API void prism_sort_options_init(prism_sort_options *options,
                                       prism_type key_type);

/**
 * Stable radix sort of n keys of key_type (any prism_type) from keys_in
 * into keys_out. keys_in and keys_out may be the same buffer (the sort then
 * works through the context's pooled scratch memory); otherwise keys_in is
 * left unchanged. options may be NULL for the defaults. Queued: returns
 * before the device is done.
 */
PRISM_API prism_status prism_sort_keys(prism_context *ctx, prism_type key_type,
                                       const prism_buffer *keys_in,
                                       prism_buffer *keys_out, size_t n,
                                       const prism_sort_options *options);

/**
 * Stable radix sort of n (key, value) pairs by key: values of value_size
 * bytes (4 or 8, an opaque payload) move with their keys from values_in to
 * values_out. Either pair of buffers may be the same buffer (in place); a
 * key buffer must not be a value buffer. As prism_sort_keys otherwise.
 */
PRISM_API prism_status prism_sort_pairs(prism_context *ctx, prism_type key_type,
                                        const prism_buffer *keys_in,
                                        prism_buffer *keys_out,
                                        const prism_buffer *values_in,
                                        prism_buffer *values_out,
                                        size_t value_size, size_t n,
                                        const prism_sort_options *options);

/**
 * Segmented sort: a stable radix sort of each segment of keys_in[0, n)
 * into the same positions of keys_out, as prism_sort_keys sorts (options
 * may be NULL for the defaults). Segments are given by offsets as for
 * prism_segmented_reduce: num_segments + 1 integers of offset_type (u32,
 * i32, u64 or i64) on the device, segment s = [offsets[s], offsets[s + 1]),
 * empty when the two are equal. Segments may be empty, tiny, or the whole
 * array, mixed in one call; they need not cover [0, n) (keys_out outside
 * every segment is left as it is). keys_in and keys_out may be the
 * same buffer (in place); otherwise keys_in is left unchanged. Needs fewer
 * than 2^32 segments.
 *
 * The call reads the offsets on the device to split the segments by
 * length (each class gets the kernel that suits it: a warp, a block in
 * shared memory, a block over global memory, the device-wide sort), so it
 * waits once for that split before it queues the sorts (once more when a
 * few segments are long enough for the device-wide sort: it reads their
 * bounds); the sorts themselves are queued.
 * Because it waits anyway, the offsets are always checked: segment s is bad
 * when offsets[s] > offsets[s + 1], or either is negative or greater than
 * n. If any is, nothing is sorted or written and the call returns
 * PRISM_INVALID_ARGUMENT naming the first bad segment, also stored in
 * *first_bad when first_bad is not NULL (SIZE_MAX when every segment is
 * good). n = 0 or num_segments = 0 is a no-op (offsets are not read).
 * offsets must be apart from keys_out.
 */
PRISM_API prism_status prism_segmented_sort_keys(
    prism_context *ctx, prism_type key_type, const prism_buffer *keys_in,
    prism_buffer *keys_out, size_t n, prism_type offset_type,
    const prism_buffer *offsets, size_t num_segments,
    const prism_sort_options *options, size_t *first_bad);

/**
 * Segmented sort of (key, value) pairs by key, as prism_segmented_sort_keys:
 * values of value_size bytes (4 or 8) move with their keys from values_in
 * to values_out, within their segment. Either pair of buffers may be the
 * same buffer (in place); a key buffer must not be a value buffer, and
 * offsets must be apart from both outputs.
 */
PRISM_API prism_status prism_segmented_sort_pairs(
    prism_context *ctx, prism_type key_type, const prism_buffer *keys_in,
    prism_buffer *keys_out, const prism_buffer *values_in,
    prism_buffer *values_out, size_t value_size, size_t n,
    prism_type offset_type, const prism_buffer *offsets, size_t num_segments,
    const prism_sort_options *options, size_t *first_bad);

/* ------------------------------------------------------------------------ */
/* Merge                                                                     */
/* ------------------------------------------------------------------------ */

/**
 * Merge two sorted runs of keys of key_type (any prism_type but PRISM_U8),
 * a (na keys) and b (nb keys), into out (na + nb keys): stable, keys
 * compared as prism_sort_keys compares them (their order-preserving image,
 * every bit; floats in IEEE-754 total order), in order (ascending or
 * descending). Equal keys keep their order within a run, and a key of a
 * comes before an equal key of b. Keys move as raw bits.
 *
 * a and b must each be sorted in order; nothing checks it (that would
 * cost a pass over both and a wait). If they are not, what out holds is
 * unspecified (keys of a and b, some perhaps repeated and others left
 * out), but nothing outside out is written and the context stays usable.
 * out must be memory apart from a and b; a and b may be the same memory
 * (both are only read). na = nb = 0 is a no-op. Queued.
 *
 * The merge path (Green, McColl and Bader, ICS'12; Merrill's and Baxter's
 * GPU merges) splits the output into equal tiles by binary search along
 * the diagonals, so the time depends on na + nb only, not on how the
 * runs interleave.
 */
PRISM_API prism_status prism_merge_keys(prism_context *ctx, prism_type key_type,
                                        prism_order order,
                                        const prism_buffer *a, size_t na,
                                        const prism_buffer *b, size_t nb,
                                        prism_buffer *out);

/**
 * Merge two sorted runs of (key, value) pairs by key, as prism_merge_keys:
 * values of value_size bytes (4 or 8, an opaque payload) move with their
 * keys from values_a and values_b to values_out. keys_out and values_out
 * must be memory apart from every input and from each other; the inputs
 * may share memory.
 */
PRISM_API prism_status prism_merge_pairs(
    prism_context *ctx, prism_type key_type, prism_order order,
    const prism_buffer *keys_a, const prism_buffer *values_a, size_t na,
    const prism_buffer *keys_b, const prism_buffer *values_b, size_t nb,
    prism_buffer *keys_out, prism_buffer *values_out, size_t value_size);

/* ------------------------------------------------------------------------ */
/* Top-k                                                                     */
/* ------------------------------------------------------------------------ */

/** Top-k options. Fill with prism_topk_options_init, then change what you
 * need. */
typedef struct prism_topk_options {
  /** PRISM_DESCENDING (the default): the k largest keys, largest first;
   * PRISM_ASCENDING: the k smallest, smallest first. */
  prism_order order;
  /** Nonzero (the default): each row's k keys in rank order. Zero: the
   * same k keys (and values), in an order left unspecified that may
   * differ between runs and backends; it saves sorting them, which counts
   * when k is large. */
  int sorted;
} prism_topk_options;

/** Defaults: descending (the k largest), sorted. */
PRISM_API void prism_topk_options_init(prism_topk_options *options);

/**
 * Top-k: for each row of keys_in (rows x cols keys of key_type, row-major;
 * any prism_type but PRISM_U8), the k keys that come first in order (the
 * k largest by default), 1 <= k <= cols. One long array is rows = 1,
 * cols = n (any n the device's memory holds, 2^31 and beyond); a batch of
 * rows is one call.
 *
 * Keys compare as prism_sort_keys compares them: by their order-preserving
 * image, floats in IEEE-754 total order (-NaN < -inf < ... < -0.0 < +0.0
 * < ... < +inf < +NaN), so +NaNs are the largest keys and come first in
 * descending order, -0.0 and +0.0 are distinct. Equal keys: the lowest
 * column index first. The chosen keys are exactly the first k of the row
 * after a stable sort in order, so the result is the same bits on every
 * run and every backend (with sorted = 0: the same set).
 *
 * Outputs (rows x k each, row-major; either may be NULL, not both):
 * - keys_out: the chosen keys (raw bits, as they were in keys_in);
 * - values_out: with values_in (rows x cols values of value_size bytes, 4
 *   or 8, an opaque payload), each chosen key's value; with values_in
 *   NULL, each chosen key's column index in its row, as a u32 (value_size
 *   4, which needs cols <= 2^32) or a u64 (value_size 8).
 * value_size is 0 when values_out is NULL (values_in must be NULL too).
 * The outputs must be memory apart from the inputs and from each other;
 * the inputs may share memory. options may be NULL for the defaults.
 * rows = 0 is a no-op. Queued: returns before the device is done.
 *
 * Rows of up to a few thousand keys are each chosen in one block (a
 * radix select over the row in registers, then a sort of the k in shared
 * memory); a longer row by a radix select over the whole device, 11 bits
 * a pass, that keeps only the keys still in doubt after each pass (AIR
 * Top-K, Zhang et al., SC'23), then a radix sort of the k.
 */
PRISM_API prism_status prism_topk(prism_context *ctx, prism_type key_type,
                                  const prism_buffer *keys_in,
                                  const prism_buffer *values_in, size_t rows,
                                  size_t cols, size_t k, prism_buffer *keys_out,
                                  prism_buffer *values_out, size_t value_size,
                                  const prism_topk_options *options);

/* ------------------------------------------------------------------------ */
/* Gather and scatter                                                        */
/* ------------------------------------------------------------------------ */

/**
 * Gather: out[i] = in[indices[i]] for i < n, elements of element_size bytes
 * (4 or 8: any payload). indices holds n integers of index_type (PRISM_U32,
 * PRISM_I32, PRISM_U64 or PRISM_I64); in holds in_count elements.
 *
 * An index outside [0, in_count) is never followed: out[i] is left as it
 * was. With checked = 0 the call is queued and says nothing about such
 * indices. With checked = 1 it waits for the device and, if any index was
 * out of range, returns PRISM_INVALID_ARGUMENT naming the first such
 * position i, which it also stores in *first_bad when first_bad is not
 * NULL (all in-range elements are still written; *first_bad is SIZE_MAX
 * when every index is in range). out must be another buffer than in and
 * indices; in and indices may be the same buffer.
 */
PRISM_API prism_status prism_gather(prism_context *ctx, size_t element_size,
                                    const prism_buffer *in, size_t in_count,
                                    prism_type index_type,
                                    const prism_buffer *indices,
                                    prism_buffer *out, size_t n, int checked,
                                    size_t *first_bad);

/**
 * Scatter: out[indices[i]] = in[i] for i < n; out holds out_count elements.
 * Where several i name the same index, one of their values lands there
 * (which one is unspecified). Out-of-range indices and checked as for
 * prism_gather. out must be another buffer than in and indices; in and
 * indices may be the same buffer.
 */
PRISM_API prism_status prism_scatter(prism_context *ctx, size_t element_size,
                                     const prism_buffer *in,
                                     prism_type index_type,
                                     const prism_buffer *indices,
                                     prism_buffer *out, size_t out_count,
                                     size_t n, int checked, size_t *first_bad);

/* ------------------------------------------------------------------------ */
/* Histograms                                                                */
/* ------------------------------------------------------------------------ */

/**
 * Histogram of n samples of sample_type (u8, i32, u32, f32, i64, u64, f64)
 * into bins equal-width bins over [lower, upper): counts[b] = the number of
 * samples in bin b. counts holds bins counters of counter_type, PRISM_U32
 * or PRISM_U64; every counter is overwritten. With PRISM_U32 counters, n
 * must not exceed UINT32_MAX, so no bin can wrap around (else
 * PRISM_INVALID_ARGUMENT: ask for PRISM_U64 counters).
 *
 * Bins: 1 <= bins <= 2^31. Samples below lower, at or above upper, and NaN
 * samples are not counted.
 * - Integer samples: lower and upper must be whole numbers within the
 *   sample type's range (upper may be the type's maximum + 1, e.g. 256 for
 *   u8). Sample x falls in bin floor((x - lower) * bins / (upper - lower)),
 *   computed exactly.
 * - Float samples: lower and upper are finite and converted to the sample
 *   type; x falls in bin (x - lower) * scale, truncated and capped at
 *   bins - 1, where scale = bins / (upper - lower). Every operation (the
 *   subtractions, the division, the product) is rounded to the sample type,
 *   with no fused multiply-add. Every backend computes exactly this, so a
 *   sample within rounding of a bin edge lands in the same bin everywhere.
 * Bad bounds (lower >= upper, NaN or infinite, not whole for integer
 * samples, outside the type; for floats also upper - lower or scale
 * overflowing the type) give PRISM_INVALID_ARGUMENT. counts must be another
 * buffer than samples. Queued.
 */
PRISM_API prism_status prism_histogram_even(
    prism_context *ctx, prism_type sample_type, const prism_buffer *samples,
    size_t n, size_t bins, double lower, double upper, prism_type counter_type,
    prism_buffer *counts);

/**
 * Histogram of n samples into bins bins with caller-given edges: edges is a
 * host array of bins + 1 values of sample_type, strictly ascending and not
 * NaN; bin b is [edges[b], edges[b + 1]). Samples outside [edges[0],
 * edges[bins]) and NaN samples are not counted, so an integer type's
 * largest value (255 for u8) falls in no bin: prism_histogram_even, whose
 * upper may be the maximum + 1, counts it. Each sample's bin is found
 * by binary search over the edges. counts, counter_type and the n limit as
 * for prism_histogram_even (counts another buffer than samples). Returns
 * once edges may be reused; the histogram itself is queued.
 */
PRISM_API prism_status prism_histogram_range(
    prism_context *ctx, prism_type sample_type, const prism_buffer *samples,
    size_t n, size_t bins, const void *edges, prism_type counter_type,
    prism_buffer *counts);

/* ------------------------------------------------------------------------ */
/* Stream compaction                                                         */
/* ------------------------------------------------------------------------ */

/** Comparisons of select_if predicates. */
typedef enum prism_compare {
  PRISM_LESS = 0,          /* x <  a */
  PRISM_LESS_EQUAL = 1,    /* x <= a */
  PRISM_GREATER = 2,       /* x >  a */
  PRISM_GREATER_EQUAL = 3, /* x >= a */
  PRISM_EQUAL = 4,         /* x == a */
  PRISM_NOT_EQUAL = 5,     /* x != a */
  PRISM_IN_RANGE = 6       /* a <= x && x <= b */
} prism_compare;

/**
 * A predicate against constants of the element type: x compare a (and b
 * for PRISM_IN_RANGE). Floats compare as IEEE-754 does: a NaN (in x or in
 * a constant) fails every comparison except PRISM_NOT_EQUAL, and -0.0
 * equals +0.0.
 */
typedef struct prism_predicate {
  prism_compare compare;
  prism_value a, b;
} prism_predicate;

/*
 * The compaction primitives below share these rules.
 * - Elements are of type (any prism_type; u8 included) and keep their input
 *   order (stable). in and out must be different buffers, both holding n
 *   elements (no compaction works in place). The selects and unique write
 *   out[0..k) only; out[k..n) is left as it was.
 * - The number of elements kept, k, is stored as a uint64_t in the first 8
 *   bytes of count_out when count_out is not NULL (a device buffer of at
 *   least 8 bytes, other than in, out and flags, for callers that chain
 *   primitives without a host round trip), and at *count on the host when
 *   count is not NULL: the call then waits for the device. With count NULL
 *   the call is queued. n = 0 stores k = 0.
 * - Flags are n integers of flag_type (u8, i32, u32, i64 or u64); non-zero
 *   (any bit) keeps the element. flags may be in, but not out.
 */

/** out[0..k) = the elements in[i] whose flags[i] != 0, in order. */
PRISM_API prism_status prism_select_flagged(
    prism_context *ctx, prism_type type, const prism_buffer *in,
    prism_type flag_type, const prism_buffer *flags, prism_buffer *out,
    size_t n, prism_buffer *count_out, size_t *count);

/** out[0..k) = the elements in[i] that satisfy *predicate, in order. */
PRISM_API prism_status prism_select_if(prism_context *ctx, prism_type type,
                                       const prism_buffer *in,
                                       const prism_predicate *predicate,
                                       prism_buffer *out, size_t n,
                                       prism_buffer *count_out, size_t *count);

/** Partition by flags: out[0..k) = the flagged elements, out[k..n) = the
 * rest, each part in input order. k is what is counted. */
PRISM_API prism_status prism_partition_flagged(
    prism_context *ctx, prism_type type, const prism_buffer *in,
    prism_type flag_type, const prism_buffer *flags, prism_buffer *out,
    size_t n, prism_buffer *count_out, size_t *count);

/** Partition by a predicate: as prism_partition_flagged, kept = satisfies
 * *predicate. */
PRISM_API prism_status prism_partition_if(prism_context *ctx, prism_type type,
                                          const prism_buffer *in,
                                          const prism_predicate *predicate,
                                          prism_buffer *out, size_t n,
                                          prism_buffer *count_out,
                                          size_t *count);

/** Drop consecutive duplicates: out[0..k) keeps in[0] and every in[i] with
 * in[i] != in[i - 1] (compared with the type's ==, so for floats -0.0
 * equals +0.0 and a NaN never equals anything: runs of NaN are all kept). */
PRISM_API prism_status prism_unique(prism_context *ctx, prism_type type,
                                    const prism_buffer *in, prism_buffer *out,
                                    size_t n, prism_buffer *count_out,
                                    size_t *count);

/* ------------------------------------------------------------------------ */
/* Segmented scan and reduce                                                 */
/* ------------------------------------------------------------------------ */

/**
 * Segmented scan of n elements, segments given by head flags: flags holds
 * n integers of flag_type (u8, i32, u32, i64 or u64); a non-zero flag
 * (any non-zero value) starts a new segment at that element, and element 0
 * always starts one. Each segment is scanned on its own (inclusive or
 * exclusive, with op, as prism_scan: an exclusive scan gives each segment's
 * first element the identity). in and out may be the same buffer; flags
 * and out may not. Float sums follow the rules of prism_scan within each
 * segment. n = 0 is a no-op. Queued.
 */
PRISM_API prism_status prism_segmented_scan_flags(
    prism_context *ctx, prism_type type, prism_op op, prism_scan_kind kind,
    const prism_buffer *in, prism_type flag_type, const prism_buffer *flags,
    prism_buffer *out, size_t n);

/*
 * Segments given by offsets: offsets holds num_segments + 1 integers of
 * offset_type (u32, i32, u64 or i64); segment s is [offsets[s],
 * offsets[s + 1]), empty when the two are equal. Offsets must not decrease
 * and must lie in [0, n]. offsets and out must be different buffers.
 * num_segments = 0 is a no-op (offsets still holds its one entry).
 *
 * Offsets live on the device, so they are checked there: segment s is bad
 * when offsets[s] > offsets[s + 1], or either is negative or greater than
 * n. A bad segment is never followed: it is treated as empty. With
 * checked = 0 the call is queued and says nothing about bad segments; with
 * checked = 1 it waits and, if any segment was bad, returns
 * PRISM_INVALID_ARGUMENT naming the first, also stored in *first_bad when
 * first_bad is not NULL (SIZE_MAX when all are good); the good segments are
 * still computed. Either way nothing is written outside out's n (scan) or
 * num_segments (reduce) elements.
 */

/**
 * Segmented scan with segments by offsets (see above): out[i] for i in
 * segment s is the scan of in over [offsets[s], i] (inclusive) or
 * [offsets[s], i) (exclusive). Elements outside every segment are left
 * unchanged in out. in and out may be the same buffer. n = 0 is a no-op
 * (offsets are not read).
 *
 * Precisely: every good non-empty segment s marks a start at offsets[s]
 * and, when offsets[s + 1] < n, an end at offsets[s + 1]. Element i is
 * scanned from the nearest start p <= i, over [p, i] or [p, i), unless an
 * end lies in (p, i] (a start and an end at one position count as a
 * start); every other element of out is left unchanged. When the offsets
 * do not decrease, the starts and ends are the bounds of the good
 * segments, so each good segment is scanned exactly and nothing outside
 * them is written, whatever the bad segments at either end hold. When they
 * decrease somewhere (a bad segment), good segments may overlap: an
 * element then goes with the good segment that starts last at or before
 * it, cut short where any good segment ends.
 */
PRISM_API prism_status prism_segmented_scan_offsets(
    prism_context *ctx, prism_type type, prism_op op, prism_scan_kind kind,
    const prism_buffer *in, prism_buffer *out, size_t n, prism_type offset_type,
    const prism_buffer *offsets, size_t num_segments, int checked,
    size_t *first_bad);

/**
 * Segmented reduce: out[s] = the reduction with op of in over segment s
 * (offsets as above), the identity of op (see prism_reduce) for an empty
 * or bad segment. Each good segment is reduced exactly as prism_reduce
 * would, even where bad segments make others overlap it. out holds
 * num_segments elements of type and is a buffer of its own (neither in
 * nor offsets). n may be 0 (every good segment is then empty). Float sums
 * follow the rules of prism_reduce within each segment. Queued unless
 * checked.
 */
PRISM_API prism_status prism_segmented_reduce(
    prism_context *ctx, prism_type type, prism_op op, const prism_buffer *in,
    size_t n, prism_type offset_type, const prism_buffer *offsets,
    size_t num_segments, prism_buffer *out, int checked, size_t *first_bad);

/* ------------------------------------------------------------------------ */
/* Graphs: host CSR, loaders, generators                                     */
/* ------------------------------------------------------------------------ */

/**
 * A graph in compressed sparse row form, in host memory: the out-edges of
 * vertex v are col_indices[row_offsets[v] .. row_offsets[v + 1]).
 * row_offsets has num_vertices + 1 entries, col_indices num_edges. An
 * undirected graph lists each edge in both directions (a self loop once).
 * Self loops and duplicate edges are allowed. directed = 0 is the caller's
 * promise that each edge is listed both ways; nothing checks it in full.
 * Fill one yourself to wrap your own arrays, or get one from a loader or a
 * generator (then release it with prism_csr_free).
 */
typedef struct prism_csr {
  size_t num_vertices; /* < 2^32 (column indices are 32-bit) */
  size_t num_edges;    /* directed edges: entries of col_indices */
  uint64_t *row_offsets;
  uint32_t *col_indices;
  int directed; /* 0: symmetric (each edge listed both ways) */
} prism_csr;

/** Release the arrays of a CSR made by prism (loaders, generators) and zero
 * it. Accepts NULL and an already-freed CSR. */
PRISM_API void prism_csr_free(prism_csr *csr);

/**
 * Check a CSR as prism_graph_create does: num_vertices < 2^32,
 * row_offsets[0] = 0, never decreasing, row_offsets[num_vertices] =
 * num_edges, every column index < num_vertices. PRISM_INVALID_ARGUMENT
 * names the first bad position (e.g. "csr->row_offsets[7]",
 * "csr->col_indices[12] = 9 (an edge of vertex 3)"); PRISM_NULL_POINTER
 * a NULL csr, row_offsets, or col_indices with num_edges > 0. The message
 * is in prism_last_error(). num_vertices = 0 passes (prism_graph_create
 * wants at least one vertex). The symmetry of an undirected CSR is not
 * checked.
 */
PRISM_API prism_status prism_csr_validate(const prism_csr *csr);

/** Graph file formats. AUTO picks MATRIX_MARKET for files that start with
 * "%%" (the "%%MatrixMarket" banner; blank space before it is skipped),
 * else EDGE_LIST. */
typedef enum prism_graph_format {
  PRISM_GRAPH_AUTO = 0,
  PRISM_GRAPH_MATRIX_MARKET = 1,
  PRISM_GRAPH_EDGE_LIST = 2
} prism_graph_format;

/** Loader options; fill with prism_load_options_init. */
typedef struct prism_load_options {
  prism_graph_format format;
  /** Edge lists: index of the first vertex, 0 (default) or 1. Matrix
   * Market is 1-based by definition. */
  int index_base;
  /** 1: add the reverse of every edge, so the graph is undirected (a
   * Matrix Market "symmetric" file is undirected either way). Default 0:
   * a general file or an edge list is directed. */
  int symmetrize;
  /** Refuse files that declare or hold more vertices or (directed) edges
   * than this (default 2^32 - 1 vertices, 2^34 edges; larger vertex limits
   * count as 2^32 - 1). A matrix's rows and columns are each held to
   * max_vertices, its entries to max_edges. Edges count as they are
   * stored: after symmetric expansion, without dropped self loops, before
   * merging. Whatever the limits, a file of B bytes gives at most 2^20 +
   * 16 * B vertices (its declared rows, or its largest id + 1; columns
   * cost no memory and are not held to this). The CSR takes 8 bytes per
   * vertex and 4 per edge (a matrix 4 or 8 more per entry for its values),
   * and the loader never allocates for sizes a file merely claims: edges
   * are stored as they arrive, and the row offsets take at most 8 MiB plus
   * 128 bytes per byte of the file. */
  size_t max_vertices, max_edges;
  /** Nonzero: leave out every entry i -> i, also those symmetric expansion
   * and symmetrize make. A vertex named only by dropped loops stays a
   * vertex (it counts for the largest id + 1, and for relabel). Dropped
   * entries do not count against max_edges, but do count as the entries
   * a Matrix Market file declares. Default 0: self loops are kept, as the
   * file has them. */
  int drop_self_loops;
  /** Nonzero: entries that repeat a (row, column) pair become one: a graph
   * keeps one edge, a matrix (prism_csr_matrix_load) the sum of their
   * values added in file order in its value type (as MATLAB's sparse()
   * sums repeats); each row is then sorted by column. Merging comes after
   * symmetric expansion, so a symmetric file that lists both (i, j) and
   * (j, i) gets their sum at both places. Default 0: duplicates are kept,
   * each row in file order. */
  int merge_duplicates;
  /** Nonzero: number the vertex ids that occur in the file (at either end
   * of an entry, dropped self loops included) densely, 0 .. k-1 in
   * ascending id order, so that a SNAP file with ids 7, 1000 and 10^9
   * gives 3 vertices, not 10^9 + 1. max_vertices then limits k, and an
   * edge list's ids may be any integer below 2^64. prism_csr_matrix_load
   * returns the map (prism_csr_matrix.ids: index i is the id ids[i] as
   * the file writes it, so 1-based in Matrix Market and in an edge list
   * with index_base 1); prism_csr_load drops it. A Matrix Market file must
   * then be square (rows and columns share the ids; else
   * PRISM_INVALID_ARGUMENT naming options->relabel). Default 0: an id is
   * its own index and the vertex count is the largest id + 1 (edge lists)
   * or the declared size (Matrix Market). */
  int relabel;
} prism_load_options;

/** Defaults: AUTO, 0-based edge lists, no symmetrising, the limits above,
 * self loops and duplicates kept, no relabelling. */
PRISM_API void prism_load_options_init(prism_load_options *options);

/**
 * Load a graph file into a host CSR (sorted by source; each row in file
 * order, or sorted by column with options->merge_duplicates). Matrix
 * Market: "coordinate" matrices with "pattern", "integer"
 * or "real" values (ignored) and "general" or "symmetric" structure; a
 * square matrix of size rows x rows; entry "i j" is the edge i-1 -> j-1,
 * and in a symmetric file also j-1 -> i-1 (a diagonal entry once).
 * Edge lists (SNAP style): lines of two whitespace-separated vertex ids,
 * then optionally numbers (weights, timestamps: ignored); '#' and '%'
 * start comment lines; the vertex count is the largest id + 1, so a list
 * needs at least one edge. Blank lines, comment lines anywhere and CRLF
 * line ends are fine; a NUL byte never starts a comment. options may be
 * NULL for the defaults; symmetrize, drop_self_loops, merge_duplicates
 * and relabel act in that order, as prism_load_options says.
 * A malformed file (also an empty one, or a data line longer than 64 KiB:
 * so an endless stream with no newline, such as /dev/zero, ends too) gives
 * PRISM_INVALID_ARGUMENT with the line number and what was expected;
 * a Matrix Market kind prism does not read ("array", "complex",
 * "skew-symmetric", "hermitian"), PRISM_UNSUPPORTED; a file that cannot be
 * opened or read, PRISM_INVALID_ARGUMENT naming the path and the system's
 * reason (PRISM_OUT_OF_MEMORY where that reason is memory); more than
 * options->max_* vertices or edges, or more vertices than the file's size
 * allows (see prism_load_options), PRISM_INVALID_ARGUMENT naming the line,
 * the count and the rule; memory running out, PRISM_OUT_OF_MEMORY.
 * Messages are in prism_last_error(). On failure *out is zeroed.
 */
PRISM_API prism_status prism_csr_load(const char *path,
                                      const prism_load_options *options,
                                      prism_csr *out);

/**
 * Write a CSR as a Matrix Market "coordinate pattern" file: "general"
 * for a directed graph, "symmetric" otherwise (each undirected edge once,
 * from the lower triangle). Loading it back gives the same graph: the
 * same arrays for a directed CSR, and for an undirected one whose rows are
 * sorted (as the generators make them). The CSR is checked as
 * prism_csr_validate does; an undirected one whose rows plainly do not
 * list each edge both ways gives PRISM_INVALID_ARGUMENT, and nothing is
 * created. A graph of more than 2^20 vertices with few edges gets comment
 * lines after the banner, so that the file holds the bytes prism_csr_load
 * asks for its vertex count (see prism_load_options) and loads back.
 * A regular file at path (or none) is replaced only once the new one is
 * complete: prism writes a file beside it (named after it, in the
 * directory its symbolic links lead to, so they stay links), syncs it and
 * renames it over; it keeps an existing file's mode (and owner, where the
 * process may set it), or gets 0666 less the umask as fopen would give.
 * Other hard links to the old file keep the old content. A writable file
 * in a directory that refuses new files, and anything not a regular file
 * (a device, a FIFO), is written in place. A file that cannot be written
 * gives PRISM_INVALID_ARGUMENT naming the path and the system's reason
 * (PRISM_OUT_OF_MEMORY where that is memory); prism then removes only the
 * file it made, so a file replaced by rename is as it was.
 */
PRISM_API prism_status prism_csr_save_matrix_market(const prism_csr *csr,
                                                    const char *path);

/**
 * Generators (undirected; rows sorted by neighbour).
 * - RMAT / Kronecker as Graph500 specifies it: 2^scale vertices (scale at
 *   most 31), edge_factor * 2^scale generated edges with A, B, C = 0.57,
 *   0.19, 0.19, vertex labels scrambled (Graph500's bijection), from seed:
 *   integer arithmetic on a counter-based stream, so the same seed gives
 *   the same graph on every platform and for any number of threads. Self
 *   loops and duplicates are kept, as Graph500 keeps them: num_edges is
 *   twice the generated edges less the self loops. Runs on the host's
 *   cores and needs about 24 bytes per generated edge while it runs.
 * - grid: width x height 4-neighbour grid, vertex (x, y) = y * width + x.
 * - path: n vertices, i -- i + 1.
 * - star: n vertices, 0 -- i for every i > 0.
 * Sizes of 0 and graphs of 2^32 or more vertices give
 * PRISM_INVALID_ARGUMENT, a NULL out PRISM_NULL_POINTER, memory running out
 * PRISM_OUT_OF_MEMORY; on failure *out is zeroed.
 */
PRISM_API prism_status prism_csr_rmat(unsigned scale, unsigned edge_factor,
                                      uint64_t seed, prism_csr *out);
PRISM_API prism_status prism_csr_grid(size_t width, size_t height,
                                      prism_csr *out);
PRISM_API prism_status prism_csr_path(size_t n, prism_csr *out);
PRISM_API prism_status prism_csr_star(size_t n, prism_csr *out);

/* ------------------------------------------------------------------------ */
/* Sparse matrices: host CSR with values, loader                             */
/* ------------------------------------------------------------------------ */

/**
 * A sparse matrix in CSR form in host memory: the structure of a prism_csr
 * (csr.num_vertices rows; row i's entries are col_indices[row_offsets[i] ..
 * row_offsets[i + 1]), any order, repeats allowed) with num_cols columns
 * (every column index < num_cols; rows and columns may differ, and either
 * may be 0) and one value per entry. csr.directed is ignored (the loader
 * sets it as prism_csr_load would: 0 where every entry has its mirror).
 * Fill one yourself to wrap your own arrays, or get one from
 * prism_csr_matrix_load (then release it with prism_csr_matrix_free).
 */
typedef struct prism_csr_matrix {
  prism_csr csr;
  size_t num_cols;       /* < 2^32 (column indices are 32-bit) */
  prism_type value_type; /* PRISM_F32 or PRISM_F64 */
  void *values;          /* csr.num_edges values of value_type */
  /** A relabelled load (prism_load_options.relabel): the file's id of each
   * row (and column) index as the file writes it, csr.num_vertices
   * entries in ascending order (never NULL, even for none). Otherwise
   * NULL. Not looked at by prism_csr_matrix_validate. */
  uint64_t *ids;
} prism_csr_matrix;

/** Release the arrays of a matrix made by prism (csr's arrays, values,
 * ids) and zero it. Accepts NULL and an already-freed matrix. */
PRISM_API void prism_csr_matrix_free(prism_csr_matrix *matrix);

/**
 * Check a matrix as prism_matrix_create does: the structure as
 * prism_csr_validate checks it (rows < 2^32), but column indices against
 * num_cols (< 2^32) instead of the row count, value_type PRISM_F32 or
 * PRISM_F64 (else PRISM_INVALID_ARGUMENT naming matrix->value_type), and
 * values not NULL when there are entries. PRISM_INVALID_ARGUMENT names
 * the first bad position (e.g. "matrix->csr.col_indices[12] = 9 (row 3):
 * not below num_cols = 9"); PRISM_NULL_POINTER a NULL matrix,
 * row_offsets, or col_indices or values with entries. 0 rows, 0 columns
 * and 0 entries are all valid. Values are not looked at: NaN and
 * infinities are values like any other. The message is in
 * prism_last_error().
 */
PRISM_API prism_status
prism_csr_matrix_validate(const prism_csr_matrix *matrix);

/**
 * Load a sparse matrix: prism_csr_load's formats, checks and limits, and
 * the values too, converted to value_type (PRISM_F32 or PRISM_F64).
 * Matrix Market: "coordinate" with "real", "integer" or "pattern" values
 * (pattern gives 1.0) and "general" or "symmetric" structure (entry i j v
 * also gives j i v, a diagonal entry once); rows x cols as declared, any
 * shape (num_cols = the declared columns; "symmetric", symmetrize and
 * relabel need a square one). Edge lists: the third field of a line is
 * its value, 1.0 where a line has two fields (further fields are numbers,
 * ignored); num_cols = the vertex count. Values parse strictly, by
 * prism's own scanner, whatever the C locale: "integer" files take an
 * optional sign and decimal digits, "real" ones and edge lists a decimal
 * number with optional fraction and exponent, or inf, infinity or nan
 * (any case, with a sign); anything else (hexadecimal, trailing bytes, a
 * missing value, or a finite number too large for value_type, which
 * would round to infinity) gives PRISM_INVALID_ARGUMENT naming the line
 * and the token. Each value is rounded once, from its decimal digits to
 * the nearest value of value_type (not through a double for f32), so
 * integers above 2^24 (f32) or 2^53 (f64) round to the nearest value and
 * underflow gives a subnormal or a signed 0. options works as for
 * prism_csr_load (symmetrize adds j i v for each i j v; merge_duplicates
 * sums), with the map of a relabelled load in out->ids. Memory: the CSR,
 * 4 or 8 bytes per entry for the values, nothing per declared column. A
 * NULL out or path gives PRISM_NULL_POINTER, any other value_type
 * PRISM_INVALID_ARGUMENT naming value_type; messages name
 * prism_csr_matrix_load. On failure *out is zeroed.
 */
PRISM_API prism_status prism_csr_matrix_load(const char *path,
                                             const prism_load_options *options,
                                             prism_type value_type,
                                             prism_csr_matrix *out);

/* ------------------------------------------------------------------------ */
/* Sparse matrices on the device and SpMV                                    */
/* ------------------------------------------------------------------------ */

typedef struct prism_matrix_s prism_matrix;

/**
 * Copy a host matrix to the device of ctx. It is validated first (see
 * prism_csr_matrix_validate) and may be freed afterwards. The value type
 * must be one the device supports (PRISM_UNSUPPORTED for f64 without
 * double support). Empty matrices (0 rows, 0 columns or no entries) are
 * allowed. prism_spmv's work partition is planned here, on the host, once:
 * device memory is 4 (rows + 1) + (4 + value size) entries bytes for the
 * matrix and about 1% more for the plan. Waits for the copies.
 */
PRISM_API prism_status prism_matrix_create(prism_context *ctx,
                                           const prism_csr_matrix *matrix,
                                           prism_matrix **out);

/** Release a matrix (after the context's queued work). Accepts NULL and a
 * matrix already destroyed. Matrices left when their context is destroyed
 * are released with it. */
PRISM_API void prism_matrix_destroy(prism_matrix *matrix);

/** The matrix's rows, columns and entries (0 for NULL or a destroyed
 * matrix), and its value type (PRISM_F32 for those). */
PRISM_API size_t prism_matrix_rows(const prism_matrix *matrix);
PRISM_API size_t prism_matrix_cols(const prism_matrix *matrix);
PRISM_API size_t prism_matrix_entries(const prism_matrix *matrix);
PRISM_API prism_type prism_matrix_type(const prism_matrix *matrix);

/**
 * y = alpha * A * x + beta * y, queued. x holds cols elements and y rows
 * elements of the matrix's value type (views allowed); y must be memory
 * apart from x (PRISM_INVALID_ARGUMENT otherwise). alpha and beta are
 * rounded to the value type. beta = 0 never reads y, so y may hold
 * anything (NaN included) before the call; otherwise y is read once per
 * row. NaN and infinities in A or x propagate as IEEE arithmetic says
 * (a 0 entry times an infinite x gives NaN).
 *
 * Each row's sum is (alpha * s + beta * y) where s adds the products
 * a_ij * x_j of the row from left to right in pieces the partition chooses,
 * starting from +0.0, and adds the pieces in a fixed order. The partition
 * depends only on the matrix's shape and the backend's tuning for the
 * device, so a backend gives the same bits on every run on the same
 * device. The two backends (and different devices) split rows at
 * different places, so they agree within rounding, not bit for bit: the
 * tests accept |y - y_ref| <= (k + 2) * eps * (|alpha| * sum_j |a_ij x_j|
 * + |beta y_i|) for a row of k entries, against a reference in higher
 * precision (eps of the value type).
 *
 * The work is divided evenly over rows and entries together (merge-path),
 * so a row of 10^7 entries among rows of 2 costs its share, not a
 * thread's time; rows split between tiles are finished by a second, small
 * launch. No allocation and no host synchronisation on the call.
 */
PRISM_API prism_status prism_spmv(prism_context *ctx, double alpha,
                                  const prism_matrix *a, const prism_buffer *x,
                                  double beta, prism_buffer *y);

/* ------------------------------------------------------------------------ */
/* Graphs on the device and BFS                                              */
/* ------------------------------------------------------------------------ */

typedef struct prism_graph_s prism_graph;

/**
 * Copy a CSR to the device of ctx. The CSR is validated first (see
 * prism_csr_validate; the error names the first bad position) and may be
 * freed afterwards. num_vertices must be at least 1: a graph of no
 * vertices is refused with PRISM_INVALID_ARGUMENT. A directed graph also
 * gets its transpose (in-edges, built on the host), which bottom-up BFS
 * steps need. Device memory: 8 (num_vertices + 1) + 4 num_edges bytes,
 * twice for a directed graph. Waits for the copies.
 */
PRISM_API prism_status prism_graph_create(prism_context *ctx,
                                          const prism_csr *csr,
                                          prism_graph **out);

/** Release a graph (after the context's queued work). Accepts NULL and a
 * graph already destroyed. A graph left when its context is destroyed is
 * released with it. */
PRISM_API void prism_graph_destroy(prism_graph *graph);

/** The graph's vertex and edge counts (0 for NULL or a destroyed graph). */
PRISM_API size_t prism_graph_vertices(const prism_graph *graph);
PRISM_API size_t prism_graph_edges(const prism_graph *graph);

/** BFS options; fill with prism_bfs_options_init. */
typedef struct prism_bfs_options {
  /** Direction-optimising switch (Beamer et al. 2012). After a top-down
   * step, go bottom-up when m_f * alpha > m_u (m_f: the out-edges of the
   * new frontier; m_u: the in-edges of the unvisited vertices); after a
   * bottom-up step, go back top-down when n_f * beta < n (n_f: vertices
   * in the new frontier) and the frontier shrank. Defaults 15 and 18.
   * alpha = 0 keeps every step top-down; alpha = beta = INFINITY goes
   * bottom-up from the first step and stays there. Both must be numbers
   * >= 0 (infinity included); NaN or a negative value is refused with
   * PRISM_INVALID_ARGUMENT. Only the speed depends on them, never the
   * levels. */
  double alpha, beta;
} prism_bfs_options;

/** Fill options with the defaults (alpha 15, beta 18). Accepts NULL. */
PRISM_API void prism_bfs_options_init(prism_bfs_options *options);

/** What a BFS found. */
typedef struct prism_bfs_result {
  size_t levels;  /* levels reached: 1 + the largest level */
  size_t reached; /* vertices reached, the source included */
  /* Edges of the reached component: the sum of the reached vertices'
   * out-degrees (for an undirected graph, twice the undirected edges,
   * self loops once). What TEPS counts are made from. */
  size_t reached_edges;
} prism_bfs_result;

/**
 * Breadth-first search from source (< num_vertices) over out-edges:
 * levels (num_vertices int32) gets each vertex's distance from source in
 * edges, -1 where unreached. parents, when not NULL (num_vertices int32,
 * another buffer than levels), gets a BFS tree: parents[source] = source,
 * parents[v] = a vertex u with level[u] = level[v] - 1 and an edge u -> v,
 * -1 where unreached; which such u is not specified. Nothing past
 * num_vertices entries of either buffer is written. options may be NULL
 * for the defaults. Waits for the device and fills *result when result is
 * not NULL (zeroed on failure).
 *
 * The level loop runs on the device: no host round trip per level. The
 * search takes scratch device memory from the context's pool: about 8
 * bytes per vertex plus at most 5/8 byte per edge.
 */
PRISM_API prism_status prism_bfs(prism_context *ctx, const prism_graph *graph,
                                 size_t source, prism_buffer *levels,
                                 prism_buffer *parents,
                                 const prism_bfs_options *options,
                                 prism_bfs_result *result);

/* ------------------------------------------------------------------------ */
/* Dense patterns: transpose and stencils                                    */
/* ------------------------------------------------------------------------ */

/**
 * Transpose a batch of row-major matrices: for each b < batch,
 * out[b][c][r] = in[b][r][c] for r < rows, c < cols, elements of
 * element_size bytes (1, 2, 4 or 8: any payload, moved bit for bit). Matrix
 * b starts at element b * rows * cols in both buffers, so in holds
 * batch * rows * cols elements and so does out (views allowed). Any shape:
 * 1 x N, N x 1, tall and skinny (3 x 10^8), wide, sizes that are not a
 * multiple of any tile. rows, cols or batch 0 is nothing to do.
 *
 * Out of place: in and out must be memory apart (PRISM_INVALID_ARGUMENT
 * otherwise, in place included). rows * cols * batch * element_size beyond
 * SIZE_MAX is PRISM_INVALID_ARGUMENT. Queued; no allocation, no host
 * synchronisation.
 *
 * Each element is read once and written once, through a tile in on-chip
 * memory shaped to the matrix (square tiles for square-ish matrices, a
 * full row of the short side for skinny ones), so reads and writes are
 * both coalesced.
 */
PRISM_API prism_status prism_transpose(prism_context *ctx, size_t element_size,
                                       const prism_buffer *in,
                                       prism_buffer *out, size_t rows,
                                       size_t cols, size_t batch);

/** The largest stencil radius (a box of 2 r + 1 points along each axis). */
#define PRISM_STENCIL_MAX_RADIUS 8

/** What a stencil reads outside the grid, per axis. */
typedef enum prism_border {
  PRISM_BORDER_ZERO = 0,    /* 0.0 */
  PRISM_BORDER_CLAMP = 1,   /* the nearest point of the grid */
  PRISM_BORDER_PERIODIC = 2 /* the grid repeated (index modulo extent) */
} prism_border;

/** "zero", "clamp", "periodic", or "?". */
PRISM_API const char *prism_border_name(prism_border border);

/** A stencil's shape; fill with prism_stencil_desc_init. */
typedef struct prism_stencil_desc {
  prism_type type;     /* PRISM_F32 or PRISM_F64 (default F32) */
  unsigned dims;       /* 1, 2 or 3 (default 2) */
  size_t nx, ny, nz;   /* extents; x varies fastest in memory: point
                        * (x, y, z) is element x + nx * (y + ny * z). Axes
                        * past dims must be 1 (the default). */
  unsigned radius;     /* 0 .. PRISM_STENCIL_MAX_RADIUS (default 1) */
  prism_border border; /* default PRISM_BORDER_ZERO */
} prism_stencil_desc;

/** Fill desc with the defaults (f32, 2-D, 1 x 1 x 1, radius 1, zero
 * border). Accepts NULL. */
PRISM_API void prism_stencil_desc_init(prism_stencil_desc *desc);

typedef struct prism_stencil_s prism_stencil;

/**
 * Make a stencil for the grid desc describes: each output point is a
 * weighted sum of the input over the box of radius r around it,
 *
 *   out(x, y, z) = sum over dz, dy, dx in [-r, r] (the axes past dims: 0)
 *                  of w(dx, dy, dz) * in(x + dx, y + dy, z + dz),
 *
 * in(...) outside the grid as desc->border says. weights (host memory, of
 * desc->type) is the dense box of (2r + 1)^dims values, dx fastest:
 * w(dx, dy, dz) = weights[(dx + r) + (2r + 1) (dy + r) + (2r + 1)^2 (dz + r)],
 * the terms of the axes past dims left out.
 * It is copied; the caller may free it on return. This is a correlation,
 * as cuDNN's and most image libraries' "convolution" is: for a true
 * convolution, pass the kernel reversed. A 2-D stencil with a K x K filter
 * (K = 2r + 1 odd) is conv2d; NaN and infinite weights are allowed.
 *
 * Summation, the same on every backend and device: the terms with a
 * weight other than +-0.0 only (a zero weight takes no part: a NaN or
 * infinity it would multiply does not reach the output through it), in
 * the order dz, then dy, then dx, each from -r to r, accumulated with
 * fused multiply-adds from +0.0. So both backends give the same bits as
 * each other and as a serial loop written the same way (a NaN result is a
 * NaN, its sign and payload as the device makes them).
 *
 * Weights that are zero off the axes (star-shaped: the 5- and 7-point
 * Laplacians) take a faster path, found here. The grid may be smaller
 * than the radius on any axis, with any border mode.
 *
 * Bad input: a NULL desc, weights or out is PRISM_NULL_POINTER; a type
 * other than F32/F64, dims outside 1..3, a zero extent, an extent past
 * dims other than 1, nx * ny * nz * size beyond SIZE_MAX, a radius beyond
 * PRISM_STENCIL_MAX_RADIUS or an unknown border is PRISM_INVALID_ARGUMENT
 * naming the field; f64 on a device without doubles PRISM_UNSUPPORTED.
 * Waits for the copy of the weights.
 */
PRISM_API prism_status prism_stencil_create(prism_context *ctx,
                                            const prism_stencil_desc *desc,
                                            const void *weights,
                                            prism_stencil **out);

/** Release a stencil (after the context's queued work). Accepts NULL and
 * a stencil already destroyed; those left when their context is destroyed
 * are released with it. */
PRISM_API void prism_stencil_destroy(prism_stencil *stencil);

/** The stencil's description (zeroed for NULL or a destroyed stencil), and
 * whether it took the star-shaped path (0 for those). */
PRISM_API prism_stencil_desc prism_stencil_describe(const prism_stencil *s);
PRISM_API int prism_stencil_is_star(const prism_stencil *stencil);

/**
 * Apply the stencil iterations times: out = S(S(...S(in))). in and out
 * hold nx * ny * nz elements of the stencil's type (views allowed) and
 * must be memory apart (PRISM_INVALID_ARGUMENT otherwise, in place
 * included); in is never written. iterations 0 copies in to out; more than
 * one ping-pongs between out and a grid of the context's pooled scratch
 * memory (allocated the first time, reused after). Queued; no host
 * synchronisation.
 */
PRISM_API prism_status prism_stencil_apply(prism_context *ctx,
                                           const prism_stencil *stencil,
                                           const prism_buffer *in,
                                           prism_buffer *out,
                                           size_t iterations);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_H */
