/* SPDX-License-Identifier: MIT */
/*
 * spmv: prism_spmv timed on sparse matrices, y = alpha * A * x + beta * y
 * (alpha 1, beta --spmv-beta, 0 by default): the primitive table's
 * bench_spmv, a loop of its own over --matrices and --matrix.
 *
 * For each matrix: build its structure on the host once (matrix_spec.h);
 * then for each type (f32, f64) its values, x random in [-1, 1) and y's
 * start (random where beta is not 0, else NaN: beta = 0 must not read y),
 * and
 * - the serial C CSR loop, timed, when a CPU device is measured (its
 *   reference);
 * - cuSPARSE's cusparseSpMV and the seeds' warp-per-row kernel
 *   (spmv_ref.h) when an NVIDIA device is measured and prism-bench was
 *   built with CUDA: cuSPARSE is the reference of NVIDIA devices (CUDA,
 *   and OpenCL on the same GPU), the warp kernel a row of its own;
 * - prism on each device: the matrix made (prism_matrix_create, untimed),
 *   one call checked, then timed as the array rows are (timing.h).
 * Every result, references included, is checked row by row against a sum
 * in higher precision (double for f32, long double for f64) within
 * prism_spmv's bound, (k + 2) eps (|alpha| sum_j |a_ij x_j| + |beta y_i|)
 * for a row of k entries; a row outside it fails the measurement.
 *
 * The rows go into the array primitives' table: n is the matrix's entries
 * (Gelem/s: entries per second, half the GFLOP/s), the variant the
 * matrix's name, GB/s the bytes of A, x and y moved once.
 */
#include "input.h"
#include "matrix_spec.h"
#include "measure.h"
#include "options.h"
#include "primitive.h"
#include "report.h"
#include "timing.h"

#ifdef PRISM_BENCH_HAVE_CUDA
#include "spmv_ref.h"
#endif

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOTE_SIZE 512
#define NAME_SIZE 256
#define ALPHA 1.0
/* What the seeds of x and of y's start add to --seed. */
#define SEED_X 0x78u
#define SEED_Y 0x79u
#define ROW_OFFSET_BYTES 8 /* prism_csr's row offsets */
#define COLUMN_BYTES 4     /* and column indices */

/* --matrices when none are given: the set where a GPU is measured,
 * smaller ones (seconds on PoCL with 2 cores) where only CPU devices are. */
static const char *const default_gpu_matrices[] = {
    "laplace2d:4096", "laplace3d27:128", "rmat:22", "hugerow:2^22"};
static const char *const default_cpu_matrices[] = {
    "laplace2d:1024", "laplace3d27:64", "rmat:18", "hugerow:2^18"};
#define DEFAULT_MATRICES 4

/* ---- The job: one matrix, one type, every device --------------------------
 */

/* A reference: measured, or why not (a row kept for after its device). */
typedef struct reference {
  const char *backend; /* "serial", "cusparse", "warp" */
  char device[NAME_SIZE];
  int used; /* measured for some device of the run */
  report_status status;
  char note[NOTE_SIZE];
  bench_timing t; /* status REPORT_OK */
} reference;

typedef struct spmv_job {
  bench_run *run;
  const bench_options *opt;
  matrix_spec spec;
  char name[NAME_SIZE]; /* the rows' name of the matrix */
  matrix_host host;
  prism_type type;
  double alpha, beta; /* rounded to type */
  void *x, *y0, *y;   /* host: cols, rows and rows elements of type */
  reference serial, cusparse, warp;
} spmv_job;

/* The least traffic of one call: A's row offsets, columns and values, x
 * and y once each (y read too where beta is not 0). */
static double bytes_moved(const spmv_job *job) {
  const prism_csr_matrix *m = &job->host.m;
  double value = (double)prism_type_size(job->type);
  double rows = (double)m->csr.num_vertices;
  return ROW_OFFSET_BYTES * (rows + 1) +
         (COLUMN_BYTES + value) * (double)m->csr.num_edges +
         value * (double)m->num_cols + value * rows * (job->beta != 0 ? 2 : 1);
}

static report_row matrix_row(const spmv_job *job, const bench_device *dev) {
  report_row row = measure_device_row(dev, "spmv");
  row.op = job->name; /* the variant: report_variant prints op as it is */
  row.type = prism_type_name(job->type);
  row.n = job->host.m.csr.num_edges;
  row.bytes = job->host.m.csr.row_offsets ? bytes_moved(job) : 0;
  return row;
}

/* The same row with status and note for every device: the matrix could
 * not be built, or the type is not one spmv takes. */
