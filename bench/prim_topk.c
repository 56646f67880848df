/* SPDX-License-Identifier: MIT */
/*
 * topk: prism_topk, descending and sorted (each row's k largest keys,
 * largest first), of n keys laid out as --rows R rows of cols = n / R
 * (R must divide n; default 1), for each --k (default 100 and 2^20, each
 * cut to cols), keys only (--values 0) or with each chosen key's column
 * index (--values 4 or 8: values_in NULL, value_size 4 or 8). The keys are
 * random bits over the key's whole width, as sort's (floats: NaNs and
 * infinities too, ranked in IEEE total order; no -0.0, which CUB ranks
 * equal to +0.0). Queued. The primitive table's bench_topk, a loop of its
 * own as the dense rows have: the case loop has no k and no rows, and
 * top-k has more than one reference.
 *
 * For each case: the input, and ref_topk's columns (reference/ref_topk.h,
 * untimed), which every result is checked against (keys bit for bit,
 * indices equal); then
 * - serial: ref_topk (a bounded heap per row) timed, when a CPU device is
 *   measured;
 * - cub: CUB's sort of every row, timed, then its first k (cub_ref.h), and
 * - naive: the seeds' thread-per-row register kernel, for rows > 1 and
 *   k <= CUB_TOPK_REGISTERS_MAX_K, both when an NVIDIA device is measured
 *   and prism-bench was built with CUDA;
 * - prism on each device: one call checked, then timed.
 * The ratio: cub's time on NVIDIA devices (naive's where cub did not run),
 * serial's on CPU devices. GB/s: the keys read once and the k keys (and
 * indices) of each row written once, so that %copy is about the time to
 * read the keys once over prism's.
 */
#include "dense.h"
#include "input.h"
#include "primitive.h"
#include "ref_topk.h"
#include "report_format.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEED_INPUT 0x544f504bu /* what the input's seed adds to --seed */
#define VARIANT_SIZE 64

/* --k's default, each cut to the row's length. */
static const size_t default_ks[] = {100, (size_t)1 << 20};

typedef struct topk_job {
  bench_run *run;
  const bench_options *opt;
  prism_type type;
  size_t value_size; /* 0: keys only; 4, 8: column indices */
  size_t rows, cols, k, n;
  char variant[VARIANT_SIZE]; /* "k=100", "16384x1024 k=8" */
  void *input;                /* n keys */
  uint64_t *want;             /* rows x k columns, ref_topk's */
  void *result;               /* rows x k keys, then rows x k values */
  uint64_t *serial_out;       /* rows x k columns; CPU devices */
  dense_reference serial, cub, naive;
} topk_job;

static size_t key_size(const topk_job *job) {
  return prism_type_size(job->type);
}

static size_t chosen(const topk_job *job) {
  return job->rows * job->k;
}

static size_t result_bytes(const topk_job *job) {
  return chosen(job) * (key_size(job) + job->value_size);
}

/* The keys read once, the chosen keys and values written once. */
static double bytes_moved(const topk_job *job) {
  return (double)(job->n * key_size(job)) + (double)result_bytes(job);
}

static report_row job_row(const topk_job *job, const bench_device *dev) {
  report_row row = measure_device_row(dev, "topk");
  row.op = job->variant; /* report_variant prints op as it is */
  row.values = (int)job->value_size;
  row.type = prism_type_name(job->type);
  row.n = job->n;
  row.bytes = bytes_moved(job);
  return row;
}

/* Every device's row of the job with status and note (a case that cannot
 * run). */
static void skip_all(topk_job *job, const bench_device *devices, int count,
                     const char *note) {
  for (int d = 0; d < count; d++)
    measure_status_row(job->run, job_row(job, &devices[d]), REPORT_SKIP, note);
}

/* ---- The check ------------------------------------------------------------
 */

static uint64_t load(const unsigned char *p, size_t size) {
  uint32_t v32;
  uint64_t v64;
  if (size == 4) {
    memcpy(&v32, p, 4);
    return v32;
  }
  memcpy(&v64, p, 8);
  return v64;
}

/* result (rows x k keys, then rows x k values) is ref_topk's: each key has
 * the bits of the input's key at the reference's column, each value is
 * that column. */
