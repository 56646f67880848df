/* SPDX-License-Identifier: MIT */
#include "report_format.h"

#include "input.h"
#include "prism.h"

#include <stdio.h>
#include <string.h>

const char *report_status_name(report_status status) {
  static const char *const names[] = {"ok", "skip", "FAIL", "error"};
  return names[status];
}

double report_rate(double amount, double seconds) {
  return seconds > 0 ? amount / seconds : 0;
}

double report_gelem_per_s(const report_row *row) {
  if (row->status != REPORT_OK || row->graph)
    return 0;
  return report_rate((double)row->n, row->seconds) * 1e-9;
}

double report_gb_per_s(const report_row *row) {
  if (row->status != REPORT_OK)
    return 0;
  return report_rate(row->bytes, row->seconds) * 1e-9;
}

double report_pct_copy(const report_row *row) {
  if (row->status != REPORT_OK || row->graph || row->copy_bytes_per_s <= 0)
    return -1;
  if (row->bytes <= REPORT_COPY_CACHE_MULTIPLE * row->cache_bytes)
    return -1;
  return 100 * report_rate(row->bytes, row->seconds) / row->copy_bytes_per_s;
}

double report_spread(const report_row *row) {
  if (row->status != REPORT_OK || row->seconds <= 0 || row->max_s <= 0)
    return 0;
  return (row->max_s - row->min_s) / row->seconds;
}

int report_spread_wide(const report_row *row) {
  return !row->graph && report_spread(row) > REPORT_SPREAD_MARK;
}

/* Whether [begin_bit, end_bit) is every bit of the row's key type. */
static int all_bits(const report_row *row) {
  for (int t = 0; t < PRISM_TYPE_COUNT; t++) {
    if (row->type && strcmp(row->type, prism_type_name((prism_type)t)) == 0)
      return row->begin_bit == 0 &&
             row->end_bit == 8 * prism_type_size((prism_type)t);
  }
  return 1;
}

/* Append " text" to buf when text is not empty. */
static void add(char *buf, size_t size, const char *text) {
  size_t len = strlen(buf);
  if (text[0] && len + 1 < size)
    snprintf(buf + len, size - len, "%s%s", len ? " " : "", text);
}

void report_variant(const report_row *row, char *buf, size_t size) {
  char part[64];
  buf[0] = '\0';
  if (row->graph) {
    snprintf(buf, size, "%s", row->graph);
    return;
  }
  if (row->kind)
    add(buf, size, strcmp(row->kind, "exclusive") == 0 ? "ex" : "in");
  if (row->op)
    add(buf, size, row->op);
  if (row->values > 0) {
    snprintf(part, sizeof part, "v%d", row->values);
    add(buf, size, part);
  }
  if (row->order && strcmp(row->order, "descending") == 0)
    add(buf, size, "desc");
  if (row->end_bit && !all_bits(row)) {
    snprintf(part, sizeof part, "bits %u:%u", row->begin_bit, row->end_bit);
    add(buf, size, part);
  }
  if (row->bins) {
    snprintf(part, sizeof part, "%zu", row->bins);
    add(buf, size, part);
  }
  if (row->dist && strcmp(row->dist, "one-bin") == 0)
    add(buf, size, "1bin");
  if (row->keep >= 0) {
    snprintf(part, sizeof part, "%g%%", 100 * row->keep);
    add(buf, size, part);
  }
  report_format_segment(row, part, sizeof part);
  add(buf, size, part);
}

void report_format_segment(const report_row *row, char *buf, size_t size) {
  if (row->skew == INPUT_SEGMENTS_SKEW)
    snprintf(buf, size, "skew");
  else if (row->skew == INPUT_SEGMENTS_PARETO)
    snprintf(buf, size, "pareto:%zu", row->segment);
  else if (row->segment)
    snprintf(buf, size, "%zu", row->segment);
  else if (size)
    buf[0] = '\0';
}

void report_format_n(size_t n, char *buf, size_t size) {
  if (n >= 1024 && (n & (n - 1)) == 0) {
    int k = 0;
    while (((size_t)1 << k) != n)
      k++;
    snprintf(buf, size, "2^%d", k);
  } else {
    snprintf(buf, size, "%zu", n);
  }
}

void report_format_time(double s, char *buf, size_t size) {
  static const char *const units[] = {"ns", "us", "ms", "s"};
  double v = s * 1e9;
  int u = 0;
  while (v >= 999.5 && u < 3) {
    v /= 1000;
    u++;
  }
  if (v >= 99.95)
    snprintf(buf, size, "%.0f %s", v, units[u]);
  else if (v >= 9.995)
    snprintf(buf, size, "%.1f %s", v, units[u]);
  else
    snprintf(buf, size, "%.2f %s", v, units[u]);
}

void report_format_rate(double v, char *buf, size_t size) {
  if (v >= 99.95)
    snprintf(buf, size, "%.0f", v);
  else if (v >= 9.995)
    snprintf(buf, size, "%.1f", v);
  else if (v >= 0.01 || v == 0)
    snprintf(buf, size, "%.2f", v);
  else
    snprintf(buf, size, "%.2g", v);
}
