/*
** json.c — streaming JSON writer.
*/
#include "core/json.h"

#include <math.h>

void json_init(JsonWriter *w, FILE *out, bool pretty)
{
    w->out = out;
    w->depth = 0;
    w->pretty = pretty;
    w->after_key = false;
    for (int i = 0; i < JSON_MAX_DEPTH; i++) w->has_items[i] = false;
}

static void newline(JsonWriter *w)
{
    if (!w->pretty) return;
    fputc('\n', w->out);
    for (int i = 0; i < w->depth; i++) fputs("  ", w->out);
}

/* Comma and indentation before a value or a key. */
static void before_item(JsonWriter *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth > 0) {
        if (w->has_items[w->depth]) fputc(',', w->out);
        w->has_items[w->depth] = true;
        newline(w);
    }
}

static void open(JsonWriter *w, char c)
{
    before_item(w);
    fputc(c, w->out);
    if (w->depth < JSON_MAX_DEPTH - 1) w->depth++;
    w->has_items[w->depth] = false;
}

static void close(JsonWriter *w, char c)
{
    bool had = w->has_items[w->depth];
    if (w->depth > 0) w->depth--;
    if (had) newline(w);
    fputc(c, w->out);
}

void json_object_begin(JsonWriter *w) { open(w, '{'); }
void json_object_end(JsonWriter *w) { close(w, '}'); }
void json_array_begin(JsonWriter *w) { open(w, '['); }
void json_array_end(JsonWriter *w) { close(w, ']'); }

static void quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (*p < 0x20) fprintf(out, "\\u%04x", *p);
            else fputc(*p, out);
        }
    }
    fputc('"', out);
}

void json_key(JsonWriter *w, const char *key)
{
    before_item(w);
    quoted(w->out, key);
    fputs(w->pretty ? ": " : ":", w->out);
    w->after_key = true;
}

void json_string(JsonWriter *w, const char *s)
{
    before_item(w);
    quoted(w->out, s);
}

void json_number(JsonWriter *w, double v)
{
    before_item(w);
    if (!isfinite(v)) fputs("null", w->out);
    else fprintf(w->out, "%.9g", v);
}

void json_int(JsonWriter *w, int64_t v)
{
    before_item(w);
    fprintf(w->out, "%lld", (long long)v);
}

void json_bool(JsonWriter *w, bool v)
{
    before_item(w);
    fputs(v ? "true" : "false", w->out);
}

void json_null(JsonWriter *w)
{
    before_item(w);
    fputs("null", w->out);
}

void json_finish(JsonWriter *w)
{
    fputc('\n', w->out);
    fflush(w->out);
}