static int check_result(const void *arg, const void *result, char *msg,
                        size_t msg_size) {
  const topk_job *job = arg;
  const size_t ks = key_size(job), vs = job->value_size;
  const unsigned char *in = job->input, *keys = result;
  const unsigned char *values = keys + chosen(job) * ks;
  for (size_t r = 0; r < job->rows; r++) {
    for (size_t i = 0; i < job->k; i++) {
      const size_t at = r * job->k + i;
      const uint64_t col = job->want[at];
      const unsigned char *want = in + (r * job->cols + col) * ks;
      if (memcmp(keys + at * ks, want, ks) != 0) {
        snprintf(msg, msg_size,
                 "row %zu, rank %zu: key 0x%llx, want 0x%llx (column %llu)", r,
                 i, (unsigned long long)load(keys + at * ks, ks),
                 (unsigned long long)load(want, ks), (unsigned long long)col);
        return 0;
      }
      if (vs && load(values + at * vs, vs) != col) {
        snprintf(msg, msg_size, "row %zu, rank %zu: column %llu, want %llu", r,
                 i, (unsigned long long)load(values + at * vs, vs),
                 (unsigned long long)col);
        return 0;
      }
    }
  }
  return 1;
}

/* ---- serial C -------------------------------------------------------------
 */

static int serial_call(void *arg) {
  topk_job *job = arg;
  return ref_topk(job->type, job->input, job->rows, job->cols, job->k, 1,
                  job->serial_out);
}

/* The timed calls choose the columns the check's reference chose. */
static int check_serial(const void *arg, const void *out, char *msg,
                        size_t msg_size) {
  const topk_job *job = arg;
  const uint64_t *cols = out;
  for (size_t i = 0; i < chosen(job); i++) {
    if (cols[i] != job->want[i]) {
      snprintf(msg, msg_size, "row %zu, rank %zu: column %llu, want %llu",
               i / job->k, i % job->k, (unsigned long long)cols[i],
               (unsigned long long)job->want[i]);
      return 0;
    }
  }
  return 1;
}

/* ---- CUDA -----------------------------------------------------------------
 */

#ifdef PRISM_BENCH_HAVE_CUB
/* One of cub_topk_run's references into r, checked. */
static void cuda_reference(topk_job *job, const bench_device *nvidia,
                           cub_topk_reference which, dense_reference *r) {
  int device = dense_cuda_device(job->opt);
  char msg[DENSE_NOTE_SIZE];
  cub_topk_request req;
  memset(&req, 0, sizeof req);
  req.reference = which;
  req.type = job->type;
  req.input = job->input;
  req.rows = job->rows;
  req.cols = job->cols;
  req.k = job->k;
  req.value_size = job->value_size;
  req.result = job->result;
  r->used = 1;
  cub_ref_status st =
      cub_topk_run(device, &req, measure_timer(job->run), &r->t, r->device,
                   sizeof r->device, msg, sizeof msg);
  if (st == CUB_REF_OK)
    dense_note_cuda_device(which == CUB_TOPK_SORT ? "CUB's topk sort"
                                                  : "the register topk kernel",
                           device, r->device, nvidia);
  if (st != CUB_REF_OK)
    dense_reference_fail(r, st == CUB_REF_SKIPPED ? REPORT_SKIP : REPORT_ERROR,
                         msg);
  else if (!check_result(job, job->result, msg, sizeof msg))
    dense_reference_fail(r, REPORT_FAIL, msg);
}
#endif

/* CUB's sort and (rows > 1, small k) the register kernel, where an NVIDIA
 * device is measured. */
static void cuda_references(topk_job *job, const bench_device *devices,
                            int count) {
  const bench_device *nvidia = dense_first_nvidia(devices, count);
  if (!nvidia)
    return;
#ifdef PRISM_BENCH_HAVE_CUB
  cuda_reference(job, nvidia, CUB_TOPK_SORT, &job->cub);
  if (job->rows > 1 && job->k <= CUB_TOPK_REGISTERS_MAX_K)
    cuda_reference(job, nvidia, CUB_TOPK_REGISTERS, &job->naive);
#else
  report_note("no cub or naive topk rows: prism-bench was built without "
              "CUDA");
#endif
}

