/* SPDX-License-Identifier: MIT */
/*
 * The report as JSON, which `prism-bench compare` reads back:
 *   {"meta": {prism_version, commit, host, date, command, reps, ratio,
 *             spread_wide_above, pct_copy_above_cache_multiple,
 *             devices: [...]},
 *    "rows": [{primitive, variant, type, n, backend, platform, device,
 *              time_s: {min, q1, median, q3, max}, gelem_per_s, gb_per_s,
 *              pct_copy, reference, ratio, ...}, ...],
 *    "notes": [...]}
 * Numbers that do not apply are null.
 */
#include "report_format.h"

#include "input.h"
#include "json_write.h"

#include <stdio.h>

/* meta, rows and notes on their own lines; each row and device on one. */
#define JSON_INLINE_DEPTH 2

static json_writer writer;

static void device_object(json_writer *w, int index, const device_info *d) {
  json_begin_object(w, NULL);
  json_integer(w, "index", index);
  json_string(w, "backend", d->backend);
  json_string(w, "device", d->name);
  json_string(w, "full_name", d->full_name);
  json_string(w, "platform", d->platform);
  json_string(w, "platform_version", d->platform_version);
  json_string(w, "device_version", d->device_version);
  json_string(w, "driver_version", d->driver_version);
  json_string(w, "runtime_version", d->runtime_version);
  json_bool(w, "cpu", d->is_cpu);
  json_integer(w, "compute_units", d->compute_units);
  json_integer(w, "global_mem_bytes", (long long)d->global_mem_bytes);
  if (d->cache_bytes)
    json_integer(w, "cache_bytes", (long long)d->cache_bytes);
  else
    json_null(w, "cache_bytes");
  json_string(w, "cache_source", d->cache_source[0] ? d->cache_source : NULL);
  json_string(w, "policy", d->policy);
  json_string(w, "policy_source", d->policy_source);
  json_end_object(w);
}

void json_begin(FILE *out, const bench_meta *meta, const device_info *devs,
                int count) {
  json_writer *w = &writer;
  json_writer_init(w, out, JSON_INLINE_DEPTH);
  json_begin_object(w, NULL);
  json_begin_object(w, "meta");
  json_string(w, "prism_version", meta->version);
  json_string(w, "commit", meta->commit);
  json_string(w, "host", meta->host);
  json_string(w, "date", meta->date);
  json_string(w, "command", meta->command);
  json_integer(w, "reps", meta->reps);
  json_string(w, "ratio",
              "reference time / prism time; above 1: prism is "
              "better");
  json_number(w, "spread_wide_above", REPORT_SPREAD_MARK);
  json_integer(w, "pct_copy_above_cache_multiple", REPORT_COPY_CACHE_MULTIPLE);
  json_begin_array(w, "devices");
  for (int i = 0; i < count; i++)
    device_object(w, i, &devs[i]);
  json_end_array(w);
  json_end_object(w);
  json_begin_array(w, "rows");
}

/* A number that does not apply (0, or less) as null. */
static void positive(json_writer *w, const char *key, double v) {
  if (v > 0)
    json_number(w, key, v);
  else
    json_null(w, key);
}

static void parameters(json_writer *w, const report_row *row) {
  char bits[32];
  json_string(w, "op", row->op);
  json_string(w, "kind", row->kind);
  json_string(w, "order", row->order);
  if (row->values >= 0)
    json_integer(w, "values", row->values);
  else
    json_null(w, "values");
  snprintf(bits, sizeof bits, "%u:%u", row->begin_bit, row->end_bit);
  json_string(w, "bits", row->end_bit ? bits : NULL);
  positive(w, "bins", (double)row->bins);
  json_string(w, "dist", row->dist);
  if (row->keep >= 0)
    json_number(w, "keep", row->keep);
  else
    json_null(w, "keep");
  positive(w, "segment", (double)row->segment);
  if (row->segment) {
    json_bool(w, "skew", row->skew == INPUT_SEGMENTS_SKEW);
    json_bool(w, "pareto", row->skew == INPUT_SEGMENTS_PARETO);
  } else {
    json_null(w, "skew");
    json_null(w, "pareto");
  }
}

static void measures(json_writer *w, const report_row *row) {
  int ok = row->status == REPORT_OK;
  double pct = report_pct_copy(row);
  if (ok) {
    json_begin_object(w, "time_s");
    json_number(w, "min", row->min_s);
    json_number(w, "q1", row->q1_s);
    json_number(w, "median", row->seconds);
    json_number(w, "q3", row->q3_s);
    json_number(w, "max", row->max_s);
    json_end_object(w);
    json_number(w, "spread", report_spread(row));
    json_bool(w, "spread_wide", report_spread_wide(row));
  } else {
    json_null(w, "time_s");
    json_null(w, "spread");
    json_null(w, "spread_wide");
  }
  positive(w, "gelem_per_s", report_gelem_per_s(row));
  positive(w, "gb_per_s", report_gb_per_s(row));
  if (pct >= 0)
    json_number(w, "pct_copy", pct);
  else
    json_null(w, "pct_copy");
  json_string(w, "reference", row->ratio > 0 ? row->reference : NULL);
  positive(w, "ratio", row->ratio);
}

void json_row(FILE *out, const report_row *row) {
  json_writer *w = &writer;
  char variant[128];
  (void)out; /* the writer's, from json_begin */
  report_variant(row, variant, sizeof variant);
  json_begin_object(w, NULL);
  json_string(w, "primitive", row->primitive);
  json_string(w, "variant", variant);
  json_string(w, "type", row->type);
  json_integer(w, "n", (long long)row->n);
  json_string(w, "backend", row->backend);
  json_string(w, "platform", row->platform);
  json_string(w, "device", row->device);
  json_integer(w, "device_index", row->device_index);
  parameters(w, row);
  measures(w, row);
  json_integer(w, "reps", row->reps);
  json_integer(w, "k", row->k);
  json_string(w, "status", report_status_name(row->status));
  json_string(w, "note", row->note);
  if (row->graph) {
    json_string(w, "graph", row->graph);
    json_integer(w, "edges", (long long)row->edges);
    positive(w, "gteps", row->status == REPORT_OK ? row->teps * 1e-9 : 0);
    positive(w, "gteps_hmean",
             row->status == REPORT_OK ? row->teps_hmean * 1e-9 : 0);
  }
  json_end_object(w);
}

void json_end(FILE *out, const char (*notes)[REPORT_NOTE_SIZE], int count) {
  json_writer *w = &writer;
  (void)out;
  json_end_array(w);
  json_begin_array(w, "notes");
  for (int i = 0; i < count; i++)
    json_string(w, NULL, notes[i]);
  json_end_array(w);
  json_end_object(w);
}
