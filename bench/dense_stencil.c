/* SPDX-License-Identifier: MIT */
/*
 * stencil and conv2d: prism_stencil_apply timed on grids (--shapes), one
 * application a call: the primitive table's bench_stencil and
 * bench_conv2d, loops of their own over the shapes, types, radii
 * (--radius) and borders (--border).
 *
 * stencil: a star of radius r, -2 dims r at the centre and 1 on each arm
 * (r = 1: the 5-point Laplacian in 2-D, the 7-point in 3-D; r = 0: the
 * identity) on 1-, 2- and 3-D grids. conv2d: a (2r + 1)^2 box of Gaussian
 * weights (sigma r / 2, summing to 1) on 2-D grids, prism's full-box path.
 *
 * For each grid and type: random input in [-1, 1) once; for each radius
 * and border
 * - the serial C stencil (stencil_serial.h), timed, when a CPU device is
 *   measured (its reference);
 * - on NVIDIA devices, where prism-bench was built with CUDA
 *   (dense_ref.h): stencil the naive stencil kernel; conv2d with the clamp
 *   border the seeds' constant-memory conv2d, with the zero border cuDNN,
 *   each the reference of its rows and a row of its own;
 * - prism on each device: the stencil made (prism_stencil_create,
 *   untimed), one call checked, then timed (dense.h).
 * prism, the serial loop and the naive kernels sum the same way, so each
 * result is checked for the serial loop's bits (stencil_serial.h says at
 * which points); cuDNN, whose algorithms sum in other orders, within a
 * bound.
 *
 * The rows go into the array primitives' table: n is the grid's points,
 * the variant the shape, the star's points ("5pt") or the box's side
 * ("k15") and the border, GB/s the grid read once and written once.
 */
#include "dense.h"
#include "dense_spec.h"
#include "input.h"
#include "primitive.h"
#include "stencil_serial.h"

#ifdef PRISM_BENCH_HAVE_CUDA
#include "dense_ref.h"
#endif

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED_INPUT 0x5354u /* what the input's seed adds to --seed */
#define SEED_CHECK 0x4348u /* and the seed of the points checked */
/* cuDNN's result against the serial loop's: its FFT and Winograd
 * algorithms round more than a direct sum of the taps does. */
#define CUDNN_SLACK 64.0
#define SHAPE_NAME_SIZE 64
#define VARIANT_SIZE 128

static const char *const stencil_gpu[] = {"8192x8192", "512x512x512", NULL};
static const char *const stencil_cpu[] = {"2048x2048", "128x128x128", NULL};
/* 1-D, odd sides, and a grid smaller than the box. */
static const char *const stencil_small[] = {"1000", "61x67", "19x23x29", "3x2",
                                            NULL};
static const char *const conv_gpu[] = {"8192x8192", NULL};
static const char *const conv_cpu[] = {"2048x2048", NULL};
static const char *const conv_small[] = {"61x67", "5x7", NULL};

static const dense_shape_defaults stencil_shapes = {stencil_gpu, stencil_cpu,
                                                    stencil_small};
static const dense_shape_defaults conv_shapes = {conv_gpu, conv_cpu,
                                                 conv_small};

static int takes_grid(unsigned dims) {
  return dims >= 1 && dims <= 3;
}

static int takes_image(unsigned dims) {
  return dims == 2;
}

/* What the stencil rows and the conv2d rows do differently. */
typedef struct stencil_kind {
  const char *name;
  int conv; /* Gaussian boxes, conv2d's references */
  const dense_shape_defaults *shapes;
  int (*takes)(unsigned dims);
  unsigned radii[2];
  int radius_count;
  prism_border borders[2];
  int border_count;
  prism_type types[2];
  int type_count;
} stencil_kind;

static const stencil_kind stencil_rows = {.name = "stencil",
                                          .shapes = &stencil_shapes,
                                          .takes = takes_grid,
                                          .radii = {1},
                                          .radius_count = 1,
                                          .borders = {PRISM_BORDER_ZERO},
                                          .border_count = 1,
                                          .types = {PRISM_F32, PRISM_F64},
                                          .type_count = 2};

