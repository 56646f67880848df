/* SPDX-License-Identifier: MIT */
/*
 * The report as CSV: one header line, one line per row. The run's
 * metadata and each device come first, the notes last, as lines that start
 * with '#' (pandas: comment='#'), so that a file carries what it measured.
 */
#include "report_format.h"

#include <stdio.h>
#include <string.h>

static void csv_string(FILE *out, const char *s) {
  if (!s)
    return;
  if (!strpbrk(s, ",\"\n\r")) {
    fputs(s, out);
    return;
  }
  fputc('"', out);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', out);
    fputc(*s, out);
  }
  fputc('"', out);
}

/* A positive number; nothing for 0 (does not apply). */
static void csv_number(FILE *out, double v) {
  if (v > 0)
    fprintf(out, "%.6g", v);
}

/* A comment line: "# key: value", the value on one line. */
static void comment(FILE *out, const char *key, const char *value) {
  fprintf(out, "# %s: ", key);
  for (const char *p = value; *p; p++)
    fputc(*p == '\n' || *p == '\r' ? ' ' : *p, out);
  fputc('\n', out);
}

static void device_comment(FILE *out, int i, const device_info *d) {
  fprintf(out,
          "# device %d: backend %s; device %s; full name %s; platform %s; "
          "platform version %s; device version %s; driver %s; runtime %s; "
          "cpu %d; compute units %u; global memory %llu; last-level cache "
          "%llu (%s); policy %s (%s)\n",
          i, d->backend, d->name, d->full_name, d->platform,
          d->platform_version, d->device_version, d->driver_version,
          d->runtime_version[0] ? d->runtime_version : "-", d->is_cpu,
          d->compute_units, d->global_mem_bytes, d->cache_bytes,
          d->cache_source[0] ? d->cache_source : "unknown", d->policy,
          d->policy_source);
}

void csv_begin(FILE *out, const bench_meta *meta, const device_info *devs,
               int count) {
  char number[64];
  comment(out, "prism_version", meta->version);
  comment(out, "commit", meta->commit);
  comment(out, "host", meta->host);
  comment(out, "date", meta->date);
  comment(out, "command", meta->command);
  snprintf(number, sizeof number, "%d", meta->reps);
  comment(out, "reps", number);
  comment(out, "ratio",
          "reference time / prism time; above 1: prism is "
          "better");
  snprintf(number, sizeof number, "%g", REPORT_SPREAD_MARK);
  comment(out, "spread_wide_above", number);
  snprintf(number, sizeof number, "%d", REPORT_COPY_CACHE_MULTIPLE);
  comment(out, "pct_copy_above_cache_multiple", number);
  for (int i = 0; i < count; i++)
    device_comment(out, i, &devs[i]);
  fprintf(out, "backend,device,platform,device_index,primitive,variant,op,"
               "kind,order,values,bits,bins,dist,keep,segment,type,n,seconds,"
               "min_s,q1_s,q3_s,max_s,spread,spread_wide,gelem_per_s,"
               "gb_per_s,pct_copy,reference,ratio,reps,k,status,note,graph,"
               "edges,gteps,gteps_hmean\n");
}

/* The parameter columns: op to segment. */
static void parameters(FILE *out, const report_row *row) {
  csv_string(out, row->op);
  fputc(',', out);
  csv_string(out, row->kind);
  fputc(',', out);
  csv_string(out, row->order);
  fputc(',', out);
  if (row->values >= 0)
    fprintf(out, "%d", row->values);
  fputc(',', out);
  if (row->end_bit)
    fprintf(out, "%u:%u", row->begin_bit, row->end_bit);
  fputc(',', out);
  if (row->bins)
    fprintf(out, "%zu", row->bins);
  fputc(',', out);
  csv_string(out, row->dist);
  fputc(',', out);
  if (row->keep >= 0)
    fprintf(out, "%g", row->keep);
  fputc(',', out);
  char segment[64];
  report_format_segment(row, segment, sizeof segment);
  fputs(segment, out);
}

/* The measured columns: seconds to ratio. */
static void measures(FILE *out, const report_row *row) {
  int ok = row->status == REPORT_OK;
  double pct = report_pct_copy(row);
  csv_number(out, ok ? row->seconds : 0);
  fputc(',', out);
  csv_number(out, ok ? row->min_s : 0);
  fputc(',', out);
  csv_number(out, ok ? row->q1_s : 0);
  fputc(',', out);
  csv_number(out, ok ? row->q3_s : 0);
  fputc(',', out);
  csv_number(out, ok ? row->max_s : 0);
  fputc(',', out);
  if (ok)
    fprintf(out, "%.3g,%d", report_spread(row), report_spread_wide(row));
  else
    fputc(',', out);
  fputc(',', out);
  csv_number(out, report_gelem_per_s(row));
  fputc(',', out);
  csv_number(out, report_gb_per_s(row));
  fputc(',', out);
  if (pct >= 0)
    fprintf(out, "%.4g", pct);
  fputc(',', out);
  csv_string(out, row->ratio > 0 ? row->reference : NULL);
  fputc(',', out);
  csv_number(out, row->ratio);
}

void csv_row(FILE *out, const report_row *row) {
  int ok = row->status == REPORT_OK;
  char variant[128];
  report_variant(row, variant, sizeof variant);
  csv_string(out, row->backend);
  fputc(',', out);
  csv_string(out, row->device);
  fputc(',', out);
  csv_string(out, row->platform);
  fprintf(out, ",%d,", row->device_index);
  csv_string(out, row->primitive);
  fputc(',', out);
  csv_string(out, variant);
  fputc(',', out);
  parameters(out, row);
  fputc(',', out);
  csv_string(out, row->type);
  fprintf(out, ",%zu,", row->n);
  measures(out, row);
  fprintf(out, ",%d,%d,%s,", row->reps, row->k,
          report_status_name(row->status));
  csv_string(out, row->note);
  fputc(',', out);
  csv_string(out, row->graph);
  fputc(',', out);
  if (row->graph)
    fprintf(out, "%zu", row->edges);
  fputc(',', out);
  csv_number(out, ok ? row->teps * 1e-9 : 0);
  fputc(',', out);
  csv_number(out, ok ? row->teps_hmean * 1e-9 : 0);
  fputc('\n', out);
}

void csv_end(FILE *out, const char (*notes)[REPORT_NOTE_SIZE], int count) {
  for (int i = 0; i < count; i++)
    comment(out, "note", notes[i]);
}