/* ---- prism on one device --------------------------------------------------
 */

typedef struct prism_call {
  prism_context *ctx;
  const topk_job *job;
  prism_buffer *keys_in, *keys_out, *values_out;
} prism_call;

static int prism_call_run(void *arg) {
  const prism_call *c = arg;
  const topk_job *job = c->job;
  return (int)prism_topk(c->ctx, job->type, c->keys_in, NULL, job->rows,
                         job->cols, job->k, c->keys_out, c->values_out,
                         job->value_size, NULL);
}

static int prism_call_finish(void *arg) {
  return (int)prism_context_finish(((const prism_call *)arg)->ctx);
}

/* The first call's keys and values into job->result. */
static prism_status read_result(const prism_call *c) {
  const topk_job *job = c->job;
  const size_t key_bytes = chosen(job) * key_size(job);
  prism_status st = prism_buffer_read(c->keys_out, 0, job->result, key_bytes);
  if (st == PRISM_OK && c->values_out)
    st = prism_buffer_read(c->values_out, 0, (char *)job->result + key_bytes,
                           chosen(job) * job->value_size);
  return st;
}

/* The reference a device's row is set against, or NULL. */
static const dense_reference *reference_of(const topk_job *job,
                                           const bench_device *dev) {
  if (dev->is_cpu)
    return dense_reference_timed(&job->serial);
  if (!dev->is_nvidia)
    return NULL;
  const dense_reference *cub = dense_reference_timed(&job->cub);
  return cub ? cub : dense_reference_timed(&job->naive);
}

/* One call checked, then the calls timed; the row. */
static void prism_measure(topk_job *job, const bench_device *dev,
                          prism_call *c) {
  report_row row = job_row(job, dev);
  char note[DENSE_NOTE_SIZE];
  prism_status st = (prism_status)prism_call_run(c);
  if (st == PRISM_OK)
    st = prism_context_finish(dev->ctx);
  if (st != PRISM_OK) {
    measure_failure_row(job->run, dev, row, "prism_topk", st);
    return;
  }
  if ((st = read_result(c)) != PRISM_OK) {
    measure_failure_row(job->run, dev, row, "prism_buffer_read", st);
    return;
  }
  if (!check_result(job, job->result, note, sizeof note)) {
    measure_status_row(job->run, row, REPORT_FAIL, note);
    return;
  }
  bench_timing t;
  st = (prism_status)bench_time(prism_call_run, prism_call_finish, c,
                                measure_timer(job->run), &t);
  if (st != PRISM_OK) {
    measure_failure_row(job->run, dev, row, "prism_topk", st);
    return;
  }
  measure_row_timing(&row, &t);
  const dense_reference *ref = reference_of(job, dev);
  if (ref) {
    row.reference = ref->backend;
    row.ratio = ref->t.median_s / t.median_s;
  }
  report_row_print(&row);
}

/* Upload the keys to dev, make the outputs, measure. */
static void device_measure(topk_job *job, bench_device *dev) {
  if (!prism_context_supports(dev->ctx, job->type)) {
    measure_status_row(job->run, job_row(job, dev), REPORT_SKIP,
                       "type not supported by device");
    return;
  }
  prism_call c = {dev->ctx, job, NULL, NULL, NULL};
  prism_status st =
      bench_upload(dev->ctx, job->input, job->n * key_size(job), &c.keys_in);
  if (st == PRISM_OK)
    st =
        prism_buffer_create(dev->ctx, chosen(job) * key_size(job), &c.keys_out);
  if (st == PRISM_OK && job->value_size)
    st = prism_buffer_create(dev->ctx, chosen(job) * job->value_size,
                             &c.values_out);
  if (st != PRISM_OK)
    measure_failure_row(job->run, dev, job_row(job, dev),
                        "prism_buffer_create, prism_buffer_write", st);
  else
    prism_measure(job, dev, &c);
  prism_buffer_destroy(c.values_out);
  prism_buffer_destroy(c.keys_out);
  prism_buffer_destroy(c.keys_in);
}

/* ---- The loop -------------------------------------------------------------
 */

/* Seeded by type and size, so that every k and value size of an n sees
 * the same keys. */