static const stencil_kind conv_rows = {
    .name = "conv2d",
    .conv = 1,
    .shapes = &conv_shapes,
    .takes = takes_image,
    .radii = {2, 7},
    .radius_count = 2,
    .borders = {PRISM_BORDER_CLAMP, PRISM_BORDER_ZERO},
    .border_count = 2,
    .types = {PRISM_F32},
    .type_count = 1};

typedef struct stencil_job {
  bench_run *run;
  const bench_options *opt;
  const stencil_kind *kind;
  char shape[SHAPE_NAME_SIZE];
  char variant[VARIANT_SIZE];
  prism_stencil_desc desc;
  size_t bytes;
  void *weights;       /* (2r + 1)^dims of desc.type */
  stencil_plan *plan;  /* of desc and weights */
  void *in, *out;      /* host: the grid, a result */
  void *serial_out;    /* the serial loop's result, where a CPU is measured */
  int serial_valid;    /* serial_out holds this border's */
  uint64_t check_seed; /* the points checked without serial_out */
  dense_reference serial, naive, cudnn;
#ifdef PRISM_BENCH_HAVE_CUDA
  dense_ref *cuda; /* the grid on the CUDA device, for the references */
  int cuda_tried;
  dense_reference cuda_upload; /* its device, or why there is no cuda */
#endif
} stencil_job;

/* ---- Weights --------------------------------------------------------------
 */

/* The weights of the box: (2r + 1)^dims. */
static size_t box_size(const prism_stencil_desc *d) {
  size_t n = 1;
  for (unsigned a = 0; a < d->dims; a++)
    n *= 2 * (size_t)d->radius + 1;
  return n;
}

static void set_weight(stencil_job *job, size_t i, double w) {
  if (job->desc.type == PRISM_F64)
    ((double *)job->weights)[i] = w;
  else
    ((float *)job->weights)[i] = (float)w;
}

/* The star: -2 dims r at the centre, 1 on each arm; 1 at the centre for
 * r = 0. */
static void star_weights(stencil_job *job, size_t count) {
  const prism_stencil_desc *d = &job->desc;
  const size_t r = d->radius, side = 2 * r + 1;
  const size_t stride[3] = {1, side, side * side};
  size_t centre = 0;
  for (unsigned a = 0; a < d->dims; a++)
    centre += r * stride[a];
  for (size_t i = 0; i < count; i++)
    set_weight(job, i, 0);
  set_weight(job, centre, r ? -2.0 * d->dims * (double)r : 1.0);
  for (unsigned a = 0; a < d->dims; a++) {
    for (size_t k = 1; k <= r; k++) {
      set_weight(job, centre - k * stride[a], 1);
      set_weight(job, centre + k * stride[a], 1);
    }
  }
}

/* The Gaussian box, sigma r / 2 (1 for r = 0), normalised to sum 1. */
static void gauss_weights(stencil_job *job) {
  const int r = (int)job->desc.radius, side = 2 * r + 1;
  const double sigma = r ? r / 2.0 : 1.0;
  double sum = 0;
  for (int y = -r; y <= r; y++) {
    for (int x = -r; x <= r; x++)
      sum += exp(-(x * x + y * y) / (2 * sigma * sigma));
  }
  for (int y = -r; y <= r; y++) {
    for (int x = -r; x <= r; x++)
      set_weight(job, (size_t)((y + r) * side + x + r),
                 exp(-(x * x + y * y) / (2 * sigma * sigma)) / sum);
  }
}

/* ---- Rows -----------------------------------------------------------------
 */

static void name_variant(stencil_job *job) {
  const prism_stencil_desc *d = &job->desc;
  if (job->kind->conv)
    snprintf(job->variant, sizeof job->variant, "%s k%u %s", job->shape,
             2 * d->radius + 1, prism_border_name(d->border));
  else
    snprintf(job->variant, sizeof job->variant, "%s %upt %s", job->shape,
             2 * d->dims * d->radius + 1, prism_border_name(d->border));
}

static report_row job_row(const stencil_job *job, const bench_device *dev) {
  report_row row = measure_device_row(dev, job->kind->name);
  row.op = job->variant; /* report_variant prints op as it is */
  row.type = prism_type_name(job->desc.type);
  row.n = job->desc.nx * job->desc.ny * job->desc.nz;
  row.bytes = 2.0 * (double)job->bytes;
  return row;
}

