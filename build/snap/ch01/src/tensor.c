#line 512 "chapters/01-storage.nw"
/* tensor.c: the tensor header, constructors, elements. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "tensor.h"

#line 786 "chapters/01-storage.nw"
/* Does a * b (both >= 0) stay <= max? */
static bool mul_fits(int64_t a, int64_t b, int64_t max)
{
    return a == 0 || b <= max / a;
}
#line 812 "chapters/01-storage.nw"
/* PyTorch's c10::overflows: can dtype hold value? */
static bool value_fits(double value, tc_dtype dtype)
{
    switch (dtype) {
    case TC_FLOAT64:
    case TC_BOOL:    /* any number is true or false */
        return true;
    case TC_FLOAT32:
        return isinf(value) || isnan(value) || fabs(value) <= FLT_MAX;
    case TC_INT64:
        /* PyTorch compares with (double)INT64_MAX, which rounds up to 2^63:
           so 2^63 itself passes, though an int64 cannot hold it. */
        return value >= -0x1p63 && value <= 0x1p63;
    }
    return false;
}

static const char *c_type_name(tc_dtype dtype)
{
    return dtype == TC_FLOAT32 ? "float" : dtype == TC_FLOAT64 ? "double"
         : dtype == TC_INT64 ? "int64_t" : "bool";
}

static bool check_value_fits(double value, tc_dtype dtype)
{
    if (value_fits(value, dtype))
        return true;
    tc_fail("value cannot be converted to type %s without overflow",
            c_type_name(dtype));
    return false;
}
#line 873 "chapters/01-storage.nw"
/* (int64_t)value, and INT64_MIN where C leaves the conversion undefined. */
static int64_t to_int64(double value)
{
    return value >= -0x1p63 && value < 0x1p63 ? (int64_t)value : INT64_MIN;
}
#line 945 "chapters/01-storage.nw"
/* Set the first n elements of t's storage to value (which fits t's dtype). */
static void fill(tc_tensor *t, int64_t n, double value)
{
    switch (t->dtype) {
    case TC_FLOAT32: {
        float *p = t->storage->data, v = (float)value;
        for (int64_t i = 0; i < n; i++)
            p[i] = v;
        break;
    }
    case TC_FLOAT64: {
        double *p = t->storage->data;
        for (int64_t i = 0; i < n; i++)
            p[i] = value;
        break;
    }
    case TC_INT64: {
        int64_t *p = t->storage->data, v = to_int64(value);
        for (int64_t i = 0; i < n; i++)
            p[i] = v;
        break;
    }
    case TC_BOOL:
        memset(t->storage->data, value != 0, (size_t)n);
        break;
    }
}
#line 1070 "chapters/01-storage.nw"
/* A double as C++'s ostream prints it in PyTorch's messages: 6 significant
   digits, "nan" whatever the sign of the NaN. */
static const char *format_double(char buf[32], double value)
{
    if (isnan(value))
        return "nan";
    snprintf(buf, 32, "%g", value);
    return buf;
}

static const char WRONG_SIGN[] = "upper bound and larger bound inconsistent with step sign";
static const char TOO_LONG[] = "invalid size, possible overflow?";

/* The length of a float arange(start, end, step), or -1 after recording
   PyTorch's message. */
static int64_t arange_length_double(double start, double end, double step)
{
    char a[32], b[32];
    double length;

    if (step == 0) {
        tc_fail("step must be nonzero");
        return -1;
    }
    if (!isfinite(start) || !isfinite(end)) {
        tc_fail("unsupported range: %s -> %s", format_double(a, start),
                format_double(b, end));
        return -1;
    }
    if ((step > 0 && end < start) || (step < 0 && end > start)) {
        tc_fail(WRONG_SIGN);
        return -1;
    }
    length = ceil((end - start) / step);
    if (!(length >= 0 && length < 0x1p63)) {
        tc_fail(TOO_LONG);
        return -1;
    }
    return (int64_t)length;
}