static uint64_t input_seed(const topk_job *job) {
  return (job->opt->seed + SEED_INPUT) ^ ((uint64_t)job->type << 56) ^
         ((uint64_t)job->n * 0x9E3779B97F4A7C15ull);
}

/* One case on every device, each reference after the first device it
 * stands beside. */
static void measure_job(topk_job *job, bench_device *devices, int count) {
  int cpu = 0;
  for (int d = 0; d < count; d++)
    cpu |= devices[d].is_cpu;
  dense_reference_init(&job->serial, "serial");
  dense_reference_init(&job->cub, "cub");
  dense_reference_init(&job->naive, "naive");
  job->input = malloc(job->n * key_size(job));
  job->want = malloc(chosen(job) * sizeof *job->want);
  job->result = malloc(result_bytes(job));
  job->serial_out = cpu ? malloc(chosen(job) * sizeof *job->serial_out) : NULL;
  if (!job->input || !job->want || !job->result || (cpu && !job->serial_out)) {
    skip_all(job, devices, count, "host out of memory");
  } else {
    input_fill_random_bits(job->type, job->input, job->n, input_seed(job));
    if (ref_topk(job->type, job->input, job->rows, job->cols, job->k, 1,
                 job->want) != 0) {
      skip_all(job, devices, count, "host out of memory for the reference");
    } else {
      if (cpu)
        dense_measure_serial(job->run, &job->serial, serial_call, job,
                             check_serial, job, job->serial_out);
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
          if (job->cub.used)
            dense_reference_row(job->run, job_row(job, dev), &job->cub);
          if (job->naive.used)
            dense_reference_row(job->run, job_row(job, dev), &job->naive);
          cuda_done = 1;
        }
      }
    }
  }
  free(job->serial_out);
  free(job->result);
  free(job->want);
  free(job->input);
}

/* The variant: "k=K" for one row, "RxC k=K" for more. */
static void name_variant(size_t rows, size_t cols, size_t k, char *buf,
                         size_t size) {
  char kk[32];
  report_format_n(k, kk, sizeof kk);
  if (rows == 1)
    snprintf(buf, size, "k=%s", kk);
  else
    snprintf(buf, size, "%zux%zu k=%s", rows, cols, kk);
}

/* The lists the loop runs: --k or the defaults, --rows or 1. */
typedef struct topk_lists {
  const size_t *ks, *rows;
  int k_count, row_count;
  int cut; /* the default ks: each cut to the row's length */
} topk_lists;

static topk_lists lists_of(const bench_options *opt) {
  static const size_t one_row = 1;
  topk_lists l;
  l.cut = opt->k_count == 0;
  l.ks = l.cut ? default_ks : opt->ks;
  l.k_count =
      l.cut ? (int)(sizeof default_ks / sizeof default_ks[0]) : opt->k_count;
  l.rows = opt->row_count ? opt->rows : &one_row;
  l.row_count = opt->row_count ? opt->row_count : 1;
  return l;
}

/* k number i of the lists for rows of cols keys: 0 where an earlier
 * default cuts to the same k (that case runs once). */
static size_t k_for(const topk_lists *l, int i, size_t cols) {
  if (!l->cut)
    return l->ks[i];
  size_t k = l->ks[i] < cols ? l->ks[i] : cols;
  for (int j = 0; j < i; j++) {
    if ((l->ks[j] < cols ? l->ks[j] : cols) == k)
      return 0;
  }
  return k;
}

/* One type, value size, row count and k at one n: the case, or the skip
 * rows of a shape that cannot be (a bad row count's once, at the first
 * k). */
