/* SPDX-License-Identifier: MIT */
/*
 * State and helpers shared by the OpenCL backend's files.
 *
 * A context's backend state (prism__impl(ctx)) is one prism__cl: the
 * device, one in-order queue, the device's tuning policy, and the programs
 * built so far (kernel objects included), so that a primitive's hot path is
 * argument setting and enqueues only.
 */
#ifndef PRISM_OPENCL_INTERNAL_H
#define PRISM_OPENCL_INTERNAL_H

#if defined(__APPLE__)
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif

#include "backend.h"
#include "error.h"
#include "opencl_sources.h"
#include "tuning.h"

/* Fills and copies go to the driver in pieces of at most this many bytes (a
 * multiple of every pattern size), and through a sub-buffer where a piece
 * ends past PRISM__CL_SMALL_OFFSETS bytes: NVIDIA's fill faults at element
 * offsets of 2^31 and beyond (opencl_backend.c). */
#define PRISM__CL_TRANSFER_PIECE ((size_t)1 << 30)
#define PRISM__CL_SMALL_OFFSETS ((size_t)1 << 31)

#include <stddef.h>

/* Kernels one program may hold (the largest .cl file has four). */
#define PRISM_CL_MAX_KERNELS 8

typedef struct prism__cl_program {
  struct prism__cl_program *next;
  const prism__cl_source *source; /* the kernel file, after its prelude */
  char *options;                  /* build options, the rest of the key */
  cl_program program;
  int from_cache; /* program is the disk cache's binary */
  const char *kernel_names[PRISM_CL_MAX_KERNELS];
  cl_kernel kernels[PRISM_CL_MAX_KERNELS];
  /* A cached program that a build from source replaced, and the kernels
   * made from it: kept until fini, since a caller may still hold them. */
  cl_program replaced;
  cl_kernel replaced_kernels[PRISM_CL_MAX_KERNELS];
} prism__cl_program;

/* What prism_opencl_context_create hands context_init
 * (prism__device_request.native): the caller's objects; queue may be NULL
 * (prism makes its own). */
typedef struct prism__cl_native_request {
  cl_context context;
  cl_device_id device;
  cl_command_queue queue;
} prism__cl_native_request;

typedef struct prism__cl {
  cl_platform_id platform;
  cl_device_id device;
  int device_retained; /* the caller's device: released with the context */
  cl_context context;
  cl_command_queue queue;
  prism__cl_device_facts facts;
  prism__cl_policy policy;
  cl_ulong max_alloc; /* CL_DEVICE_MAX_MEM_ALLOC_SIZE, bytes (0: unknown) */
  char platform_name[256];
  char device_name[256];
  char driver_version[128];
  prism__cl_program *programs; /* built on first use, kept until fini */
  /* bfs_persistent: the groups that ran at once in the last search,
   * without and with parents (0: none yet); the next launches as many */
  unsigned bfs_groups[2];
} prism__cl;

static inline prism__cl *prism__cl_of(const prism_context *ctx) {
  return (prism__cl *)prism__impl(ctx);
}

/* ---- opencl_errors.c ---------------------------------------------------- */

/** "CL_OUT_OF_RESOURCES" for -5; "unknown OpenCL error" otherwise. */
const char *prism__cl_error_name(cl_int err);

/**
 * Record a failed OpenCL call on ctx: the message is the formatted what,
 * then the error's name and number, and the number as the native error.
 * Host or device memory or resources running out (CL_OUT_OF_HOST_MEMORY,
 * CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES) become
 * PRISM_OUT_OF_MEMORY, everything else PRISM_BACKEND_ERROR.
 */
prism_status prism__cl_fail(prism_context *ctx, cl_int err, const char *fmt,
                            ...) PRISM__PRINTF(3, 4);

/* ---- opencl_platform.c -------------------------------------------------- */

prism_status prism__cl_probe(int *count, char *reason, size_t reason_size);

/** Choose platform and device for request, fill cl's device fields. */
prism_status prism__cl_select_device(prism_context *ctx,
                                     const prism__device_request *request,
                                     prism__cl *cl, prism__device_info *info);

/** cl->device chosen (the caller's): fill cl's other device fields (its
 * platform, names, facts and policy) and info, as for a device that
 * prism__cl_select_device chose. */
prism_status prism__cl_describe_device(prism_context *ctx, prism__cl *cl,
                                       prism__device_info *info);

/* ---- opencl_backend.c --------------------------------------------------- */