static void all_devices_row(spmv_job *job, bench_device *devices, int count,
                            report_status status, const char *note) {
  for (int d = 0; d < count; d++)
    measure_status_row(job->run, matrix_row(job, &devices[d]), status, note);
}

static void reference_fail(reference *r, report_status status,
                           const char *note) {
  r->status = status;
  snprintf(r->note, sizeof r->note, "%s", note);
}

/* ---- Serial C: the timed loop and the check -------------------------------
 */

/* The straightforward CSR loop in the value type, as a C user writes it:
 * the serial reference of CPU devices. */
#define SERIAL_SPMV(NAME, T)                                                   \
  static void NAME(const prism_csr_matrix *a, const T *x, T alpha, T beta,     \
                   T *y) {                                                     \
    const uint64_t *offsets = a->csr.row_offsets;                              \
    const uint32_t *columns = a->csr.col_indices;                              \
    const T *values = a->values;                                               \
    for (size_t i = 0; i < a->csr.num_vertices; i++) {                         \
      T sum = 0;                                                               \
      for (uint64_t e = offsets[i]; e < offsets[i + 1]; e++)                   \
        sum += values[e] * x[columns[e]];                                      \
      y[i] = beta == 0 ? alpha * sum : alpha * sum + beta * y[i];              \
    }                                                                          \
  }
SERIAL_SPMV(serial_f32, float)
SERIAL_SPMV(serial_f64, double)
#undef SERIAL_SPMV

/* Whether y holds alpha A x + beta y0 in every row within prism_spmv's
 * bound, the sums taken in ACC; else 0 with the first row that does not
 * in msg. y0 is read only where beta is not 0. */
#define CHECK_SPMV(NAME, T, ACC, ABS, EPS)                                     \
  static int NAME(const spmv_job *job, const T *y, char *msg,                  \
                  size_t msg_size) {                                           \
    const prism_csr_matrix *a = &job->host.m;                                  \
    const uint64_t *offsets = a->csr.row_offsets;                              \
    const uint32_t *columns = a->csr.col_indices;                              \
    const T *values = a->values, *x = job->x, *y0 = job->y0;                   \
    ACC alpha = (ACC)job->alpha, beta = (ACC)job->beta;                        \
    for (size_t i = 0; i < a->csr.num_vertices; i++) {                         \
      ACC sum = 0, size = 0;                                                   \
      for (uint64_t e = offsets[i]; e < offsets[i + 1]; e++) {                 \
        ACC p = (ACC)values[e] * (ACC)x[columns[e]];                           \
        sum += p;                                                              \
        size += ABS(p);                                                        \
      }                                                                        \
      ACC want = alpha * sum, bound = ABS(alpha) * size;                       \
      if (beta != 0) {                                                         \
        want += beta * (ACC)y0[i];                                             \
        bound += ABS(beta * (ACC)y0[i]);                                       \
      }                                                                        \
      ACC k = (ACC)(offsets[i + 1] - offsets[i]);                              \
      ACC tolerance = (k + 2) * (ACC)EPS * bound;                              \
      if (!(ABS((ACC)y[i] - want) <= tolerance)) {                             \
        snprintf(msg, msg_size,                                                \
                 "row %zu (%.0f entries): y = %.9g, want %.17g within %.3g",   \
                 i, (double)k, (double)y[i], (double)want, (double)tolerance); \
        return 0;                                                              \
      }                                                                        \
    }                                                                          \
    return 1;                                                                  \
  }
CHECK_SPMV(check_f32, float, double, fabs, FLT_EPSILON)
CHECK_SPMV(check_f64, double, long double, fabsl, DBL_EPSILON)
#undef CHECK_SPMV

static int check_y(const spmv_job *job, const void *y, char *msg,
                   size_t msg_size) {
  return job->type == PRISM_F32 ? check_f32(job, y, msg, msg_size)
                                : check_f64(job, y, msg, msg_size);
}

/* y = y0, the rows of the job's type. */
static void y_start(const spmv_job *job, void *y) {
  memcpy(y, job->y0, job->host.m.csr.num_vertices * prism_type_size(job->type));
}

static int serial_call(void *arg) {
  spmv_job *job = arg;
  if (job->type == PRISM_F32)
    serial_f32(&job->host.m, job->x, (float)job->alpha, (float)job->beta,
               job->y);
  else
    serial_f64(&job->host.m, job->x, job->alpha, job->beta, job->y);
  return 0;
}