static void measure_shape(topk_job *job, const topk_lists *l, int ki,
                          bench_device *devices, int count) {
  char note[DENSE_NOTE_SIZE];
  job->cols = job->rows <= job->n ? job->n / job->rows : 0;
  if (job->cols == 0 || job->n % job->rows != 0) {
    if (ki > 0)
      return;
    snprintf(job->variant, sizeof job->variant, "rows=%zu", job->rows);
    snprintf(note, sizeof note, "%zu keys do not make %zu rows of one length",
             job->n, job->rows);
    skip_all(job, devices, count, note);
    return;
  }
  job->k = k_for(l, ki, job->cols);
  if (job->k == 0)
    return;
  name_variant(job->rows, job->cols, job->k, job->variant, sizeof job->variant);
  if (job->k > job->cols) {
    snprintf(note, sizeof note, "k = %zu is more than a row's %zu keys", job->k,
             job->cols);
    skip_all(job, devices, count, note);
    return;
  }
  bench_case c;
  memset(&c, 0, sizeof c);
  c.type = job->type;
  const char *why = bench_skip_u8(&c);
  if (why) {
    skip_all(job, devices, count, why);
    return;
  }
  measure_job(job, devices, count);
}

static void topk_measure_all(bench_run *run, bench_device *devices, int count,
                             const bench_options *opt) {
  static const prism_type default_type = PRISM_F32;
  const prism_type *types = opt->types_defaulted ? &default_type : opt->types;
  const int type_count = opt->types_defaulted ? 1 : opt->type_count;
  const topk_lists l = lists_of(opt);
  size_t ns[OPTIONS_MAX_ITEMS];
  const int n_count =
      options_sizes(opt, !dense_any_gpu(devices, count), ns, OPTIONS_MAX_ITEMS);
  report_note("topk: prism_topk, each row's k largest keys, largest first, "
              "of n keys as RxC (R rows of C; k=K alone: one row of n); "
              "v4, v8: with each chosen key's column index; n: the keys; "
              "GB/s: the keys read once, the chosen keys (and indices) "
              "written once: %%copy is about the time to read the keys once "
              "over prism's");
  report_note("topk: ratio: ref's time / prism's; ref: cub (CUB's stable "
              "radix sort of each row, descending, DeviceRadixSort for one "
              "row, DeviceSegmentedSort for more; the first k taken in place, "
              "untimed) on NVIDIA devices, serial (ref_topk, a bounded heap "
              "per row) on CPU devices; naive, its own row: the seeds' "
              "kernel, a CUDA thread per row with the best K >= k keys in "
              "registers (R > 1, k <= %d)",
              CUB_TOPK_REGISTERS_MAX_K);
#ifdef PRISM_BENCH_HAVE_CUB
  if (dense_first_nvidia(devices, count)) {
    char version[32];
    if (cub_topk_has_device_topk(version, sizeof version))
      report_note("topk: CUB %s has cub::DeviceTopK; prism-bench has no row "
                  "of it yet",
                  version);
    else
      report_note("topk: CUB %s has no cub::DeviceTopK: no row of it", version);
  }
#endif
  for (int t = 0; t < type_count; t++)
    for (int v = 0; v < opt->value_size_count; v++)
      for (int r = 0; r < l.row_count; r++)
        for (int ki = 0; ki < l.k_count; ki++)
          for (int i = 0; i < n_count; i++) {
            topk_job job;
            memset(&job, 0, sizeof job);
            job.run = run;
            job.opt = opt;
            job.type = types[t];
            job.value_size = opt->value_sizes[v];
            job.rows = l.rows[r];
            job.n = ns[i];
            measure_shape(&job, &l, ki, devices, count);
          }
}

/* "topk ", the widest variant the lists make, and " v8". */
static int topk_label_width(const bench_options *opt) {
  const topk_lists l = lists_of(opt);
  size_t ns[OPTIONS_MAX_ITEMS];
  const int n_count = options_sizes(opt, 0, ns, OPTIONS_MAX_ITEMS);
  char buf[VARIANT_SIZE];
  size_t widest = 0;
  for (int r = 0; r < l.row_count; r++)
    for (int ki = 0; ki < l.k_count; ki++)
      for (int i = 0; i < n_count; i++) {
        size_t rows = l.rows[r];
        size_t cols = rows <= ns[i] ? ns[i] / rows : 1;
        name_variant(rows, cols, l.ks[ki], buf, sizeof buf);
        if (strlen(buf) > widest)
          widest = strlen(buf);
      }
  return (int)(strlen("topk ") + widest + strlen(" v8"));
}

const bench_primitive bench_topk = {
    .name = "topk",
    .by_name_only = 1,
    .copy_row = 1,
    .label_width = topk_label_width,
    .measure_all = topk_measure_all,
};
