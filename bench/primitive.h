/* SPDX-License-Identifier: MIT */
/*
 * The primitive table of prism-bench. Each primitive is one struct of
 * functions (set up, run, read back, check, its serial C version, its CUB
 * counterpart, the bytes it must move); main's loop knows nothing else about
 * it. Adding a primitive is a new prim_<name>.c and one line in primitives.c.
 */
#ifndef PRISM_BENCH_PRIMITIVE_H
#define PRISM_BENCH_PRIMITIVE_H

#include "cub_ref.h"
#include "prism.h"

#include <stddef.h>
#include <stdint.h>

struct bench_run;     /* measure.h */
struct bench_device;  /* measure.h */
struct bench_options; /* options.h */

/* How histogram samples spread over the bins. */
typedef enum bench_dist {
  BENCH_DIST_UNIFORM = 0, /* every bin equally likely */
  BENCH_DIST_ONE_BIN = 1  /* every sample in the middle bin */
} bench_dist;

/* One measurement's parameters; a primitive reads the ones it uses. */
typedef struct bench_case {
  prism_type type;
  prism_op op;
  prism_scan_kind kind;
  prism_order order;
  size_t value_size; /* sort: 0 keys only, 4 or 8 bytes of value per key */
  /* sort: bits [begin_bit, end_bit) of the key image; end_bit 0 in what
   * the loop passes means every bit, resolved before the case runs. */
  unsigned begin_bit, end_bit;
  size_t bins;     /* histograms */
  bench_dist dist; /* histograms */
  /* select, select-flagged, partition: the fraction of elements kept;
   * unique: the fraction of elements that start a run. */
  double keep;
  /* Segmented: the mean segment length, and how lengths spread (input.h's
   * INPUT_SEGMENTS_*): even; skew, one segment holds half the data and the
   * others have INPUT_SEGMENT_MEAN; or Pareto, a power law. */
  size_t segment;
  int skew;
  size_t n;
  const void *input; /* n elements of type on the host, seeded random */
  /* Filled by the primitive's fill along with the input. */
  void *aux;       /* aux_bytes of host data: flags, offsets or edges */
  size_t kept;     /* compaction: the elements one call keeps */
  size_t segments; /* segmented: the number of segments */
} bench_case;

/* Which bench_case parameters a primitive uses (the loop varies only
 * those, and the report prints only those). */
enum {
  BENCH_USES_OP = 1u << 0,
  BENCH_USES_KIND = 1u << 1,
  BENCH_USES_ORDER = 1u << 2,
  BENCH_USES_VALUES = 1u << 3,
  BENCH_USES_BITS = 1u << 4,
  BENCH_USES_BINS = 1u << 5,
  BENCH_USES_DIST = 1u << 6,
  BENCH_USES_KEEP = 1u << 7,
  BENCH_USES_SEGMENT = 1u << 8
};