/* The same for an int64 range, exactly. The distance |end - start| always
   fits in a uint64_t, where C's arithmetic is defined modulo 2^64. */
static int64_t arange_length_int64(int64_t start, int64_t end, int64_t step)
{
    uint64_t span, stride, length;

    if (step == 0) {
        tc_fail("step must be nonzero");
        return -1;
    }
    if ((step > 0 && end < start) || (step < 0 && end > start)) {
        tc_fail(WRONG_SIGN);
        return -1;
    }
    span = step > 0 ? (uint64_t)end - (uint64_t)start : (uint64_t)start - (uint64_t)end;
    stride = step > 0 ? (uint64_t)step : 0 - (uint64_t)step;
    length = span / stride + (span % stride != 0);
    if (length > INT64_MAX) {
        tc_fail(TOO_LONG);
        return -1;
    }
    return (int64_t)length;
}
#line 1266 "chapters/01-storage.nw"
/* Does dimension a sort before dimension b (smaller stride, size >= 2)? */
static bool stride_before(const tc_tensor *t, int64_t a, int64_t b)
{
    if (t->sizes[a] < 2)
        return false;
    if (t->sizes[b] < 2)
        return true;
    return t->strides[a] < t->strides[b];
}
#line 1300 "chapters/01-storage.nw"
/* Compare dimensions a and b of a layout: > 0 if b belongs nearer the
   inside, < 0 if a does, 0 if the strides have no opinion. */
static int stride_order(const int64_t *sizes, const int64_t *strides, int64_t a,
                        int64_t b)
{
    if (strides[a] == 0 || strides[b] == 0)
        return 0;
    if (strides[a] != strides[b])
        return strides[a] < strides[b] ? -1 : 1;
    return sizes[a] > sizes[b] ? 1 : 0;
}
#line 1378 "chapters/01-storage.nw"
/* An uninitialised tensor of t's shape and the given dtype, laid out like t. */
static tc_tensor *empty_like_dtype(const tc_tensor *t, tc_dtype dtype)
{
    int64_t strides[TC_MAX_DIMS];
    tc_storage *storage;
    tc_tensor *result;

    if (tc_is_non_overlapping_and_dense(t))
        memcpy(strides, t->strides, (size_t)t->dim * sizeof strides[0]);
    else
        tc_infer_dense_strides(t->dim, t->sizes, t->strides, strides);
    storage = tc_storage_new((size_t)tc_storage_extent(t->dim, t->sizes, strides) *
                             tc_itemsize(dtype));
    result = tc_tensor_over(storage, dtype, t->dim, t->sizes, strides, 0);
    tc_storage_release(storage);
    return result;
}
#line 1478 "chapters/01-storage.nw"
/* The storage position of index in t, or -1 after recording an
   IndexError. */