static void all_devices_row(stencil_job *job, bench_device *devices, int count,
                            report_status status, const char *note) {
  for (int d = 0; d < count; d++)
    measure_status_row(job->run, job_row(job, &devices[d]), status, note);
}

/* ---- Checks and the serial loop -------------------------------------------
 */

/* prism's result and the kernels': the serial loop's bits. */
static int check_bits(const void *arg, const void *result, char *msg,
                      size_t msg_size) {
  const stencil_job *job = arg;
  return stencil_check_bits(job->plan, job->in, result,
                            job->serial_valid ? job->serial_out : NULL,
                            job->check_seed, msg, msg_size);
}

/* The serial loop's own result: its interior path against the border
 * rule of every point. */
static int check_serial(const void *arg, const void *result, char *msg,
                        size_t msg_size) {
  const stencil_job *job = arg;
  return stencil_check_bits(job->plan, job->in, result, NULL, job->check_seed,
                            msg, msg_size);
}

static int serial_call(void *arg) {
  stencil_job *job = arg;
  stencil_serial(job->plan, job->in, job->serial_out);
  return 0;
}

/* ---- CUDA references ------------------------------------------------------
 */

#ifdef PRISM_BENCH_HAVE_CUDA
/* The grid on the CUDA device, uploaded the first time a reference needs
 * it; NULL with job->cuda_upload saying why. */
static dense_ref *cuda_grid(stencil_job *job, const bench_device *nvidia) {
  if (!job->cuda_tried) {
    char msg[DENSE_NOTE_SIZE];
    dense_reference *f = &job->cuda_upload;
    int device = dense_cuda_device(job->opt);
    job->cuda_tried = 1;
    dense_ref_status st =
        dense_ref_create(device, job->in, job->bytes, &job->cuda, f->device,
                         sizeof f->device, msg, sizeof msg);
    if (st != DENSE_REF_OK)
      dense_reference_fail(
          f, st == DENSE_REF_SKIPPED ? REPORT_SKIP : REPORT_ERROR, msg);
    else
      dense_note_cuda_device("the CUDA stencil references", device, f->device,
                             nvidia);
  }
  return job->cuda;
}

static void cuda_reference(stencil_job *job, const bench_device *nvidia,
                           dense_ref_kind kind, dense_reference *r) {
  char msg[DENSE_NOTE_SIZE];
  dense_ref *grid = cuda_grid(job, nvidia);
  r->used = 1;
  snprintf(r->device, sizeof r->device, "%s", job->cuda_upload.device);
  if (!grid) {
    dense_reference_fail(r, job->cuda_upload.status, job->cuda_upload.note);
    return;
  }
  dense_ref_status st = dense_ref_stencil(grid, kind, &job->desc, job->weights,
                                          measure_timer(job->run), &r->t,
                                          job->out, msg, sizeof msg);
  if (st != DENSE_REF_OK) {
    dense_reference_fail(
        r, st == DENSE_REF_SKIPPED ? REPORT_SKIP : REPORT_ERROR, msg);
    return;
  }
  if (msg[0])
    report_note("%s %s %s: %s", job->kind->name, job->variant,
                prism_type_name(job->desc.type), msg);
  int ok = kind == DENSE_REF_CUDNN
               ? stencil_check_close(job->plan, job->in, job->out, CUDNN_SLACK,
                                     job->check_seed, msg, sizeof msg)
               : check_bits(job, job->out, msg, sizeof msg);
  if (!ok)
    dense_reference_fail(r, REPORT_FAIL, msg);
}
#endif

/* The NVIDIA references of the job's border, where an NVIDIA device is
 * measured: stencil the naive kernel; conv2d the seeds' kernel (clamp),
 * cuDNN (zero). */
static void cuda_references(stencil_job *job, const bench_device *devices,
                            int count) {
  const bench_device *nvidia = dense_first_nvidia(devices, count);
  if (!nvidia)
    return;
#ifdef PRISM_BENCH_HAVE_CUDA
  const prism_border border = job->desc.border;
  if (!job->kind->conv)
    cuda_reference(job, nvidia, DENSE_REF_NAIVE, &job->naive);
  else if (border == PRISM_BORDER_CLAMP)
    cuda_reference(job, nvidia, DENSE_REF_CONV2D, &job->naive);
  else if (border == PRISM_BORDER_ZERO)
    cuda_reference(job, nvidia, DENSE_REF_CUDNN, &job->cudnn);
#else
  report_note("no naive or cudnn %s rows: prism-bench was built without CUDA",
              job->kind->name);
#endif
}

