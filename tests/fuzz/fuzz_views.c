/* fuzz_views.c: chains of view and copy operations on tensors of every
   dtype, with sizes, strides and arguments up to the int64 edges.
   Invariants after every step: a failure records a message; a success
   records none, has its input's dtype and the shape the operation says,
   reaches only elements inside its storage, and a view shares its input's
   storage; contiguous() and clone() hold the view's values (by a reference
   walk of both); *_like have the shape; nothing leaks (libFuzzer's ASan). */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

enum { MAX_STEPS = 8, WALK_LIMIT = 1 << 14 };

/* A starting tensor: an ordinary operand, or an empty one of huge sizes. */
static tc_tensor *start(fz_reader *r)
{
    if (fz_byte(r) < 200)
        return fz_operand(r, 5, 4);
    tc_shape shape = { .dim = fz_range(r, 1, 5) };
    for (int64_t d = 0; d < shape.dim; d++) {
        int64_t s = fz_int64(r);
        shape.sizes[d] = s < 0 ? 0 : s;
    }
    shape.sizes[fz_range(r, 0, shape.dim - 1)] = 0;
    tc_tensor *t = tc_empty(shape, fz_dtype(r));
    if (t == NULL)
        tc_clear_error();
    return t;
}

/* A shape for view/reshape/expand: mostly near t's, sometimes wild. */
static tc_shape shape_arg(fz_reader *r, const tc_tensor *t)
{
    uint8_t kind = fz_byte(r);

    if (kind < 16)
        return fz_wild_shape(r);
    tc_shape shape = { .dim = fz_range(r, 0, 6) };
    for (int64_t d = 0; d < shape.dim; d++) {
        int64_t k = d - (shape.dim - t->dim);    /* aligned from the right */
        uint8_t c = fz_byte(r);

        shape.sizes[d] = c < 64 ? -1 : c < 128 && k >= 0 ? t->sizes[k] : c < 192
                             ? fz_range(r, 0, 6) : fz_int64(r);
    }
    return shape;
}

static bool same_shape(const tc_tensor *t, tc_shape s)
{
    if (t->dim != s.dim)
        return false;
    for (int64_t d = 0; d < s.dim; d++)
        if (t->sizes[d] != s.sizes[d])
            return false;
    return true;
}

static int64_t wrap(int64_t d, int64_t n)
{
    return d < 0 ? d + (n > 0 ? n : 1) : d;
}