static int64_t checked_position(const tc_tensor *t, const int64_t *index)
{
    int64_t position = t->storage_offset;

    for (int64_t d = 0; d < t->dim; d++) {
        int64_t i = index[d];
        if (i < -t->sizes[d] || i >= t->sizes[d]) {
            tc_fail("index %lld is out of bounds for dimension %lld with size %lld",
                    (long long)i, (long long)d, (long long)t->sizes[d]);
            return -1;
        }
        if (i < 0)
            i += t->sizes[d];
        position += i * t->strides[d];
    }
    return position;
}
#line 1735 "chapters/01-storage.nw"
/* Are t's strides exactly those tc_contiguous_strides gives its sizes? */
static bool has_contiguous_strides(const tc_tensor *t)
{
    int64_t strides[TC_MAX_DIMS];

    tc_contiguous_strides(t->dim, t->sizes, strides);
    return memcmp(strides, t->strides, (size_t)t->dim * sizeof strides[0]) == 0;
}
#line 1792 "chapters/01-storage.nw"
/* self + other into a new tensor of dtype `result`, laid out like self. */
static tc_tensor *add_scalar(const tc_tensor *self, double other_double,
                             int64_t other_int64, tc_dtype result)
{
    tc_tensor *out = empty_like_dtype(self, result);
    int64_t n;

    if (out == NULL)
        return NULL;
    n = tc_numel(out);
    
#line 1843 "chapters/01-storage.nw"
if (n > 0 && tc_is_non_overlapping_and_dense(self) && self->dtype == result) {
    memcpy(out->storage->data, tc_data_ptr(self), (size_t)n * tc_itemsize(result));
} else if (n > 0) {
    int64_t index[TC_MAX_DIMS] = { 0 };
    do {
        int64_t from = tc_position(self, index), to = tc_position(out, index);
        if (result == TC_INT64)
            tc_store_int64(out, to, tc_load_int64(self, from));
        else
            tc_store(out, to, tc_load(self, from));
    } while (tc_next_index(self->dim, self->sizes, index));
}
#line 1803 "chapters/01-storage.nw"
    switch (result) {
    case TC_INT64: {
        int64_t *o = out->storage->data;
        for (int64_t i = 0; i < n; i++)
            o[i] = (int64_t)((uint64_t)o[i] + (uint64_t)other_int64);
        break;
    }
    case TC_FLOAT32: {
        float *o = out->storage->data, s = (float)other_double;
        for (int64_t i = 0; i < n; i++)
            o[i] += s;
        break;
    }
    case TC_FLOAT64: {
        double *o = out->storage->data;
        for (int64_t i = 0; i < n; i++)
            o[i] += other_double;
        break;
    }
    case TC_BOOL:    /* never: a sum of numbers is not a truth value */
        break;
    }
    return out;
}
#line 526 "chapters/01-storage.nw"
size_t tc_itemsize(tc_dtype dtype)
{
    return dtype == TC_FLOAT32 ? sizeof(float)
         : dtype == TC_FLOAT64 ? sizeof(double)
         : dtype == TC_INT64   ? sizeof(int64_t)
         : sizeof(bool);
}

const char *tc_dtype_name(tc_dtype dtype)
{
    return dtype == TC_FLOAT32 ? "torch.float32"
         : dtype == TC_FLOAT64 ? "torch.float64"
         : dtype == TC_INT64   ? "torch.int64"
         : "torch.bool";
}

int64_t tc_numel(const tc_tensor *t)
{
    int64_t n = 1;

    for (int64_t d = 0; d < t->dim; d++)
        n *= t->sizes[d];
    return n;
}

void tc_contiguous_strides(int64_t dim, const int64_t *sizes, int64_t *strides)
{
    uint64_t stride = 1;    /* wraps, as PyTorch's does, for absurd empty shapes */

    for (int64_t d = dim - 1; d >= 0; d--) {
        strides[d] = (int64_t)stride;
        stride *= sizes[d] > 1 ? (uint64_t)sizes[d] : 1;
    }
}

void *tc_data_ptr(const tc_tensor *t)
{
    if (t->storage->data == NULL)
        return NULL;
    return (char *)t->storage->data + t->storage_offset * (int64_t)tc_itemsize(t->dtype);
}

tc_shape tc_shape_of(const tc_tensor *t)
{
    tc_shape shape = { .dim = t->dim };

    memcpy(shape.sizes, t->sizes, (size_t)t->dim * sizeof t->sizes[0]);
    return shape;
}
#line 603 "chapters/01-storage.nw"
bool tc_is_contiguous(const tc_tensor *t)
{
    int64_t expected = 1;

    if (tc_numel(t) == 0)
        return true;
    for (int64_t d = t->dim - 1; d >= 0; d--) {
        if (t->sizes[d] == 1)
            continue;
        if (t->strides[d] != expected)
            return false;
        expected *= t->sizes[d];
    }
    return true;
}
#line 644 "chapters/01-storage.nw"
tc_tensor *tc_tensor_over(tc_storage *storage, tc_dtype dtype, int64_t dim,
                          const int64_t *sizes, const int64_t *strides,
                          int64_t storage_offset)
{
    tc_tensor *t;

    if (tc_failed(storage))
        return NULL;
    if (dim < 0 || dim > TC_MAX_DIMS)
        return tc_fail("tc: a tensor has at most %d dimensions, got %lld",
                       TC_MAX_DIMS, (long long)dim);
    t = calloc(1, sizeof *t);
    if (t == NULL)
        return tc_fail("DefaultCPUAllocator: can't allocate memory: you tried to "
                       "allocate %zu bytes. Error code 12 (Cannot allocate memory)",
                       sizeof *t);
    t->refcount = 1;
    t->storage = tc_storage_retain(storage);
    t->storage_offset = storage_offset;
    t->dim = dim;
    for (int64_t d = 0; d < dim; d++) {
        t->sizes[d] = sizes[d];
        t->strides[d] = strides[d];
    }
    t->dtype = dtype;
    return t;
}