/* ---- prism on one device --------------------------------------------------
 */

typedef struct prism_call {
  prism_context *ctx;
  prism_stencil *s;
  prism_buffer *in, *out;
} prism_call;

static int prism_call_run(void *arg) {
  const prism_call *c = arg;
  return (int)prism_stencil_apply(c->ctx, c->s, c->in, c->out, 1);
}

/* The reference a device's row is set against, or NULL. */
static const dense_reference *reference_of(const stencil_job *job,
                                           const bench_device *dev) {
  if (dev->is_cpu)
    return dense_reference_timed(&job->serial);
  if (!dev->is_nvidia)
    return NULL;
  const dense_reference *naive = dense_reference_timed(&job->naive);
  return naive ? naive : dense_reference_timed(&job->cudnn);
}

/* Make the stencil on dev, upload the grid, check one call, time it. */
static void device_measure(stencil_job *job, bench_device *dev) {
  report_row row = job_row(job, dev);
  if (!prism_context_supports(dev->ctx, job->desc.type)) {
    measure_status_row(job->run, row, REPORT_SKIP,
                       "type not supported by device");
    return;
  }
  prism_call c = {dev->ctx, NULL, NULL, NULL};
  const char *call = "prism_stencil_create";
  prism_status st =
      prism_stencil_create(dev->ctx, &job->desc, job->weights, &c.s);
  if (st == PRISM_OK) {
    call = "prism_buffer_create, prism_buffer_write";
    st = bench_upload(dev->ctx, job->in, job->bytes, &c.in);
  }
  if (st == PRISM_OK)
    st = prism_buffer_create(dev->ctx, job->bytes, &c.out);
  if (st != PRISM_OK) {
    measure_failure_row(job->run, dev, row, call, st);
  } else {
    dense_prism p = {dev->ctx,
                     "prism_stencil_apply",
                     prism_call_run,
                     &c,
                     c.out,
                     job->out,
                     job->bytes,
                     check_bits,
                     job};
    dense_measure_prism(job->run, dev, row, &p, reference_of(job, dev));
  }
  prism_buffer_destroy(c.out);
  prism_buffer_destroy(c.in);
  prism_stencil_destroy(c.s);
}

/* ---- The loop -------------------------------------------------------------
 */

/* One radius and border of the grid on every device, each reference
 * after the first device it stands beside. */
static void measure_border(stencil_job *job, bench_device *devices, int count) {
  name_variant(job);
  stencil_plan_make(job->plan, &job->desc, job->weights);
  dense_reference_init(&job->serial, "serial");
  dense_reference_init(&job->naive, "naive");
  dense_reference_init(&job->cudnn, "cudnn");
  job->serial_valid = 0;
  if (job->serial_out) {
    dense_measure_serial(job->run, &job->serial, serial_call, job, check_serial,
                         job, job->serial_out);
    job->serial_valid = job->serial.status == REPORT_OK;
  }
  cuda_references(job, devices, count);
  int serial_done = 0, cuda_done = 0;
  for (int d = 0; d < count; d++) {
    bench_device *dev = &devices[d];
    device_measure(job, dev);
    if (dev->is_cpu && job->serial.used && !serial_done) {
      dense_reference_row(job->run, job_row(job, dev), &job->serial);
      serial_done = 1;
    }
    if (dev->is_nvidia && !cuda_done) {
      if (job->naive.used)
        dense_reference_row(job->run, job_row(job, dev), &job->naive);
      if (job->cudnn.used)
        dense_reference_row(job->run, job_row(job, dev), &job->cudnn);
      cuda_done = 1;
    }
  }
}

