/* SPDX-License-Identifier: MIT */
#include "measure.h"

#include "input.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLE_MIN_S 1e-3 /* a sample lasts at least this long */
#define SAMPLE_MAX_K 1000 /* calls per sample, at most */
#define ROW_MAX_S 5.0     /* fewer samples when a row would take longer */
#define COPY_BYTES_GPU ((size_t)1 << 30)
#define COPY_BYTES_CPU ((size_t)256 << 20)
#define COPY_BYTES_MIN ((size_t)1 << 20)
#define CUB_CACHE_SIZE 256
#define NOTE_SIZE 512

/* A CUB measurement, kept so that a second NVIDIA context (CUDA and OpenCL
 * on the same GPU) compares with it instead of measuring it again. */
typedef struct cub_entry {
  cub_ref_algorithm algorithm;
  bench_case c;   /* its parameters; no data */
  double seconds; /* 0: CUB did not run (skipped or failed) */
} cub_entry;

struct bench_run {
  const bench_options *opt;
  bench_timer timer;
  int exit_code;
  int cub_state; /* 0 not probed, 1 ready, -1 unavailable */
  int cub_device;
  char cub_name[256];
  cub_entry cub_cache[CUB_CACHE_SIZE];
  int cub_cache_count;
};

bench_run *measure_begin(const bench_options *opt) {
  bench_run *run = calloc(1, sizeof *run);
  if (!run)
    return NULL;
  run->opt = opt;
  run->timer.reps = opt->reps;
  run->timer.min_sample_s = SAMPLE_MIN_S;
  run->timer.max_k = SAMPLE_MAX_K;
  run->timer.max_total_s = ROW_MAX_S;
  run->exit_code = BENCH_EXIT_OK;
  run->cub_device = opt->device >= 0 ? opt->device : 0;
  return run;
}

int measure_end(bench_run *run) {
  int rc = run->exit_code;
  free(run);
  return rc;
}

/* ---- Rows ---------------------------------------------------------------- */

report_row measure_device_row(const bench_device *dev, const char *primitive) {
  report_row row;
  memset(&row, 0, sizeof row);
  row.backend = dev->backend;
  row.device = dev->name;
  row.platform = dev->platform;
  row.device_index = dev->index;
  row.primitive = primitive;
  row.values = -1;
  row.keep = -1;
  row.copy_bytes_per_s = dev->copy_bytes_per_s;
  row.cache_bytes = (double)dev->info.cache_bytes;
  return row;
}

static report_row case_row(const bench_device *dev, const bench_primitive *p,
                           const bench_case *c) {
  report_row row = measure_device_row(dev, p->name);
  row.op = p->uses & BENCH_USES_OP ? prism_op_name(c->op) : NULL;
  row.kind = p->uses & BENCH_USES_KIND
                 ? (c->kind == PRISM_EXCLUSIVE ? "exclusive" : "inclusive")
                 : NULL;
  if (p->uses & BENCH_USES_ORDER)
    row.order = c->order == PRISM_DESCENDING ? "descending" : "ascending";
  if (p->uses & BENCH_USES_VALUES)
    row.values = (int)c->value_size;
  if (p->uses & BENCH_USES_BITS) {
    row.begin_bit = c->begin_bit;
    row.end_bit = c->end_bit;
  }
  if (p->uses & BENCH_USES_BINS)
    row.bins = c->bins;
  if (p->uses & BENCH_USES_DIST)
    row.dist = c->dist == BENCH_DIST_ONE_BIN ? "one-bin" : "uniform";
  if (p->uses & BENCH_USES_KEEP)
    row.keep = c->keep;
  if (p->uses & BENCH_USES_SEGMENT) {
    row.segment = c->segment;
    row.skew = c->skew;
  }
  row.type = prism_type_name(c->type);
  row.n = c->n;
  row.bytes = p->bytes_moved(c);
  return row;
}

static void timed(report_row *row, const bench_timing *t) {
  row->status = REPORT_OK;
  row->seconds = t->median_s;
  row->min_s = t->min_s;
  row->q1_s = t->q1_s;
  row->q3_s = t->q3_s;
  row->max_s = t->max_s;
  row->reps = t->reps;
  row->k = t->k;
}

const bench_timer *measure_timer(const bench_run *run) {
  return &run->timer;
}

void measure_row_timing(report_row *row, const bench_timing *t) {
  timed(row, t);
}

void measure_status_row(bench_run *run, report_row row, report_status status,
                        const char *note) {
  row.status = status;
  row.note = note;
  if (status == REPORT_FAIL || status == REPORT_ERROR)
    run->exit_code = BENCH_EXIT_FAILED;
  report_row_print(&row);
}