tc_tensor *tc_retain(tc_tensor *t)
{
    if (t != NULL)
        t->refcount++;
    return t;
}

void tc_release(tc_tensor *t)
{
    if (t == NULL || --t->refcount > 0)
        return;
    
#line 689 "chapters/01-storage.nw"
tc_storage_release(t->storage);
#line 684 "chapters/01-storage.nw"
    free(t);
}
#line 729 "chapters/01-storage.nw"
tc_tensor *tc_empty(tc_shape shape, tc_dtype dtype)
{
    int64_t strides[TC_MAX_DIMS];
    int64_t numel;
    tc_storage *storage;
    tc_tensor *t;

    
#line 747 "chapters/01-storage.nw"
char text[TC_SIZES_STRLEN];

if (shape.dim < 0 || shape.dim > TC_MAX_DIMS)
    return tc_fail("tc: a tensor has at most %d dimensions, got %lld",
                   TC_MAX_DIMS, (long long)shape.dim);
for (int64_t d = 0; d < shape.dim; d++)
    if (shape.sizes[d] < 0)
        return tc_fail("Trying to create tensor with negative dimension %lld: %s",
                       (long long)shape.sizes[d],
                       tc_format_sizes(text, shape.dim, shape.sizes));
#line 737 "chapters/01-storage.nw"
    
#line 773 "chapters/01-storage.nw"
numel = 1;
for (int64_t d = 0; d < shape.dim; d++) {
    if (!mul_fits(numel, shape.sizes[d], INT64_MAX))
        return tc_fail("Storage size calculation overflowed with sizes=%s",
                       tc_format_sizes(text, shape.dim, shape.sizes));
    numel *= shape.sizes[d];
}
if (!mul_fits(numel, (int64_t)tc_itemsize(dtype), INT64_MAX))
    return tc_fail("Storage size calculation overflowed with sizes=%s",
                   tc_format_sizes(text, shape.dim, shape.sizes));
#line 738 "chapters/01-storage.nw"
    storage = tc_storage_new((size_t)numel * tc_itemsize(dtype));
    tc_contiguous_strides(shape.dim, shape.sizes, strides);
    t = tc_tensor_over(storage, dtype, shape.dim, shape.sizes, strides, 0);
    tc_storage_release(storage);    /* the tensor holds the only reference */
    return t;
}
#line 891 "chapters/01-storage.nw"
double tc_load(const tc_tensor *t, int64_t position)
{
    switch (t->dtype) {
    case TC_FLOAT32: return ((const float *)t->storage->data)[position];
    case TC_FLOAT64: return ((const double *)t->storage->data)[position];
    case TC_INT64:   return (double)((const int64_t *)t->storage->data)[position];
    case TC_BOOL:    return ((const bool *)t->storage->data)[position];
    }
    return 0;
}

int64_t tc_load_int64(const tc_tensor *t, int64_t position)
{
    if (t->dtype == TC_INT64)
        return ((const int64_t *)t->storage->data)[position];
    return to_int64(tc_load(t, position));
}