/* One grid of one type: its input, then every radius and border. */
static void measure_grid(stencil_job *job, bench_device *devices, int count,
                         const unsigned *radii, int radius_count,
                         const prism_border *borders, int border_count) {
  const size_t size = prism_type_size(job->desc.type);
  const size_t points = job->desc.nx * job->desc.ny * job->desc.nz;
  int cpu = 0;
  for (int d = 0; d < count; d++)
    cpu |= devices[d].is_cpu;
  job->bytes = points * size;
  job->in = malloc(job->bytes);
  job->out = malloc(job->bytes);
  job->serial_out = cpu ? malloc(job->bytes) : NULL;
  job->plan = malloc(sizeof *job->plan);
  job->weights = malloc(STENCIL_MAX_BOX * sizeof(double));
  job->check_seed = job->opt->seed + SEED_CHECK + points;
  if (!job->in || !job->out || (cpu && !job->serial_out) || !job->plan ||
      !job->weights) {
    for (int r = 0; r < radius_count; r++) {
      for (int b = 0; b < border_count; b++) {
        job->desc.radius = radii[r];
        job->desc.border = borders[b];
        name_variant(job);
        all_devices_row(job, devices, count, REPORT_SKIP, "host out of memory");
      }
    }
  } else {
    input_fill_random(job->desc.type, job->in, points,
                      job->opt->seed + SEED_INPUT + points +
                          (uint64_t)job->desc.type);
    for (int r = 0; r < radius_count; r++) {
      job->desc.radius = radii[r];
      if (job->kind->conv)
        gauss_weights(job);
      else
        star_weights(job, box_size(&job->desc));
      for (int b = 0; b < border_count; b++) {
        job->desc.border = borders[b];
        measure_border(job, devices, count);
      }
    }
  }
#ifdef PRISM_BENCH_HAVE_CUDA
  dense_ref_destroy(job->cuda);
  job->cuda = NULL;
  job->cuda_tried = 0;
#endif
  free(job->weights);
  free(job->plan);
  free(job->serial_out);
  free(job->out);
  free(job->in);
}

/* The list an option gives (count items of size bytes), else the kind's
 * default, into out; returns its length. */
static int option_or_default(const void *given, int given_count,
                             const void *fallback, int fallback_count,
                             size_t size, void *out) {
  int count = given_count ? given_count : fallback_count;
  memcpy(out, given_count ? given : fallback, size * (size_t)count);
  return count;
}

static void measure_kind(const stencil_kind *kind, bench_run *run,
                         bench_device *devices, int count,
                         const bench_options *opt) {
  dense_shape shapes[DENSE_MAX_SHAPES];
  unsigned radii[OPTIONS_MAX_ITEMS];
  prism_border borders[OPTIONS_MAX_ITEMS];
  prism_type types[OPTIONS_MAX_ITEMS];
  int left_out,
      shape_count = dense_shapes(opt->shapes, opt->shape_count,
                                 dense_any_gpu(devices, count), kind->shapes,
                                 kind->takes, shapes, &left_out);
  int radius_count =
      option_or_default(opt->radii, opt->radius_count, kind->radii,
                        kind->radius_count, sizeof radii[0], radii);
  int border_count =
      option_or_default(opt->borders, opt->border_count, kind->borders,
                        kind->border_count, sizeof borders[0], borders);
  int type_count =
      option_or_default(opt->types, opt->types_defaulted ? 0 : opt->type_count,
                        kind->types, kind->type_count, sizeof types[0], types);
  if (left_out)
    report_note("%s: %d --shapes entries are not %s: not run", kind->name,
                left_out, kind->conv ? "2-D" : "1-, 2- or 3-D");
  for (int i = 0; i < shape_count; i++) {
    for (int t = 0; t < type_count; t++) {
      stencil_job job;
      memset(&job, 0, sizeof job);
      job.run = run;
      job.opt = opt;
      job.kind = kind;
      dense_shape_name(&shapes[i], job.shape, sizeof job.shape);
      prism_stencil_desc_init(&job.desc);
      const unsigned dims = shapes[i].dims;
      job.desc.type = types[t];
      job.desc.dims = dims;
      job.desc.nx = shapes[i].extent[dims - 1];
      job.desc.ny = dims >= 2 ? shapes[i].extent[dims - 2] : 1;
      job.desc.nz = dims >= 3 ? shapes[i].extent[0] : 1;
      if (types[t] != PRISM_F32 && types[t] != PRISM_F64) {
        for (int r = 0; r < radius_count; r++) {
          for (int b = 0; b < border_count; b++) {
            job.desc.radius = radii[r];
            job.desc.border = borders[b];
            name_variant(&job);
            all_devices_row(&job, devices, count, REPORT_SKIP,
                            "stencils take f32 and f64");
          }
        }
        continue;
      }
      measure_grid(&job, devices, count, radii, radius_count, borders,
                   border_count);
    }
  }
}