/* A reference row measured before the prism row it belongs under, printed
 * after it. */
typedef struct pending_row {
  report_row row;
  char note[NOTE_SIZE];
  int set;
} pending_row;

static void pending_set(bench_run *run, pending_row *pending, report_row row,
                        report_status status, const char *note) {
  pending->row = row;
  pending->row.status = status;
  snprintf(pending->note, sizeof pending->note, "%s", note ? note : "");
  pending->set = 1;
  if (status == REPORT_FAIL || status == REPORT_ERROR)
    run->exit_code = BENCH_EXIT_FAILED;
}

static void pending_print(pending_row *pending) {
  if (!pending->set)
    return;
  if (pending->row.status != REPORT_OK)
    pending->row.note = pending->note;
  report_row_print(&pending->row);
}

void measure_failure_row(bench_run *run, const bench_device *dev,
                         report_row row, const char *call, prism_status st) {
  char note[NOTE_SIZE];
  if (st == PRISM_OUT_OF_MEMORY) {
    snprintf(note, sizeof note, "does not fit in device memory");
    measure_status_row(run, row, REPORT_SKIP, note);
    return;
  }
  snprintf(note, sizeof note, "%s: %s: %s", call,
           (int)st == -1 ? "host out of memory" : prism_status_name(st),
           prism_context_last_error(dev->ctx));
  measure_status_row(
      run, row, st == PRISM_UNSUPPORTED ? REPORT_SKIP : REPORT_ERROR, note);
}

/* ---- Timed calls --------------------------------------------------------- */

typedef struct prism_call {
  const bench_primitive *p;
  void *state;
  prism_context *ctx;
} prism_call;

static int prism_call_run(void *arg) {
  prism_call *call = arg;
  return (int)call->p->run(call->state);
}

static int prism_call_finish(void *arg) {
  return (int)prism_context_finish(((prism_call *)arg)->ctx);
}

typedef struct serial_call {
  const bench_primitive *p;
  const bench_case *c;
  void *result; /* or the scratch of a serial version that has one */
} serial_call;

static int serial_call_run(void *arg) {
  serial_call *call = arg;
  call->p->serial(call->c, call->result);
  return 0;
}

static int serial_call_load(void *arg) {
  serial_call *call = arg;
  call->p->serial_load(call->c, call->result);
  return 0;
}

typedef struct copy_call {
  prism_context *ctx;
  prism_buffer *dst, *src;
  void *host_dst;
  const void *host_src;
  size_t bytes;
} copy_call;

static int copy_call_device(void *arg) {
  copy_call *call = arg;
  return (int)prism_buffer_copy(call->dst, 0, call->src, 0, call->bytes);
}

static int copy_call_finish(void *arg) {
  return (int)prism_context_finish(((copy_call *)arg)->ctx);
}

static int copy_call_host(void *arg) {
  copy_call *call = arg;
  memcpy(call->host_dst, call->host_src, call->bytes);
  return 0;
}

/* ---- Copy bandwidth ------------------------------------------------------ */

/* Two buffers of the largest size up to the target that fit. */
static prism_status copy_buffers(bench_device *dev, size_t target,
                                 copy_call *call) {
  prism_status st = PRISM_OUT_OF_MEMORY;
  for (size_t bytes = target; bytes >= COPY_BYTES_MIN; bytes /= 2) {
    st = prism_buffer_create(dev->ctx, bytes, &call->src);
    if (st == PRISM_OK) {
      st = prism_buffer_create(dev->ctx, bytes, &call->dst);
      if (st == PRISM_OK) {
        call->bytes = bytes;
        return PRISM_OK;
      }
      prism_buffer_destroy(call->src);
      call->src = NULL;
    }
    if (st != PRISM_OUT_OF_MEMORY)
      return st;
  }
  return st;
}

/* The host's memcpy of the same bytes, as a reference row. */
static void host_memcpy_row(bench_run *run, bench_device *dev, report_row row) {
  copy_call call = {0};
  bench_timing t;
  size_t bytes = (size_t)(row.bytes / 2);
  void *src = malloc(bytes ? bytes : 1), *dst = malloc(bytes ? bytes : 1);
  row.backend = "serial";
  row.primitive = "memcpy";
  row.op = row.kind = row.order = row.dist = NULL;
  row.values = -1;
  row.begin_bit = row.end_bit = 0;
  row.bins = row.segment = 0;
  row.skew = 0;
  row.keep = -1;
  if (!src || !dst) {
    measure_status_row(run, row, REPORT_SKIP, "host out of memory");
  } else {
    memset(src, 1, bytes);
    memset(dst, 0, bytes);
    call.host_src = src;
    call.host_dst = dst;
    call.bytes = bytes;
    if (bench_time(copy_call_host, NULL, &call, &run->timer, &t) != 0) {
      measure_status_row(run, row, REPORT_SKIP, "host out of memory");
    } else {
      timed(&row, &t);
      report_row_print(&row);
    }
  }
  free(src);
  free(dst);
}

