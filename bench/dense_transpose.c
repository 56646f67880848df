/* SPDX-License-Identifier: MIT */
/*
 * transpose: prism_transpose timed on row-major matrices and batches of
 * them (--shapes RxC and BxRxC) at each element size (--element-size):
 * the primitive table's bench_transpose, a loop of its own.
 *
 * For each shape and element size: random bits as the input, and
 * - the serial C transpose, timed, when a CPU device is measured (its
 *   reference): a loop over 32 x 32 tiles, so that the reads and the
 *   writes of a tile share the cache;
 * - the naive CUDA transpose (dense_ref.h) when an NVIDIA device is
 *   measured and prism-bench was built with CUDA: the reference of NVIDIA
 *   devices, a row of its own;
 * - prism on each device: one call checked, then timed (dense.h).
 * Every result, references included, is checked element by element
 * against the input: a transpose moves bits.
 *
 * The rows go into the array primitives' table: n is the elements, the
 * variant the shape, the type the element size ("4B"), GB/s each element
 * read once and written once.
 */
#include "dense.h"
#include "dense_spec.h"
#include "input.h"
#include "primitive.h"

#ifdef PRISM_BENCH_HAVE_CUDA
#include "dense_ref.h"
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SERIAL_TILE 32
#define SEED_INPUT 0x5452u /* what the input's seed adds to --seed */
#define SHAPE_NAME_SIZE 64

static const char *const gpu_shapes[] = {"16384x16384", "3x10^8", "10^8x3",
                                         NULL};
static const char *const cpu_shapes[] = {"4096x4096", "3x10^7", "10^7x3", NULL};
/* Odd sides (no tile divides them), skinny ones, a batch, one element. */
static const char *const small_shapes[] = {"67x131",  "3x1000", "1000x3",
                                           "5x33x17", "1x1",    NULL};
static const dense_shape_defaults defaults = {gpu_shapes, cpu_shapes,
                                              small_shapes};
static const size_t all_sizes[] = {1, 2, 4, 8};

/* Matrices (RxC) and batches of them (BxRxC). */
static int takes(unsigned dims) {
  return dims == 2 || dims == 3;
}

typedef struct transpose_job {
  bench_run *run;
  const bench_options *opt;
  char shape[SHAPE_NAME_SIZE]; /* the rows' variant */
  char type[8];                /* "4B" */
  size_t batch, rows, cols, n, element_size, bytes;
  void *in, *out, *serial_out; /* host: bytes each */
  dense_reference serial, naive;
} transpose_job;

/* ---- Serial C: the timed loop and the check -------------------------------
 */

/* The transpose over SERIAL_TILE x SERIAL_TILE tiles, and the check that
 * out is the input transposed (the first element that is not in msg). */
#define TRANSPOSE_TYPED(SUFFIX, E)                                             \
  static void serial_##SUFFIX(const transpose_job *job, const E *in, E *out) { \
    const size_t rows = job->rows, cols = job->cols, m = rows * cols;          \
    for (size_t b = 0; b < job->batch; b++) {                                  \
      const E *a = in + b * m;                                                 \
      E *t = out + b * m;                                                      \
      for (size_t r0 = 0; r0 < rows; r0 += SERIAL_TILE) {                      \
        const size_t r1 = rows - r0 < SERIAL_TILE ? rows : r0 + SERIAL_TILE;   \
        for (size_t c0 = 0; c0 < cols; c0 += SERIAL_TILE) {                    \
          const size_t c1 = cols - c0 < SERIAL_TILE ? cols : c0 + SERIAL_TILE; \
          for (size_t r = r0; r < r1; r++) {                                   \
            for (size_t c = c0; c < c1; c++)                                   \
              t[c * rows + r] = a[r * cols + c];                               \
          }                                                                    \
        }                                                                      \
      }                                                                        \
    }                                                                          \
  }                                                                            \
  static int check_##SUFFIX(const transpose_job *job, const E *in,             \
                            const E *out, char *msg, size_t msg_size) {        \
    const size_t rows = job->rows, cols = job->cols, m = rows * cols;          \
    for (size_t b = 0; b < job->batch; b++) {                                  \
      for (size_t r0 = 0; r0 < rows; r0 += SERIAL_TILE) {                      \
        const size_t r1 = rows - r0 < SERIAL_TILE ? rows : r0 + SERIAL_TILE;   \
        for (size_t c0 = 0; c0 < cols; c0 += SERIAL_TILE) {                    \
          const size_t c1 = cols - c0 < SERIAL_TILE ? cols : c0 + SERIAL_TILE; \
          for (size_t r = r0; r < r1; r++) {                                   \
            for (size_t c = c0; c < c1; c++) {                                 \
              E want = in[b * m + r * cols + c];                               \
              E got = out[b * m + c * rows + r];                               \
              if (got != want) {                                               \
                snprintf(msg, msg_size,                                        \
                         "out[%zu][%zu][%zu] = 0x%llx, want in[%zu][%zu][%zu]" \
                         " = 0x%llx",                                          \
                         b, c, r, (unsigned long long)got, b, r, c,            \
                         (unsigned long long)want);                            \
                return 0;                                                      \
              }                                                                \
            }                                                                  \
          }                                                                    \
        }                                                                      \
      }                                                                        \
    }                                                                          \
    return 1;                                                                  \
  }
