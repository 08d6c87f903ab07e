#line 1951 "chapters/01-storage.nw"
/* print.c: repr(tensor), following torch/_tensor_str.py. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "tensor.h"

enum { LINEWIDTH = 80, THRESHOLD = 1000, EDGEITEMS = 3, PRECISION = 4 };

#line 1981 "chapters/01-storage.nw"
typedef struct {
    char *data;
    size_t len, cap;
    bool failed;
} strbuf;

static void append(strbuf *b, const char *format, ...)
{
    va_list args;
    int n;

    if (b->failed)
        return;
    va_start(args, format);
    n = vsnprintf(b->data + b->len, b->cap - b->len, format, args);
    va_end(args);
    if (n >= 0 && (size_t)n >= b->cap - b->len) {
        size_t cap = b->cap;
        char *data;
        while (cap - b->len <= (size_t)n)
            cap *= 2;
        data = realloc(b->data, cap);
        if (data == NULL) {
            b->failed = true;
            return;
        }
        b->data = data;
        b->cap = cap;
        va_start(args, format);
        n = vsnprintf(b->data + b->len, b->cap - b->len, format, args);
        va_end(args);
    }
    if (n < 0)
        b->failed = true;
    else
        b->len += (size_t)n;
}

static void append_spaces(strbuf *b, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        append(b, " ");
}
#line 2039 "chapters/01-storage.nw"
/* How many entries of a dimension of `size` are shown, and the i-th. */
static int64_t shown_count(int64_t size, bool summarize)
{
    return summarize && size > 2 * EDGEITEMS ? 2 * EDGEITEMS : size;
}

static int64_t shown_entry(int64_t size, bool summarize, int64_t i)
{
    return shown_count(size, summarize) < size && i >= EDGEITEMS
               ? size - 2 * EDGEITEMS + i
               : i;
}
#line 2068 "chapters/01-storage.nw"
typedef struct {
    bool floating;     /* the dtype is a float type */
    bool int_mode;     /* every finite non-zero value is whole */
    bool sci_mode;
    int width;
    /* statistics gathered over the shown, finite, non-zero values */
    bool any;
    double min_abs, max_abs;
} formatter;

/* One value as PyTorch's formatter writes it, without padding. */
static int format_value(char buf[64], const formatter *f, const tc_tensor *t,
                        int64_t position)
{
    double v;

    if (t->dtype == TC_BOOL)
        return snprintf(buf, 64, "%s", tc_load(t, position) != 0 ? "True" : "False");
    if (!f->floating)
        return snprintf(buf, 64, "%lld", (long long)tc_load_int64(t, position));
    v = tc_load(t, position);
    if (isnan(v))
        return snprintf(buf, 64, "nan");
    if (f->sci_mode)
        return snprintf(buf, 64, "%.*e", PRECISION, v);
    if (f->int_mode)
        return snprintf(buf, 64, isinf(v) ? "%.0f" : "%.0f.", v);
    return snprintf(buf, 64, "%.*f", PRECISION, v);
}
#line 2113 "chapters/01-storage.nw"
typedef void visitor(formatter *f, const tc_tensor *t, int64_t position);

static void gather(formatter *f, const tc_tensor *t, int64_t d, int64_t position,
                   bool summarize, visitor *visit)
{
    if (d == t->dim) {
        visit(f, t, position);
        return;
    }
    for (int64_t i = 0; i < shown_count(t->sizes[d], summarize); i++)
        gather(f, t, d + 1,
               position + shown_entry(t->sizes[d], summarize, i) * t->strides[d],
               summarize, visit);
}

static void collect_statistics(formatter *f, const tc_tensor *t, int64_t position)
{
    double v = tc_load(t, position), a = fabs(v);

    if (!isfinite(v) || v == 0)
        return;
    if (v != ceil(v))
        f->int_mode = false;
    f->min_abs = f->any ? fmin(f->min_abs, a) : a;
    f->max_abs = f->any ? fmax(f->max_abs, a) : a;
    f->any = true;
}

static void measure_width(formatter *f, const tc_tensor *t, int64_t position)
{
    char buf[64];
    double v = tc_load(t, position);
    int width;

    if (f->floating && (!isfinite(v) || v == 0))
        return;    /* PyTorch measures only the finite non-zero floats */
    width = format_value(buf, f, t, position);
    if (width > f->width)
        f->width = width;
}

static formatter make_formatter(const tc_tensor *t, bool summarize)
{
    formatter f = { .floating = t->dtype >= TC_FLOAT32, .int_mode = true, .width = 1 };

    if (f.floating) {
        gather(&f, t, 0, t->storage_offset, summarize, collect_statistics);
        if (!f.any)
            return f;    /* only zeros, NaN and infinities: "0." and "nan" */
        f.sci_mode = f.max_abs / f.min_abs > 1000. || f.max_abs > 1.e8 ||
                     (!f.int_mode && f.min_abs < 1.e-4);
    }
    gather(&f, t, 0, t->storage_offset, summarize, measure_width);
    return f;
}
#line 2188 "chapters/01-storage.nw"
static void write_value(strbuf *b, const formatter *f, const tc_tensor *t,
                        int64_t position)
{
    char buf[64];
    int len = format_value(buf, f, t, position);

    append_spaces(b, f->width - len);
    append(b, "%s", buf);
}