/* The copy's size: the default for the kind of device, or more where the
 * last-level cache is so large that the default would stay in it (the
 * copy row is the out-of-cache bound that %copy compares with). */
static size_t copy_target(const bench_device *dev) {
  size_t target = dev->is_cpu ? COPY_BYTES_CPU : COPY_BYTES_GPU;
  unsigned long long cache = dev->info.cache_bytes;
  while (target < SIZE_MAX / 4 &&
         (unsigned long long)target <= REPORT_COPY_CACHE_MULTIPLE * cache)
    target *= 2;
  return target;
}

void measure_copy(bench_run *run, bench_device *dev) {
  copy_call call = {0};
  report_row row = measure_device_row(dev, "copy");
  size_t target = copy_target(dev);
  static const uint32_t pattern = 0x5a5a5a5au;
  bench_timing t;
  prism_status st;

  call.ctx = dev->ctx;
  row.type = "byte";
  row.n = target;
  if ((st = copy_buffers(dev, target, &call)) != PRISM_OK) {
    measure_failure_row(run, dev, row, "prism_buffer_create", st);
    return;
  }
  row.n = call.bytes;
  row.bytes = 2.0 * (double)call.bytes;
  st = prism_buffer_fill(call.src, 0, &pattern, sizeof pattern, call.bytes);
  if (st == PRISM_OK)
    st = (prism_status)bench_time(copy_call_device, copy_call_finish, &call,
                                  &run->timer, &t);
  prism_buffer_destroy(call.dst);
  prism_buffer_destroy(call.src);
  if (st != PRISM_OK) {
    measure_failure_row(run, dev, row, "prism_buffer_copy", st);
    return;
  }
  timed(&row, &t);
  dev->copy_bytes_per_s = row.bytes / t.median_s;
  row.copy_bytes_per_s = dev->copy_bytes_per_s;
  report_row_print(&row);
  if (dev->is_cpu)
    host_memcpy_row(run, dev, row);
}

/* ---- References ---------------------------------------------------------- */

/* Serial C on the host, verified too (it shares the checks with prism).
 * A serial version with scratch is timed without its loads (timing.h).
 * Returns its time, 0 if it failed. */
static double serial_reference(bench_run *run, const bench_device *dev,
                               const bench_primitive *p, const bench_case *c,
                               void *result, pending_row *out) {
  serial_call call = {p, c, result};
  bench_timing t;
  char note[NOTE_SIZE];
  report_row row = case_row(dev, p, c);
  int rc;
  row.backend = "serial";
  if (p->serial_scratch_bytes) {
    size_t bytes = p->serial_scratch_bytes(c);
    void *scratch = bytes == SIZE_MAX ? NULL : malloc(bytes ? bytes : 1);
    if (!scratch) {
      pending_set(run, out, row, REPORT_SKIP, "host out of memory");
      return 0;
    }
    call.result = scratch;
    rc = bench_time_prepared(serial_call_load, serial_call_run, &call,
                             &run->timer, &t);
    if (rc == 0)
      p->serial_store(c, scratch, result);
    free(scratch);
  } else {
    rc = bench_time(serial_call_run, NULL, &call, &run->timer, &t);
  }
  if (rc != 0) {
    pending_set(run, out, row, REPORT_SKIP, "host out of memory");
    return 0;
  }
  if (!p->check(c, result, note, sizeof note)) {
    pending_set(run, out, row, REPORT_FAIL, note);
    return 0;
  }
  timed(&row, &t);
  pending_set(run, out, row, REPORT_OK, NULL);
  return t.median_s;
}

/* A memcpy row for each byte size, the first time a CPU device sees it. */
static int memcpy_first_time(bench_device *dev, size_t bytes) {
  for (int i = 0; i < dev->memcpy_seen_count; i++) {
    if (dev->memcpy_seen[i] == bytes)
      return 0;
  }
  if (dev->memcpy_seen_count < MEASURE_MAX_SEEN)
    dev->memcpy_seen[dev->memcpy_seen_count++] = bytes;
  return 1;
}

