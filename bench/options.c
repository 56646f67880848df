/* SPDX-License-Identifier: MIT */
#include "options.h"

#include "graph_file.h"
#include "graph_spec.h"
#include "input.h"
#include "matrix_spec.h"
#include "meta.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_REPS 20
#define QUICK_REPS 10
#define DEFAULT_SEED 20240521u
#define SWEEP_STEP 4 /* a range a..b runs a, 4a, 16a, ... and b */
#define SWEEP_MIN_LOG2 10
#define SWEEP_GPU_MAX_LOG2 28
#define SWEEP_CPU_MAX_LOG2 24
#define DEFAULT_BINS 256
#define DEFAULT_KEEP 0.5
#define DEFAULT_GRAPH "rmat:16" /* seconds on PoCL with 2 cores */
#define DEFAULT_SOURCES 16      /* a quick sanity run; Graph500 uses 64 */
#define MAX_SOURCES 100000

static const char usage[] =
    "usage: prism-bench [PRIMITIVES] [options]\n"
    "\n"
    "Times prism's primitives, verifies each result against a serial C\n"
    "reference, and compares with references measured in the same run: the\n"
    "device's copy bandwidth, serial C on CPU devices, CUB on NVIDIA.\n"
    "\n"
    "PRIMITIVES  comma list of: %s\n"
    "            (default: %s),\n"
    "            or `quick`: reduce sum and exclusive scan sum, i32 and f32,\n"
    "            a few sizes, on the default backend (under a minute on a\n"
    "            small CPU)\n"
    "\n"
    "options (LIST = comma-separated values):\n"
    "  --backend LIST          cuda, opencl, auto (default: the environment,\n"
    "                          PRISM_BACKEND / PRISM_DEVICE / "
    "PRISM_OPENCL_PLATFORM)\n"
    "  --opencl-platform LIST  one OpenCL context per platform, by index or\n"
    "                          name substring (e.g. nvidia,pocl)\n"
    "  --device N              device index within the backend / platform\n"
    "  --type LIST             i32, u32, f32, i64, u64, f64, u8 (default i32;\n"
    "                          u8: histograms and compaction only; spmv and\n"
    "                          stencil: f32 and f64, both by default;\n"
    "                          conv2d: f32 and f64, f32 by default; topk:\n"
    "                          f32 by default)\n"
    "  --op LIST               sum, min, max (default sum)\n"
    "  --kind LIST             scans: inclusive, exclusive (default "
    "exclusive)\n"
    "  --order LIST            sort, merge, segmented-sort: ascending,\n"
    "                          descending (default ascending)\n"
    "  --values LIST           sort, merge, segmented-sort: bytes of value\n"
    "                          moved with each key: 0 (keys only,\n"
    "                          prism_sort_keys; the default), 4 or 8\n"
    "                          (prism_sort_pairs; each value is its key's\n"
    "                          input index, so the check of the values\n"
    "                          checks stability); topk: 0 keys only, 4 or\n"
    "                          8 also each chosen key's column index (u32,\n"
    "                          u64; values_in NULL)\n"
    "  --pairs                 sort, merge, segmented-sort: --values 4\n"
    "  --bits BEGIN:END        sort: only bits [BEGIN, END) of the key's\n"
    "                          order-preserving image take part (default:\n"
    "                          all; rows of narrower types are skipped)\n"
    "  --bins LIST             histograms: bin counts (default 256). "
    "histogram\n"
    "                          spans u8 [0, 256), i32 and u32 their whole\n"
    "                          range, i64 [-2^40, 2^40), u64 [0, 2^41), "
    "floats\n"
    "                          [-1, 1); histogram-range the same with\n"
    "                          geometric edges (the last bin ~256x the first)\n"
    "  --dist LIST             histograms: uniform (samples spread evenly;\n"
    "                          the default) or one-bin (all in one bin)\n"
    "  --keep LIST             select, select-flagged, partition: the "
    "fraction\n"
    "                          of elements kept (x < a, or flags); unique: "
    "the\n"
    "                          fraction that start a run (default 0.5)\n"
    "  --segment LIST          segmented-reduce, segmented-scan,\n"
    "                          segmented-sort: the mean segment length\n"
    "                          (n / it segments; lengths vary at random from\n"
    "                          1 to twice that), `skew`: one segment holds\n"
    "                          half the data, the others are ~%d long, or\n"
    "                          `pareto[:MEAN]`: a power law, lengths 1 + a\n"
    "                          share of the rest in proportion to Pareto\n"
    "                          draws (shape %g, seeded), n / MEAN segments\n"
    "                          (MEAN and the default length: %d)\n"
    "  --rows LIST             topk: the n keys as R rows of n / R (R must\n"
    "                          divide n; default 1: one row of n)\n"
    "  --k LIST                topk: keys chosen per row, 1 to the row's\n"
    "                          length (default 100,2^20, each cut to the\n"
    "                          row's length)\n"
    "  --graph LIST            bfs: rmat:SCALE[:EDGEFACTOR] (Graph500's\n"
    "                          Kronecker graph; edge factor 16 by default),\n"
    "                          grid:W[xH], path:N, star:N, or a file: Matrix\n"
    "                          Market, or an edge list (default %s)\n"
    "  --symmetrize            bfs: an edge-list file gets the reverse of\n"
    "                          each edge (undirected); else it is directed\n"
    "  --sources K             bfs: searches per graph, from distinct\n"
    "                          vertices with out-edges drawn with --seed\n"
    "                          (default %d; Graph500 uses 64)\n"
    "  --parents               bfs: the searches also write the BFS tree\n"
    "                          (timed), checked by Graph500's rules\n"
    "  --alpha A, --beta B     bfs: prism_bfs_options, the direction switch\n"
    "                          (numbers >= 0 or inf; default the library's)\n"
    "  --matrices LIST         spmv: laplace2d:N (5-point Laplacian, N^2\n"
    "                          rows), laplace3d27:N (27-point, N^3 rows),\n"
    "                          rmat:SCALE[:EDGEFACTOR] (--graph's RMAT,\n"
    "                          values in [-1, 1)), hugerow:N (N rows of %d\n"
    "                          entries, row 0 as many as all others), or a\n"
    "                          Matrix Market file (default laplace2d:4096,\n"
    "                          laplace3d27:128,rmat:22,hugerow:2^22 when a\n"
    "                          GPU is measured, else laplace2d:1024,\n"
    "                          laplace3d27:64,rmat:18,hugerow:2^18)\n"
    "  --matrix FILE           spmv: a Matrix Market file, whatever its name\n"
    "                          (repeatable; added to --matrices)\n"
    "  --spmv-beta B           spmv: y = A x + B y (default 0: y = A x, y not\n"
    "                          read)\n"
    "  --shapes LIST           transpose, stencil, conv2d: extents slowest\n"
    "                          first, joined by x, as 8192, 2^13 or 10^8:\n"
    "                          RxC (transpose: R rows of C) or BxRxC (a\n"
    "                          batch of B), N, NYxNX or NZxNYxNX (stencil;\n"
    "                          conv2d: 2-D only), or `small` (a few small,\n"
    "                          odd shapes). Default when a GPU is measured:\n"
    "                          transpose 16384x16384,3x10^8,10^8x3; stencil\n"
    "                          8192x8192,512x512x512; conv2d 8192x8192;\n"
    "                          else 4096x4096,3x10^7,10^7x3;\n"
    "                          2048x2048,128x128x128; 2048x2048\n"
    "  --element-size LIST     transpose: bytes an element, 1, 2, 4, 8\n"
    "                          (default all four; 4 alone for a matrix\n"
    "                          with a side below %d)\n"
    "  --radius LIST           stencil: a star of radius R, -2 x dims x R\n"
    "                          at the centre and 1 on the arms (R = 1: the\n"
    "                          5- and 7-point Laplacians, the default; 0:\n"
    "                          the identity); conv2d: a (2R+1)^2 Gaussian\n"
    "                          box, sigma R / 2 (default 2,7: K = 5, 15);\n"
    "                          0 to %d\n"
    "  --border LIST           stencil, conv2d: zero, clamp, periodic\n"
    "                          (default stencil zero; conv2d clamp,zero:\n"
    "                          clamp beside the naive CUDA kernel, zero\n"
    "                          beside cuDNN)\n"
    "  --n LIST                sizes: 1000000, 2^20, or ranges 2^10..2^28\n"
    "                          (steps of 4x; default 2^10..2^28 on a GPU,\n"
    "                          2^10..2^24 on a CPU device)\n"
    "  --reps R                timed samples per row (default %d, quick %d;\n"
    "                          bfs: --sources)\n"
    "  --seed S                seed of the input data (bfs: of the RMAT\n"
    "                          graphs and the sources)\n"
    "  --csv, --json           machine-readable output instead of the table\n"
    "                          (the run's metadata: CSV in '#' lines, JSON\n"
    "                          in \"meta\")\n"
    "  --output FILE           write the table, CSV or JSON to FILE instead\n"
    "                          of standard output\n"
    "  --list-devices          list the backends, OpenCL platforms and\n"
    "                          devices here, with the indices --backend,\n"
    "                          --opencl-platform and --device take; exit\n"
    "  --version               prism's version and commit; exit\n"
    "  -h, --help              this text\n"
    "\n"
    "   or: prism-bench compare A.json B.json ... [--svg FILE]\n"
    "\n"
    "compare reads results written with --json (other machines, other\n"
    "vendors) and prints each row's throughput on every device side by\n"
    "side, with its ratio to the first; --svg draws throughput against n,\n"
    "one chart per primitive, variant and type, one line per device (see\n"
    "prism-bench compare --help).\n"
    "\n"
    "Every ratio is reference time / prism time (bfs: prism TEPS / the\n"
    "reference's): above 1, prism is better. A time marked ~ comes from\n"
    "samples that spread more than 10%% ((max - min) / median).\n"
    "\n"
    "Compaction calls are timed with the count left in a device buffer, as\n"
    "when chaining calls (CUB's likewise). Segmented reduce takes offsets,\n"
    "segmented scan one-byte head flags (CUB: scan by key, segment ids).\n"
    "segmented-sort sorts each segment by offsets, out of place (the call\n"
    "waits once for its split by length; CUB: DeviceSegmentedSort's stable\n"
    "sorts); GB/s counts the keys and values read and written once and the\n"
    "offsets read once.\n"
    "topk takes each row's k largest keys, largest first (prism_topk,\n"
    "descending, sorted); GB/s counts the keys read once and the chosen\n"
    "keys (and indices) written once, so %%copy is about the time to read\n"
    "the keys once over topk's. Beside it on NVIDIA devices (CUDA builds)\n"
    "CUB's sort of every row, then its first k (cub), and the seeds'\n"
    "thread-per-row register kernel for rows > 1 and k <= 64 (naive);\n"
    "ref_topk's bounded heap on CPU devices (serial).\n"
    "gather and scatter take a random permutation of [0, n) as u32 indices,\n"
    "unchecked (queued); their reference is the copy row.\n"
    "bfs times each search alone (the call waits for its result) and reports\n"
    "the median; beside it the naive one-thread-per-vertex CUDA BFS on\n"
    "NVIDIA devices (CUDA builds), a serial C queue BFS on CPU devices.\n"
    "spmv rows count n as the matrix's entries (GFLOP/s = 2x Gelem/s); beside\n"
    "them cuSPARSE (the ratio) and the warp-per-row CUDA kernel on NVIDIA\n"
    "devices (CUDA builds), a serial C CSR loop on CPU devices.\n"
    "transpose, stencil and conv2d count n as the elements or grid points;\n"
    "GB/s is the grid read once and written once. Beside them on NVIDIA\n"
    "devices (CUDA builds) naive one-thread-per-element CUDA kernels and, for\n"
    "conv2d with a zero border, cuDNN; a serial C loop on CPU devices.\n"
    "\n"
    "exit status: 0 all verified, 1 a verification or call failed, 2 bad "
    "arguments\n";