/** A barrier on ctx's queue that waits for event, which must belong to
 * ctx's cl_context (OpenCL waits only for events of the queue's own
 * context): PRISM_CONTEXT_MISMATCH otherwise. Messages name fn. */
prism_status prism__cl_queue_wait(prism_context *ctx, cl_event event,
                                  const char *fn);

/* ---- opencl_program.c --------------------------------------------------- */

/** Size in bytes of argument slots, and a slot for a variable. */
typedef struct prism__cl_arg {
  size_t size;
  const void *value;
  /* 1: the byte offset of a PRISM_BUF (a cl_ulong): prism__cl_launch runs
   * the kernel's PRISM_VIEWS build when one is not 0. */
  int view_offset;
} prism__cl_arg;
#define PRISM__CL_ARG(x)                                                       \
  { sizeof(x), &(x), 0 }

/**
 * The kernel named name of kernels_cl/file built with options (common.cl
 * prepended); the program is built on first use and cached in the context
 * with its kernels. Build failures give PRISM_BUILD_FAILED and the log.
 */
prism_status prism__cl_kernel(prism_context *ctx, const char *file,
                              const char *options, const char *name,
                              cl_kernel *out);

/** Set the kernel's arguments and enqueue it over global work-items in
 * work-groups of local (global a multiple of local). Where a PRISM_BUF's
 * offset slot is not 0 (a view, or a scratch region passed as a buffer),
 * the launch takes the same kernel from the program built with the same
 * options and -DPRISM_VIEWS (built on first use): without it, PRISM_BUF_AT
 * ignores the offsets, so that whole buffers run the code they ran before
 * views existed. */
prism_status prism__cl_launch(prism_context *ctx, cl_kernel kernel,
                              const char *name, const prism__cl_arg *args,
                              unsigned nargs, size_t global, size_t local);

/**
 * The two slots of a caller's buffer argument, a kernel's PRISM_BUF
 * (common.cl): the cl_mem and the byte offset of the prism__mem m (any
 * expression without side effects), inside a prism__cl_arg initializer
 * list, so that PRISM__CL_NARGS counts both. The slots point at compound
 * literals, which live until the enclosing block ends.
 */
/* clang-format off */
#define PRISM__CL_MEM(m)                                                       \
  {sizeof(cl_mem), &(const cl_mem){(cl_mem)(m).native}, 0},                      \
  {sizeof(cl_ulong), &(const cl_ulong){(cl_ulong)(m).offset}, 1}
/* The same for a PRISM_BUF_AT_ANY parameter (a caller's buffer or a
 * scratch region), whose offset the kernel applies in every build. */
#define PRISM__CL_MEM_ANY(m)                                                   \
  {sizeof(cl_mem), &(const cl_mem){(cl_mem)(m).native}, 0},                      \
  {sizeof(cl_ulong), &(const cl_ulong){(cl_ulong)(m).offset}, 0}
/* clang-format on */

/** A prism__mem of the scratch (or any cl_mem) at a byte offset. */
static inline prism__mem prism__cl_mem_at(cl_mem mem, size_t offset) {
  prism__mem m = {(void *)mem, offset};
  return m;
}

/**
 * Whether every view in m[0..count) may be loaded through vectors of
 * vec_bytes (common.cl's LOAD_VEC and STORE_VEC cast pointers): buffers
 * start at CL_DEVICE_MEM_BASE_ADDR_ALIGN (clCreateBuffer, and a caller's
 * sub-buffer by its origin rule), so each offset decides. Where one does
 * not fit, the primitive builds with PRISM_VEC 1 for the call.
 */
static inline int prism__cl_vec_fits(const prism__mem *m, size_t count,
                                     size_t vec_bytes) {
  for (size_t i = 0; i < count; i++)
    if (vec_bytes > 1 && m[i].offset % vec_bytes != 0)
      return 0;
  return 1;
}

/** The slots of args, an array of prism__cl_arg: the count a kernel's
 * argument list has, never written by hand. A pointer fails to compile
 * (its size is no multiple of a slot's). */
#define PRISM__CL_NARGS(args)                                                  \
  ((unsigned)(sizeof(args) / sizeof((args)[0]) +                               \
              0 * sizeof(char[sizeof(args) % sizeof((args)[0]) ? -1 : 1])))

/** prism__cl_launch with every slot of the array args. */
#define PRISM__CL_LAUNCH(ctx, kernel, name, args, global, local)               \
  prism__cl_launch(ctx, kernel, name, args, PRISM__CL_NARGS(args), global,     \
                   local)