TRANSPOSE_TYPED(u8, uint8_t)
TRANSPOSE_TYPED(u16, uint16_t)
TRANSPOSE_TYPED(u32, uint32_t)
TRANSPOSE_TYPED(u64, uint64_t)
#undef TRANSPOSE_TYPED

static int serial_call(void *arg) {
  transpose_job *job = arg;
  switch (job->element_size) {
  case 1:
    serial_u8(job, job->in, job->serial_out);
    break;
  case 2:
    serial_u16(job, job->in, job->serial_out);
    break;
  case 4:
    serial_u32(job, job->in, job->serial_out);
    break;
  default:
    serial_u64(job, job->in, job->serial_out);
    break;
  }
  return 0;
}

static int check_out(const void *arg, const void *out, char *msg,
                     size_t msg_size) {
  const transpose_job *job = arg;
  switch (job->element_size) {
  case 1:
    return check_u8(job, job->in, out, msg, msg_size);
  case 2:
    return check_u16(job, job->in, out, msg, msg_size);
  case 4:
    return check_u32(job, job->in, out, msg, msg_size);
  default:
    return check_u64(job, job->in, out, msg, msg_size);
  }
}

/* ---- Rows -----------------------------------------------------------------
 */

static report_row job_row(const transpose_job *job, const bench_device *dev) {
  report_row row = measure_device_row(dev, "transpose");
  row.op = job->shape; /* the variant: report_variant prints op as it is */
  row.type = job->type;
  row.n = job->n;
  row.bytes = 2.0 * (double)job->bytes;
  return row;
}

/* The naive CUDA transpose, where an NVIDIA device is measured. */
static void cuda_reference(transpose_job *job, const bench_device *devices,
                           int count) {
  const bench_device *nvidia = dense_first_nvidia(devices, count);
  if (!nvidia)
    return;
#ifdef PRISM_BENCH_HAVE_CUDA
  int device = dense_cuda_device(job->opt);
  char msg[DENSE_NOTE_SIZE];
  dense_ref *ref = NULL;
  dense_reference *r = &job->naive;
  r->used = 1;
  dense_ref_status st =
      dense_ref_create(device, job->in, job->bytes, &ref, r->device,
                       sizeof r->device, msg, sizeof msg);
  if (st == DENSE_REF_OK) {
    dense_note_cuda_device("the naive CUDA transpose", device, r->device,
                           nvidia);
    st = dense_ref_transpose(ref, job->element_size, job->rows, job->cols,
                             job->batch, measure_timer(job->run), &r->t,
                             job->out, msg, sizeof msg);
  }
  dense_ref_destroy(ref);
  if (st != DENSE_REF_OK)
    dense_reference_fail(
        r, st == DENSE_REF_SKIPPED ? REPORT_SKIP : REPORT_ERROR, msg);
  else if (!check_out(job, job->out, msg, sizeof msg))
    dense_reference_fail(r, REPORT_FAIL, msg);
#else
  report_note("no naive transpose rows: prism-bench was built without CUDA");
#endif
}

typedef struct prism_call {
  prism_context *ctx;
  const transpose_job *job;
  prism_buffer *in, *out;
} prism_call;

static int prism_call_run(void *arg) {
  const prism_call *c = arg;
  return (int)prism_transpose(c->ctx, c->job->element_size, c->in, c->out,
                              c->job->rows, c->job->cols, c->job->batch);
}

/* Upload the input to dev, check one call, time it; its row. */
static void device_measure(transpose_job *job, bench_device *dev) {
  report_row row = job_row(job, dev);
  prism_call c = {dev->ctx, job, NULL, NULL};
  prism_status st = bench_upload(dev->ctx, job->in, job->bytes, &c.in);
  if (st == PRISM_OK)
    st = prism_buffer_create(dev->ctx, job->bytes, &c.out);
  if (st != PRISM_OK) {
    measure_failure_row(job->run, dev, row, "prism_buffer_create", st);
  } else {
    const dense_reference *ref =
        dev->is_nvidia ? dense_reference_timed(&job->naive)
        : dev->is_cpu  ? dense_reference_timed(&job->serial)
                       : NULL;
    dense_prism p = {dev->ctx, "prism_transpose", prism_call_run, &c, c.out,
                     job->out, job->bytes,        check_out,      job};
    dense_measure_prism(job->run, dev, row, &p, ref);
  }
  prism_buffer_destroy(c.out);
  prism_buffer_destroy(c.in);
}