#ifdef PRISM_BENCH_HAVE_CUB
static int cub_ready(bench_run *run, const bench_device *dev) {
  if (run->cub_state == 0) {
    char why[NOTE_SIZE];
    if (cub_ref_probe(run->cub_device, run->cub_name, sizeof run->cub_name, why,
                      sizeof why)) {
      run->cub_state = 1;
    } else {
      run->cub_state = -1;
      report_note("CUB rows skipped: %s", why);
    }
  }
  if (run->cub_state == 1 && strcmp(run->cub_name, dev->name) != 0)
    report_note("CUB ran on CUDA device %d (%s), prism on %s: choose the "
                "same with --device",
                run->cub_device, run->cub_name, dev->name);
  return run->cub_state == 1;
}

/* Whether two cases have the same parameters (their data follows). */
static int same_case(const bench_case *a, const bench_case *b) {
  return a->type == b->type && a->op == b->op && a->kind == b->kind &&
         a->order == b->order && a->value_size == b->value_size &&
         a->begin_bit == b->begin_bit && a->end_bit == b->end_bit &&
         a->bins == b->bins && a->dist == b->dist && a->keep == b->keep &&
         a->segment == b->segment && a->skew == b->skew && a->n == b->n;
}

static cub_entry *cub_find(bench_run *run, const bench_primitive *p,
                           const bench_case *c) {
  for (int i = 0; i < run->cub_cache_count; i++) {
    cub_entry *e = &run->cub_cache[i];
    if (e->algorithm == p->cub && same_case(&e->c, c))
      return e;
  }
  return NULL;
}

/* CUB's time for the case: measured (and its row left in out) the first
 * time, then remembered. 0 when CUB did not run. */
static double cub_reference(bench_run *run, const bench_device *dev,
                            const bench_primitive *p, const bench_case *c,
                            void *result, pending_row *out) {
  cub_entry *e = cub_find(run, p, c);
  if (e)
    return e->seconds;
  cub_ref_request req;
  memset(&req, 0, sizeof req);
  req.algorithm = p->cub;
  req.type = c->type;
  req.op = c->op;
  req.kind = c->kind;
  req.order = c->order;
  req.value_size = c->value_size;
  req.begin_bit = c->begin_bit;
  req.end_bit = c->end_bit;
  req.input = c->input;
  req.n = c->n;
  req.bins = c->bins;
  req.aux = c->aux;
  req.aux_bytes = p->aux_bytes ? p->aux_bytes(c) : 0;
  req.num_segments = c->segments;
  req.result = result;
  if (p->cub_request)
    p->cub_request(c, &req);
  bench_timing t;
  char note[NOTE_SIZE];
  report_row row = case_row(dev, p, c);
  row.backend = "cub";
  row.device = run->cub_name;
  row.platform = "CUDA";
  double seconds = 0;
  cub_ref_status st =
      cub_ref_run(run->cub_device, &req, &run->timer, &t, note, sizeof note);
  if (st == CUB_REF_SKIPPED) {
    pending_set(run, out, row, REPORT_SKIP, note);
  } else if (st == CUB_REF_FAILED) {
    pending_set(run, out, row, REPORT_ERROR, note);
  } else if (!p->check(c, result, note, sizeof note)) {
    pending_set(run, out, row, REPORT_FAIL, note);
  } else {
    timed(&row, &t);
    pending_set(run, out, row, REPORT_OK, NULL);
    seconds = t.median_s;
  }
  if (run->cub_cache_count < CUB_CACHE_SIZE) {
    cub_entry *entry = &run->cub_cache[run->cub_cache_count++];
    entry->algorithm = p->cub;
    entry->c = *c;
    entry->c.input = NULL;
    entry->c.aux = NULL;
    entry->seconds = seconds;
  }
  return seconds;
}
#endif

/* ---- One case ------------------------------------------------------------ */

/* Verify and time prism; returns 1 with *t filled, 0 after printing why
 * not. */
