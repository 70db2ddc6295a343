/*
** json.h — a small streaming JSON writer for the CLI's --json output.
**
** Write values in order; the writer adds commas, quotes and indentation.
** Inside an object call json_key() before each value. Non-finite numbers
** are written as null (JSON has no Inf/NaN).
*/
#ifndef NAV_JSON_H
#define NAV_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JSON_MAX_DEPTH 32

typedef struct JsonWriter {
    FILE *out;
    int depth;
    bool pretty;
    bool after_key;
    bool has_items[JSON_MAX_DEPTH];
} JsonWriter;

void json_init(JsonWriter *w, FILE *out, bool pretty);
void json_object_begin(JsonWriter *w);
void json_object_end(JsonWriter *w);
void json_array_begin(JsonWriter *w);
void json_array_end(JsonWriter *w);
void json_key(JsonWriter *w, const char *key);
void json_string(JsonWriter *w, const char *s);
void json_number(JsonWriter *w, double v);
void json_int(JsonWriter *w, int64_t v);
void json_bool(JsonWriter *w, bool v);
void json_null(JsonWriter *w);
/* Ends the document with a newline. */
void json_finish(JsonWriter *w);

#ifdef __cplusplus
}
#endif

#endif