/* The primitives' names, comma-separated: all, or those run by default. */
static void primitive_names(int defaults_only, char *names, size_t size) {
  names[0] = '\0';
  for (int i = 0; i < bench_primitive_count; i++) {
    if (defaults_only && bench_primitives[i]->by_name_only)
      continue;
    if (names[0])
      strncat(names, ", ", size - strlen(names) - 1);
    strncat(names, bench_primitives[i]->name, size - strlen(names) - 1);
  }
}

static void print_usage(void) {
  char names[512], defaults[256];
  primitive_names(0, names, sizeof names);
  primitive_names(1, defaults, sizeof defaults);
  printf(usage, names, defaults, INPUT_SEGMENT_MEAN, INPUT_PARETO_SHAPE,
         INPUT_SEGMENT_MEAN, DEFAULT_GRAPH, DEFAULT_SOURCES,
         MATRIX_HUGEROW_ROW_ENTRIES, DENSE_SKINNY_SIDE,
         PRISM_STENCIL_MAX_RADIUS, DEFAULT_REPS, QUICK_REPS);
}

static int bad(const char *option, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Print "prism-bench: OPTION: message" and give the usage exit code. */
static int bad(const char *option, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "prism-bench: %s: ", option);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (see prism-bench --help)\n");
  return BENCH_EXIT_USAGE;
}

