/* fuzz.c: the byte reader, tensor builders and invariant checks that the
   fuzz targets share (see fuzz.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

fz_reader fz_reader_of(const uint8_t *data, size_t size)
{
    return (fz_reader){ .data = data, .size = size, .pos = 0 };
}

bool fz_more(const fz_reader *r) { return r->pos < r->size; }

uint8_t fz_byte(fz_reader *r)
{
    return r->pos < r->size ? r->data[r->pos++] : 0;
}

bool fz_bool(fz_reader *r) { return fz_byte(r) & 1; }

int64_t fz_range(fz_reader *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo, value = 0;

    for (uint64_t left = span; left != 0; left >>= 8)
        value = value << 8 | fz_byte(r);
    if (span != UINT64_MAX)
        value %= span + 1;
    return (int64_t)((uint64_t)lo + value);
}

int64_t fz_int64(fz_reader *r)
{
    static const int64_t edges[] = {
        INT64_MAX, INT64_MIN, INT64_MAX - 1, INT64_MIN + 1, (int64_t)1 << 62,
        -((int64_t)1 << 62), (int64_t)1 << 32, (int64_t)1 << 31, INT32_MAX,
        INT64_MAX / 2, INT64_MAX / 3, INT64_MAX / 8, (int64_t)1 << 40,
        ((int64_t)1 << 32) + 1, (int64_t)3037000500, /* ~ sqrt(2^63) */
    };
    uint8_t kind = fz_byte(r);

    if (kind < 128)
        return (int64_t)(kind % 16) - 4;                   /* -4 .. 11 */
    if (kind < 192)
        return fz_range(r, -1000, 1000);
    if (kind < 240)
        return edges[kind % (sizeof edges / sizeof edges[0])];
    return (int64_t)(uint64_t)fz_range(r, INT64_MIN, INT64_MAX);
}

int64_t fz_dim_arg(fz_reader *r, int64_t n)
{
    int64_t m = n > 0 ? n : 1;

    if (fz_byte(r) < 240)
        return fz_range(r, -m, m - 1);
    return fz_int64(r);
}

double fz_double(fz_reader *r)
{
    static const double edges[] = { 0.5, -0.5, 1e300, -1e300, INFINITY, -INFINITY,
                                    NAN, -0.0, 1e-310, 9007199254740993.0, 3e38, 1e20 };
    uint8_t kind = fz_byte(r);

    if (kind < 200)
        return (double)((int)(kind % 21) - 10);
    if (kind < 230)
        return (double)((int)fz_byte(r) - 128) / 4;
    return edges[kind % (sizeof edges / sizeof edges[0])];
}

tc_dtype fz_dtype(fz_reader *r)
{
    static const tc_dtype dtypes[] = { TC_FLOAT32, TC_INT64, TC_FLOAT64, TC_BOOL };

    return dtypes[fz_byte(r) % 4];
}

tc_shape fz_shape(fz_reader *r, int64_t max_dim, int64_t max_size)
{
    tc_shape shape = { .dim = fz_range(r, 0, max_dim) };

    for (int64_t d = 0; d < shape.dim; d++)
        shape.sizes[d] = fz_range(r, 0, max_size);
    return shape;
}

tc_shape fz_wild_shape(fz_reader *r)
{
    tc_shape shape = { .dim = fz_range(r, -2, TC_MAX_DIMS + 2) };

    for (int64_t d = 0; d < TC_MAX_DIMS; d++)
        shape.sizes[d] = d < shape.dim ? fz_int64(r) : 0;
    return shape;
}

/* ---- building tensors ---------------------------------------------------- */

int64_t fz_numel(const tc_tensor *t)
{
    int64_t n = 1;

    for (int64_t d = 0; d < t->dim; d++)
        n *= t->sizes[d];
    return n;
}

bool fz_numel_at_most(int64_t dim, const int64_t *sizes, int64_t limit)
{
    int64_t n = 1;

    for (int64_t d = 0; d < dim; d++)
        if (__builtin_mul_overflow(n, sizes[d], &n))
            return false;
    return n <= limit;
}

