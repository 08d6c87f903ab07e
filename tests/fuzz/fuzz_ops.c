/* fuzz_ops.c: elementwise, comparison, reduction and matmul operators on
   random shapes, dtypes, views (transposed, stepped, expanded, odd strides
   on size-1 dims) and broadcasts, plus numbers and malformed shapes.
   Invariants: a failure records a message; a success records none, reaches
   only its storage, and has the shape broadcasting (or the reduction, or
   matmul's rule) says, worked out here independently; a comparison gives
   bool; an in-place op returns its first operand; nothing leaks. */
#include <string.h>

#include "fuzz.h"

typedef tc_tensor *binary(const tc_tensor *, const tc_tensor *);
typedef tc_tensor *unary(const tc_tensor *);

/* NumPy's broadcasting rule, written out again: false if they don't. */
static bool broadcast(tc_shape a, tc_shape b, tc_shape *out)
{
    out->dim = a.dim > b.dim ? a.dim : b.dim;
    for (int64_t i = 0; i < out->dim; i++) {
        int64_t x = i < a.dim ? a.sizes[a.dim - 1 - i] : 1;
        int64_t y = i < b.dim ? b.sizes[b.dim - 1 - i] : 1;

        if (x != y && x != 1 && y != 1)
            return false;
        out->sizes[out->dim - 1 - i] = x == 1 ? y : x;
    }
    return true;
}

static void check_result(const char *name, tc_tensor *out, tc_shape expected, bool known)
{
    if (out == NULL) {
        fz_check_failed(name);
        return;
    }
    fz_check_no_error(name);
    fz_check_in_storage(out);
    if (known)
        fz_check_shape(out, expected, name);
}

