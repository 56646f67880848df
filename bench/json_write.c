/* SPDX-License-Identifier: MIT */
#include "json_write.h"

#include <math.h>

void json_writer_init(json_writer *w, FILE *out, int inline_depth) {
  w->out = out;
  w->inline_depth = inline_depth;
  w->depth = 0;
  w->count[0] = 0;
}

static void write_escaped(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(out, "\\%c", c);
    else if (c == '\n')
      fputs("\\n", out);
    else if (c == '\t')
      fputs("\\t", out);
    else if (c < 0x20 || c == 0x7f)
      fprintf(out, "\\u%04x", c);
    else
      fputc(c, out); /* UTF-8 passes through */
  }
  fputc('"', out);
}

/* The comma, the line break and the key before a value. */
static void separate(json_writer *w, const char *key) {
  if (w->depth > 0) {
    if (w->count[w->depth]++)
      fputc(',', w->out);
    if (w->depth <= w->inline_depth) {
      fputc('\n', w->out);
      for (int i = 0; i < w->depth; i++)
        fputs("  ", w->out);
    } else {
      fputc(' ', w->out);
    }
  }
  if (key) {
    write_escaped(w->out, key);
    fputs(": ", w->out);
  }
}

static void open_container(json_writer *w, const char *key, char bracket) {
  separate(w, key);
  fputc(bracket, w->out);
  if (w->depth + 1 < JSON_WRITE_MAX_DEPTH)
    w->depth++;
  w->count[w->depth] = 0;
}

static void close_container(json_writer *w, char bracket) {
  int had = w->count[w->depth] > 0;
  if (w->depth > 0)
    w->depth--;
  if (had && w->depth + 1 <= w->inline_depth) {
    fputc('\n', w->out);
    for (int i = 0; i < w->depth; i++)
      fputs("  ", w->out);
  } else if (had) {
    fputc(' ', w->out);
  }
  fputc(bracket, w->out);
  if (w->depth == 0)
    fputc('\n', w->out);
}

void json_begin_object(json_writer *w, const char *key) {
  open_container(w, key, '{');
}

void json_end_object(json_writer *w) {
  close_container(w, '}');
}

void json_begin_array(json_writer *w, const char *key) {
  open_container(w, key, '[');
}

void json_end_array(json_writer *w) {
  close_container(w, ']');
}

void json_string(json_writer *w, const char *key, const char *s) {
  separate(w, key);
  if (s)
    write_escaped(w->out, s);
  else
    fputs("null", w->out);
}

void json_number(json_writer *w, const char *key, double v) {
  separate(w, key);
  if (isfinite(v))
    fprintf(w->out, "%.6g", v);
  else
    fputs("null", w->out);
}

void json_integer(json_writer *w, const char *key, long long v) {
  separate(w, key);
  fprintf(w->out, "%lld", v);
}

void json_bool(json_writer *w, const char *key, int v) {
  separate(w, key);
  fputs(v ? "true" : "false", w->out);
}

void json_null(json_writer *w, const char *key) {
  separate(w, key);
  fputs("null", w->out);
}