void tc_store(tc_tensor *t, int64_t position, double value)
{
    switch (t->dtype) {
    case TC_FLOAT32: ((float *)t->storage->data)[position] = (float)value; break;
    case TC_FLOAT64: ((double *)t->storage->data)[position] = value; break;
    case TC_INT64:   ((int64_t *)t->storage->data)[position] = to_int64(value); break;
    case TC_BOOL:    ((bool *)t->storage->data)[position] = value != 0; break;
    }
}

void tc_store_int64(tc_tensor *t, int64_t position, int64_t value)
{
    if (t->dtype == TC_INT64)
        ((int64_t *)t->storage->data)[position] = value;
    else if (t->dtype == TC_BOOL)
        ((bool *)t->storage->data)[position] = value != 0;
    else
        tc_store(t, position, (double)value);
}
#line 975 "chapters/01-storage.nw"
tc_tensor *tc_full(tc_shape shape, double value, tc_dtype dtype)
{
    tc_tensor *t;

    if (!check_value_fits(value, dtype))
        return NULL;
    t = tc_empty(shape, dtype);
    if (t != NULL)
        fill(t, tc_numel(t), value);
    return t;
}

tc_tensor *tc_zeros(tc_shape shape, tc_dtype dtype) { return tc_full(shape, 0, dtype); }
tc_tensor *tc_ones(tc_shape shape, tc_dtype dtype) { return tc_full(shape, 1, dtype); }

tc_tensor *tc_from_data(tc_shape shape, tc_dtype dtype, const void *data)
{
    tc_tensor *t = tc_empty(shape, dtype);

    if (t == NULL)
        return NULL;
    if (t->storage->nbytes > 0) {
        if (data == NULL) {
            tc_release(t);
            return tc_fail("tc_from_data: data is NULL");
        }
        memcpy(t->storage->data, data, t->storage->nbytes);
    }
    return t;
}
#line 1137 "chapters/01-storage.nw"
tc_tensor *tc_arange_int64(int64_t start, int64_t end, int64_t step)
{
    int64_t n = arange_length_int64(start, end, step);
    tc_tensor *t;

    if (n < 0)
        return NULL;
    t = tc_empty(TC_SHAPE(n), TC_INT64);
    if (t != NULL) {
        int64_t *data = t->storage->data;
        for (int64_t i = 0; i < n; i++)
            data[i] = (int64_t)((uint64_t)start + (uint64_t)i * (uint64_t)step);
    }
    return t;
}

tc_tensor *tc_arange_double(double start, double end, double step)
{
    int64_t n = arange_length_double(start, end, step);
    tc_tensor *t;

    if (n < 0)
        return NULL;
    t = tc_empty(TC_SHAPE(n), TC_FLOAT32);
    if (t != NULL) {
        float *data = t->storage->data;
        for (int64_t i = 0; i < n; i++)
            data[i] = (float)(start + (double)i * step);
    }
    return t;
}
#line 1221 "chapters/01-storage.nw"
bool tc_is_non_overlapping_and_dense(const tc_tensor *t)
{
    int64_t perm[TC_MAX_DIMS];
    int64_t required = 1;

    if (tc_is_contiguous(t))    /* this includes every tensor with no elements */
        return true;
    if (t->dim == 1)
        return t->sizes[0] < 2 || t->strides[0] == 1;
    
#line 1255 "chapters/01-storage.nw"
for (int64_t i = 0; i < t->dim; i++) {
    int64_t d = i, j = i;
    while (j > 0 && stride_before(t, d, perm[j - 1])) {
        perm[j] = perm[j - 1];
        j--;
    }
    perm[j] = d;
}
#line 1231 "chapters/01-storage.nw"
    for (int64_t i = 0; i < t->dim; i++) {
        int64_t d = perm[i];
        if (t->sizes[d] < 2)
            return true;
        if (t->strides[d] != required)
            return false;
        required *= t->sizes[d];
    }
    return true;
}
#line 1314 "chapters/01-storage.nw"
void tc_infer_dense_strides(int64_t dim, const int64_t *sizes,
                            const int64_t *strides, int64_t *dense)
{
    int64_t perm[TC_MAX_DIMS];    /* perm[0] is the innermost dimension */
    int64_t stride = 1;

    for (int64_t i = 0; i < dim; i++)
        perm[i] = dim - 1 - i;
    for (int64_t i = 1; i < dim; i++) {
        int64_t moving = i;
        for (int64_t j = i - 1; j >= 0; j--) {
            int order = stride_order(sizes, strides, perm[j], perm[moving]);
            if (order < 0)
                break;
            if (order > 0) {
                int64_t d = perm[j];
                perm[j] = perm[moving];
                perm[moving] = d;
                moving = j;
            }
        }
    }
    for (int64_t i = 0; i < dim; i++) {
        dense[perm[i]] = stride;
        if (sizes[perm[i]] > 1)
            stride *= sizes[perm[i]];
    }
}
#line 1357 "chapters/01-storage.nw"
int64_t tc_storage_extent(int64_t dim, const int64_t *sizes, const int64_t *strides)
{
    int64_t extent = 1;

    for (int64_t d = 0; d < dim; d++) {
        if (sizes[d] == 0)
            return 0;
        extent += (sizes[d] - 1) * strides[d];
    }
    return extent;
}