/* The serial loop: one call from y0 checked, then timed (into job->y). */
static void serial_measure(spmv_job *job) {
  reference *r = &job->serial;
  char msg[NOTE_SIZE];
  r->used = 1;
  y_start(job, job->y);
  serial_call(job);
  if (!check_y(job, job->y, msg, sizeof msg)) {
    reference_fail(r, REPORT_FAIL, msg);
    return;
  }
  if (bench_time(serial_call, NULL, job, measure_timer(job->run), &r->t) != 0)
    reference_fail(r, REPORT_SKIP, "host out of memory");
}

/* ---- cuSPARSE and the warp-per-row kernel ---------------------------------
 */

#ifdef PRISM_BENCH_HAVE_CUDA
static void cuda_reference(spmv_job *job, spmv_ref *ref, spmv_ref_kind kind,
                           reference *r) {
  char msg[NOTE_SIZE];
  spmv_ref_status st =
      spmv_ref_run(ref, kind, job->alpha, job->beta, measure_timer(job->run),
                   &r->t, job->y, msg, sizeof msg);
  if (st != SPMV_REF_OK)
    reference_fail(r, st == SPMV_REF_SKIPPED ? REPORT_SKIP : REPORT_ERROR, msg);
  else if (!check_y(job, job->y, msg, sizeof msg))
    reference_fail(r, REPORT_FAIL, msg);
}
#endif

/* cuSPARSE and the warp kernel, where an NVIDIA device is measured. */
static void cuda_references(spmv_job *job, const bench_device *devices,
                            int count) {
  const bench_device *nvidia = NULL;
  for (int d = 0; d < count && !nvidia; d++) {
    if (devices[d].is_nvidia)
      nvidia = &devices[d];
  }
  if (!nvidia)
    return;
#ifdef PRISM_BENCH_HAVE_CUDA
  int device = job->opt->device >= 0 ? job->opt->device : 0;
  char msg[NOTE_SIZE], name[NAME_SIZE] = "";
  spmv_ref *ref = NULL;
  job->cusparse.used = job->warp.used = 1;
  spmv_ref_status st =
      spmv_ref_create(device, &job->host.m, job->x, job->y0, &ref, name,
                      sizeof name, msg, sizeof msg);
  snprintf(job->cusparse.device, NAME_SIZE, "%s", name);
  snprintf(job->warp.device, NAME_SIZE, "%s", name);
  if (st != SPMV_REF_OK) {
    report_status status = st == SPMV_REF_SKIPPED ? REPORT_SKIP : REPORT_ERROR;
    reference_fail(&job->cusparse, status, msg);
    reference_fail(&job->warp, status, msg);
    return;
  }
  if (strcmp(name, nvidia->name) != 0)
    report_note("the CUDA SpMV references ran on CUDA device %d (%s), prism "
                "on %s: choose the same with --device",
                device, name, nvidia->name);
  cuda_reference(job, ref, SPMV_REF_CUSPARSE, &job->cusparse);
  cuda_reference(job, ref, SPMV_REF_WARP, &job->warp);
  spmv_ref_destroy(ref);
#else
  report_note("no cusparse or warp rows: prism-bench was built without CUDA");
#endif
}

/* A reference's row, after the first device it stands beside. */
static void reference_row(spmv_job *job, const reference *r,
                          const bench_device *dev) {
  report_row row = matrix_row(job, dev);
  row.backend = r->backend;
  if (r->device[0]) {
    row.device = r->device;
    row.platform = "CUDA";
  }
  if (r->status != REPORT_OK) {
    measure_status_row(job->run, row, r->status, r->note);
    return;
  }
  measure_row_timing(&row, &r->t);
  report_row_print(&row);
}

/* ---- prism on one device --------------------------------------------------
 */

typedef struct prism_call {
  prism_context *ctx;
  prism_matrix *a;
  prism_buffer *x, *y;
  double alpha, beta;
} prism_call;

static int prism_call_run(void *arg) {
  prism_call *c = arg;
  return (int)prism_spmv(c->ctx, c->alpha, c->a, c->x, c->beta, c->y);
}

static int prism_call_finish(void *arg) {
  return (int)prism_context_finish(((prism_call *)arg)->ctx);
}

/* The reference a device's row is set against, or NULL. */
static const reference *reference_of(const spmv_job *job,
                                     const bench_device *dev) {
  const reference *r = dev->is_nvidia ? &job->cusparse
                       : dev->is_cpu  ? &job->serial
                                      : NULL;
  return r && r->used && r->status == REPORT_OK ? r : NULL;
}

