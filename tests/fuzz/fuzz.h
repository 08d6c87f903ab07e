/* fuzz.h: what every libFuzzer target of tests/fuzz/ shares.
 *
 * A target is tests/fuzz/fuzz_NAME.c; it defines LLVMFuzzerTestOneInput,
 * reads its input through an fz_reader (so that every byte string is a
 * valid program of calls) and checks invariants with FZ_CHECK, which
 * aborts (a libFuzzer crash, the input saved) with a message. Its stored
 * corpus is tests/fuzz/corpus/NAME/. `make fuzz` and `make check` find
 * targets by that file name; tests/fuzz/run.sh runs them.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- reading the input ------------------------------------------------- */

/* The input as a stream of choices. Past its end every read returns 0,
   so short inputs are simple programs, not errors. */
typedef struct {
    const uint8_t *data;
    size_t size, pos;
} fz_reader;

fz_reader fz_reader_of(const uint8_t *data, size_t size);
bool fz_more(const fz_reader *r);                 /* bytes left? */
uint8_t fz_byte(fz_reader *r);
bool fz_bool(fz_reader *r);
/* An integer in [lo, hi] (lo <= hi), from as many bytes as the range needs. */
int64_t fz_range(fz_reader *r, int64_t lo, int64_t hi);
/* Any int64, mostly small, often an edge: 0, +-1, INT64_MAX, INT64_MIN,
   2^31, 2^32, 2^62, INT64_MAX / small, ... where overflows live. */
int64_t fz_int64(fz_reader *r);
/* A dimension argument for a tensor of n dims: mostly in [-n, n-1]
   (PyTorch's wrap range, [-1, 0] for n = 0), sometimes outside it. */
int64_t fz_dim_arg(fz_reader *r, int64_t n);
/* A double: small integers and halves mostly, sometimes 1e300, inf, nan, -0. */
double fz_double(fz_reader *r);
tc_dtype fz_dtype(fz_reader *r);

/* A shape of 0..max_dim dims, each size in [0, max_size]. */
tc_shape fz_shape(fz_reader *r, int64_t max_dim, int64_t max_size);
/* A shape as a careless or hostile caller builds it: dim anywhere in
   [-2, TC_MAX_DIMS + 2] (sizes past TC_MAX_DIMS cannot be stored, but a
   reader of .sizes[dim - 1] would reach past the array), sizes from
   fz_int64. For the entry points' validation. */
tc_shape fz_wild_shape(fz_reader *r);

/* ---- building tensors ---------------------------------------------------- */

/* A new contiguous tensor of this shape and dtype, its values read from r
   (small integers, sometimes fz_double's edges for floating dtypes). NULL
   only if tc_empty fails (e.g. out of memory). */
tc_tensor *fz_tensor(fz_reader *r, tc_shape shape, tc_dtype dtype);
/* An operand as operators meet them: a random dtype and shape (at most
   max_dim dims of at most max_size), sometimes a view instead of a
   contiguous tensor (transposed, sliced with a step, expanded, a size-1
   dim with an odd stride, an offset into a larger storage). */
tc_tensor *fz_operand(fz_reader *r, int64_t max_dim, int64_t max_size);

/* ---- invariants -------------------------------------------------------------- */

/* Abort with file, line and message if cond is false: a finding. */
#define FZ_CHECK(cond, ...)                                                  \
    ((cond) ? (void)0 : fz_finding(__FILE__, __LINE__, #cond, __VA_ARGS__))
_Noreturn void fz_finding(const char *file, int line, const char *cond,
                          const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* A call returned its failure value: a non-empty message must be recorded.
   Clears it, so that the next call starts clean. */
void fz_check_failed(const char *what);
/* A call succeeded: no message may be pending (targets clear before calls). */
void fz_check_no_error(const char *what);
/* Every element t can reach (sizes/strides/offset) lies inside its storage;
   t->dim in [0, TC_MAX_DIMS], sizes >= 0. */
void fz_check_in_storage(const tc_tensor *t);
/* t has exactly this shape. */
void fz_check_shape(const tc_tensor *t, tc_shape expected, const char *what);
/* a and b have one shape and, element by element, equal values (NaN equals
   NaN; int64 compared exactly), read by a plain index walk of each. */
void fz_check_same_values(const tc_tensor *a, const tc_tensor *b, const char *what);
/* The element of t at index (t->dim entries, in range), by the reference
   walk: storage_offset + sum(index * stride), each step checked. */
double fz_ref_load(const tc_tensor *t, const int64_t *index);
int64_t fz_ref_load_int64(const tc_tensor *t, const int64_t *index);
/* Print step `what` (its input and result, or its failure) to stderr:
   targets call it when the environment sets FZ_TRACE, to read a finding. */
void fz_trace(const char *what, const tc_tensor *in, const tc_tensor *out);
/* Elements of t (a product of sizes that the caller knows fits). */
int64_t fz_numel(const tc_tensor *t);
/* Is the product of sizes[0..dim) at most limit (and free of overflow)? */
bool fz_numel_at_most(int64_t dim, const int64_t *sizes, int64_t limit);

#endif
