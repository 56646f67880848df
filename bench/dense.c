/* SPDX-License-Identifier: MIT */
/* What the dense rows share (dense.h). */
#include "dense.h"

#include <stdio.h>
#include <string.h>

void dense_reference_init(dense_reference *r, const char *backend) {
  memset(r, 0, sizeof *r);
  r->backend = backend;
}

void dense_reference_fail(dense_reference *r, report_status status,
                          const char *note) {
  r->used = 1;
  r->status = status;
  snprintf(r->note, sizeof r->note, "%s", note);
}

const dense_reference *dense_reference_timed(const dense_reference *r) {
  return r->used && r->status == REPORT_OK ? r : NULL;
}

void dense_reference_row(bench_run *run, report_row row,
                         const dense_reference *r) {
  row.backend = r->backend;
  if (r->device[0]) {
    row.device = r->device;
    row.platform = "CUDA";
  }
  if (r->status != REPORT_OK) {
    measure_status_row(run, row, r->status, r->note);
    return;
  }
  measure_row_timing(&row, &r->t);
  report_row_print(&row);
}

void dense_measure_serial(bench_run *run, dense_reference *r, bench_fn call,
                          void *arg, dense_check_fn check, const void *job,
                          void *result) {
  char msg[DENSE_NOTE_SIZE];
  r->used = 1;
  call(arg);
  if (!check(job, result, msg, sizeof msg)) {
    dense_reference_fail(r, REPORT_FAIL, msg);
    return;
  }
  if (bench_time(call, NULL, arg, measure_timer(run), &r->t) != 0)
    dense_reference_fail(r, REPORT_SKIP, "host out of memory");
}

const bench_device *dense_first_nvidia(const bench_device *devices, int count) {
  for (int d = 0; d < count; d++) {
    if (devices[d].is_nvidia)
      return &devices[d];
  }
  return NULL;
}

int dense_any_gpu(const bench_device *devices, int count) {
  for (int d = 0; d < count; d++) {
    if (!devices[d].is_cpu)
      return 1;
  }
  return 0;
}

int dense_cuda_device(const bench_options *opt) {
  return opt->device >= 0 ? opt->device : 0;
}

void dense_note_cuda_device(const char *what, int device, const char *name,
                            const bench_device *nvidia) {
  if (name[0] && strcmp(name, nvidia->name) != 0)
    report_note("%s ran on CUDA device %d (%s), prism on %s: choose the same "
                "with --device",
                what, device, name, nvidia->name);
}

static int prism_run(void *arg) {
  const dense_prism *p = arg;
  return p->call(p->arg);
}

static int prism_finish(void *arg) {
  return (int)prism_context_finish(((const dense_prism *)arg)->ctx);
}

void dense_measure_prism(bench_run *run, const bench_device *dev,
                         report_row row, const dense_prism *p,
                         const dense_reference *ref) {
  char note[DENSE_NOTE_SIZE];
  prism_status st = (prism_status)p->call(p->arg);
  if (st == PRISM_OK)
    st = prism_context_finish(p->ctx);
  if (st != PRISM_OK) {
    measure_failure_row(run, dev, row, p->name, st);
    return;
  }
  if (p->result_bytes &&
      (st = prism_buffer_read(p->out, 0, p->result, p->result_bytes)) !=
          PRISM_OK) {
    measure_failure_row(run, dev, row, "prism_buffer_read", st);
    return;
  }
  if (!p->check(p->job, p->result, note, sizeof note)) {
    measure_status_row(run, row, REPORT_FAIL, note);
    return;
  }
  bench_timing t;
  st = (prism_status)bench_time(prism_run, prism_finish, (void *)p,
                                measure_timer(run), &t);
  if (st != PRISM_OK) {
    measure_failure_row(run, dev, row, p->name, st);
    return;
  }
  measure_row_timing(&row, &t);
  if (ref) {
    row.reference = ref->backend;
    row.ratio = ref->t.median_s / t.median_s;
  }
  report_row_print(&row);
}
