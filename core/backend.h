/* SPDX-License-Identifier: MIT */
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
 * Buffers reach a backend as a prism__mem: their native handle (void *: a
 * device pointer for CUDA, a cl_mem for OpenCL) and the byte offset at which
 * the argument starts in it (a view's offset; 0 for a whole buffer). core
 * has checked that the offset is a multiple of the argument's element size;
 * any wider alignment (vector loads) is the backend's to check. An absent
 * optional buffer has native NULL. Two arguments are in place when they
 * compare equal by prism__mem_same; core refuses partial overlaps.
 *
 * A backend reports failure by returning a status after calling
 * prism__fail / prism__fail_native on the context (core/error.h), so the
 * message names what went wrong.
 */
#ifndef PRISM_CORE_BACKEND_H
#define PRISM_CORE_BACKEND_H

#include "prism.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A buffer argument: native handle and byte offset (see above). */
typedef struct prism__mem {
  void *native;
  size_t offset;
} prism__mem;

static inline int prism__mem_same(prism__mem a, prism__mem b) {
  return a.native == b.native && a.offset == b.offset;
}

/** What the caller asked for: a device index and, for OpenCL, a platform;
 * or the caller's own native objects (prism_cuda_context_create,
 * prism_opencl_context_create), which the backend then uses instead. */
typedef struct prism__device_request {
  int device;           /* >= 0 */
  const char *platform; /* NULL = first platform with a device */
  /* NULL, or the backend's own request struct: prism__cuda_native_request
   * (backend_cuda) or prism__cl_native_request (backend_opencl). */
  const void *native;
} prism__device_request;

/** What a backend fills in at context_init. */
typedef struct prism__device_info {
  char device_name[256];
  char platform_name[256];
  int is_cpu;
  unsigned type_mask; /* bit (1u << prism_type) set when supported */
  char policy[16];    /* the tuning policy taken (prism_context_policy) */
} prism__device_info;

typedef struct prism__reduce_args {
  prism_type type;
  prism_op op;
  prism__mem in;  /* at least n elements */
  size_t n;       /* > 0 */
  void *result;   /* host, one element; NULL when out is set */
  prism__mem out; /* native NULL, or the result goes to its first
                     element instead, queued (no wait) */
} prism__reduce_args;

typedef struct prism__scan_args {
  prism_type type;
  prism_op op;
  prism_scan_kind kind;
  prism__mem in;  /* at least n elements */
  prism__mem out; /* at least n elements; may be in (same) */
  size_t n;       /* > 0 */
} prism__scan_args;

typedef struct prism__sort_args {
  prism_type key_type;
  prism__mem keys_in;    /* n keys */
  prism__mem keys_out;   /* n keys; may be keys_in (same) */
  prism__mem values_in;  /* native NULL for keys only */
  prism__mem values_out; /* native NULL for keys only; may be values_in */
  size_t value_size;     /* 0 (keys only), 4 or 8 */
  size_t n;              /* > 0 */
  int descending;
  unsigned begin_bit, end_bit; /* 0 <= begin < end <= key bits */
} prism__sort_args;

/* Gather (out[i] = in[idx[i]]) or scatter (out[idx[i]] = in[i]). */
typedef struct prism__gather_scatter_args {
  int scatter;           /* 0: gather, 1: scatter */
  size_t element_size;   /* 4 or 8 */
  prism_type index_type; /* PRISM_U32, PRISM_I32, PRISM_U64, PRISM_I64 */
  prism__mem in;
  prism__mem indices; /* n indices */
  prism__mem out;     /* never overlaps in or indices */
  size_t n;           /* > 0 */
  size_t bound;       /* indices must lie in [0, bound): in_count for a
                         gather, out_count for a scatter */
  /* NULL: unchecked (queued). Otherwise wait and store the first position
   * whose index is out of range, or SIZE_MAX when there is none. */
  size_t *first_bad;
} prism__gather_scatter_args;

/*
 * Histogram (prism_histogram_even / prism_histogram_range). core has
 * validated the bounds or edges and precomputed the bin mapping:
 * - even, integer samples: a sample x is counted when lower <= x and
 *   d = x - lower (computed in 64-bit unsigned arithmetic) <= span; its bin
 *   is d / width when width != 0 (the range divides evenly into bins), else
 *   floor(d * bins / (span + 1)) computed exactly (d * bins needs up to 96
 *   bits for 64-bit samples; span + 1 may be 2^64).
 * - even, float samples: counted when lower <= x < upper (false for NaN);
 *   bin = min((unsigned)((x - lower) * scale), bins - 1), in the sample
 *   type's precision (no contraction into an FMA).
 * - range: edges is a host array of bins + 1 strictly ascending sample
 *   values (no NaN); the backend copies it to the device (before returning:
 *   the caller may reuse it). Bin b is [edges[b], edges[b + 1]).
 * counts: bins counters of counter_type (PRISM_U32, PRISM_U64), all
 * overwritten. n fits the counter type.
 */
typedef struct prism__histogram_args {
  prism_type sample_type; /* u8, i32, u32, f32, i64, u64, f64 */
  prism__mem samples;     /* n samples */
  size_t n;               /* > 0 */
  size_t bins;            /* 1 .. 2^31 */
  int ranged;             /* 0: even, 1: edges */
  prism_value lower;      /* even: lower bound, in the sample type */
  prism_value upper;      /* even, floats: upper bound, in the sample type */
  prism_value scale;      /* even, floats: bins / (upper - lower) */
  uint64_t span;          /* even, integers: (upper - lower) - 1 */
  uint64_t width;         /* even, integers: (span + 1) / bins or 0 */
  const void *edges;      /* range: host array of bins + 1 samples */
  prism_type counter_type;
  prism__mem counts; /* bins counters */
} prism__histogram_args;

/* The slices (blocks, work-groups) a histogram's samples split into for a
 * wave of wave of them: no more than there are tiles of tile_items, and
 * enough that no slice counts 2^32 samples. Both backends' plans. */
static inline size_t prism__histogram_slices(size_t wave, size_t n,
                                             size_t tile_items) {
  const size_t tiles = (n + tile_items - 1) / tile_items;
  size_t slices = wave < tiles ? wave : tiles;
  const size_t least = (n >> 31) + 1;
  if (slices < least)
    slices = least;
  return slices < 1 ? 1 : slices;
}

/* Stream compaction (select_flagged, select_if, partition_*, unique). */
typedef enum prism__select_mode {
  PRISM__SELECT_FLAGGED = 0, /* keep in[i] where flags[i] != 0 */
  PRISM__SELECT_IF = 1,      /* keep in[i] where predicate holds */
  PRISM__SELECT_UNIQUE = 2   /* keep in[0] and in[i] != in[i - 1] */
} prism__select_mode;

typedef struct prism__select_args {
  prism__select_mode mode;
  int partition;   /* 1: rejected elements follow, in order, at out[k..n) */
  prism_type type; /* any prism_type */
  prism__mem in;   /* n elements */
  prism__mem out;  /* n elements; apart from in */
  size_t n;        /* > 0 */
  prism_type flag_type;      /* FLAGGED: u8, i32, u32, i64, u64 */
  prism__mem flags;          /* FLAGGED: n flags */
  prism_predicate predicate; /* IF: compare valid, constants of type */
  prism__mem count_out;      /* native NULL, or a uint64_t k at its start */
  size_t *count;             /* host or NULL: wait and store k */
} prism__select_args;

/*
 * Segmented scan (by head flags or by offsets) and segmented reduce (by
 * offsets). Offsets are checked on the device: a segment s with
 * offsets[s] > offsets[s + 1], or either outside [0, n], or a negative
 * signed offset, is bad and never followed (empty: reduce writes the
 * identity, scan writes nothing for it).
 */
typedef struct prism__segmented_args {
  int reduce; /* 0: scan, 1: reduce (by offsets) */
  prism_type type;
  prism_op op;
  prism_scan_kind kind;   /* scan */
  prism__mem in;          /* n elements */
  prism__mem out;         /* scan: n elements (may be in); reduce:
                             num_segments elements */
  size_t n;               /* > 0 for scans; reduce may have n = 0 */
  prism_type flag_type;   /* scan by flags: u8, i32, u32, i64, u64 */
  prism__mem flags;       /* scan by flags: n flags; else native NULL */
  prism_type offset_type; /* by offsets: u32, i32, u64, i64 */
  prism__mem offsets;     /* by offsets: num_segments + 1; else NULL */
  size_t num_segments;    /* by offsets: > 0 */
  /* by offsets: NULL: unchecked (queued). Otherwise wait and store the
   * first bad segment, or SIZE_MAX when there is none. */
  size_t *first_bad;
} prism__segmented_args;

/*
 * BFS over a device CSR (core/graph.h). core has validated the graph at
 * creation and the source and buffers now. For an undirected graph the
 * in-edges are the out-edges (in_offsets == offsets, in_cols == cols).
 */
typedef struct prism__bfs_args {
  size_t n;                 /* vertices, >= 1, < 2^32 */
  size_t m;                 /* directed edges */
  prism__mem offsets;       /* n + 1 uint64 */
  prism__mem cols;          /* m uint32 */
  prism__mem in_offsets;    /* n + 1 uint64: the transpose's */
  prism__mem in_cols;       /* m uint32 */
  size_t source;            /* < n */
  prism__mem levels;        /* n int32 */
  prism__mem parents;       /* n int32, or native NULL */
  double alpha, beta;       /* prism_bfs_options */
  prism_bfs_result *result; /* host, filled before returning */
} prism__bfs_args;

/*
 * SpMV (prism_spmv): y = alpha * A * x + beta * y over a device CSR, on the
 * work partition core planned at prism_matrix_create (core/matrix.c).
 *
 * The merge path: the rows' ends (row i ends at row_offsets[i + 1]) merged
 * with the entries 0 .. entries - 1, an end before entry z exactly when
 * row_offsets[i + 1] <= z: rows + entries items. Tile t takes the items
 * [t * tile_items, (t + 1) * tile_items) (the last tile fewer), starting
 * with r0 = coords[2t] row ends and z0 = coords[2t + 1] entries consumed;
 * it ends at r1 = coords[2t + 2], z1 = coords[2t + 3]. So the tile holds
 * the entries [z0, z1) and the ends of rows r0 .. r1 - 1. Bit 63 of
 * coords[2t] (PRISM__SPMV_HEAD_SPLIT, masked off to read r0) is set when
 * row r0 began in an earlier tile (row_offsets[r0] < z0).
 *
 * row_offsets holds the low 32 bits of each row's start: within a tile
 * every row end is z0 + (uint32)(row_offsets[i + 1] - (uint32)z0), since
 * it lies less than 2^32 entries after z0. Half the bytes of 64-bit
 * offsets, for any number of entries.
 *
 * A tile writes, for each row r it ends (r0 <= r < r1): when r = r0 and
 * row_offsets[r0] < z0 (the row began in an earlier tile: a split row),
 * the sum of its entries in the tile to partials[2t] (its head slot); any
 * other row it ends gets y[r] = alpha * s + beta * y[r] (beta * y[r] left
 * out when beta is 0), s the sum of the row's entries. The entries of row
 * r1 in the tile (when r1 < rows; all of the tile's entries when r1 = r0)
 * go to partials[2t + 1] (its carry slot). A slot with no sum gets -0.0,
 * which adds as nothing. Every slot of every tile is written.
 *
 * A split row's sum is then partials[first .. last] (first = 2 t_a + 1,
 * last = 2 t_b: the carry of the tile its first entry is in, the slots
 * between, the head of the tile that ends it), added in order from first
 * to last, or as a fixed tree where a work-group shares one split (the same
 * bits every run). splits triples (row, first, last) of uint64 list them:
 * the first long_splits have last - first + 1 > PRISM__SPMV_SHORT_SPLIT
 * slots, the rest at most that many. The backend finishes each with
 * y[row] = alpha * sum + beta * y[row] as above.
 *
 * Sums within a tile add the products a * x of a row left to right, in
 * pieces the backend chooses, starting from +0.0, combined in a fixed
 * order: the same bits every run on a device.
 */
#define PRISM__SPMV_SHORT_SPLIT 32
#define PRISM__SPMV_HEAD_SPLIT (UINT64_C(1) << 63)

typedef struct prism__spmv_args {
  prism_type type;        /* PRISM_F32 or PRISM_F64 */
  size_t rows;            /* > 0 */
  size_t cols;            /* x holds cols elements (may be 0) */
  size_t entries;         /* may be 0 */
  prism__mem row_offsets; /* rows + 1 uint32: the low 32 bits */
  prism__mem col_indices; /* entries uint32, each < cols */
  prism__mem values;      /* entries of type */
  size_t tile_items;      /* the backend's spmv_tile_items(type) */
  size_t tiles;           /* >= 1 */
  prism__mem coords;      /* 2 (tiles + 1) uint64, head flags in r0 */
  prism__mem partials;    /* 2 tiles elements of type */
  size_t splits;          /* split rows (may be 0) */
  size_t long_splits;     /* the first long_splits of them are long */
  prism__mem split_rows;  /* 3 splits uint64: row, first, last */
  prism__mem x;           /* cols elements */
  prism__mem y;           /* rows elements, apart from x */
  double alpha, beta;     /* rounded to type by the backend */
} prism__spmv_args;

/*
 * Transpose (prism_transpose): for each b < batch, out[b][c][r] =
 * in[b][r][c], r < rows, c < cols, elements of element_size bytes moved
 * bit for bit; matrix b starts at element b * rows * cols in both. rows,
 * cols >= 2 (core copies a single row or column), batch > 0; core has
 * checked that the byte counts fit in size_t
 * and that in and out are memory apart.
 */
typedef struct prism__transpose_args {
  size_t element_size; /* 1, 2, 4 or 8 */
  size_t rows, cols, batch;
  prism__mem in;  /* batch * rows * cols elements */
  prism__mem out; /* as many, apart from in */
} prism__transpose_args;

/* log2 of the smallest power of two >= n (n >= 1), and of the largest
 * <= n. */
static inline int prism__log2_ceil(uint64_t n) {
  int l = 0;
  while (l < 63 && (UINT64_C(1) << l) < n)
    l++;
  return l;
}

static inline int prism__log2_floor(uint64_t n) {
  int l = 0;
  while (l < 63 && (n >> (l + 1)) != 0)
    l++;
  return l;
}

/* A transpose's tile, log2 of its rows and columns, for a backend's tile
 * of 2^log_tile elements and square side 2^log_side: SIDE x SIDE, or,
 * where a side of the matrix is shorter, that side whole (rounded up to a
 * power of two) and the long side the rest of the tile, no longer than the
 * matrix; at least 2 columns, so a padded tile takes at most 1.5 tiles. */
/* Both backends pad a tile's rows in on-chip memory to an odd number of
 * 32-bit words (1-byte elements by 4, 2-byte by 2, others by one
 * element), so the lanes reading a column, one row each, hit different
 * banks. */
static inline void prism__transpose_shape(uint64_t rows, uint64_t cols,
                                          int log_tile, int log_side,
                                          int *log_tr, int *log_tc) {
  int tr = prism__log2_ceil(rows), tc = prism__log2_ceil(cols);
  if (tc < log_side && tr < log_side) {
    /* Both sides short: one tile covers the matrix. */
  } else if (tc < log_side) {
    tr = log_tile - tc < tr ? log_tile - tc : tr;
  } else if (tr < log_side) {
    tc = log_tile - tr < tc ? log_tile - tr : tc;
  } else {
    tc = tr = log_side;
  }
  if (tc < 1)
    tc = 1;
  if (tr + tc > log_tile)
    tr = log_tile - tc;
  *log_tr = tr;
  *log_tc = tc;
}

/* A transpose's launch shape for a backend's tile of 2^log_tile units and
 * square side 2^log_side, units of w x w elements (w from
 * prism__transpose_pack; 1: elements): the matrix in units, the tile
 * (prism__transpose_shape), tiles_r x tiles_c tiles a matrix, tiles in all
 * the batch. */
typedef struct prism__transpose_plan {
  uint64_t rows, cols; /* in units */
  int log_tr, log_tc;
  uint64_t tiles_r, tiles_c, tiles;
} prism__transpose_plan;

static inline prism__transpose_plan
prism__transpose_plan_of(const prism__transpose_args *a, int w, int log_tile,
                         int log_side) {
  prism__transpose_plan p;
  p.rows = a->rows / (uint64_t)w;
  p.cols = a->cols / (uint64_t)w;
  prism__transpose_shape(p.rows, p.cols, log_tile, log_side, &p.log_tr,
                         &p.log_tc);
  p.tiles_r = (p.rows + (UINT64_C(1) << p.log_tr) - 1) >> p.log_tr;
  p.tiles_c = (p.cols + (UINT64_C(1) << p.log_tc) - 1) >> p.log_tc;
  p.tiles = p.tiles_r * p.tiles_c * a->batch;
  return p;
}

/* Elements a word carries in a transpose's packed path (1: none), for a
 * transpose whose in and out start at byte addresses (or buffer offsets
 * with aligned bases) in_at and out_at. 1- and 2-byte elements move as
 * 32-bit words of w = 4 / element_size elements, 4-byte ones as 64-bit
 * words of 2, when both sides of the matrix are multiples of w and both
 * starts are word aligned: the matrix is then one of w x w blocks, each w
 * words from w consecutive rows, transposed in registers into the w words
 * of w consecutive output rows, and the blocks move through the tile as
 * one-word elements do. 8-byte elements, and every other case, move
 * element by element. */
static inline int prism__transpose_pack(const prism__transpose_args *a,
                                        uint64_t in_at, uint64_t out_at) {
  if (a->element_size >= 8)
    return 1;
  const size_t w = a->element_size == 4 ? 2 : 4 / a->element_size;
  const size_t word = w * a->element_size;
  if (in_at % word != 0 || out_at % word != 0)
    return 1;
  return a->rows % w == 0 && a->cols % w == 0 ? (int)w : 1;
}

/*
 * One application of a stencil (prism_stencil_apply runs iterations of
 * them, ping-ponging through scratch): out(p) = the sum over the box of
 * radius r of w(d) * in(p + d), in(...) outside the grid by border (per
 * axis: zero gives 0.0, clamp the nearest index, periodic the index modulo
 * the extent, for any radius against any extent).
 *
 * The sum, which every backend must follow exactly (the tests compare
 * bits with a serial loop): acc = +0.0, then for dz, dy, dx each from -r
 * to r (dz only when dims = 3, dy when dims >= 2; the others 0), in that
 * order, skipping every weight equal to 0.0 (either sign), acc = fma(w,
 * in(p + d), acc). The weights are (2r + 1)^dims of type, dx fastest, on
 * the device. star is set when every weight off the axes (two or more of
 * dx, dy, dz nonzero) is 0.0: a backend may then visit the axes only
 * (the order above restricted to them).
 */
typedef struct prism__stencil_args {
  prism_type type;     /* PRISM_F32 or PRISM_F64 */
  unsigned dims;       /* 1, 2 or 3 */
  size_t nx, ny, nz;   /* all >= 1; 1 past dims */
  unsigned radius;     /* 0 .. PRISM_STENCIL_MAX_RADIUS */
  prism_border border; /* checked */
  int star;            /* weights zero off the axes */
  prism__mem weights;  /* (2r + 1)^dims of type */
  prism__mem in;       /* nx * ny * nz of type */
  prism__mem out;      /* as many, apart from in */
} prism__stencil_args;

/*
 * Merge (prism_merge_keys / prism_merge_pairs): out = the stable merge of
 * a and b by key image (key_order.h; complemented when descending), ties
 * to a. core handles an empty side (a copy), so na, nb > 0. The merge
 * path: the first d outputs take i keys of a and d - i of b, i the least
 * in [max(0, d - nb), min(d, na)] with image(a[i]) > image(b[d - 1 - i])
 * (or the top of that range), found by binary search; both backends split
 * the output into tiles at such diagonals.
 */
typedef struct prism__merge_args {
  prism_type key_type;
  int descending;
  prism__mem keys_a, keys_b;     /* na and nb keys */
  prism__mem values_a, values_b; /* native NULL for keys only */
  prism__mem keys_out;           /* na + nb keys, apart from the inputs */
  prism__mem values_out;         /* native NULL for keys only */
  size_t na, nb;                 /* both > 0 */
  size_t value_size;             /* 0 (keys only), 4 or 8 */
} prism__merge_args;

/*
 * Segmented sort (prism_segmented_sort_keys / _pairs): sort, within each
 * segment of offsets (as prism__segmented_args reads them), as the sort
 * args say; sort.n is the whole array's n (> 0), num_segments > 0 and
 * below 2^32. The backend reads the offsets on the device, stores the
 * first bad segment in *first_bad (SIZE_MAX when none) and, when there is
 * one, sorts and writes nothing; else it sorts every segment, leaving
 * keys_out (values_out) outside the segments as they were. In place is
 * allowed as for the sort; good segments never overlap (a bad segment is
 * how offsets that decrease show).
 */
typedef struct prism__segmented_sort_args {
  prism__sort_args sort;
  prism_type offset_type; /* U32, I32, U64, I64 */
  prism__mem offsets;     /* num_segments + 1 offsets */
  size_t num_segments;
  size_t *first_bad; /* never NULL */
} prism__segmented_sort_args;

/*
 * Top-k (prism_topk): for each row of keys_in, the k keys first in order
 * (the least images, key_order.h, complemented when descending), ties to
 * the lower column, written as the caller asked. rows > 0, 1 <= k <= cols.
 * Both backends choose the same way, so they agree bit for bit:
 *
 * - A row of at most the backend's row tile is chosen by one work-group:
 *   its images in registers, a radix select 8 bits a pass from the top
 *   (histogram, scan, the digit where the running count reaches k, keep
 *   only keys with the prefix so far) to the threshold image T, stopping
 *   early when the whole bucket is in; keys below T are in, and of those
 *   equal to T the need = k - below with the lowest columns (a scan in
 *   column order). The chosen (image, column) pairs, in column order, are
 *   sorted by (image, column) in local memory when sorted is asked.
 * - A longer row: a radix select over the whole device on the composite
 *   key (image, column), 11-bit digits from the top, so the k-th is one
 *   element and the chosen set is "composite prefix <= P". Pass p reads
 *   the row (or the candidates the previous pass kept), histograms the
 *   next digit of keys equal to P and keeps them as candidates when they
 *   fit; a pass that keeps them (or the last) sends the keys below P to
 *   the chosen list (a source that stays the source sends them once); a
 *   one-work-group step picks the digit and stops when the bucket is all
 *   in. The chosen list is then sorted by composite (or by column and then
 *   stably by key) when sorted is asked, and the keys and values gathered
 *   from the inputs by column.
 */
typedef struct prism__topk_args {
  prism_type key_type;
  prism__mem keys_in;    /* rows * cols keys */
  prism__mem values_in;  /* rows * cols values; native NULL: columns out */
  prism__mem keys_out;   /* rows * k keys; native NULL: not asked */
  prism__mem values_out; /* rows * k values; native NULL: not asked */
  size_t value_size;     /* 4 or 8 when values_out is asked, else 0 */
  size_t rows, cols, k;
  int descending;
  int sorted;
} prism__topk_args;

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
  prism_status (*gather_scatter)(prism_context *ctx,
                                 const prism__gather_scatter_args *args);
  prism_status (*histogram)(prism_context *ctx,
                            const prism__histogram_args *args);
  prism_status (*select)(prism_context *ctx, const prism__select_args *args);
  prism_status (*segmented)(prism_context *ctx,
                            const prism__segmented_args *args);
  prism_status (*bfs)(prism_context *ctx, const prism__bfs_args *args);

  /* Memory identity, for overlap checks: memory of one allocation (or
   * native object) is named by a space and a base, such that two buffers
   * overlap exactly when their spaces are equal and their byte ranges from
   * base do. CUDA: space NULL (one address space), base the address; OpenCL:
   * space the root cl_mem (a sub-buffer's parent), base the sub-buffer's
   * origin in it. */
  void (*mem_identity)(prism_context *ctx, void *native, const void **space,
                       uint64_t *base);
  /* Release a wrapped native handle (prism_*_buffer_wrap): CUDA nothing,
   * OpenCL clReleaseMemObject of the reference the wrap took. */
  void (*mem_unwrap)(prism_context *ctx, void *native);

  /* Events: record a marker after the queued work (*native, a
   * cudaEvent_t or cl_event), wait for one on the host, ask whether it is
   * done without blocking, make the context's queue wait for one (of any
   * context of this backend: the backend refuses one it cannot wait for
   * with PRISM_CONTEXT_MISMATCH), release it. */
  prism_status (*event_record)(prism_context *ctx, void **native);
  prism_status (*event_wait)(prism_context *ctx, void *native);
  prism_status (*event_query)(prism_context *ctx, void *native, int *done);
  prism_status (*queue_wait)(prism_context *ctx, void *native);
  void (*event_release)(prism_context *ctx, void *native);

  /* SpMV: the merge-path items per tile for a value type (F32, F64) on
   * this context's device, which core plans a matrix's partition with
   * (at prism_matrix_create), and the multiply on that partition. */
  size_t (*spmv_tile_items)(prism_context *ctx, prism_type type);
  prism_status (*spmv)(prism_context *ctx, const prism__spmv_args *args);

  /* Dense patterns. */
  prism_status (*transpose)(prism_context *ctx,
                            const prism__transpose_args *args);
  prism_status (*stencil)(prism_context *ctx, const prism__stencil_args *args);

  /* Ordering. */
  prism_status (*merge)(prism_context *ctx, const prism__merge_args *args);
  prism_status (*segmented_sort)(prism_context *ctx,
                                 const prism__segmented_sort_args *args);
  prism_status (*topk)(prism_context *ctx, const prism__topk_args *args);
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
 * allocation after the queue has drained. A need above the context's limit
 * (prism_context_set_scratch_limit) fails with PRISM_OUT_OF_MEMORY.
 */
prism_status prism__scratch(prism_context *ctx, size_t bytes, void **native);

#ifdef __cplusplus
}
#endif

#endif /* PRISM_CORE_BACKEND_H */
