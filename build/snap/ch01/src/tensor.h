#line 448 "chapters/01-storage.nw"
/* tensor.h: strided tensors over a shared storage. */
#ifndef TC_TENSOR_H
#define TC_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "storage.h"

#line 373 "chapters/01-storage.nw"
typedef enum { TC_BOOL, TC_INT64, TC_FLOAT32, TC_FLOAT64 } tc_dtype;

size_t tc_itemsize(tc_dtype dtype);
const char *tc_dtype_name(tc_dtype dtype);   /* "torch.float32" ... */
#line 398 "chapters/01-storage.nw"
enum { TC_MAX_DIMS = 16 };

typedef struct {
    int64_t dim;
    int64_t sizes[TC_MAX_DIMS];
} tc_shape;

#define TC_SHAPE(...)                                                       \
    ((tc_shape){ .dim = (int64_t)(sizeof((int64_t[]){ __VA_ARGS__ }) /      \
                                  sizeof(int64_t)),                         \
                 .sizes = { __VA_ARGS__ } })
#define TC_SCALAR_SHAPE ((tc_shape){ .dim = 0 })

#line 461 "chapters/01-storage.nw"
typedef struct tc_tensor {
    
#line 471 "chapters/01-storage.nw"
int refcount;                    /* owners of this header */
tc_storage *storage;             /* retained; shared with every view */
int64_t storage_offset;          /* of the first element, in elements */
int64_t dim;
int64_t sizes[TC_MAX_DIMS];
int64_t strides[TC_MAX_DIMS];    /* in elements */
tc_dtype dtype;
#line 463 "chapters/01-storage.nw"
} tc_tensor;

#line 498 "chapters/01-storage.nw"
/* Queries. */
int64_t tc_numel(const tc_tensor *t);
void tc_contiguous_strides(int64_t dim, const int64_t *sizes, int64_t *strides);
bool tc_is_contiguous(const tc_tensor *t);
void *tc_data_ptr(const tc_tensor *t);
tc_shape tc_shape_of(const tc_tensor *t);

/* Reference counting: every function that returns a tensor returns a new
   reference, owned by the caller, who releases it. Arguments are borrowed. */
tc_tensor *tc_retain(tc_tensor *t);
void tc_release(tc_tensor *t);
#line 636 "chapters/01-storage.nw"
/* A new tensor header over storage (which it retains). sizes and strides
   have dim entries; the caller has checked that they fit the storage. */
tc_tensor *tc_tensor_over(tc_storage *storage, tc_dtype dtype, int64_t dim,
                          const int64_t *sizes, const int64_t *strides,
                          int64_t storage_offset);
#line 719 "chapters/01-storage.nw"
/* Constructors. Each returns a new contiguous tensor, or NULL on failure. */
tc_tensor *tc_empty(tc_shape shape, tc_dtype dtype);
tc_tensor *tc_zeros(tc_shape shape, tc_dtype dtype);
tc_tensor *tc_ones(tc_shape shape, tc_dtype dtype);
tc_tensor *tc_full(tc_shape shape, double value, tc_dtype dtype);
/* A copy of numel elements of C type float, double or int64_t at data. */
tc_tensor *tc_from_data(tc_shape shape, tc_dtype dtype, const void *data);
#line 881 "chapters/01-storage.nw"
/* The element at storage position `position` (in elements, counted from
   the storage's start, as storage_offset is), read or written as a double
   or an int64. No checks: callers index within the tensor. */
double tc_load(const tc_tensor *t, int64_t position);
int64_t tc_load_int64(const tc_tensor *t, int64_t position);
void tc_store(tc_tensor *t, int64_t position, double value);
void tc_store_int64(tc_tensor *t, int64_t position, int64_t value);
#line 1032 "chapters/01-storage.nw"
/* torch.arange(start, end, step): the values start, start + step, ...
   short of end. int64 if all three arguments are integers, float32
   otherwise. */
#define tc_arange(start, end, step)                                        \
    _Generic((start) + (end) + (step),                                     \
             float: tc_arange_double, double: tc_arange_double,            \
             long double: tc_arange_double,                                \
             default: tc_arange_int64)(start, end, step)