/* ---- Lists ----------------------------------------------------------------
 */

/* Calls item(name, ...) for each comma-separated item of list; stops at the
 * first item that returns nonzero and returns that. */
typedef int (*item_fn)(const char *option, const char *item,
                       bench_options *opt);

static int for_each_item(const char *option, const char *list, item_fn item,
                         bench_options *opt) {
  char buf[OPTIONS_PATH_SIZE];
  const char *p = list;
  for (;;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == 0)
      return bad(option, "empty item in '%s'", list);
    if (len >= sizeof buf)
      return bad(option, "item too long in '%s'", list);
    memcpy(buf, p, len);
    buf[len] = '\0';
    int rc = item(option, buf, opt);
    if (rc)
      return rc;
    if (!end)
      return 0;
    p = end + 1;
  }
}

static int too_many(const char *option) {
  return bad(option, "more than %d items", OPTIONS_MAX_ITEMS);
}

static int primitive_item(const char *option, const char *name,
                          bench_options *opt) {
  if (strcmp(name, "quick") == 0) {
    opt->quick = 1;
    return 0;
  }
  const bench_primitive *p = bench_primitive_find(name);
  if (!p) {
    char names[512];
    primitive_names(0, names, sizeof names);
    return bad(option, "unknown primitive '%s' (valid: %s, quick)", name,
               names);
  }
  if (opt->primitive_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->primitives[opt->primitive_count++] = p;
  return 0;
}

static int backend_item(const char *option, const char *name,
                        bench_options *opt) {
  static const prism_backend all[] = {PRISM_BACKEND_CUDA, PRISM_BACKEND_OPENCL,
                                      PRISM_BACKEND_AUTO};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    if (strcmp(name, prism_backend_name(all[i])) == 0) {
      if (opt->backend_count == OPTIONS_MAX_ITEMS)
        return too_many(option);
      opt->backends[opt->backend_count++] = all[i];
      return 0;
    }
  }
  return bad(option, "unknown backend '%s' (valid: cuda, opencl, auto)", name);
}