tc_tensor *fz_tensor(fz_reader *r, tc_shape shape, tc_dtype dtype)
{
    tc_tensor *t = tc_empty(shape, dtype);
    int64_t n;

    if (t == NULL) {
        tc_clear_error();
        return NULL;
    }
    n = fz_numel(t);
    for (int64_t i = 0; i < n; i++) {
        double value = fz_double(r);

        switch (dtype) {
        case TC_BOOL: tc_store(t, i, value != 0); break;
        case TC_INT64: tc_store_int64(t, i, isfinite(value) && fabs(value) < 1e18
                                                ? (int64_t)value : (int64_t)i); break;
        case TC_FLOAT32: tc_store(t, i, fabs(value) < 3e38 || !isfinite(value)
                                            ? value : 1e38); break;
        case TC_FLOAT64: tc_store(t, i, value); break;
        }
    }
    return t;
}

/* A view of base with these sizes; the caller checks that it exists. */
static tc_tensor *take(tc_tensor *base, tc_tensor *view)
{
    tc_release(base);
    if (view == NULL)
        tc_clear_error();
    return view;
}

tc_tensor *fz_operand(fz_reader *r, int64_t max_dim, int64_t max_size)
{
    tc_dtype dtype = fz_dtype(r);
    tc_shape shape = fz_shape(r, max_dim, max_size), base_shape = shape;
    int64_t d = shape.dim > 0 ? fz_range(r, 0, shape.dim - 1) : 0, step;
    tc_tensor *base;

    switch (shape.dim == 0 ? 0 : fz_byte(r) % 6) {
    default:    /* contiguous */
        return fz_tensor(r, shape, dtype);
    case 1: {   /* a transpose of a contiguous tensor */
        int64_t e = fz_range(r, 0, shape.dim - 1), s = base_shape.sizes[d];

        base_shape.sizes[d] = base_shape.sizes[e];
        base_shape.sizes[e] = s;
        base = fz_tensor(r, base_shape, dtype);
        return base ? take(base, tc_transpose(base, d, e)) : NULL;
    }
    case 2:     /* every step-th element along d */
        step = fz_range(r, 1, 3);
        base_shape.sizes[d] = shape.sizes[d] * step;
        base = fz_tensor(r, base_shape, dtype);
        return base ? take(base, tc_slice(base, d, 0, TC_END, step)) : NULL;
    case 3:     /* size-1 dims expanded */
        for (int64_t k = 0; k < shape.dim; k++)
            if (fz_bool(r))
                base_shape.sizes[k] = 1;
        base = fz_tensor(r, base_shape, dtype);
        return base ? take(base, tc_expand(base, shape)) : NULL;
    case 4:     /* an offset into a larger storage */
        base_shape.sizes[d] = shape.sizes[d] + 2;
        base = fz_tensor(r, base_shape, dtype);
        return base ? take(base, tc_narrow(base, d, 1, shape.sizes[d])) : NULL;
    case 5: {   /* size-1 (and, if empty, every) dim with an arbitrary stride */
        tc_tensor *t = fz_tensor(r, shape, dtype);
        tc_shape strides = { .dim = shape.dim };
        bool empty = t != NULL && fz_numel(t) == 0;

        if (t == NULL)
            return NULL;
        for (int64_t k = 0; k < shape.dim; k++) {
            int64_t s = fz_int64(r);

            strides.sizes[k] = (shape.sizes[k] <= 1 || empty) && s >= 0 ? s : t->strides[k];
        }
        return take(t, tc_as_strided(t, shape, strides, 0));
    }
    }
}

/* ---- invariants -------------------------------------------------------------- */

void fz_finding(const char *file, int line, const char *cond, const char *format, ...)
{
    va_list args;

    fprintf(stderr, "\n%s:%d: invariant broken: %s\n    ", file, line, cond);
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fprintf(stderr, "\n    tc_error(): %s\n", tc_error() ? tc_error() : "(none)");
    abort();
}

void fz_check_failed(const char *what)
{
    const char *message = tc_error();

    FZ_CHECK(message != NULL && message[0] != '\0',
             "%s failed without recording a message", what);
    tc_clear_error();
}

void fz_check_no_error(const char *what)
{
    FZ_CHECK(tc_error() == NULL, "%s succeeded but left a message", what);
}