static int measure_prism(bench_run *run, const bench_device *dev,
                         const bench_primitive *p, const bench_case *c,
                         void *result, bench_timing *t) {
  report_row row = case_row(dev, p, c);
  char note[NOTE_SIZE];
  void *state = NULL;
  prism_status st = p->setup(dev->ctx, c, &state);
  if (st != PRISM_OK) {
    measure_failure_row(run, dev, row, "setup", st);
    return 0;
  }
  st = p->run(state);
  if (st == PRISM_OK)
    st = prism_context_finish(dev->ctx);
  if (st == PRISM_OK)
    st = p->read_result(state, result);
  if (st != PRISM_OK) {
    measure_failure_row(run, dev, row, p->name, st);
    p->teardown(state);
    return 0;
  }
  if (!p->check(c, result, note, sizeof note)) {
    measure_status_row(run, row, REPORT_FAIL, note);
    p->teardown(state);
    return 0;
  }
  prism_call call = {p, state, dev->ctx};
  st = (prism_status)bench_time(prism_call_run, prism_call_finish, &call,
                                &run->timer, t);
  p->teardown(state);
  if (st != PRISM_OK) {
    measure_failure_row(run, dev, row, p->name, st);
    return 0;
  }
  return 1;
}

/* Seeded by type and size, so every device (and CUB) sees the same data. */
static uint64_t case_seed(const bench_run *run, const bench_case *c) {
  return run->opt->seed ^ ((uint64_t)c->type << 56) ^
         ((uint64_t)c->n * 0x9E3779B97F4A7C15ull);
}

void measure_case(bench_run *run, bench_device *dev, const bench_primitive *p,
                  const bench_case *tmpl) {
  bench_case c = *tmpl;
  size_t elem = prism_type_size(c.type);
  unsigned width = (unsigned)(elem * 8);
  if (p->uses & BENCH_USES_BITS) {
    if (c.end_bit == 0) { /* every bit */
      c.begin_bit = 0;
      c.end_bit = width;
    } else {
      report_note("%s: only bits %u:%u of the key image take part (--bits)",
                  p->name, c.begin_bit, c.end_bit);
    }
  }
  report_row row = case_row(dev, p, &c);
  if (c.end_bit > width && (p->uses & BENCH_USES_BITS)) {
    char note[NOTE_SIZE];
    snprintf(note, sizeof note, "--bits %u:%u: %s keys have %u bits",
             c.begin_bit, c.end_bit, prism_type_name(c.type), width);
    measure_status_row(run, row, REPORT_SKIP, note);
    return;
  }
  const char *why = p->skip ? p->skip(&c) : NULL;
  if (why) {
    measure_status_row(run, row, REPORT_SKIP, why);
    return;
  }
  if (!prism_context_supports(dev->ctx, c.type)) {
    measure_status_row(run, row, REPORT_SKIP, "type not supported by device");
    return;
  }
  if (c.n > SIZE_MAX / (elem + c.value_size)) {
    measure_status_row(run, row, REPORT_SKIP, "n * element size overflows");
    return;
  }
  size_t aux_bytes = p->aux_bytes ? p->aux_bytes(&c) : 0;
  void *input = malloc(c.n * elem);
  void *result = NULL;
  c.aux = aux_bytes ? malloc(aux_bytes) : NULL;
  int filled = input && (c.aux || !aux_bytes);
  if (filled && p->fill)
    filled = p->fill(&c, input, case_seed(run, &c)) == 0;
  else if (filled)
    input_fill_random(c.type, input, c.n, case_seed(run, &c));
  if (filled) {
    size_t result_bytes = p->result_bytes(&c);
    result = malloc(result_bytes ? result_bytes : 1);
  }
  if (!result) {
    measure_status_row(run, row, REPORT_SKIP, "host out of memory");
    free(c.aux);
    free(input);
    return;
  }
  c.input = input;
  row.bytes = p->bytes_moved(&c); /* it may depend on the data (kept) */

  bench_timing t;
  if (measure_prism(run, dev, p, &c, result, &t)) {
    pending_row serial = {0}, cub = {0};
    timed(&row, &t);
    if (dev->is_cpu && p->serial) {
      double serial_s = serial_reference(run, dev, p, &c, result, &serial);
      if (serial_s > 0) {
        row.reference = "serial";
        row.ratio = serial_s / t.median_s;
      }
    }
#ifdef PRISM_BENCH_HAVE_CUB
    if (dev->is_nvidia && p->cub != CUB_REF_NONE && cub_ready(run, dev)) {
      double cub_s = cub_reference(run, dev, p, &c, result, &cub);
      if (cub_s > 0) {
        row.reference = "cub";
        row.ratio = cub_s / t.median_s;
      }
    }
#endif
    report_row_print(&row);
    pending_print(&serial);
    pending_print(&cub);
    if (dev->is_cpu && memcpy_first_time(dev, c.n * elem)) {
      report_row copy = case_row(dev, p, &c);
      copy.bytes = 2.0 * (double)(c.n * elem);
      host_memcpy_row(run, dev, copy);
    }
  }
  free(result);
  free(c.aux);
  free(input);
}