static int platform_item(const char *option, const char *name,
                         bench_options *opt) {
  if (opt->platform_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  if (strlen(name) >= OPTIONS_NAME_SIZE)
    return bad(option, "platform name too long: '%s'", name);
  snprintf(opt->platforms[opt->platform_count++], OPTIONS_NAME_SIZE, "%s",
           name);
  return 0;
}

static int type_item(const char *option, const char *name, bench_options *opt) {
  for (int t = 0; t < PRISM_TYPE_COUNT; t++) {
    if (strcmp(name, prism_type_name((prism_type)t)) == 0) {
      if (opt->type_count == OPTIONS_MAX_ITEMS)
        return too_many(option);
      opt->types[opt->type_count++] = (prism_type)t;
      return 0;
    }
  }
  return bad(option,
             "unknown type '%s' (valid: i32, u32, f32, i64, u64, f64, u8)",
             name);
}

static int op_item(const char *option, const char *name, bench_options *opt) {
  static const prism_op all[] = {PRISM_SUM, PRISM_MIN, PRISM_MAX};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    if (strcmp(name, prism_op_name(all[i])) == 0) {
      if (opt->op_count == OPTIONS_MAX_ITEMS)
        return too_many(option);
      opt->ops[opt->op_count++] = all[i];
      return 0;
    }
  }
  return bad(option, "unknown operator '%s' (valid: sum, min, max)", name);
}