static tc_shape reduced(tc_shape s, const bool *gone, bool keepdim)
{
    tc_shape out = { .dim = 0 };

    for (int64_t d = 0; d < s.dim; d++)
        if (!gone[d])
            out.sizes[out.dim++] = s.sizes[d];
        else if (keepdim)
            out.sizes[out.dim++] = 1;
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = fz_reader_of(data, size);
    tc_tensor *a = fz_operand(&r, 4, 5), *b = NULL, *out = NULL;
    tc_shape expected = { .dim = 0 };
    bool known = false;
    const char *name = "?";

    tc_clear_error();
    if (a == NULL)
        return 0;
    /* b: broadcast-compatible with a more often than chance would give */
    switch (fz_byte(&r) % 4) {
    case 0: b = fz_operand(&r, 4, 5); break;
    case 1: b = tc_number_double(fz_double(&r)); break;
    case 2: b = tc_number_int64(fz_int64(&r) % 100); break;
    default: {
        tc_shape s = tc_shape_of(a);
        for (int64_t d = 0; d < s.dim; d++)
            if (fz_bool(&r))
                s.sizes[d] = 1;
        if (s.dim > 0 && fz_bool(&r)) {    /* drop leading dims */
            int64_t k = fz_range(&r, 0, s.dim);
            memmove(s.sizes, s.sizes + k, (size_t)(s.dim - k) * sizeof(int64_t));
            s.dim -= k;
        }
        b = fz_tensor(&r, s, fz_dtype(&r));
    }
    }
    if (b == NULL) {
        tc_release(a);
        tc_clear_error();
        return 0;
    }
    switch (fz_byte(&r) % 12) {
    case 0: {    /* binary arithmetic */
        static binary *const ops[] = { tc_add, tc_sub, tc_mul, tc_div, tc_pow };
        static const char *const names[] = { "add", "sub", "mul", "div", "pow" };
        int k = fz_byte(&r) % 5;
        name = names[k];
        out = ops[k](a, b);
        known = broadcast(tc_shape_of(a), tc_shape_of(b), &expected);
        FZ_CHECK(out == NULL || known, "%s of shapes that do not broadcast", name);
        break;
    }
    case 1: {    /* comparisons */
        static binary *const ops[] = { tc_eq, tc_ne, tc_lt, tc_le, tc_gt, tc_ge };
        name = "comparison";
        out = ops[fz_byte(&r) % 6](a, b);
        known = broadcast(tc_shape_of(a), tc_shape_of(b), &expected);
        FZ_CHECK(out == NULL || (known && out->dtype == TC_BOOL),
                 "comparison: bad shape or dtype");
        break;
    }
    case 2: {    /* in place: a's shape, a itself */
        static tc_tensor *(*const ops[])(tc_tensor *, const tc_tensor *) = {
            tc_add_, tc_sub_, tc_mul_, tc_div_ };
        name = "in-place";
        out = ops[fz_byte(&r) % 4](a, b);
        expected = tc_shape_of(a);
        known = true;
        FZ_CHECK(out == NULL || out == a, "in-place op returned another tensor");
        break;
    }
    case 3: {
        tc_tensor *alpha = fz_bool(&r) ? tc_number_int64(fz_int64(&r) % 10)
                                       : tc_number_double(fz_double(&r));
        name = "add_alpha";
        out = fz_bool(&r) ? tc_add_alpha(a, b, alpha) : tc_sub_alpha(a, b, alpha);
        tc_release(alpha);
        known = out != NULL && broadcast(tc_shape_of(a), tc_shape_of(b), &expected);
        break;
    }
    case 4: {    /* unary */
        static unary *const ops[] = { tc_neg, tc_abs, tc_exp, tc_log, tc_sqrt,
                                      tc_relu, tc_sigmoid, tc_tanh };
        name = "unary";
        out = ops[fz_byte(&r) % 8](a);
        expected = tc_shape_of(a);
        known = true;
        break;
    }
    case 5: {
        tc_tensor *c = fz_operand(&r, 3, 4);
        name = "where";
        if (c != NULL) {
            tc_shape ab;
            out = tc_where(c, a, b);
            known = broadcast(tc_shape_of(a), tc_shape_of(b), &ab) &&
                    broadcast(tc_shape_of(c), ab, &expected);
            FZ_CHECK(out == NULL || known, "where of shapes that do not broadcast");
            tc_release(c);
        }
        break;
    }
    case 6: {    /* full reductions */
        static unary *const ops[] = { tc_sum, tc_mean, tc_max, tc_min, tc_argmax };
        name = "reduction";
        out = ops[fz_byte(&r) % 5](a);
        known = true;    /* 0-D */
        break;
    }
    case 7: {    /* reductions over dims */
        tc_shape dims = { .dim = fz_byte(&r) < 16 ? fz_range(&r, -1, TC_MAX_DIMS + 1)
                                                  : fz_range(&r, 1, a->dim > 0 ? a->dim : 1) };
        bool keepdim = fz_bool(&r), gone[TC_MAX_DIMS] = { false }, distinct = true;
        for (int64_t d = 0; d < dims.dim && d < TC_MAX_DIMS; d++) {
            dims.sizes[d] = fz_dim_arg(&r, a->dim);
            int64_t w = dims.sizes[d] < 0 ? dims.sizes[d] + (a->dim > 0 ? a->dim : 1)
                                          : dims.sizes[d];
            if (w >= 0 && w < TC_MAX_DIMS) {
                distinct = distinct && !gone[w];
                gone[w] = true;
            }
        }
        name = "sum_dims";
        out = fz_bool(&r) ? tc_sum_dims(a, dims, keepdim) : tc_mean_dims(a, dims, keepdim);
        if (out != NULL && a->dim > 0) {
            FZ_CHECK(distinct, "sum_dims accepted a repeated dim");
            for (int64_t d = 0; dims.dim == 0 && d < a->dim; d++)
                gone[d] = true;    /* dim=[] reduces every dimension, as in PyTorch */
            expected = reduced(tc_shape_of(a), gone, keepdim);
            known = true;
        }
        break;
    }
    case 8: {
        int64_t d = fz_dim_arg(&r, a->dim);
        bool keepdim = fz_bool(&r);
        tc_tensor *values = NULL, *indices = NULL;
        name = "max_dim";
        int status = fz_bool(&r) ? tc_max_dim(a, d, keepdim, &values, &indices)
                                 : tc_min_dim(a, d, keepdim, &values, &indices);
        if (status != 0) {
            FZ_CHECK(status == -1, "max_dim returned %d", status);
            fz_check_failed(name);
        } else {
            bool gone[TC_MAX_DIMS] = { false };
            if (a->dim > 0)
                gone[d < 0 ? d + a->dim : d] = true;
            expected = reduced(tc_shape_of(a), gone, keepdim);
            check_result(name, values, expected, true);
            check_result(name, indices, expected, true);
            FZ_CHECK(indices->dtype == TC_INT64, "indices are not int64");
        }
        tc_release(values);
        tc_release(indices);
        break;
    }
    case 9: {
        tc_shape s = fz_byte(&r) < 64 ? fz_wild_shape(&r) : tc_shape_of(b);
        name = "sum_to_size";
        out = tc_sum_to_size(a, s);
        expected = s;
        known = true;
        break;
    }
    case 10: {
        name = "matmul";
        out = tc_matmul(a, b);
        if (out != NULL && a->dim >= 1 && a->dim <= 2 && b->dim >= 1 && b->dim <= 2) {
            expected.dim = 0;
            if (a->dim == 2)
                expected.sizes[expected.dim++] = a->sizes[0];
            if (b->dim == 2)
                expected.sizes[expected.dim++] = b->sizes[1];
            known = true;
        }
        break;
    }
    default: {
        name = "argmax_dim";
        out = tc_argmax_dim(a, fz_dim_arg(&r, a->dim), fz_bool(&r));
        break;
    }
    }
    if (strcmp(name, "max_dim") != 0)
        check_result(name, out, expected, known);
    tc_release(out);    /* an in-place op returns a with one more reference */
    tc_release(a);
    tc_release(b);
    tc_clear_error();
    return 0;
}