/* Make the matrix on dev, check one call, time it; its row. */
static void device_measure(spmv_job *job, bench_device *dev) {
  const prism_csr_matrix *m = &job->host.m;
  size_t elem = prism_type_size(job->type);
  size_t y_bytes = m->csr.num_vertices * elem;
  report_row row = matrix_row(job, dev);
  char note[NOTE_SIZE];
  if (!prism_context_supports(dev->ctx, job->type)) {
    measure_status_row(job->run, row, REPORT_SKIP,
                       "type not supported by device");
    return;
  }
  prism_call c = {dev->ctx, NULL, NULL, NULL, job->alpha, job->beta};
  const char *call = "prism_matrix_create";
  prism_status st = prism_matrix_create(dev->ctx, m, &c.a);
  if (st == PRISM_OK) {
    call = "prism_buffer_create, prism_buffer_write";
    st = bench_upload(dev->ctx, job->x, m->num_cols * elem, &c.x);
  }
  if (st == PRISM_OK)
    st = bench_upload(dev->ctx, job->y0, y_bytes, &c.y);
  if (st == PRISM_OK) {
    call = "prism_spmv";
    st = (prism_status)prism_call_run(&c);
  }
  if (st == PRISM_OK)
    st = prism_context_finish(dev->ctx);
  if (st == PRISM_OK && y_bytes) {
    call = "prism_buffer_read";
    st = prism_buffer_read(c.y, 0, job->y, y_bytes);
  }
  if (st != PRISM_OK) {
    measure_failure_row(job->run, dev, row, call, st);
  } else if (!check_y(job, job->y, note, sizeof note)) {
    measure_status_row(job->run, row, REPORT_FAIL, note);
  } else {
    bench_timing t;
    st = (prism_status)bench_time(prism_call_run, prism_call_finish, &c,
                                  measure_timer(job->run), &t);
    if (st != PRISM_OK) {
      measure_failure_row(job->run, dev, row, "prism_spmv", st);
    } else {
      const reference *r = reference_of(job, dev);
      measure_row_timing(&row, &t);
      if (r) {
        row.reference = r->backend;
        row.ratio = r->t.median_s / t.median_s;
      }
      report_row_print(&row);
    }
  }
  prism_buffer_destroy(c.y);
  prism_buffer_destroy(c.x);
  prism_matrix_destroy(c.a);
}

/* ---- The loop -------------------------------------------------------------
 */

/* Host memory for x, y's start and a result; 0 when out of it. */
static int job_alloc(spmv_job *job) {
  size_t elem = prism_type_size(job->type);
  size_t rows = job->host.m.csr.num_vertices, cols = job->host.m.num_cols;
  job->x = malloc(cols ? cols * elem : 1);
  job->y0 = malloc(rows ? rows * elem : 1);
  job->y = malloc(rows ? rows * elem : 1);
  if (!job->x || !job->y0 || !job->y)
    return 0;
  input_fill_random(job->type, job->x, cols, job->opt->seed + SEED_X);
  if (job->beta != 0) {
    input_fill_random(job->type, job->y0, rows, job->opt->seed + SEED_Y);
  } else { /* never read: NaN would show it */
    for (size_t i = 0; i < rows; i++) {
      if (job->type == PRISM_F32)
        ((float *)job->y0)[i] = NAN;
      else
        ((double *)job->y0)[i] = NAN;
    }
  }
  return 1;
}

static void job_free_vectors(spmv_job *job) {
  free(job->y);
  free(job->y0);
  free(job->x);
  job->x = job->y0 = job->y = NULL;
}

/* One type of the matrix on every device, each reference after the first
 * device it stands beside. */
static void measure_type(spmv_job *job, bench_device *devices, int count,
                         prism_type type) {
  char msg[NOTE_SIZE];
  job->type = type;
  job->alpha = type == PRISM_F32 ? (double)(float)ALPHA : ALPHA;
  job->beta = type == PRISM_F32 ? (double)(float)job->opt->spmv_beta
                                : job->opt->spmv_beta;
  memset(&job->serial, 0, sizeof job->serial);
  memset(&job->cusparse, 0, sizeof job->cusparse);
  memset(&job->warp, 0, sizeof job->warp);
  job->serial.backend = "serial";
  job->cusparse.backend = "cusparse";
  job->warp.backend = "warp";
  if (type != PRISM_F32 && type != PRISM_F64) {
    all_devices_row(job, devices, count, REPORT_SKIP, "spmv takes f32 and f64");
    return;
  }
  prism_status st = matrix_build(&job->spec, type, job->opt->seed, &job->host,
                                 msg, sizeof msg);
  if (st != PRISM_OK) {
    all_devices_row(job, devices, count,
                    st == PRISM_OUT_OF_MEMORY ? REPORT_SKIP : REPORT_ERROR,
                    msg);
    return;
  }
  if (!job_alloc(job)) {
    all_devices_row(job, devices, count, REPORT_SKIP, "host out of memory");
    job_free_vectors(job);
    return;
  }
  for (int d = 0; d < count && !job->serial.used; d++) {
    if (devices[d].is_cpu)
      serial_measure(job);
  }
  cuda_references(job, devices, count);
  int serial_done = 0, cuda_done = 0;
  for (int d = 0; d < count; d++) {
    bench_device *dev = &devices[d];
    device_measure(job, dev);
    if (dev->is_cpu && job->serial.used && !serial_done) {
      reference_row(job, &job->serial, dev);
      serial_done = 1;
    }
    if (dev->is_nvidia && job->cusparse.used && !cuda_done) {
      reference_row(job, &job->cusparse, dev);
      reference_row(job, &job->warp, dev);
      cuda_done = 1;
    }
  }
  job_free_vectors(job);
}