/* One shape at one element size on every device, each reference after
 * the first device it stands beside. */
static void measure_job(transpose_job *job, bench_device *devices, int count) {
  int cpu = 0;
  for (int d = 0; d < count; d++)
    cpu |= devices[d].is_cpu;
  dense_reference_init(&job->serial, "serial");
  dense_reference_init(&job->naive, "naive");
  job->in = malloc(job->bytes);
  job->out = malloc(job->bytes);
  job->serial_out = cpu ? malloc(job->bytes) : NULL;
  if (!job->in || !job->out || (cpu && !job->serial_out)) {
    for (int d = 0; d < count; d++)
      measure_status_row(job->run, job_row(job, &devices[d]), REPORT_SKIP,
                         "host out of memory");
  } else {
    input_fill_random(PRISM_U8, job->in, job->bytes,
                      job->opt->seed + SEED_INPUT + job->n);
    if (cpu)
      dense_measure_serial(job->run, &job->serial, serial_call, job, check_out,
                           job, job->serial_out);
    cuda_reference(job, devices, count);
    int serial_done = 0, cuda_done = 0;
    for (int d = 0; d < count; d++) {
      bench_device *dev = &devices[d];
      device_measure(job, dev);
      if (dev->is_cpu && job->serial.used && !serial_done) {
        dense_reference_row(job->run, job_row(job, dev), &job->serial);
        serial_done = 1;
      }
      if (dev->is_nvidia && job->naive.used && !cuda_done) {
        dense_reference_row(job->run, job_row(job, dev), &job->naive);
        cuda_done = 1;
      }
    }
  }
  free(job->serial_out);
  free(job->out);
  free(job->in);
}

/* The element sizes of a shape: --element-size, or all four (4 bytes
 * alone for a skinny matrix). */
static int element_sizes(const bench_options *opt, const transpose_job *job,
                         size_t *sizes) {
  if (opt->element_size_count) {
    for (int i = 0; i < opt->element_size_count; i++)
      sizes[i] = opt->element_sizes[i];
    return opt->element_size_count;
  }
  if (job->rows < DENSE_SKINNY_SIDE || job->cols < DENSE_SKINNY_SIDE) {
    sizes[0] = 4;
    return 1;
  }
  memcpy(sizes, all_sizes, sizeof all_sizes);
  return 4;
}

static void transpose_measure_all(bench_run *run, bench_device *devices,
                                  int count, const bench_options *opt) {
  dense_shape shapes[DENSE_MAX_SHAPES];
  int left_out, shape_count = dense_shapes(opt->shapes, opt->shape_count,
                                           dense_any_gpu(devices, count),
                                           &defaults, takes, shapes, &left_out);
  report_note("transpose: out[b][c][r] = in[b][r][c] for each matrix of "
              "a batch (BxRxC; RxC: one); n: the elements; type: bytes "
              "an element; GB/s: each element read once and written once");
  report_note("transpose: ratio: ref's time / prism's; ref: naive (a CUDA "
              "thread per element, the reads coalesced, the writes strided; "
              "its own row) on NVIDIA devices, serial (a C loop over %d x %d "
              "tiles) on CPU devices",
              SERIAL_TILE, SERIAL_TILE);
  if (left_out)
    report_note("transpose: %d --shapes entries are not RxC or BxRxC: not "
                "run",
                left_out);
  for (int i = 0; i < shape_count; i++) {
    transpose_job job;
    size_t sizes[OPTIONS_MAX_ITEMS];
    memset(&job, 0, sizeof job);
    job.run = run;
    job.opt = opt;
    dense_shape_name(&shapes[i], job.shape, sizeof job.shape);
    const unsigned d = shapes[i].dims;
    job.batch = d == 3 ? shapes[i].extent[0] : 1;
    job.rows = shapes[i].extent[d - 2];
    job.cols = shapes[i].extent[d - 1];
    job.n = job.batch * job.rows * job.cols;
    int size_count = element_sizes(opt, &job, sizes);
    for (int s = 0; s < size_count; s++) {
      job.element_size = sizes[s];
      job.bytes = job.n * job.element_size;
      snprintf(job.type, sizeof job.type, "%zuB", job.element_size);
      measure_job(&job, devices, count);
    }
  }
}

/* "transpose " and the widest shape. */
static int transpose_label_width(const bench_options *opt) {
  return (int)(strlen("transpose ") + dense_shapes_widest(opt->shapes,
                                                          opt->shape_count,
                                                          &defaults, takes));
}

const bench_primitive bench_transpose = {
    .name = "transpose",
    .by_name_only = 1,
    .copy_row = 1,
    .label_width = transpose_label_width,
    .measure_all = transpose_measure_all,
};
