/* SPDX-License-Identifier: MIT */
#include "json_read.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64 /* the bench writes 4 levels; deeper is not ours */

typedef struct parser {
  const char *p, *end, *start;
  char *err;
  size_t err_size;
  int failed;
} parser;

static void fail(parser *ps, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Keep the first failure, with its line. */
static void fail(parser *ps, const char *fmt, ...) {
  char what[256];
  va_list ap;
  if (ps->failed)
    return;
  ps->failed = 1;
  int line = 1;
  for (const char *q = ps->start; q < ps->p && q < ps->end; q++)
    line += *q == '\n';
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  snprintf(ps->err, ps->err_size, "line %d: %s", line, what);
}

static void skip_space(parser *ps) {
  while (ps->p < ps->end &&
         (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
    ps->p++;
}

static int literal(parser *ps, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
    return 0;
  ps->p += n;
  return 1;
}

/* ---- Strings ------------------------------------------------------------- */

static int hex4(parser *ps, unsigned *out) {
  unsigned v = 0;
  if (ps->end - ps->p < 4)
    return 0;
  for (int i = 0; i < 4; i++) {
    char c = *ps->p++;
    v <<= 4;
    if (c >= '0' && c <= '9')
      v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= (unsigned)(c - 'A' + 10);
    else
      return 0;
  }
  *out = v;
  return 1;
}

static size_t put_utf8(unsigned cp, char *out) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xc0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3f));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xe0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[2] = (char)(0x80 | (cp & 0x3f));
    return 3;
  }
  out[0] = (char)(0xf0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
  out[3] = (char)(0x80 | (cp & 0x3f));
  return 4;
}

/* A \u escape (the backslash and u read), surrogate pairs joined. */
static int unicode_escape(parser *ps, unsigned *cp) {
  unsigned hi, lo;
  if (!hex4(ps, &hi))
    return 0;
  if (hi < 0xd800 || hi > 0xdfff) {
    *cp = hi;
    return 1;
  }
  if (hi > 0xdbff || !literal(ps, "\\u") || !hex4(ps, &lo) || lo < 0xdc00 ||
      lo > 0xdfff)
    return 0;
  *cp = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
  return 1;
}

/* One escape (the backslash read) into out; its length, 0 if bad. */
static size_t escape(parser *ps, char *out) {
  static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
  unsigned cp;
  if (ps->p >= ps->end)
    return 0;
  char c = *ps->p++;
  const char *at = strchr(from, c);
  if (c && at) {
    *out = to[at - from];
    return 1;
  }
  if (c == 'u' && unicode_escape(ps, &cp))
    return put_utf8(cp, out);
  return 0;
}

/* A string (at its opening quote), decoded; NULL on failure. Decoded text
 * is never longer than its source. */
static char *parse_string(parser *ps) {
  const char *q = ++ps->p;
  while (q < ps->end && *q != '"')
    q += *q == '\\' && q + 1 < ps->end ? 2 : 1;
  char *s = malloc((size_t)(q - ps->p) + 1), *w = s;
  if (!s) {
    fail(ps, "out of host memory");
    return NULL;
  }
  while (ps->p < ps->end && *ps->p != '"') {
    unsigned char c = (unsigned char)*ps->p;
    size_t n = 1;
    if (c < 0x20) {
      fail(ps, "a control character in a string");
      break;
    }
    if (c == '\\') {
      ps->p++;
      n = escape(ps, w);
      if (!n) {
        fail(ps, "a bad escape in a string");
        break;
      }
    } else {
      *w = (char)c;
      ps->p++;
    }
    w += n;
  }
  if (!ps->failed && ps->p >= ps->end)
    fail(ps, "a string without its closing quote");
  if (ps->failed) {
    free(s);
    return NULL;
  }
  ps->p++;
  *w = '\0';
  return s;
}

/* ---- Values -------------------------------------------------------------- */

static int parse_value(parser *ps, json_value *v, int depth);

static int parse_number(parser *ps, json_value *v) {
  char buf[64], *stop;
  size_t n = 0;
  while (ps->p + n < ps->end && n + 1 < sizeof buf &&
         strchr("+-0123456789.eE", ps->p[n]))
    n++;
  memcpy(buf, ps->p, n);
  buf[n] = '\0';
  v->number = strtod(buf, &stop);
  if (n == 0 || *stop) {
    fail(ps, "not a JSON value");
    return 0;
  }
  v->kind = JSON_NUMBER;
  ps->p += n;
  return 1;
}