/* The --type list, or f32 and f64 where --type was not given. */
static int spmv_types(const bench_options *opt, prism_type *types) {
  if (opt->types_defaulted) {
    types[0] = PRISM_F32;
    types[1] = PRISM_F64;
    return 2;
  }
  for (int i = 0; i < opt->type_count; i++)
    types[i] = opt->types[i];
  return opt->type_count;
}

/* Entry i of the matrices the run measures, and whether it is a --matrix
 * file; gpu: whether a GPU is measured (the defaults). */
static const char *matrix_entry(const bench_options *opt, int i, int gpu,
                                int *is_file) {
  *is_file = 0;
  if (opt->matrix_count == 0)
    return gpu ? default_gpu_matrices[i] : default_cpu_matrices[i];
  *is_file = opt->matrix_files[i];
  return opt->matrices[i];
}

static void spmv_measure_all(bench_run *run, bench_device *devices, int count,
                             const bench_options *opt) {
  prism_type types[OPTIONS_MAX_ITEMS];
  int type_count = spmv_types(opt, types), gpu = 0;
  for (int d = 0; d < count; d++)
    gpu |= !devices[d].is_cpu;
  report_note("spmv: y = A x%s; n: the matrix's entries, so Gelem/s is G "
              "entries/s and GFLOP/s is 2x Gelem/s; GB/s: A (8 B a row "
              "offset, 4 B a column index, a value an entry), x and y "
              "moved once",
              opt->spmv_beta != 0 ? " + beta y (--spmv-beta; y read too)" : "");
  report_note("spmv: ratio: ref's time / prism's; ref: cusparse "
              "(cusparseSpMV, CSR, ALG_DEFAULT, 32-bit indices where they "
              "fit) on NVIDIA devices, serial (a C CSR loop) on CPU "
              "devices; warp: the seeds' warp-per-row CUDA kernel, its own "
              "row (its time / prism's: prism's speed-up over it)");
  int matrix_count = opt->matrix_count ? opt->matrix_count : DEFAULT_MATRICES;
  for (int i = 0; i < matrix_count; i++) {
    spmv_job job;
    char msg[NOTE_SIZE];
    int is_file;
    const char *entry = matrix_entry(opt, i, gpu, &is_file);
    memset(&job, 0, sizeof job);
    job.run = run;
    job.opt = opt;
    /* checked by options.c, the defaults parse */
    matrix_spec_parse(entry, is_file, &job.spec, msg, sizeof msg);
    matrix_spec_name(&job.spec, job.name, sizeof job.name);
    for (int t = 0; t < type_count; t++)
      measure_type(&job, devices, count, types[t]);
    matrix_free(&job.host);
  }
}

/* "spmv " and the widest matrix name (the defaults: either set). */
static int spmv_label_width(const bench_options *opt) {
  size_t widest = 0;
  char name[NAME_SIZE], msg[NOTE_SIZE];
  int count = opt->matrix_count ? opt->matrix_count : 2 * DEFAULT_MATRICES;
  for (int i = 0; i < count; i++) {
    matrix_spec spec;
    int is_file;
    const char *entry = opt->matrix_count
                            ? matrix_entry(opt, i, 1, &is_file)
                            : matrix_entry(opt, i % DEFAULT_MATRICES,
                                           i < DEFAULT_MATRICES, &is_file);
    if (!matrix_spec_parse(entry, is_file, &spec, msg, sizeof msg))
      continue;
    matrix_spec_name(&spec, name, sizeof name);
    if (strlen(name) > widest)
      widest = strlen(name);
  }
  return (int)(strlen("spmv ") + widest);
}

const bench_primitive bench_spmv = {
    .name = "spmv",
    .by_name_only = 1,
    .copy_row = 1,
    .label_width = spmv_label_width,
    .measure_all = spmv_measure_all,
};