static int order_item(const char *option, const char *name,
                      bench_options *opt) {
  prism_order order;
  if (strcmp(name, "ascending") == 0)
    order = PRISM_ASCENDING;
  else if (strcmp(name, "descending") == 0)
    order = PRISM_DESCENDING;
  else
    return bad(option, "unknown order '%s' (valid: ascending, descending)",
               name);
  if (opt->order_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->orders[opt->order_count++] = order;
  return 0;
}

static int add_value_size(const char *option, size_t bytes,
                          bench_options *opt) {
  if (opt->value_size_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->value_sizes[opt->value_size_count++] = bytes;
  return 0;
}

static int values_item(const char *option, const char *name,
                       bench_options *opt) {
  if (strcmp(name, "0") != 0 && strcmp(name, "4") != 0 &&
      strcmp(name, "8") != 0)
    return bad(option,
               "'%s' is not a value size (valid: 0 for keys only, 4, 8)", name);
  return add_value_size(option, (size_t)(name[0] - '0'), opt);
}

/* transpose: 1, 2, 4 or 8 bytes an element. */
static int element_size_item(const char *option, const char *name,
                             bench_options *opt) {
  if (strcmp(name, "1") != 0 && strcmp(name, "2") != 0 &&
      strcmp(name, "4") != 0 && strcmp(name, "8") != 0)
    return bad(option, "'%s' is not an element size (valid: 1, 2, 4, 8)", name);
  if (opt->element_size_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->element_sizes[opt->element_size_count++] = (size_t)(name[0] - '0');
  return 0;
}

static int border_item(const char *option, const char *name,
                       bench_options *opt) {
  static const prism_border all[] = {PRISM_BORDER_ZERO, PRISM_BORDER_CLAMP,
                                     PRISM_BORDER_PERIODIC};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
    if (strcmp(name, prism_border_name(all[i])) == 0) {
      if (opt->border_count == OPTIONS_MAX_ITEMS)
        return too_many(option);
      opt->borders[opt->border_count++] = all[i];
      return 0;
    }
  }
  return bad(option, "unknown border '%s' (valid: zero, clamp, periodic)",
             name);
}

static int kind_item(const char *option, const char *name, bench_options *opt) {
  prism_scan_kind kind;
  if (strcmp(name, "inclusive") == 0)
    kind = PRISM_INCLUSIVE;
  else if (strcmp(name, "exclusive") == 0)
    kind = PRISM_EXCLUSIVE;
  else
    return bad(option, "unknown scan kind '%s' (valid: inclusive, exclusive)",
               name);
  if (opt->kind_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->kinds[opt->kind_count++] = kind;
  return 0;
}

/* ---- Numbers ------------------------------------------------------------- */

/* A decimal integer in [min, max], the whole string. */
static int parse_uint(const char *s, unsigned long long min,
                      unsigned long long max, unsigned long long *out) {
  if (*s < '0' || *s > '9')
    return 0;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end || v < min || v > max)
    return 0;
  *out = v;
  return 1;
}

/* A size: 1000000 or 2^20. */
static int parse_size(const char *s, size_t *out) {
  unsigned long long v;
  if (s[0] == '2' && s[1] == '^') {
    if (!parse_uint(s + 2, 0, sizeof(size_t) * 8 - 1, &v))
      return 0;
    *out = (size_t)1 << v;
    return 1;
  }
  if (!parse_uint(s, 1, SIZE_MAX, &v))
    return 0;
  *out = (size_t)v;
  return 1;
}

static int add_size(const char *option, size_t n, bench_options *opt) {
  if (opt->n_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->ns[opt->n_count++] = n;
  return 0;
}

/* 2^k, 1000000, or a range lo..hi run in steps of 4x (hi included). */
static int size_item(const char *option, const char *item, bench_options *opt) {
  const char *dots = strstr(item, "..");
  size_t lo, hi;
  if (!dots) {
    if (!parse_size(item, &lo))
      return bad(option, "bad size '%s' (use 1000000, 2^20 or 2^10..2^20)",
                 item);
    return add_size(option, lo, opt);
  }
  char first[OPTIONS_NAME_SIZE];
  size_t len = (size_t)(dots - item);
  memcpy(first, item, len);
  first[len] = '\0';
  if (!parse_size(first, &lo) || !parse_size(dots + 2, &hi))
    return bad(option, "bad range '%s' (use 2^10..2^20)", item);
  if (lo > hi)
    return bad(option, "empty range '%s': %zu > %zu", item, lo, hi);
  for (size_t n = lo;; n *= SWEEP_STEP) {
    int rc = add_size(option, n, opt);
    if (rc)
      return rc;
    if (n > hi / SWEEP_STEP) {
      return n == hi ? 0 : add_size(option, hi, opt);
    }
  }
}

#define MAX_BINS ((size_t)1 << 31) /* prism_histogram_*'s limit */

static int bins_item(const char *option, const char *item, bench_options *opt) {
  size_t bins;
  if (!parse_size(item, &bins) || bins > MAX_BINS)
    return bad(option, "'%s' is not a bin count from 1 to 2^31", item);
  if (opt->bin_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->bins[opt->bin_count++] = bins;
  return 0;
}

static int dist_item(const char *option, const char *name, bench_options *opt) {
  bench_dist dist;
  if (strcmp(name, "uniform") == 0)
    dist = BENCH_DIST_UNIFORM;
  else if (strcmp(name, "one-bin") == 0)
    dist = BENCH_DIST_ONE_BIN;
  else
    return bad(option, "unknown distribution '%s' (valid: uniform, one-bin)",
               name);
  if (opt->dist_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->dists[opt->dist_count++] = dist;
  return 0;
}

/* A fraction in [0, 1]: 0.5, 1, 0.001. */
static int keep_item(const char *option, const char *item, bench_options *opt) {
  char *end;
  errno = 0;
  double keep = strtod(item, &end);
  if (errno || *end || end == item || !(keep >= 0 && keep <= 1))
    return bad(option, "'%s' is not a fraction from 0 to 1", item);
  if (opt->keep_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->keeps[opt->keep_count++] = keep;
  return 0;
}

/* A mean segment length, `skew`, or `pareto[:MEAN]`. */
static int segment_item(const char *option, const char *item,
                        bench_options *opt) {
  static const char pareto[] = "pareto";
  const size_t pareto_len = sizeof pareto - 1;
  size_t mean = INPUT_SEGMENT_MEAN;
  int skew = INPUT_SEGMENTS_EVEN;
  if (strcmp(item, "skew") == 0) {
    skew = INPUT_SEGMENTS_SKEW;
  } else if (strncmp(item, pareto, pareto_len) == 0 &&
             (item[pareto_len] == '\0' || item[pareto_len] == ':')) {
    skew = INPUT_SEGMENTS_PARETO;
    if (item[pareto_len] == ':' && !parse_size(item + pareto_len + 1, &mean))
      return bad(option, "'%s': the mean after pareto: is not a length", item);
  } else if (!parse_size(item, &mean)) {
    return bad(option,
               "'%s' is not a segment length (e.g. 1000, 2^16), `skew` or "
               "`pareto[:MEAN]`",
               item);
  }
  if (opt->segment_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->segments[opt->segment_count] = mean;
  opt->skews[opt->segment_count++] = skew;
  return 0;
}

/* topk: a k, or a row count (1000, 2^20). */
static int k_item(const char *option, const char *item, bench_options *opt) {
  size_t k;
  if (!parse_size(item, &k))
    return bad(option, "'%s' is not a count of keys (e.g. 100, 2^20)", item);
  if (opt->k_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->ks[opt->k_count++] = k;
  return 0;
}

static int rows_item(const char *option, const char *item, bench_options *opt) {
  size_t rows;
  if (!parse_size(item, &rows))
    return bad(option, "'%s' is not a row count (e.g. 1, 16384, 2^14)", item);
  if (opt->row_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->rows[opt->row_count++] = rows;
  return 0;
}

/* A graph to search: checked now (a file must be there and readable, so
 * that a typo fails before any device work), built when its rows run
 * (bfs.c). */
static int graph_item(const char *option, const char *item,
                      bench_options *opt) {
  bfs_graph_spec spec;
  char why[OPTIONS_PATH_SIZE + 256];
  if (!bfs_graph_parse(item, &spec, why, sizeof why))
    return bad(option, "%s", why);
  if (spec.kind == BFS_GRAPH_FILE &&
      !graph_file_check(spec.path, why, sizeof why))
    return bad(option, "%s", why);
  if (opt->graph_count == OPTIONS_MAX_GRAPHS)
    return bad(option, "more than %d graphs", OPTIONS_MAX_GRAPHS);
  snprintf(opt->graphs[opt->graph_count++], OPTIONS_PATH_SIZE, "%s", item);
  return 0;
}

/* A matrix to multiply by: checked now as a graph is (a file must be there
 * and readable), built when its rows run (spmv.c). is_file: a --matrix
 * entry, a file whatever its name. */
static int add_matrix(const char *option, const char *item, int is_file,
                      bench_options *opt) {
  matrix_spec spec;
  char why[OPTIONS_PATH_SIZE + 256];
  if (!matrix_spec_parse(item, is_file, &spec, why, sizeof why))
    return bad(option, "%s", why);
  if (spec.kind == MATRIX_FILE && !graph_file_check(spec.path, why, sizeof why))
    return bad(option, "%s", why);
  if (strlen(item) >= OPTIONS_PATH_SIZE)
    return bad(option, "path too long: '%s'", item);
  if (opt->matrix_count == OPTIONS_MAX_MATRICES)
    return bad(option, "more than %d matrices", OPTIONS_MAX_MATRICES);
  opt->matrix_files[opt->matrix_count] = is_file;
  snprintf(opt->matrices[opt->matrix_count++], OPTIONS_PATH_SIZE, "%s", item);
  return 0;
}

static int matrix_item(const char *option, const char *item,
                       bench_options *opt) {
  return add_matrix(option, item, 0, opt);
}

/* A shape of the dense rows (dense_spec.h). */
static int shape_item(const char *option, const char *item,
                      bench_options *opt) {
  char why[256];
  if (opt->shape_count == DENSE_MAX_SHAPES)
    return bad(option, "more than %d shapes", DENSE_MAX_SHAPES);
  if (!dense_shape_parse(item, &opt->shapes[opt->shape_count], why, sizeof why))
    return bad(option, "%s", why);
  opt->shape_count++;
  return 0;
}

/* A stencil radius: 0 to PRISM_STENCIL_MAX_RADIUS. */
static int radius_item(const char *option, const char *item,
                       bench_options *opt) {
  unsigned long long r;
  if (!parse_uint(item, 0, PRISM_STENCIL_MAX_RADIUS, &r))
    return bad(option, "'%s' is not a radius from 0 to %d", item,
               PRISM_STENCIL_MAX_RADIUS);
  if (opt->radius_count == OPTIONS_MAX_ITEMS)
    return too_many(option);
  opt->radii[opt->radius_count++] = (unsigned)r;
  return 0;
}

/* --spmv-beta: any finite number. */
static int parse_beta(const char *option, const char *value, double *out) {
  char *end;
  errno = 0;
  double x = strtod(value, &end);
  if (errno || *end || end == value || !isfinite(x))
    return bad(option, "'%s' is not a finite number", value);
  *out = x;
  return 0;
}

/* prism_bfs_options' alpha or beta: a number >= 0, or inf. */
static int parse_factor(const char *option, const char *value, double *out) {
  char *end;
  errno = 0;
  double x = strtod(value, &end);
  if (errno || *end || end == value || !(x >= 0))
    return bad(option, "'%s' is not a number >= 0 (or inf)", value);
  *out = x;
  return 0;
}

/* BEGIN:END, 0 <= BEGIN < END <= 64. */
static int parse_bits(const char *option, const char *value,
                      bench_options *opt) {
  char first[OPTIONS_NAME_SIZE];
  const char *colon = strchr(value, ':');
  unsigned long long begin, end;
  size_t len = colon ? (size_t)(colon - value) : 0;
  if (!colon || len >= sizeof first)
    return bad(option, "'%s' is not BEGIN:END (e.g. 0:16)", value);
  memcpy(first, value, len);
  first[len] = '\0';
  if (!parse_uint(first, 0, 63, &begin) || !parse_uint(colon + 1, 1, 64, &end))
    return bad(option, "'%s' is not BEGIN:END with 0 <= BEGIN < END <= 64",
               value);
  if (begin >= end)
    return bad(option, "'%s': BEGIN must be below END", value);
  opt->begin_bit = (unsigned)begin;
  opt->end_bit = (unsigned)end;
  return 0;
}

/* ---- The command line ---------------------------------------------------- */

/* The value of an option given as "--opt value" or "--opt=value". */
static const char *option_value(int argc, char **argv, int *i,
                                const char *inline_value) {
  if (inline_value)
    return inline_value;
  if (*i + 1 < argc)
    return argv[++*i];
  return NULL;
}

static void set_defaults(bench_options *opt) {
  memset(opt, 0, sizeof *opt);
  opt->device = -1;
  opt->reps = 0;
  opt->seed = DEFAULT_SEED;
  opt->format = REPORT_TABLE;
  opt->alpha = -1;
  opt->beta = -1;
}

/* After parsing: the quick preset and the defaults of lists left empty. */
static int finish(bench_options *opt) {
  if (opt->quick && opt->primitive_count > 0)
    return bad("PRIMITIVES", "`quick` runs on its own; name primitives "
                             "instead to choose them");
  if (opt->quick) {
    opt->primitives[opt->primitive_count++] = &bench_reduce;
    opt->primitives[opt->primitive_count++] = &bench_scan;
    if (opt->type_count == 0) {
      opt->types[opt->type_count++] = PRISM_I32;
      opt->types[opt->type_count++] = PRISM_F32;
    }
  }
  if (opt->primitive_count == 0) {
    for (int i = 0; i < bench_primitive_count; i++) {
      if (!bench_primitives[i]->by_name_only)
        opt->primitives[opt->primitive_count++] = bench_primitives[i];
    }
  }
  if (opt->type_count == 0) {
    opt->types[opt->type_count++] = PRISM_I32;
    opt->types_defaulted = 1;
  }
  if (opt->op_count == 0)
    opt->ops[opt->op_count++] = PRISM_SUM;
  if (opt->kind_count == 0)
    opt->kinds[opt->kind_count++] = PRISM_EXCLUSIVE;
  if (opt->order_count == 0)
    opt->orders[opt->order_count++] = PRISM_ASCENDING;
  if (opt->value_size_count == 0)
    opt->value_sizes[opt->value_size_count++] = 0;
  if (opt->bin_count == 0)
    opt->bins[opt->bin_count++] = DEFAULT_BINS;
  if (opt->dist_count == 0)
    opt->dists[opt->dist_count++] = BENCH_DIST_UNIFORM;
  if (opt->keep_count == 0)
    opt->keeps[opt->keep_count++] = DEFAULT_KEEP;
  if (opt->segment_count == 0) {
    opt->segments[opt->segment_count] = INPUT_SEGMENT_MEAN;
    opt->skews[opt->segment_count++] = 0;
  }
  if (opt->reps == 0)
    opt->reps = opt->quick ? QUICK_REPS : DEFAULT_REPS;
  if (opt->graph_count == 0)
    snprintf(opt->graphs[opt->graph_count++], OPTIONS_PATH_SIZE, "%s",
             DEFAULT_GRAPH);
  if (opt->sources == 0)
    opt->sources = DEFAULT_SOURCES;
  return -1;
}

int options_parse(int argc, char **argv, bench_options *opt) {
  set_defaults(opt);
  for (int i = 1; i < argc; i++) {
    char name[64];
    const char *arg = argv[i];
    const char *eq = NULL;
    int rc = 0;
    if (arg[0] != '-') { /* PRIMITIVES */
      rc = for_each_item("PRIMITIVES", arg, primitive_item, opt);
      if (rc)
        return rc;
      continue;
    }
    if (strncmp(arg, "--", 2) == 0 && (eq = strchr(arg, '=')) != NULL) {
      snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
      eq++;
    } else {
      snprintf(name, sizeof name, "%s", arg);
    }

    if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0) {
      print_usage();
      return BENCH_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
      printf("prism-bench: prism %s, commit %s\n", prism_version(),
             meta_commit());
      return BENCH_EXIT_OK;
    }
    if (strcmp(name, "--list-devices") == 0) {
      if (eq)
        return bad(name, "takes no value");
      opt->list_devices = 1;
      continue;
    }
    if (strcmp(name, "--output") == 0) {
      const char *value = option_value(argc, argv, &i, eq);
      if (!value || !*value)
        return bad(name, "needs a file name");
      opt->output = value;
      continue;
    }
    if (strcmp(name, "--csv") == 0 || strcmp(name, "--json") == 0) {
      report_format f = name[2] == 'c' ? REPORT_CSV : REPORT_JSON;
      if (eq)
        return bad(name, "takes no value");
      if (opt->format != REPORT_TABLE && opt->format != f)
        return bad(name, "--csv and --json exclude each other");
      opt->format = f;
      continue;
    }

    static const struct {
      const char *name;
      item_fn item;
    } lists[] = {{"--backend", backend_item},
                 {"--opencl-platform", platform_item},
                 {"--type", type_item},
                 {"--op", op_item},
                 {"--kind", kind_item},
                 {"--n", size_item},
                 {"--order", order_item},
                 {"--values", values_item},
                 {"--bins", bins_item},
                 {"--dist", dist_item},
                 {"--keep", keep_item},
                 {"--segment", segment_item},
                 {"--k", k_item},
                 {"--rows", rows_item},
                 {"--graph", graph_item},
                 {"--matrices", matrix_item},
                 {"--shapes", shape_item},
                 {"--element-size", element_size_item},
                 {"--radius", radius_item},
                 {"--border", border_item}};
    int known = 0;
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++) {
      if (strcmp(name, lists[l].name) != 0)
        continue;
      const char *value = option_value(argc, argv, &i, eq);
      if (!value)
        return bad(name, "needs a value");
      if ((rc = for_each_item(name, value, lists[l].item, opt)) != 0)
        return rc;
      known = 1;
    }
    if (known)
      continue;

    if (strcmp(name, "--pairs") == 0) {
      if (eq)
        return bad(name, "takes no value (it means --values 4)");
      if ((rc = add_value_size(name, 4, opt)) != 0)
        return rc;
      continue;
    }
    if (strcmp(name, "--parents") == 0 || strcmp(name, "--symmetrize") == 0) {
      if (eq)
        return bad(name, "takes no value");
      if (name[2] == 'p')
        opt->parents = 1;
      else
        opt->symmetrize = 1;
      continue;
    }

    unsigned long long v;
    if (strcmp(name, "--bits") == 0) {
      const char *value = option_value(argc, argv, &i, eq);
      if (!value)
        return bad(name, "needs a value");
      if ((rc = parse_bits(name, value, opt)) != 0)
        return rc;
    } else if (strcmp(name, "--device") == 0) {
      const char *value = option_value(argc, argv, &i, eq);
      if (!value)
        return bad(name, "needs a value");
      if (!parse_uint(value, 0, 1 << 20, &v))
        return bad(name, "'%s' is not a device index", value);
      opt->device = (int)v;
    } else if (strcmp(name, "--reps") == 0) {
      const char *value = option_value(argc, argv, &i, eq);
      if (!value)
        return bad(name, "needs a value");
      if (!parse_uint(value, 1, 100000, &v))
        return bad(name, "'%s' is not a count from 1 to 100000", value);
      opt->reps = (int)v;
    } else if (strcmp(name, "--sources") == 0) {
      const char *value = option_value(argc, argv, &i, eq);
      if (!value)
        return bad(name, "needs a value");
      if (!parse_uint(value, 1, MAX_SOURCES, &v))
        return bad(name, "'%s' is not a count from 1 to %d", value,
                   MAX_SOURCES);
      opt->sources = (int)v;
    } else if (strcmp(name, "--alpha") == 0 || strcmp(name, "--beta") == 0) {
      const char *value = option_value(argc, argv, &i, eq);
      if (!value)
        return bad(name, "needs a value");
      if ((rc = parse_factor(name, value,
                             name[2] == 'a' ? &opt->alpha : &opt->beta)) != 0)
        return rc;
    } else if (strcmp(name, "--matrix") == 0) {
      const char *value = option_value(argc, argv, &i, eq);
      if (!value || !*value)
        return bad(name, "needs a file name");
      if ((rc = add_matrix(name, value, 1, opt)) != 0)
        return rc;
    } else if (strcmp(name, "--spmv-beta") == 0) {
      const char *value = option_value(argc, argv, &i, eq);
      if (!value)
        return bad(name, "needs a value");
      if ((rc = parse_beta(name, value, &opt->spmv_beta)) != 0)
        return rc;
    } else if (strcmp(name, "--seed") == 0) {
      const char *value = option_value(argc, argv, &i, eq);
      if (!value)
        return bad(name, "needs a value");
      if (!parse_uint(value, 0, UINT64_MAX, &v))
        return bad(name, "'%s' is not an unsigned integer", value);
      opt->seed = v;
    } else {
      return bad(name, "unknown option");
    }
  }
  return finish(opt);
}

int options_sizes(const bench_options *opt, int is_cpu, size_t *ns, int max) {
  int count = 0;
  if (opt->n_count > 0) {
    for (int i = 0; i < opt->n_count && count < max; i++)
      ns[count++] = opt->ns[i];
    return count;
  }
  if (opt->quick) {
    static const int cpu[] = {10, 16, 20, 24};
    static const int gpu[] = {10, 16, 20, 24, 28};
    const int *log2s = is_cpu ? cpu : gpu;
    int len = is_cpu ? 4 : 5;
    for (int i = 0; i < len && count < max; i++)
      ns[count++] = (size_t)1 << log2s[i];
    return count;
  }
  int top = is_cpu ? SWEEP_CPU_MAX_LOG2 : SWEEP_GPU_MAX_LOG2;
  for (int k = SWEEP_MIN_LOG2; k <= top && count < max; k += 2)
    ns[count++] = (size_t)1 << k;
  return count;
}