/* Sources a program may be built from ahead of its kernel file. */
#define PRISM_CL_MAX_PRELUDE 6

/** The embedded sources built ahead of source, in order (common.cl first;
 * an entry is NULL if not embedded); returns their count. */
size_t prism__cl_prelude(const prism__cl_source *source,
                         const prism__cl_source **out);

/** Build options: -D options naming the element type and operator as
 * kernels see them (signed SUMs as unsigned: see common.cl), then fmt. */
void prism__cl_options(char *buf, size_t size, prism_type type, prism_op op,
                       const char *fmt, ...) PRISM__PRINTF(5, 6);

/** Release every program and kernel of cl. */
void prism__cl_programs_release(prism__cl *cl);

/* ---- opencl_disk_cache.c ------------------------------------------------ */

/** A program built from the binary cached for this source and options,
 * or NULL (no cache, no entry, or one that cannot be used: it stays until
 * a store replaces it). */
cl_program prism__cl_disk_cache_load(prism__cl *cl,
                                     const prism__cl_source *source,
                                     const char *options);

/** Store the binary and kernel names of a program built from source over
 * the entry (best effort: failures are silent). */
void prism__cl_disk_cache_store(prism__cl *cl, const prism__cl_source *source,
                                const char *options, cl_program program);

/* ---- reduce.c, scan.c, sort.c, gather_scatter.c, histogram.c, select.c,
 * segmented.c */

prism_status prism__cl_reduce(prism_context *ctx,
                              const prism__reduce_args *args);
prism_status prism__cl_scan(prism_context *ctx, const prism__scan_args *args);
prism_status prism__cl_sort(prism_context *ctx, const prism__sort_args *args);
/** The scratch bytes prism__cl_sort takes for args (its one
 * prism__scratch call): a caller that keeps regions of its own in the
 * scratch across a sort reserves this much at the base and its regions
 * above, so the sort's call neither grows the pool (which loses its
 * contents) nor writes over them. */
size_t prism__cl_sort_scratch_bytes(prism_context *ctx,
                                    const prism__sort_args *args);
/** The sort kernels' program options (sort_keys.cl's): the key's bits as
 * T, its image macro, value_bytes, radix_bits, the shape (wg, items). */
void prism__cl_sort_options(char *buf, size_t size, const prism__sort_args *a,
                            size_t value_bytes, unsigned radix_bits, size_t wg,
                            unsigned items);
prism_status prism__cl_gather_scatter(prism_context *ctx,
                                      const prism__gather_scatter_args *args);
prism_status prism__cl_histogram(prism_context *ctx,
                                 const prism__histogram_args *args);
prism_status prism__cl_select(prism_context *ctx,
                              const prism__select_args *args);
prism_status prism__cl_segmented(prism_context *ctx,
                                 const prism__segmented_args *args);
prism_status prism__cl_bfs(prism_context *ctx, const prism__bfs_args *args);

/* ---- spmv.c ------------------------------------------------------------- */

/** Merge items per SpMV tile for a value type on ctx's device (the
 * policy's), which core plans matrices with. */
size_t prism__cl_spmv_tile_items(prism_context *ctx, prism_type type);
prism_status prism__cl_spmv(prism_context *ctx, const prism__spmv_args *args);

/* ---- transpose.c, stencil.c --------------------------------------------- */

prism_status prism__cl_transpose(prism_context *ctx,
                                 const prism__transpose_args *args);
prism_status prism__cl_stencil(prism_context *ctx,
                               const prism__stencil_args *args);

/* ---- merge.c ------------------------------------------------------------ */

prism_status prism__cl_merge(prism_context *ctx, const prism__merge_args *args);

/* ---- segmented_sort.c --------------------------------------------------- */

prism_status prism__cl_segmented_sort(prism_context *ctx,
                                      const prism__segmented_sort_args *args);

/* ---- topk.c ------------------------------------------------------------- */

prism_status prism__cl_topk(prism_context *ctx, const prism__topk_args *args);

/* Scratch regions start on this many bytes, whatever precedes them. */
#define PRISM_CL_SCRATCH_ALIGN 256

static inline size_t prism__cl_align(size_t bytes) {
  return (bytes + PRISM_CL_SCRATCH_ALIGN - 1) / PRISM_CL_SCRATCH_ALIGN *
         PRISM_CL_SCRATCH_ALIGN;
}

#endif /* PRISM_OPENCL_INTERNAL_H */
