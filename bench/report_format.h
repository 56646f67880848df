/* SPDX-License-Identifier: MIT */
/*
 * What the report's formats share (report_table.c, report_csv.c,
 * report_json.c): the derived numbers of a row, its variant label, units,
 * and each format's entry points, which report.c calls.
 */
#ifndef PRISM_BENCH_REPORT_FORMAT_H
#define PRISM_BENCH_REPORT_FORMAT_H

#include "report.h"

#define REPORT_NOTE_SIZE 512

/* The status names rows print: "ok", "skip", "FAIL", "error". */
const char *report_status_name(report_status status);

/* amount / seconds, 0 when seconds is not positive. */
double report_rate(double amount, double seconds);

/* G elements per second (bfs rows: 0), GB per second. */
double report_gelem_per_s(const report_row *row);
double report_gb_per_s(const report_row *row);

/* The row's GB/s as a percentage of its device's copy row, or -1 where
 * that means nothing: not measured, no copy rate, or too few bytes moved
 * to leave the cache (REPORT_COPY_CACHE_MULTIPLE). */
double report_pct_copy(const report_row *row);

/* (max - min) / median of the row's samples, 0 without them. */
double report_spread(const report_row *row);

/* Whether the row is marked for a wide spread (array rows only: a bfs
 * row's searches start from different vertices and differ by design). */
int report_spread_wide(const report_row *row);

/* The row's parameters after its primitive, as the table, compare and the
 * charts name them: "ex sum", "v4 desc", "256 1bin", "50%", "ex sum 1000";
 * bfs rows: the graph. "" for none. */
void report_variant(const report_row *row, char *buf, size_t size);

/* A segmented row's layout as --segment takes it: "1000", "skew" or
 * "pareto:1000"; "" when the row has none. */
void report_format_segment(const report_row *row, char *buf, size_t size);

/* "2^20" for powers of two from 2^10, else decimal. */
void report_format_n(size_t n, char *buf, size_t size);

/* Three significant digits with a unit: "812 ns", "12.3 us", "1.05 s". */
void report_format_time(double s, char *buf, size_t size);

/* A rate with two to four significant digits, no exponent above 1e-5. */
void report_format_rate(double v, char *buf, size_t size);

/* ---- The formats ---- */

void table_begin(FILE *out, const bench_meta *meta, const device_info *devs,
                 int count, int label_width);
void table_row(FILE *out, const report_row *row);
void table_end(FILE *out, const char (*notes)[REPORT_NOTE_SIZE], int count);

void csv_begin(FILE *out, const bench_meta *meta, const device_info *devs,
               int count);
void csv_row(FILE *out, const report_row *row);
void csv_end(FILE *out, const char (*notes)[REPORT_NOTE_SIZE], int count);

void json_begin(FILE *out, const bench_meta *meta, const device_info *devs,
                int count);
void json_row(FILE *out, const report_row *row);
void json_end(FILE *out, const char (*notes)[REPORT_NOTE_SIZE], int count);

#endif /* PRISM_BENCH_REPORT_FORMAT_H */
