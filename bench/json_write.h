/* SPDX-License-Identifier: MIT */
/*
 * A tiny JSON emitter for the report: values written in order, commas and
 * indentation kept by the writer, strings escaped (RFC 8259), numbers that
 * are not finite written as null. Containers deeper than inline_depth are
 * written on one line (one row per line reads well and diffs well).
 */
#ifndef PRISM_BENCH_JSON_WRITE_H
#define PRISM_BENCH_JSON_WRITE_H

#include <stdio.h>

#define JSON_WRITE_MAX_DEPTH 16

typedef struct json_writer {
  FILE *out;
  int inline_depth;
  int depth;
  int count[JSON_WRITE_MAX_DEPTH]; /* values written in each open container */
} json_writer;

void json_writer_init(json_writer *w, FILE *out, int inline_depth);

/* Each value takes a key inside an object and NULL elsewhere. */
void json_begin_object(json_writer *w, const char *key);
void json_end_object(json_writer *w);
void json_begin_array(json_writer *w, const char *key);
void json_end_array(json_writer *w);
void json_string(json_writer *w, const char *key, const char *s); /* NULL:
                                                                     null */
void json_number(json_writer *w, const char *key, double v);
void json_integer(json_writer *w, const char *key, long long v);
void json_bool(json_writer *w, const char *key, int v);
void json_null(json_writer *w, const char *key);

#endif /* PRISM_BENCH_JSON_WRITE_H */