void fz_check_in_storage(const tc_tensor *t)
{
    int64_t lo, hi, itemsize = (int64_t)tc_itemsize(t->dtype), end;
    bool empty = false;

    FZ_CHECK(t->dim >= 0 && t->dim <= TC_MAX_DIMS, "dim %lld", (long long)t->dim);
    for (int64_t d = 0; d < t->dim; d++) {
        FZ_CHECK(t->sizes[d] >= 0, "size %lld at dim %lld", (long long)t->sizes[d],
                 (long long)d);
        empty = empty || t->sizes[d] == 0;
    }
    if (empty)
        return;
    lo = hi = t->storage_offset;
    for (int64_t d = 0; d < t->dim; d++) {
        int64_t reach;

        if (t->sizes[d] == 1)
            continue;
        FZ_CHECK(!__builtin_mul_overflow(t->sizes[d] - 1, t->strides[d], &reach),
                 "dim %lld: (size - 1) * stride overflows", (long long)d);
        FZ_CHECK(!__builtin_add_overflow(reach < 0 ? lo : hi, reach,
                                         reach < 0 ? &lo : &hi),
                 "dim %lld: the reach overflows", (long long)d);
    }
    FZ_CHECK(lo >= 0, "reaches element %lld, before the storage", (long long)lo);
    FZ_CHECK(!__builtin_add_overflow(hi, 1, &end) &&
                 !__builtin_mul_overflow(end, itemsize, &end) &&
                 (uint64_t)end <= t->storage->nbytes,
             "reaches element %lld, past a storage of %zu bytes", (long long)hi,
             t->storage->nbytes);
}

void fz_check_shape(const tc_tensor *t, tc_shape expected, const char *what)
{
    bool same = t->dim == expected.dim;

    for (int64_t d = 0; same && d < t->dim; d++)
        same = t->sizes[d] == expected.sizes[d];
    if (!same) {
        char a[TC_SIZES_STRLEN], b[TC_SIZES_STRLEN];

        FZ_CHECK(same, "%s: shape %s, expected %s", what,
                 tc_format_sizes(a, t->dim, t->sizes),
                 tc_format_sizes(b, expected.dim, expected.sizes));
    }
}

static int64_t ref_position(const tc_tensor *t, const int64_t *index)
{
    int64_t position = t->storage_offset, step;

    for (int64_t d = 0; d < t->dim; d++) {
        FZ_CHECK(index[d] >= 0 && index[d] < t->sizes[d], "index out of range");
        FZ_CHECK(!__builtin_mul_overflow(index[d], t->strides[d], &step) &&
                     !__builtin_add_overflow(position, step, &position),
                 "position overflows");
    }
    FZ_CHECK(position >= 0 && (uint64_t)(position + 1) * tc_itemsize(t->dtype) <=
                                  t->storage->nbytes,
             "position %lld outside the storage", (long long)position);
    return position;
}

double fz_ref_load(const tc_tensor *t, const int64_t *index)
{
    return tc_load(t, ref_position(t, index));
}

int64_t fz_ref_load_int64(const tc_tensor *t, const int64_t *index)
{
    return tc_load_int64(t, ref_position(t, index));
}

void fz_check_same_values(const tc_tensor *a, const tc_tensor *b, const char *what)
{
    int64_t index[TC_MAX_DIMS] = { 0 };

    fz_check_shape(a, tc_shape_of(b), what);
    if (fz_numel(a) == 0)
        return;
    do {
        if (a->dtype == TC_INT64 && b->dtype == TC_INT64) {
            int64_t x = fz_ref_load_int64(a, index), y = fz_ref_load_int64(b, index);

            FZ_CHECK(x == y, "%s: %lld != %lld", what, (long long)x, (long long)y);
        } else {
            double x = fz_ref_load(a, index), y = fz_ref_load(b, index);

            FZ_CHECK(x == y || (isnan(x) && isnan(y)), "%s: %g != %g", what, x, y);
        }
    } while (tc_next_index(a->dim, a->sizes, index));
}

static void trace_tensor(const char *label, const tc_tensor *t)
{
    char a[TC_SIZES_STRLEN], b[TC_SIZES_STRLEN];

    fprintf(stderr, "  %s sizes %s strides %s offset %lld %s, storage %zu bytes\n", label,
            tc_format_sizes(a, t->dim, t->sizes), tc_format_sizes(b, t->dim, t->strides),
            (long long)t->storage_offset, tc_dtype_name(t->dtype), t->storage->nbytes);
}

void fz_trace(const char *what, const tc_tensor *in, const tc_tensor *out)
{
    fprintf(stderr, "%s\n", what);
    if (in != NULL)
        trace_tensor("in ", in);
    if (out != NULL)
        trace_tensor("out", out);
    else
        fprintf(stderr, "  failed: %s\n", tc_error() ? tc_error() : "(no message)");
}