/* Room for one more member; 0 when out of memory. */
static int grow(parser *ps, json_value *v, size_t *capacity, int keys) {
  if (v->count < *capacity)
    return 1;
  size_t cap = *capacity ? 2 * *capacity : 8;
  json_value *items = realloc(v->items, cap * sizeof *items);
  if (items)
    v->items = items;
  char **k = keys ? realloc(v->keys, cap * sizeof *k) : NULL;
  if (k)
    v->keys = k;
  if (!items || (keys && !k)) {
    fail(ps, "out of host memory");
    return 0;
  }
  *capacity = cap;
  return 1;
}

/* An array or an object (at its bracket). */
static int parse_container(parser *ps, json_value *v, int depth, int object) {
  size_t capacity = 0;
  char close = object ? '}' : ']';
  v->kind = object ? JSON_OBJECT : JSON_ARRAY;
  ps->p++;
  skip_space(ps);
  if (ps->p < ps->end && *ps->p == close) {
    ps->p++;
    return 1;
  }
  for (;;) {
    if (!grow(ps, v, &capacity, object))
      return 0;
    json_value *item = &v->items[v->count];
    memset(item, 0, sizeof *item);
    if (object) {
      skip_space(ps);
      if (ps->p >= ps->end || *ps->p != '"') {
        fail(ps, "an object key must be a string");
        return 0;
      }
      if (!(v->keys[v->count] = parse_string(ps)))
        return 0;
      skip_space(ps);
      if (ps->p >= ps->end || *ps->p++ != ':') {
        free(v->keys[v->count]);
        fail(ps, "':' expected after an object key");
        return 0;
      }
    }
    v->count++; /* counted before it is parsed: json_free frees what is */
    if (!parse_value(ps, item, depth + 1))
      return 0;
    skip_space(ps);
    if (ps->p < ps->end && *ps->p == ',') {
      ps->p++;
      continue;
    }
    if (ps->p < ps->end && *ps->p == close) {
      ps->p++;
      return 1;
    }
    fail(ps, "',' or '%c' expected", close);
    return 0;
  }
}

static int parse_value(parser *ps, json_value *v, int depth) {
  skip_space(ps);
  if (depth > MAX_DEPTH) {
    fail(ps, "nested deeper than %d", MAX_DEPTH);
    return 0;
  }
  if (ps->p >= ps->end) {
    fail(ps, "a value expected, the end found");
    return 0;
  }
  switch (*ps->p) {
  case '{':
    return parse_container(ps, v, depth, 1);
  case '[':
    return parse_container(ps, v, depth, 0);
  case '"':
    v->kind = JSON_STRING;
    return (v->string = parse_string(ps)) != NULL;
  default:
    break;
  }
  if (literal(ps, "null"))
    v->kind = JSON_NULL;
  else if (literal(ps, "true"))
    v->kind = JSON_BOOL, v->boolean = 1;
  else if (literal(ps, "false"))
    v->kind = JSON_BOOL, v->boolean = 0;
  else
    return parse_number(ps, v);
  return 1;
}

/* ---- Tree ---------------------------------------------------------------- */

static void free_members(json_value *v) {
  for (size_t i = 0; i < v->count; i++) {
    free_members(&v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->string);
}

void json_free(json_value *v) {
  if (!v)
    return;
  free_members(v);
  free(v);
}

json_value *json_parse(const char *text, size_t len, char *err,
                       size_t err_size) {
  parser ps = {text, text + len, text, err, err_size, 0};
  json_value *v = calloc(1, sizeof *v);
  if (!v) {
    snprintf(err, err_size, "out of host memory");
    return NULL;
  }
  if (parse_value(&ps, v, 0)) {
    skip_space(&ps);
    if (ps.p < ps.end)
      fail(&ps, "text after the value");
  }
  if (ps.failed) {
    json_free(v);
    return NULL;
  }
  return v;
}

const json_value *json_get(const json_value *obj, const char *key) {
  if (!obj || obj->kind != JSON_OBJECT)
    return NULL;
  for (size_t i = 0; i < obj->count; i++) {
    if (strcmp(obj->keys[i], key) == 0)
      return &obj->items[i];
  }
  return NULL;
}

const char *json_get_string(const json_value *obj, const char *key) {
  const json_value *v = json_get(obj, key);
  return v && v->kind == JSON_STRING ? v->string : NULL;
}

double json_get_number(const json_value *obj, const char *key,
                       double fallback) {
  const json_value *v = json_get(obj, key);
  return v && v->kind == JSON_NUMBER ? v->number : fallback;
}