tc_tensor *tc_arange_int64(int64_t start, int64_t end, int64_t step);
tc_tensor *tc_arange_double(double start, double end, double step);
#line 1208 "chapters/01-storage.nw"
/* Tensors of t's shape and dtype, laid out like t (torch.preserve_format):
   t's strides if t is non-overlapping and dense, otherwise dense strides
   in the order of t's dimensions (tc_infer_dense_strides). */
tc_tensor *tc_empty_like(const tc_tensor *t);
tc_tensor *tc_zeros_like(const tc_tensor *t);
tc_tensor *tc_ones_like(const tc_tensor *t);
tc_tensor *tc_full_like(const tc_tensor *t, double value);
bool tc_is_non_overlapping_and_dense(const tc_tensor *t);
void tc_infer_dense_strides(int64_t dim, const int64_t *sizes,
                            const int64_t *strides, int64_t *dense);
#line 1420 "chapters/01-storage.nw"
/* Storage elements needed to hold every element of sizes/strides
   (strides >= 0): 0 if any size is 0. */
int64_t tc_storage_extent(int64_t dim, const int64_t *sizes, const int64_t *strides);
#line 1458 "chapters/01-storage.nw"
/* Elements by index: index has t->dim entries (negative ones count from
   the end). Return 0, or -1 on failure.
   Checked runtime errors: an index out of range; a value the dtype
   cannot hold. */
int tc_get(const tc_tensor *t, const int64_t *index, double *value);
int tc_get_int64(const tc_tensor *t, const int64_t *index, int64_t *value);
int tc_set(tc_tensor *t, const int64_t *index, double value);
int tc_set_int64(tc_tensor *t, const int64_t *index, int64_t value);

/* Advance a row-major multi-index over sizes; false once it wraps to 0. */
bool tc_next_index(int64_t dim, const int64_t *sizes, int64_t *index);
/* The storage position of the element at index (in range). */
int64_t tc_position(const tc_tensor *t, const int64_t *index);

/* torch.equal: same sizes and the same values (compared as doubles, so
   tensors of different dtypes can be equal, as in PyTorch). */
bool tc_equal(const tc_tensor *a, const tc_tensor *b);
#line 1620 "chapters/01-storage.nw"
/* torch.Tensor.view: the same elements in another shape, sharing storage.
   One size may be -1 (inferred). */
tc_tensor *tc_view(const tc_tensor *self, tc_shape shape);
/* Strides with which `shape` (of self's numel, no -1) walks self's elements
   in row-major order, as a view; false if there are none. */
bool tc_view_strides(const tc_tensor *self, const tc_shape *shape, int64_t *strides);
/* PyTorch's infer_size: check that shape has numel elements, replacing
   a -1 by the size that makes it so; false, with the message, if not. */
bool tc_infer_size(tc_shape *shape, int64_t numel);
#line 1780 "chapters/01-storage.nw"
/* self + other for a number other: int64 stays int64 for an integer
   other; an int64 self with a floating other gives float32. */
#define tc_add_scalar(self, other)                                         \
    _Generic((other), float: tc_add_scalar_double,                         \
             double: tc_add_scalar_double,                                 \
             long double: tc_add_scalar_double,                            \
             default: tc_add_scalar_int64)(self, other)
tc_tensor *tc_add_scalar_int64(const tc_tensor *self, int64_t other);
tc_tensor *tc_add_scalar_double(const tc_tensor *self, double other);
#line 1941 "chapters/01-storage.nw"
/* repr(t) as PyTorch prints it: a new string the caller frees, or NULL. */
char *tc_repr(const tc_tensor *t);
/* Write repr(t) and a newline to f; 0, or -1 on failure. */
int tc_print(FILE *f, const tc_tensor *t);
/* The same with every non-empty line indented by `indent` spaces, so that
   a tensor lines up under a heading (the chapter programs use it). */
int tc_print_indented(FILE *f, const tc_tensor *t, int indent);

#line 467 "chapters/01-storage.nw"
#endif