static void stencil_measure_all(bench_run *run, bench_device *devices,
                                int count, const bench_options *opt) {
  report_note("stencil: out(p) = sum of w(d) in(p + d) over a star of "
              "radius r (-2 dims r at the centre, 1 on each arm: 5pt and 7pt "
              "at r = 1 are the 2-D and 3-D Laplacians), one "
              "prism_stencil_apply a call; n: the grid's points; GB/s: the "
              "grid read once and written once");
  report_note("stencil: ratio: ref's time / prism's; ref: naive (a CUDA "
              "thread per point, its taps read from global memory, the "
              "weights in constant memory; its own row) on NVIDIA devices, "
              "serial (a C loop, fma in prism's order) on CPU devices; "
              "prism's and naive's results have the serial loop's bits");
  measure_kind(&stencil_rows, run, devices, count, opt);
}

static void conv2d_measure_all(bench_run *run, bench_device *devices, int count,
                               const bench_options *opt) {
  report_note("conv2d: a 2-D stencil over a K x K box of Gaussian weights "
              "(K = 2r + 1, sigma r / 2, summing to 1), a correlation as "
              "cuDNN's; n: the grid's points; GB/s: the grid read once and "
              "written once");
  report_note("conv2d: ratio: ref's time / prism's; ref on NVIDIA devices, "
              "each its own row: clamp: naive (the seeds' conv2d, a CUDA "
              "thread per pixel, the K x K loop over global memory clamped, "
              "the weights in constant memory), zero: cudnn "
              "(cudnnConvolutionForward, NCHW, one channel, f32, "
              "cross-correlation, pad r, FMA math, the fastest algorithm "
              "cudnnFindConvolutionForwardAlgorithm finds, checked within "
              "%g (K^2 + 2) eps sum |w x|); serial (a C loop, fma in "
              "prism's order) on CPU devices",
              CUDNN_SLACK);
  measure_kind(&conv_rows, run, devices, count, opt);
}

/* The widest of a list of numbers formatted by fmt. */
static size_t widest_number(const char *fmt, const unsigned *radii, int count,
                            unsigned (*value)(unsigned r)) {
  char buf[32];
  size_t widest = 0;
  for (int i = 0; i < count; i++) {
    size_t len = (size_t)snprintf(buf, sizeof buf, fmt, value(radii[i]));
    if (len > widest)
      widest = len;
  }
  return widest;
}

static unsigned star_points(unsigned r) {
  return 2 * 3 * r + 1; /* the widest: 3-D */
}

static unsigned box_side(unsigned r) {
  return 2 * r + 1;
}

/* The kind's name, the widest shape, the radius part and border. */
static int kind_label_width(const stencil_kind *kind,
                            const bench_options *opt) {
  const unsigned *radii = opt->radius_count ? opt->radii : kind->radii;
  int radius_count = opt->radius_count ? opt->radius_count : kind->radius_count;
  const prism_border *borders =
      opt->border_count ? opt->borders : kind->borders;
  int border_count = opt->border_count ? opt->border_count : kind->border_count;
  size_t border = 0;
  for (int i = 0; i < border_count; i++) {
    size_t len = strlen(prism_border_name(borders[i]));
    if (len > border)
      border = len;
  }
  size_t radius = kind->conv
                      ? widest_number("k%u", radii, radius_count, box_side)
                      : widest_number("%upt", radii, radius_count, star_points);
  return (int)(strlen(kind->name) + 1 +
               dense_shapes_widest(opt->shapes, opt->shape_count, kind->shapes,
                                   kind->takes) +
               1 + radius + 1 + border);
}

static int stencil_label_width(const bench_options *opt) {
  return kind_label_width(&stencil_rows, opt);
}

static int conv2d_label_width(const bench_options *opt) {
  return kind_label_width(&conv_rows, opt);
}

const bench_primitive bench_stencil = {
    .name = "stencil",
    .by_name_only = 1,
    .copy_row = 1,
    .label_width = stencil_label_width,
    .measure_all = stencil_measure_all,
};

const bench_primitive bench_conv2d = {
    .name = "conv2d",
    .by_name_only = 1,
    .copy_row = 1,
    .label_width = conv2d_label_width,
    .measure_all = conv2d_measure_all,
};