tc_tensor *tc_empty_like(const tc_tensor *t)
{
    if (tc_failed(t))
        return NULL;
    return empty_like_dtype(t, t->dtype);
}

#line 1399 "chapters/01-storage.nw"
tc_tensor *tc_full_like(const tc_tensor *t, double value)
{
    tc_tensor *result;
    int64_t extent;

    if (tc_failed(t) || !check_value_fits(value, t->dtype))
        return NULL;
    result = tc_empty_like(t);
    if (result == NULL)
        return NULL;
    /* A dense tensor fills its storage exactly, in some order. */
    extent = tc_storage_extent(result->dim, result->sizes, result->strides);
    fill(result, extent, value);
    return result;
}

tc_tensor *tc_zeros_like(const tc_tensor *t) { return tc_full_like(t, 0); }
tc_tensor *tc_ones_like(const tc_tensor *t) { return tc_full_like(t, 1); }
#line 1500 "chapters/01-storage.nw"
int64_t tc_position(const tc_tensor *t, const int64_t *index)
{
    int64_t position = t->storage_offset;

    for (int64_t d = 0; d < t->dim; d++)
        position += index[d] * t->strides[d];
    return position;
}

bool tc_next_index(int64_t dim, const int64_t *sizes, int64_t *index)
{
    for (int64_t d = dim - 1; d >= 0; d--) {
        if (++index[d] < sizes[d])
            return true;
        index[d] = 0;
    }
    return false;
}

int tc_get(const tc_tensor *t, const int64_t *index, double *value)
{
    int64_t position;

    if (tc_failed(t) || (position = checked_position(t, index)) < 0)
        return -1;
    *value = tc_load(t, position);
    return 0;
}

int tc_get_int64(const tc_tensor *t, const int64_t *index, int64_t *value)
{
    int64_t position;

    if (tc_failed(t) || (position = checked_position(t, index)) < 0)
        return -1;
    if (t->dtype != TC_INT64 && !check_value_fits(tc_load(t, position), TC_INT64))
        return -1;
    *value = tc_load_int64(t, position);
    return 0;
}

int tc_set(tc_tensor *t, const int64_t *index, double value)
{
    int64_t position;

    if (tc_failed(t) || !check_value_fits(value, t->dtype) ||
        (position = checked_position(t, index)) < 0)
        return -1;
    tc_store(t, position, value);
    return 0;
}

int tc_set_int64(tc_tensor *t, const int64_t *index, int64_t value)
{
    int64_t position;

    if (tc_failed(t) || (position = checked_position(t, index)) < 0)
        return -1;
    tc_store_int64(t, position, value);
    return 0;
}