static void write_vector(strbuf *b, const formatter *f, const tc_tensor *t,
                         int64_t position, int64_t indent, bool summarize)
{
    int64_t size = t->sizes[t->dim - 1], stride = t->strides[t->dim - 1];
    int64_t shown = shown_count(size, summarize);
    int64_t per_line = (LINEWIDTH - indent) / (f->width + 2);
    int64_t items = shown + (shown < size);    /* " ..." is an item too */

    if (per_line < 1)
        per_line = 1;
    append(b, "[");
    for (int64_t item = 0, i = 0; item < items; item++) {
        if (item > 0)
            append(b, item % per_line == 0 ? ",\n" : ", ");
        if (item > 0 && item % per_line == 0)
            append_spaces(b, indent + 1);
        if (shown < size && item == EDGEITEMS) {
            append(b, " ...");
            continue;
        }
        write_value(b, f, t, position + shown_entry(size, summarize, i) * stride);
        i++;
    }
    append(b, "]");
}

static void write_tensor(strbuf *b, const formatter *f, const tc_tensor *t,
                         int64_t d, int64_t position, int64_t indent,
                         bool summarize)
{
    int64_t size = t->sizes[d];
    int64_t shown = shown_count(size, summarize);

    if (d == t->dim - 1) {
        write_vector(b, f, t, position, indent, summarize);
        return;
    }
    append(b, "[");
    for (int64_t i = 0; i < shown; i++) {
        if (i > 0) {
            append(b, ",");
            for (int64_t n = 0; n < t->dim - d - 1; n++)
                append(b, "\n");
            append_spaces(b, indent + 1);
        }
        if (shown < size && i == EDGEITEMS) {
            append(b, "...,");
            for (int64_t n = 0; n < t->dim - d - 1; n++)
                append(b, "\n");
            append_spaces(b, indent + 1);
        }
        write_tensor(b, f, t, d + 1,
                     position + shown_entry(size, summarize, i) * t->strides[d],
                     indent + 1, summarize);
    }
    append(b, "]");
}
#line 2273 "chapters/01-storage.nw"
static void add_suffix(strbuf *b, int64_t *line_len, const char *suffix)
{
    int64_t len = (int64_t)strlen(suffix);

    if (*line_len + len + 2 > LINEWIDTH) {
        append(b, ",\n       %s", suffix);
        *line_len = 7 + len;
    } else {
        append(b, ", %s", suffix);
        *line_len += len + 2;
    }
}

/* The size of an empty tensor as a Python tuple: "(2, 0)", "(0,)". */
static void format_tuple(char *buf, size_t n, const tc_tensor *t)
{
    size_t len = (size_t)snprintf(buf, n, "(");

    for (int64_t d = 0; d < t->dim && len < n; d++)
        len += (size_t)snprintf(buf + len, n - len, "%s%lld", d > 0 ? ", " : "",
                                (long long)t->sizes[d]);
    if (len < n)
        snprintf(buf + len, n - len, t->dim == 1 ? ",)" : ")");
}

char *tc_repr(const tc_tensor *t)
{
    strbuf b = { .data = malloc(256), .cap = 256 };
    char suffix[TC_SIZES_STRLEN + 16];
    const char *last_newline;
    int64_t line_len;
    bool empty;

    if (tc_failed(t)) {
        free(b.data);
        return NULL;
    }
    if (b.data == NULL)
        return tc_fail("tc_repr: out of memory");
    empty = tc_numel(t) == 0;
    append(&b, "tensor(");
    
#line 2357 "chapters/01-storage.nw"
if (empty) {
    append(&b, "[]");
} else {
    bool summarize = tc_numel(t) > THRESHOLD;
    formatter f = make_formatter(t, summarize);
    if (t->dim == 0)
        write_value(&b, &f, t, t->storage_offset);
    else
        write_tensor(&b, &f, t, 0, t->storage_offset, 7, summarize);
}
#line 2315 "chapters/01-storage.nw"
    last_newline = b.failed ? NULL : strrchr(b.data, '\n');
    line_len = last_newline ? (int64_t)(b.data + b.len - last_newline) + 1
                            : (int64_t)b.len + 2;
    if (empty && t->dim != 1) {
        strcpy(suffix, "size=");
        format_tuple(suffix + 5, sizeof suffix - 5, t);
        add_suffix(&b, &line_len, suffix);
    }
    if (empty ? t->dtype != TC_FLOAT32 : t->dtype == TC_FLOAT64) {
        snprintf(suffix, sizeof suffix, "dtype=%s", tc_dtype_name(t->dtype));
        add_suffix(&b, &line_len, suffix);
    }
    append(&b, ")");
    if (b.failed) {
        free(b.data);
        return tc_fail("tc_repr: out of memory");
    }
    return b.data;
}

int tc_print(FILE *f, const tc_tensor *t)
{
    return tc_print_indented(f, t, 0);
}

int tc_print_indented(FILE *f, const tc_tensor *t, int indent)
{
    char *s = tc_repr(t);

    if (s == NULL)
        return -1;
    for (const char *line = s; *line != '\0';) {
        size_t len = strcspn(line, "\n");
        fprintf(f, "%*s%.*s\n", len > 0 ? indent : 0, "", (int)len, line);
        line += len + (line[len] == '\n');
    }
    free(s);
    return 0;
}