static bool walkable(const tc_tensor *t)
{
    return fz_numel_at_most(t->dim, t->sizes, WALK_LIMIT);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = fz_reader_of(data, size);
    tc_tensor *cur = start(&r);
    static int trace = -1;

    if (trace < 0)
        trace = getenv("FZ_TRACE") != NULL;

    tc_clear_error();
    for (int step = 0; cur != NULL && step < MAX_STEPS && fz_more(&r); step++) {
        tc_tensor *out = NULL;
        const char *name = "?";
        bool is_view = true;
        int64_t n = cur->dim;
        tc_shape expected = { .dim = -1 };    /* -1: not predicted */

        switch (fz_byte(&r) % 22) {
        case 0: name = "view"; out = tc_view(cur, shape_arg(&r, cur)); break;
        case 1: name = "reshape"; is_view = false; out = tc_reshape(cur, shape_arg(&r, cur)); break;
        case 2: {
            int64_t a = fz_dim_arg(&r, n), b = fz_dim_arg(&r, n);
            name = "transpose";
            out = tc_transpose(cur, a, b);
            if (out && n > 0) {
                expected = tc_shape_of(cur);
                expected.sizes[wrap(a, n)] = cur->sizes[wrap(b, n)];
                expected.sizes[wrap(b, n)] = cur->sizes[wrap(a, n)];
            }
            break;
        }
        case 3: {
            tc_shape dims = { .dim = fz_byte(&r) < 16 ? fz_range(&r, -1, TC_MAX_DIMS + 1) : n };
            int64_t last = dims.dim < TC_MAX_DIMS ? dims.dim - 1 : TC_MAX_DIMS - 1;
            for (int64_t d = 0; d < TC_MAX_DIMS; d++)
                dims.sizes[d] = d;
            for (int64_t d = 0; d <= last; d++) {    /* shuffle, sometimes spoil */
                int64_t e = fz_range(&r, d, last), s;
                s = dims.sizes[d], dims.sizes[d] = dims.sizes[e], dims.sizes[e] = s;
                if (fz_byte(&r) < 8)
                    dims.sizes[d] = fz_dim_arg(&r, n);
            }
            name = "permute";
            out = tc_permute(cur, dims);
            break;
        }
        case 4: name = "t"; out = tc_t(cur); break;
        case 5: {
            int64_t d = fz_dim_arg(&r, n), s = fz_int64(&r), l = fz_int64(&r);
            name = "narrow";
            out = tc_narrow(cur, d, s, l);
            if (out) {
                expected = tc_shape_of(cur);
                expected.sizes[wrap(d, n)] = l;
            }
            break;
        }
        case 6: {
            int64_t d = fz_dim_arg(&r, n), i = fz_int64(&r);
            name = "select";
            out = tc_select(cur, d, i);
            if (out) {
                expected = tc_shape_of(cur);
                memmove(expected.sizes + wrap(d, n), expected.sizes + wrap(d, n) + 1,
                        (size_t)(n - wrap(d, n) - 1) * sizeof(int64_t));
                expected.dim--;
            }
            break;
        }
        case 7: {
            int64_t d = fz_dim_arg(&r, n), a = fz_int64(&r), b = fz_int64(&r);
            int64_t s = fz_bool(&r) ? fz_int64(&r) : fz_range(&r, 1, 3);
            name = "slice";
            out = tc_slice(cur, d, a, fz_byte(&r) < 64 ? TC_END : b, s);
            break;
        }
        case 8: {
            tc_shape s = shape_arg(&r, cur);
            name = "expand";
            out = tc_expand(cur, s);
            break;
        }
        case 9: name = "squeeze"; out = tc_squeeze(cur); break;
        case 10: name = "squeeze_dim"; out = tc_squeeze_dim(cur, fz_dim_arg(&r, n)); break;
        case 11: {
            int64_t d = fz_dim_arg(&r, n + 1);
            name = "unsqueeze";
            out = tc_unsqueeze(cur, d);
            if (out) {
                int64_t w = d < 0 ? d + n + 1 : d;
                expected = tc_shape_of(cur);
                memmove(expected.sizes + w + 1, expected.sizes + w,
                        (size_t)(n - w) * sizeof(int64_t));
                expected.sizes[w] = 1;
                expected.dim++;
            }
            break;
        }
        case 12: {
            int64_t a = fz_dim_arg(&r, n), b = fz_dim_arg(&r, n);
            name = "flatten";    /* a reshape: a copy when no view exists */
            is_view = false;
            out = tc_flatten(cur, a, b);
            break;
        }
        case 13: {
            int64_t o = fz_int64(&r), a = fz_dim_arg(&r, n), b = fz_dim_arg(&r, n);
            name = "diagonal";
            out = tc_diagonal(cur, o, a, b);
            break;
        }
        case 14: {
            int64_t d = fz_dim_arg(&r, n), s = fz_int64(&r), st = fz_int64(&r);
            name = "unfold";
            out = tc_unfold(cur, d, s, st);
            break;
        }
        case 15: {
            tc_shape sz = shape_arg(&r, cur), st = { .dim = sz.dim };
            if (fz_byte(&r) < 16)
                st = fz_wild_shape(&r);
            else
                for (int64_t d = 0; d < st.dim && d < TC_MAX_DIMS; d++)
                    st.sizes[d] = fz_bool(&r) ? fz_range(&r, 0, 5) : fz_int64(&r);
            name = "as_strided";
            out = tc_as_strided(cur, sz, st, fz_bool(&r) ? fz_range(&r, 0, 8) : fz_int64(&r));
            if (out)
                expected = sz;
            break;
        }
        case 16: case 17: {
            if (!walkable(cur))
                continue;
            name = "contiguous";
            is_view = false;
            bool contiguous = fz_byte(&r) & 1;
            out = contiguous ? tc_contiguous(cur) : tc_clone(cur);    /* clone keeps a dense layout */
            if (out) {
                fz_check_same_values(out, cur, "contiguous/clone");
                char a[TC_SIZES_STRLEN], b[TC_SIZES_STRLEN], c[TC_SIZES_STRLEN];
                FZ_CHECK(!contiguous || tc_is_contiguous(out), "contiguous of sizes %s strides %s "
                         "is not contiguous: strides %s", tc_format_sizes(a, cur->dim, cur->sizes),
                         tc_format_sizes(b, cur->dim, cur->strides),
                         tc_format_sizes(c, out->dim, out->strides));
            }
            break;
        }
        case 18: {
            int k = fz_byte(&r) % 4;
            if (!walkable(cur) && k != 0)
                continue;
            name = "*_like";
            is_view = false;
            out = k == 0 ? tc_empty_like(cur) : k == 1 ? tc_zeros_like(cur)
                : k == 2 ? tc_ones_like(cur) : tc_full_like(cur, fz_double(&r));
            if (out && k == 0) {    /* uninitialised values: check, don't read */
                fz_check_no_error(name);
                fz_check_in_storage(out);
                fz_check_shape(out, tc_shape_of(cur), name);
                tc_release(out);
                continue;
            }
            if (out)
                expected = tc_shape_of(cur);
            break;
        }
        case 19: {
            tc_tensor *other = fz_operand(&r, 4, 3);
            if (other == NULL)
                continue;
            name = "expand_as";
            out = tc_expand_as(cur, other);
            if (out)
                expected = tc_shape_of(other);
            tc_release(other);
            break;
        }
        case 20: {    /* a malformed shape to every entry point taking one */
            tc_shape w = fz_wild_shape(&r);
            switch (fz_byte(&r) % 4) {
            case 0: name = "view(wild)"; out = tc_view(cur, w); break;
            case 1: name = "reshape(wild)"; out = tc_reshape(cur, w); is_view = false; break;
            case 2: name = "expand(wild)"; out = tc_expand(cur, w); break;
            default: name = "permute(wild)"; out = tc_permute(cur, w); break;
            }
            break;
        }
        default: {
            if (fz_bool(&r)) {
                int64_t before = tc_numel(cur);
                FZ_CHECK(before >= 0, "numel %lld", (long long)before);
                (void)tc_is_contiguous(cur);
            }
            continue;
        }
        }
        if (trace)
            fz_trace(name, cur, out);
        if (out == NULL) {
            fz_check_failed(name);
            continue;
        }
        fz_check_no_error(name);
        FZ_CHECK(out->dtype == cur->dtype, "%s changed the dtype", name);
        fz_check_in_storage(out);
        if (expected.dim >= 0)
            fz_check_shape(out, expected, name);
        if (is_view && strcmp(name, "contiguous") != 0 && strcmp(name, "*_like") != 0)
            FZ_CHECK(out->storage == cur->storage || same_shape(out, tc_shape_of(cur)),
                     "%s is a view with a storage of its own", name);
        tc_release(cur);
        cur = out;
    }
    tc_release(cur);
    tc_clear_error();
    return 0;
}