typedef struct bench_primitive {
  const char *name;
  unsigned uses;    /* BENCH_USES_* */
  int by_name_only; /* not in the run of `prism-bench` with no names */
  /* Why the case cannot run (e.g. a type the primitive does not take), or
   * NULL. Optional. */
  const char *(*skip)(const bench_case *c);
  /* Bytes of host data the case needs besides its input (c->aux).
   * Optional: none. */
  size_t (*aux_bytes)(const bench_case *c);
  /* The case's input, its aux data, and what follows from them (kept,
   * segments); NULL: input_fill_random. Returns 0, or -1 when the host is
   * out of memory. */
  int (*fill)(bench_case *c, void *input, uint64_t seed);
  /* Bytes a result takes on the host, in the layout prism, serial C and
   * CUB share: reduce one element; scan n; sort n keys, then n values for
   * pairs; histograms bins counters (u32, u64 above UINT32_MAX samples);
   * compaction the number kept as a uint64_t, then n elements (select and
   * unique: the first `count` are meaningful; partition: all n); segmented
   * reduce one element per segment, segmented scan n; segmented sort as
   * sort. Asked after fill. */
  size_t (*result_bytes)(const bench_case *c);
  /* The least traffic one call needs: the roofline numerator. */
  double (*bytes_moved)(const bench_case *c);
  /* Device buffers for the case, input uploaded. On failure nothing is left
   * allocated and the status says why (PRISM_OUT_OF_MEMORY: a skip). */
  prism_status (*setup)(prism_context *ctx, const bench_case *c, void **state);
  /* One call, made as a user would make it. */
  prism_status (*run)(void *state);
  /* The last run's result, result_bytes of it, into host memory. */
  prism_status (*read_result)(void *state, void *result);
  void (*teardown)(void *state);
  /* 1 if result is right for the case, else 0 with a message. */
  int (*check)(const bench_case *c, const void *result, char *msg,
               size_t msg_size);
  /* The serial C version, writing result; timed on CPU devices. */
  void (*serial)(const bench_case *c, void *result);
  /* Optional, for a serial version that works in place (sort: qsort):
   * serial then works on serial_scratch_bytes of host memory instead of
   * result, serial_load refills that from the input before every call
   * without being timed, and serial_store turns it into the result to
   * check once the timing is done. */
  size_t (*serial_scratch_bytes)(const bench_case *c);
  void (*serial_load)(const bench_case *c, void *scratch);
  void (*serial_store)(const bench_case *c, const void *scratch, void *result);
  /* The CUB algorithm timed beside it on NVIDIA devices, and (optional)
   * what it needs beyond the fields every request carries. */
  cub_ref_algorithm cub;
  void (*cub_request)(const bench_case *c, cub_ref_request *request);
  /* A primitive whose input is not an array (bfs: graphs) has a loop of
   * its own over its options: main calls measure_all once, after the array
   * primitives, with every device, and the members above stay NULL. */
  void (*measure_all)(struct bench_run *run, struct bench_device *devices,
                      int device_count, const struct bench_options *opt);
  /* A measure_all primitive whose rows are timed as the array ones are
   * (k calls a sample, --reps samples) and set beside the device's copy
   * row (spmv, transpose, the stencils): main measures the copy row for it
   * too. */
  int copy_row;
  /* Optional: the width of the table's primitive column its labels need,
   * where uses does not tell it (spmv: "spmv " and its matrices' names). */
  int (*label_width)(const struct bench_options *opt);
} bench_primitive;

extern const bench_primitive bench_reduce;
extern const bench_primitive bench_reduce_device;
extern const bench_primitive bench_scan;
extern const bench_primitive bench_sort;
extern const bench_primitive bench_merge;
extern const bench_primitive bench_histogram;
extern const bench_primitive bench_histogram_range;
extern const bench_primitive bench_select;
extern const bench_primitive bench_select_flagged;
extern const bench_primitive bench_partition;
extern const bench_primitive bench_unique;
extern const bench_primitive bench_segmented_reduce;
extern const bench_primitive bench_segmented_scan;
extern const bench_primitive bench_segmented_sort;
extern const bench_primitive bench_gather;    /* prim_gather_scatter.c */
extern const bench_primitive bench_scatter;   /* prim_gather_scatter.c */
extern const bench_primitive bench_bfs;       /* bfs.c: measure_all */
extern const bench_primitive bench_spmv;      /* spmv.c: measure_all */
extern const bench_primitive bench_transpose; /* dense_transpose.c: ditto */
extern const bench_primitive bench_stencil;   /* dense_stencil.c: ditto */
extern const bench_primitive bench_conv2d;    /* dense_stencil.c: ditto */
extern const bench_primitive bench_topk;      /* prim_topk.c: ditto */

/* The table, in the order `prism-bench` with no names runs it. */
extern const bench_primitive *const bench_primitives[];
extern const int bench_primitive_count;

/* The primitive called name, or NULL. */
const bench_primitive *bench_primitive_find(const char *name);

/* A buffer holding the case's input (helper for setup functions). */
prism_status bench_upload_input(prism_context *ctx, const bench_case *c,
                                prism_buffer **out);

/* A buffer holding each key's input index, 0 .. n - 1, as value_size-byte
 * integers: the values of the sorts' pairs (helper for setup functions;
 * (prism_status)-1 when the host is out of memory). */
prism_status bench_upload_indices(prism_context *ctx, const bench_case *c,
                                  prism_buffer **out);

/* A buffer holding bytes of host data (helper for setup functions). */
prism_status bench_upload(prism_context *ctx, const void *host, size_t bytes,
                          prism_buffer **out);

/* skip for the primitives that compute with their elements, which take
 * every type but u8. */
const char *bench_skip_u8(const bench_case *c);

#endif /* PRISM_BENCH_PRIMITIVE_H */