bool tc_equal(const tc_tensor *a, const tc_tensor *b)
{
    int64_t index[TC_MAX_DIMS] = { 0 };

    if (a == NULL || b == NULL || a->dim != b->dim)
        return false;
    for (int64_t d = 0; d < a->dim; d++)
        if (a->sizes[d] != b->sizes[d])
            return false;
    if (tc_numel(a) == 0)
        return true;
    do {
        if (a->dtype == TC_INT64 && b->dtype == TC_INT64) {
            if (tc_load_int64(a, tc_position(a, index)) !=
                tc_load_int64(b, tc_position(b, index)))
                return false;
        } else if (tc_load(a, tc_position(a, index)) != tc_load(b, tc_position(b, index))) {
            return false;    /* NaN != NaN, as in torch.equal */
        }
    } while (tc_next_index(a->dim, a->sizes, index));
    return true;
}
#line 1632 "chapters/01-storage.nw"
tc_tensor *tc_view(const tc_tensor *self, tc_shape shape)
{
    int64_t strides[TC_MAX_DIMS];

    if (tc_failed(self) || !tc_infer_size(&shape, tc_numel(self)))
        return NULL;
    if (!tc_view_strides(self, &shape, strides))
        return tc_fail("view size is not compatible with input tensor's size and "
                       "stride (at least one dimension spans across two contiguous "
                       "subspaces). Use .reshape(...) instead.");
    return tc_tensor_over(self->storage, self->dtype, shape.dim, shape.sizes,
                          strides, self->storage_offset);
}
#line 1648 "chapters/01-storage.nw"
bool tc_infer_size(tc_shape *shape, int64_t numel)
{
    char text[TC_SIZES_STRLEN];
    int64_t product = 1, inferred = -1;
    bool overflow = false;

    if (shape->dim < 0 || shape->dim > TC_MAX_DIMS) {
        tc_fail("tc: a tensor has at most %d dimensions, got %lld",
                TC_MAX_DIMS, (long long)shape->dim);
        return false;
    }
    for (int64_t d = 0; d < shape->dim; d++) {
        int64_t size = shape->sizes[d];
        if (size == -1) {
            if (inferred >= 0) {
                tc_fail("only one dimension can be inferred");
                return false;
            }
            inferred = d;
        } else if (size >= 0) {
            overflow = overflow || !mul_fits(product, size, INT64_MAX);
            if (!overflow)
                product *= size;
        } else {
            tc_fail("invalid shape dimension %lld", (long long)size);
            return false;
        }
    }
    if (!overflow && (numel == product ||
                      (inferred >= 0 && product > 0 && numel % product == 0))) {
        if (inferred >= 0) {
            if (product == 0) {
                tc_fail("cannot reshape tensor of 0 elements into shape %s because "
                        "the unspecified dimension size -1 can be any value and is "
                        "ambiguous", tc_format_sizes(text, shape->dim, shape->sizes));
                return false;
            }
            shape->sizes[inferred] = numel / product;
        }
        return true;
    }
    tc_fail("shape '%s' is invalid for input of size %lld",
            tc_format_sizes(text, shape->dim, shape->sizes), (long long)numel);
    return false;
}
#line 1720 "chapters/01-storage.nw"
bool tc_view_strides(const tc_tensor *self, const tc_shape *shape, int64_t *strides)
{
    
#line 1728 "chapters/01-storage.nw"
if (has_contiguous_strides(self)) {
    tc_contiguous_strides(shape->dim, shape->sizes, strides);
    return true;
}
#line 1723 "chapters/01-storage.nw"
    return false;
}
#line 1858 "chapters/01-storage.nw"
tc_tensor *tc_add_scalar_int64(const tc_tensor *self, int64_t other)
{
    if (tc_failed(self))
        return NULL;
    return add_scalar(self, (double)other, other,
                      self->dtype == TC_BOOL ? TC_INT64 : self->dtype);
}

tc_tensor *tc_add_scalar_double(const tc_tensor *self, double other)
{
    if (tc_failed(self))
        return NULL;
    return add_scalar(self, other, 0,
                      self->dtype <= TC_INT64 ? TC_FLOAT32 : self->dtype);
}
