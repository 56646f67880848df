/* SPDX-License-Identifier: MIT */
/*
 * A small JSON reader for `prism-bench compare`: the whole text parsed
 * into a tree (RFC 8259; strings decoded to UTF-8, numbers as doubles),
 * read through lookups that return NULL for what is missing or of another
 * kind, so that a file from another version of the bench reads as far as
 * it matches.
 */
#ifndef PRISM_BENCH_JSON_READ_H
#define PRISM_BENCH_JSON_READ_H

#include <stddef.h>

typedef enum json_kind {
  JSON_NULL,
  JSON_BOOL,
  JSON_NUMBER,
  JSON_STRING,
  JSON_ARRAY,
  JSON_OBJECT
} json_kind;

typedef struct json_value {
  json_kind kind;
  int boolean;
  double number;
  char *string;             /* STRING: NUL-terminated */
  struct json_value *items; /* ARRAY, OBJECT: count values */
  char **keys;              /* OBJECT: count keys */
  size_t count;
} json_value;

/* Parse len bytes of text; NULL with the line and reason in err when it is
 * not one JSON value (or the host is out of memory). */
json_value *json_parse(const char *text, size_t len, char *err,
                       size_t err_size);
void json_free(json_value *v);

/* obj's member key, or NULL (obj NULL or not an object). */
const json_value *json_get(const json_value *obj, const char *key);
/* The member as a string / a number, or NULL / fallback. */
const char *json_get_string(const json_value *obj, const char *key);
double json_get_number(const json_value *obj, const char *key, double fallback);

#endif /* PRISM_BENCH_JSON_READ_H */
