/* SPDX-License-Identifier: MIT */
#include "report.h"

#include "report_format.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define REPORT_MAX_NOTES 64

static struct {
  report_format format;
  FILE *out;
  int note_count;
  char notes[REPORT_MAX_NOTES][REPORT_NOTE_SIZE];
} report;

void report_begin(report_format format, FILE *out, const bench_meta *meta,
                  const device_info *devices, int device_count,
                  int label_width) {
  report.format = format; /* notes kept before the start stay */
  report.out = out;
  switch (format) {
  case REPORT_TABLE:
    table_begin(out, meta, devices, device_count, label_width);
    break;
  case REPORT_CSV:
    csv_begin(out, meta, devices, device_count);
    break;
  case REPORT_JSON:
    json_begin(out, meta, devices, device_count);
    break;
  }
  fflush(out);
}

void report_row_print(const report_row *row) {
  switch (report.format) {
  case REPORT_TABLE:
    table_row(report.out, row);
    break;
  case REPORT_CSV:
    csv_row(report.out, row);
    break;
  case REPORT_JSON:
    json_row(report.out, row);
    break;
  }
  fflush(report.out);
}

void report_note(const char *fmt, ...) {
  char buf[REPORT_NOTE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  for (int i = 0; i < report.note_count; i++) {
    if (strcmp(report.notes[i], buf) == 0)
      return; /* said once is enough */
  }
  if (report.note_count < REPORT_MAX_NOTES)
    memcpy(report.notes[report.note_count++], buf, sizeof buf);
}

void report_end(void) {
  const char(*notes)[REPORT_NOTE_SIZE] = report.notes;
  switch (report.format) {
  case REPORT_TABLE:
    table_end(report.out, notes, report.note_count);
    break;
  case REPORT_CSV:
    csv_end(report.out, notes, report.note_count);
    break;
  case REPORT_JSON:
    json_end(report.out, notes, report.note_count);
    break;
  }
  fflush(report.out);
}
