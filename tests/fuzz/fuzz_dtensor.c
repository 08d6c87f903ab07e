/* fuzz_dtensor.c: chapter 9's distributed tensors, in one process. The
   first byte picks one of three programs:
   - chunk: tc_chunk_size for sizes and chunk counts mostly small and
     sometimes at int64's edges, against a reference written with 128-bit
     arithmetic: the chunks' sizes add up to n, each is ceil(n/k) or what is
     left (never negative), the offsets grow by the sizes, an empty chunk's
     offset is n; bad arguments give -1.
   - spec: sharding propagation from specs alone. Specs of a mesh of 1 to
     3 dimensions of sizes 1 to 5 (a hostile input: any mesh and shape),
     a global shape of up to 4 dims and placements of every kind (Shard
     dims in and out of range, Partial of every reduction) go through
     tc_propagate_pointwise (1 or 2 inputs, linear or not), tc_propagate_sum
     (random dims lists, keepdim) and tc_propagate_mm, and
     tc_redistribute_cost. A failure records a message; a success never
     does, and it must succeed when the specs are valid and the operator's
     shapes agree. On success the output and input placements are valid
     (Shard only dims that exist), the output shape is the reference's,
     the cost is not NaN (mm's is finite); and the decision is right: every
     mesh coordinate's pieces of the inputs, cut by the chosen input
     placements (Partial: the values split between the coordinates), run
     through the operator locally, put back together by the output
     placements (shards concatenated, each of the chunk rule's size;
     replicas equal; partials reduced), give the operator's result on the
     whole tensors.
   - world: a one-rank world (tc_dist_init without launcher variables), a
     mesh of 1 to 4 dims of size 1 (sometimes a bad mesh: size 2, a rank out
     of range, 0 or 5 dims), a tensor of any dtype, sometimes a view, and
     placements of every kind (some invalid): tc_distribute_tensor,
     tc_dtensor_from_local (with or without a global shape, sometimes a
     wrong one), to_local, full_tensor, local_offset, repr, the plan of a
     redistribute to random placements, its text, the redistribute itself,
     and the operators. A failure records a message; on one rank every
     result equals the serial one (distribute then full_tensor gives the
     tensor back, an operator gives the operator's result on the whole
     tensors).
   - ranks (first bytes 0xff, >= 0xf0, and only when the environment sets
     FZ_RANKS: a launch costs 0.1-0.5 s, too slow for make check's share):
     tc_launch_fn starts 2 or 3 ranks (forks of this process) that each
     decode the same program of 1 to 4 collectives (all_reduce of every op,
     all_gather, reduce_scatter, broadcast, scatter, all_to_all, barrier;
     float32, float64, int64; 0 to 40 elements or 1000 to 200000, the
     chunked path; on the world or on a sub-group of some ranks, maybe in
     reverse order, with any root) and check every element against the
     serial left fold in group-rank order. Run a campaign with
       FZ_RANKS=1 build/fuzz/fuzz_dtensor -max_len=64 DIR tests/fuzz/corpus/dtensor
     (the corpus's ranks-* inputs are its seeds).
   Nothing crashes, nothing leaks, no undefined behaviour (ASan+UBSan). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static bool trace;

/* ---- chunk ---------------------------------------------------------------- */

static void fuzz_chunk(fz_reader *r)
{
    while (fz_more(r)) {
        int64_t n = fz_byte(r) < 200 ? fz_range(r, -2, 40) : fz_int64(r);
        int64_t k = fz_byte(r) < 200 ? fz_range(r, -1, 9) : fz_int64(r);
        int64_t offset = 12345, expect_offset = 0;
        __int128 full;

        if (n < 0 || k < 1) {
            int64_t i = fz_range(r, -1, 3);
            FZ_CHECK(tc_chunk_size(n, k, i, &offset) == -1,
                     "chunk(%lld, %lld, %lld): not -1", (long long)n, (long long)k,
                     (long long)i);
            continue;
        }
        FZ_CHECK(tc_chunk_size(n, k, -1, NULL) == -1 && tc_chunk_size(n, k, k, NULL) == -1,
                 "chunk(%lld, %lld, i out of range): not -1", (long long)n, (long long)k);
        full = ((__int128)n + k - 1) / k;
        /* every chunk when k is small; else some, and the last ones */
        int64_t count = k <= 64 ? k : 64;
        __int128 total = 0;
        for (int64_t j = 0; j < count; j++) {
            int64_t i = k <= 64 ? j : j < 32 ? fz_range(r, 0, k - 1) : k - 1 - (j - 32);
            __int128 start = full * i;
            int64_t expect = start >= n ? 0 : (int64_t)(n - start < full ? n - start : full);
            int64_t got = tc_chunk_size(n, k, i, &offset);

            expect_offset = start >= n ? n : (int64_t)start;
            FZ_CHECK(got == expect && offset == expect_offset,
                     "chunk(%lld, %lld, %lld) = %lld at %lld, expected %lld at %lld",
                     (long long)n, (long long)k, (long long)i, (long long)got,
                     (long long)offset, (long long)expect, (long long)expect_offset);
            total += got;
        }
        FZ_CHECK(k > 64 || total == n, "chunks of %lld in %lld add up to %lld", (long long)n,
                 (long long)k, (long long)total);
    }
}

/* ---- specs ------------------------------------------------------------------ */

static tc_placement gen_placement(fz_reader *r, int64_t ndim, bool hostile)
{
    static const tc_reduce_op ops[] = { TC_REDUCE_SUM, TC_REDUCE_SUM, TC_REDUCE_SUM,
                                        TC_REDUCE_AVG, TC_REDUCE_MIN, TC_REDUCE_MAX };
    uint8_t k = fz_byte(r);
    tc_placement p = { 0 };

    switch (k % 3) {
    case 0:
        p.kind = TC_PLACEMENT_SHARD;
        p.dim = (int)(fz_byte(r) < 230 ? fz_range(r, 0, ndim > 0 ? ndim - 1 : 0)
                                       : fz_range(r, -ndim - 2, ndim + 1));
        break;
    case 1:
        p.kind = TC_PLACEMENT_REPLICATE;
        break;
    default:
        p.kind = TC_PLACEMENT_PARTIAL;
        p.op = ops[fz_byte(r) % 6];
        if (hostile && k >= 250)
            p.op = (tc_reduce_op)(k - 246);       /* 4, 5: no such reduction */
        break;
    }
    if (hostile && (k == 246 || k == 247))
        p.kind = (tc_placement_kind)(k - 243);    /* 3, 4: no such kind */
    return p;
}

static bool placement_valid(tc_placement p, int64_t ndim)
{
    switch (p.kind) {
    case TC_PLACEMENT_SHARD: return p.dim >= 0 && p.dim < ndim;
    case TC_PLACEMENT_REPLICATE: return true;
    case TC_PLACEMENT_PARTIAL: return p.op >= TC_REDUCE_SUM && p.op <= TC_REDUCE_MAX;
    default: return false;
    }
}

static int64_t mesh_numel(int ndim, const int64_t *sizes)
{
    int64_t n = 1;

    for (int i = 0; i < ndim; i++)
        n *= sizes[i];
    return n;
}

/* A mesh for the specs: 1-3 dims of sizes 1-5 (hostile: anything). */
static void gen_mesh(fz_reader *r, bool hostile, int *ndim, int64_t *sizes)
{
    *ndim = hostile && fz_byte(r) >= 200 ? (int)fz_range(r, -1, 5) : (int)fz_range(r, 1, 3);
    for (int i = 0; i < TC_MESH_MAX_DIMS; i++)
        sizes[i] = i >= *ndim ? 1 : hostile && fz_byte(r) >= 220 ? fz_int64(r)
                                                                  : fz_range(r, 1, 5);
}

static tc_shape gen_shape(fz_reader *r, bool hostile, int64_t max_dim)
{
    tc_shape s;

    if (hostile && fz_byte(r) >= 230)
        return fz_wild_shape(r);
    s = fz_shape(r, max_dim, 5);
    return s;
}

static tc_dtensor_spec gen_spec(fz_reader *r, bool hostile, int ndim, const int64_t *mesh,
                                tc_shape shape)
{
    tc_dtensor_spec s = { .mesh_ndim = ndim, .shape = shape };
    int64_t tdim = shape.dim >= 0 && shape.dim <= TC_MAX_DIMS ? shape.dim : 0;

    s.dtype = fz_dtype(r);
    for (int i = 0; i < TC_MESH_MAX_DIMS; i++) {
        s.mesh_sizes[i] = mesh[i];
        s.placements[i] = gen_placement(r, tdim, hostile);
    }
    return s;
}

static bool spec_valid(const tc_dtensor_spec *s)
{
    if (s->mesh_ndim < 1 || s->mesh_ndim > TC_MESH_MAX_DIMS || s->shape.dim < 0 ||
        s->shape.dim > TC_MAX_DIMS)
        return false;
    int64_t ranks = 1;

    for (int i = 0; i < s->mesh_ndim; i++)
        if (s->mesh_sizes[i] < 1 || __builtin_mul_overflow(ranks, s->mesh_sizes[i], &ranks) ||
            ranks > INT32_MAX || !placement_valid(s->placements[i], s->shape.dim))
            return false;
    for (int64_t d = 0; d < s->shape.dim; d++)
        if (s->shape.sizes[d] < 0)
            return false;
    return true;
}

static void check_placements(const char *what, int ndim, const tc_placement *p, int64_t tdim)
{
    char buf[TC_PLACEMENT_STRLEN];

    for (int i = 0; i < ndim; i++)
        FZ_CHECK(placement_valid(p[i], tdim), "%s: placement %d is %s for %lld dims", what,
                 i, tc_placement_repr(p[i], buf), (long long)tdim);
}

static void check_same_shape(tc_shape got, tc_shape expected, const char *what)
{
    bool same = got.dim == expected.dim;

    for (int64_t d = 0; same && d < got.dim; d++)
        same = got.sizes[d] == expected.sizes[d];
    if (!same) {
        char a[TC_SIZES_STRLEN], b[TC_SIZES_STRLEN];
        FZ_CHECK(same, "%s: shape %s, expected %s", what,
                 tc_format_sizes(a, got.dim, got.sizes),
                 tc_format_sizes(b, expected.dim, expected.sizes));
    }
}

/* ---- the simulation of a sharding decision --------------------------------- */

/* The reference chunk rule (see fuzz_chunk). */
static int64_t ref_chunk(int64_t n, int64_t k, int64_t i, int64_t *offset)
{
    int64_t full = (n + k - 1) / k, start = full * i;

    *offset = start < n ? start : n;
    return start >= n ? 0 : n - start < full ? n - start : full;
}

static tc_tensor *must(tc_tensor *t, const char *what)
{
    FZ_CHECK(t != NULL, "%s failed in the simulation", what);
    return t;
}

/* What the coordinate coord holds of the global tensor x under
   placements p: cut by each Shard in mesh order; a Partial splits the
   values between the coordinates (sum: the first holds x - (n-1)*k,
   the others k; avg: the first n*x - (n-1)*k; max: the first x, the
   others x - 1; min: x + 1), so that the reduction gives x back. */
static tc_tensor *piece_of(const tc_tensor *x, int ndim, const int64_t *mesh,
                           const tc_placement *p, const int64_t *coord)
{
    tc_tensor *t = tc_retain((tc_tensor *)x), *next;

    for (int m = 0; m < ndim; m++) {
        int64_t n = mesh[m], c = coord[m], start;
        double k = (double)(m + 2);

        if (p[m].kind == TC_PLACEMENT_SHARD) {
            int64_t len = ref_chunk(t->sizes[p[m].dim], n, c, &start);
            tc_tensor *view = must(tc_narrow(t, p[m].dim, start, len), "narrow");
            next = must(tc_clone(view), "clone");
            tc_release(view);
        } else if (p[m].kind == TC_PLACEMENT_REPLICATE) {
            next = tc_retain(t);
        } else {
            switch (p[m].op) {
            case TC_REDUCE_SUM:
                next = c == 0 ? tc_sub_scalar(t, (double)(n - 1) * k) : tc_full_like(t, k);
                break;
            case TC_REDUCE_AVG: {
                tc_tensor *times = must(tc_mul_scalar(t, (double)n), "mul");
                next = c == 0 ? tc_sub_scalar(times, (double)(n - 1) * k) : tc_full_like(t, k);
                tc_release(times);
                break;
            }
            case TC_REDUCE_MAX:
                next = c == 0 ? tc_retain(t) : tc_sub_scalar(t, 1.0);
                break;
            default:
                next = c == 0 ? tc_retain(t) : tc_add_scalar(t, 1.0);
                break;
            }
            must(next, "a partial piece");
        }
        tc_release(t);
        t = next;
    }
    return t;
}

static bool same_values(const tc_tensor *a, const tc_tensor *b)
{
    tc_tensor *eq;
    bool same;

    if (a->dim != b->dim || memcmp(a->sizes, b->sizes, (size_t)a->dim * sizeof *a->sizes))
        return false;
    eq = must(tc_eq(a, b), "eq");
    same = true;
    for (int64_t i = 0, n = fz_numel(eq); i < n && same; i++)
        same = tc_load(eq, i) != 0;       /* eq is new and contiguous */
    tc_release(eq);
    return same;
}

/* Put the pieces of mesh dims m.. back together for the coordinates that
   start with coord[0..m-1]: the inverse of piece_of. */
static tc_tensor *assemble(tc_tensor **pieces, int ndim, const int64_t *mesh,
                           const tc_placement *p, int64_t *coord, int m)
{
    tc_tensor *parts[5], *out = NULL;
    int64_t n, total = 0;
    char buf[TC_PLACEMENT_STRLEN];

    if (m == ndim) {
        int64_t pos = 0;
        for (int i = 0; i < ndim; i++)
            pos = pos * mesh[i] + coord[i];
        return tc_retain(pieces[pos]);
    }
    n = mesh[m];
    for (int64_t c = 0; c < n; c++) {
        coord[m] = c;
        parts[c] = assemble(pieces, ndim, mesh, p, coord, m + 1);
    }
    switch (p[m].kind) {
    case TC_PLACEMENT_SHARD: {
        int64_t d = p[m].dim, start;
        tc_shape shape = tc_shape_of(parts[0]);
        FZ_CHECK(d < parts[0]->dim, "output Shard(dim=%d) of a %lld-D piece", (int)d,
                 (long long)parts[0]->dim);
        for (int64_t c = 0; c < n; c++)
            total += parts[c]->sizes[d];
        for (int64_t c = 0; c < n; c++) {
            int64_t expect = ref_chunk(total, n, c, &start);
            FZ_CHECK(parts[c]->dim == shape.dim && parts[c]->sizes[d] == expect,
                     "mesh dim %d, %s: coordinate %lld holds %lld of %lld, the chunk rule "
                     "says %lld", m, tc_placement_repr(p[m], buf), (long long)c,
                     (long long)parts[c]->sizes[d], (long long)total, (long long)expect);
        }
        shape.sizes[d] = total;
        out = must(tc_empty(shape, parts[0]->dtype), "empty");
        for (int64_t c = 0; c < n; c++) {
            ref_chunk(total, n, c, &start);
            tc_tensor *dst = must(tc_narrow(out, d, start, parts[c]->sizes[d]), "narrow");
            FZ_CHECK(tc_copy_(dst, parts[c]) == 0, "mesh dim %d: the shards of coordinates "
                     "do not fit together (%s)", m, tc_error());
            tc_release(dst);
        }
        break;
    }
    case TC_PLACEMENT_REPLICATE:
        for (int64_t c = 1; c < n; c++)
            FZ_CHECK(same_values(parts[0], parts[c]),
                     "mesh dim %d, Replicate(): coordinates 0 and %lld differ", m,
                     (long long)c);
        out = tc_retain(parts[0]);
        break;
    default:
        out = tc_retain(parts[0]);
        for (int64_t c = 1; c < n; c++) {
            tc_tensor *next;
            if (p[m].op == TC_REDUCE_SUM || p[m].op == TC_REDUCE_AVG) {
                next = tc_add(out, parts[c]);
            } else {
                tc_tensor *pick = must(p[m].op == TC_REDUCE_MAX ? tc_gt(parts[c], out)
                                                                : tc_lt(parts[c], out), "cmp");
                next = tc_where(pick, parts[c], out);
                tc_release(pick);
            }
            FZ_CHECK(next != NULL, "mesh dim %d, %s: the pieces do not reduce (%s)", m,
                     tc_placement_repr(p[m], buf), tc_error());
            tc_release(out);
            out = next;
        }
        if (p[m].op == TC_REDUCE_AVG) {
            tc_tensor *next = must(tc_div_scalar(out, (double)n), "div");
            tc_release(out);
            out = next;
        }
    }
    for (int64_t c = 0; c < n; c++)
        tc_release(parts[c]);
    return out;
}

enum { OP_ADD, OP_SUB, OP_MUL, OP_NEG, OP_RELU, OP_SUM, OP_MM };

typedef struct {
    int kind;
    tc_shape dims;
    bool keepdim;
} sim_op;

static tc_tensor *apply(const sim_op *op, const tc_tensor *a, const tc_tensor *b)
{
    switch (op->kind) {
    case OP_ADD: return tc_add(a, b);
    case OP_SUB: return tc_sub(a, b);
    case OP_MUL: return tc_mul(a, b);
    case OP_NEG: return tc_neg(a);
    case OP_RELU: return tc_relu(a);
    case OP_SUM: return tc_sum_dims(a, op->dims, op->keepdim);
    default: return tc_matmul(a, b);
    }
}

static tc_tensor *sim_tensor(fz_reader *r, tc_shape shape)
{
    tc_tensor *t = must(tc_empty(shape, TC_FLOAT64), "empty");

    for (int64_t i = 0, n = fz_numel(t); i < n; i++)
        tc_store(t, i, (double)((int)(fz_byte(r) % 9) - 4));
    return t;
}

/* Check decision s of operator op on inputs of these specs by running it
   on every mesh coordinate. */
static void simulate(fz_reader *r, const sim_op *op, int n, const tc_dtensor_spec *in,
                     const tc_op_sharding *s)
{
    int ndim = in[0].mesh_ndim;
    const int64_t *mesh = in[0].mesh_sizes;
    int64_t count = mesh_numel(ndim, mesh), coord[TC_MESH_MAX_DIMS] = { 0 };
    tc_tensor *x[2] = { NULL, NULL }, *whole, *pieces[125], *got;

    for (int k = 0; k < n; k++)
        x[k] = sim_tensor(r, in[k].shape);
    whole = apply(op, x[0], x[1]);
    if (whole == NULL) {         /* e.g. a shape the operator refuses */
        tc_clear_error();
        goto done;
    }
    check_same_shape(tc_shape_of(whole), s->shape, "the decision's output shape");
    for (int64_t i = 0; i < count; i++) {
        tc_tensor *piece[2] = { NULL, NULL };
        for (int64_t rest = i, m = ndim - 1; m >= 0; m--) {
            coord[m] = rest % mesh[m];
            rest /= mesh[m];
        }
        for (int k = 0; k < n; k++)
            piece[k] = piece_of(x[k], ndim, mesh, s->inputs[k], coord);
        pieces[i] = apply(op, piece[0], piece[1]);
        FZ_CHECK(pieces[i] != NULL, "coordinate %lld: the local operator fails: %s",
                 (long long)i, tc_error());
        tc_release(piece[0]);
        tc_release(piece[1]);
    }
    got = assemble(pieces, ndim, mesh, s->output, coord, 0);
    if (trace) {
        char *a = tc_repr(whole), *b = tc_repr(got);
        fprintf(stderr, "whole %s\nassembled %s\n", a, b);
        free(a);
        free(b);
    }
    FZ_CHECK(same_values(whole, got), "the pieces put together are not the operator's result");
    tc_release(got);
    for (int64_t i = 0; i < count; i++)
        tc_release(pieces[i]);
    tc_release(whole);
done:
    tc_release(x[0]);
    tc_release(x[1]);
}

static void trace_sharding(const char *what, int n, const tc_dtensor_spec *in,
                           const tc_op_sharding *s, int rc)
{
    char buf[TC_PLACEMENT_STRLEN], sizes[TC_SIZES_STRLEN];

    if (!trace)
        return;
    fprintf(stderr, "%s: mesh", what);
    for (int i = 0; i < in[0].mesh_ndim && i < TC_MESH_MAX_DIMS; i++)
        fprintf(stderr, " %lld", (long long)in[0].mesh_sizes[i]);
    for (int k = 0; k < n; k++) {
        fprintf(stderr, "\n  input %d %s:", k,
                in[k].shape.dim >= 0 && in[k].shape.dim <= TC_MAX_DIMS
                    ? tc_format_sizes(sizes, in[k].shape.dim, in[k].shape.sizes) : "?");
        for (int i = 0; i < in[k].mesh_ndim && i < TC_MESH_MAX_DIMS; i++)
            fprintf(stderr, " %s", tc_placement_repr(in[k].placements[i], buf));
        if (rc == 0) {
            fprintf(stderr, " ->");
            for (int i = 0; i < in[k].mesh_ndim; i++)
                fprintf(stderr, " %s", tc_placement_repr(s->inputs[k][i], buf));
        }
    }
    if (rc == 0) {
        fprintf(stderr, "\n  output %s:", tc_format_sizes(sizes, s->shape.dim, s->shape.sizes));
        for (int i = 0; i < in[0].mesh_ndim; i++)
            fprintf(stderr, " %s", tc_placement_repr(s->output[i], buf));
        fprintf(stderr, " cost %g\n", s->cost);
    } else {
        fprintf(stderr, "\n  failed: %s\n", tc_error() ? tc_error() : "(no message)");
    }
}

static void check_sharding(const char *what, int n, const tc_dtensor_spec *in,
                           const tc_op_sharding *s)
{
    FZ_CHECK(s->ninputs == n, "%s: %d inputs, expected %d", what, s->ninputs, n);
    check_placements(what, in[0].mesh_ndim, s->output, s->shape.dim);
    for (int k = 0; k < n; k++)
        check_placements(what, in[0].mesh_ndim, s->inputs[k], in[k].shape.dim);
    FZ_CHECK(!isnan(s->cost) && s->cost >= 0, "%s: cost %g", what, s->cost);
}

static void fuzz_spec(fz_reader *r, bool hostile)
{
    int ndim;
    int64_t mesh[TC_MESH_MAX_DIMS];
    tc_dtensor_spec in[2];
    tc_op_sharding s;
    sim_op op = { 0 };
    int rc, n = 1;
    bool valid, small;

    gen_mesh(r, hostile, &ndim, mesh);
    op.kind = (int)(fz_byte(r) % 7);
    switch (op.kind) {
    case OP_MM:
        n = 2;
        if (fz_byte(r) < 220) {
            int64_t m = fz_range(r, 0, 5), k = fz_range(r, 0, 5), c = fz_range(r, 0, 5);
            in[0] = gen_spec(r, hostile, ndim, mesh, TC_SHAPE(m, k));
            in[1] = gen_spec(r, hostile, ndim, mesh, TC_SHAPE(fz_byte(r) < 240 ? k : k + 1, c));
        } else {
            in[0] = gen_spec(r, hostile, ndim, mesh, gen_shape(r, hostile, 3));
            in[1] = gen_spec(r, hostile, ndim, mesh, gen_shape(r, hostile, 3));
        }
        break;
    case OP_SUM:
        in[0] = gen_spec(r, hostile, ndim, mesh, gen_shape(r, hostile, 4));
        op.keepdim = fz_bool(r);
        op.dims.dim = fz_byte(r) < 240 ? fz_range(r, 0, 3) : fz_range(r, -1, TC_MAX_DIMS + 1);
        for (int64_t k = 0; k < TC_MAX_DIMS; k++)
            op.dims.sizes[k] = k < op.dims.dim ? fz_dim_arg(r, in[0].shape.dim) : 0;
        break;
    case OP_NEG:
    case OP_RELU:
        in[0] = gen_spec(r, hostile, ndim, mesh, gen_shape(r, hostile, 4));
        break;
    default: {
        tc_shape a = gen_shape(r, hostile, 4), b = a;
        n = 2;
        if (fz_bool(r) && a.dim >= 0 && a.dim <= TC_MAX_DIMS) {
            /* broadcast: drop leading dims, set some to 1 */
            int64_t drop = fz_range(r, 0, a.dim);
            b.dim = a.dim - drop;
            for (int64_t d = 0; d < b.dim; d++)
                b.sizes[d] = fz_byte(r) < 80 ? 1 : a.sizes[d + drop];
        } else if (fz_byte(r) < 30) {
            b = gen_shape(r, hostile, 4);
        }
        if (fz_bool(r)) {
            tc_shape t = a;
            a = b;
            b = t;
        }
        in[0] = gen_spec(r, hostile, ndim, mesh, a);
        in[1] = gen_spec(r, hostile, ndim, mesh, b);
    }
    }
    if (n == 2 && hostile && fz_byte(r) >= 240) {     /* another mesh */
        in[1].mesh_ndim = (int)fz_range(r, -1, 5);
    }
    valid = spec_valid(&in[0]) && (n == 1 || (spec_valid(&in[1]) &&
                                              in[1].mesh_ndim == in[0].mesh_ndim));
    memset(&s, 0xa5, sizeof s);          /* what the call does not write shows */
    tc_clear_error();
    switch (op.kind) {
    case OP_MM: rc = tc_propagate_mm(&in[0], &in[1], &s); break;
    case OP_SUM: rc = tc_propagate_sum(&in[0], op.dims.dim, op.dims.sizes, op.keepdim, &s); break;
    default: rc = tc_propagate_pointwise(n, in, op.kind == OP_ADD, &s); break;
    }
    trace_sharding(op.kind == OP_MM ? "mm" : op.kind == OP_SUM ? "sum" : "pointwise", n, in,
                   &s, rc);
    FZ_CHECK(rc == 0 || rc == -1, "propagation returned %d", rc);
    if (rc != 0) {
        /* a valid mm (its shapes agree) must succeed; the others may be
           refused by the operator's own rules (broadcast, dims) */
        FZ_CHECK(!(valid && op.kind == OP_MM && in[0].shape.dim == 2 && in[1].shape.dim == 2 &&
                   in[0].shape.sizes[1] == in[1].shape.sizes[0]),
                 "mm of valid specs refused: %s", tc_error());
        FZ_CHECK(!(valid && (op.kind == OP_NEG || op.kind == OP_RELU)),
                 "a unary operator on a valid spec refused: %s", tc_error());
        fz_check_failed("propagation");
        return;
    }
    fz_check_no_error("propagation");
    FZ_CHECK(valid, "an invalid spec accepted");
    if (!valid)
        return;
    check_sharding("propagation", n, in, &s);
    if (op.kind == OP_MM)
        FZ_CHECK(isfinite(s.cost), "mm: cost %g", s.cost);
    /* the cost of each chosen redistribution, as the function gives it */
    for (int k = 0; k < n; k++) {
        double c = tc_redistribute_cost(&in[k], s.inputs[k]);
        fz_check_no_error("tc_redistribute_cost");
        FZ_CHECK(!isnan(c) && c >= 0, "redistribute cost %g", c);
    }
    small = true;
    for (int i = 0; i < ndim; i++)
        small = small && mesh[i] <= 5;
    small = small && mesh_numel(ndim, mesh) <= 36;
    /* each size small too: a shape with a zero size has no elements however
       large the others, and cutting such a dim of 8e18 would overflow the
       storage offset of the pieces (the library refuses that, rightly) */
    for (int k = 0; k < n; k++) {
        small = small && fz_numel_at_most(in[k].shape.dim, in[k].shape.sizes, 200);
        for (int64_t d = 0; d < in[k].shape.dim; d++)
            small = small && in[k].shape.sizes[d] <= 200;
    }
    if (small)
        simulate(r, &op, n, in, &s);
}

static void fuzz_cost(fz_reader *r, bool hostile)
{
    int ndim;
    int64_t mesh[TC_MESH_MAX_DIMS];
    tc_dtensor_spec s;
    tc_placement to[TC_MESH_MAX_DIMS];
    bool inf = false, all_r = true;
    double c;

    gen_mesh(r, hostile, &ndim, mesh);
    s = gen_spec(r, hostile, ndim, mesh, gen_shape(r, hostile, 4));
    for (int i = 0; i < TC_MESH_MAX_DIMS; i++)
        to[i] = gen_placement(r, s.shape.dim >= 0 ? s.shape.dim : 0, hostile);
    tc_clear_error();
    c = tc_redistribute_cost(&s, to);
    if (!spec_valid(&s)) {
        if (isnan(c))
            fz_check_failed("tc_redistribute_cost");
        return;
    }
    fz_check_no_error("tc_redistribute_cost");
    for (int i = 0; i < ndim; i++) {
        all_r = all_r && s.placements[i].kind == TC_PLACEMENT_REPLICATE;
        inf = inf || (s.placements[i].kind == TC_PLACEMENT_SHARD &&
                      to[i].kind == TC_PLACEMENT_PARTIAL);
    }
    FZ_CHECK(!isnan(c) && c >= 0, "cost %g", c);
    FZ_CHECK(all_r ? c == 0 : inf == isinf(c), "cost %g (a Shard -> Partial: %d)", c, inf);
}

/* ---- a one-rank world ---------------------------------------------------- */

static tc_pg *world;

static tc_tensor *to_f64(const tc_tensor *t)
{
    tc_tensor *out = tc_empty_like_dtype(t, TC_FLOAT64);

    if (out != NULL && tc_copy_(out, t) != 0) {
        tc_release(out);
        out = NULL;
    }
    return out;
}

/* Compare a result of the library with the serial one, as doubles. */
static void check_values(const tc_tensor *got, const tc_tensor *expect, const char *what)
{
    tc_tensor *a = to_f64(got), *b = to_f64(expect);

    FZ_CHECK(a != NULL && b != NULL, "%s: to float64 fails", what);
    fz_check_same_values(a, b, what);
    tc_release(a);
    tc_release(b);
}

/* A sum on a dtensor against the same sum on the whole tensor. The local
   tensor and the whole one may be laid out differently, and a sum adds
   its terms in memory order, so the two may round differently: they must
   agree within n units of the dtype's epsilon of the sum of the terms'
   magnitudes (abs_sum, reduced as the sum was; n terms per element).
   Integer sums are exact in any order (they wrap alike), so they must be
   equal. */
static void check_sum_values(const tc_tensor *got, const tc_tensor *expect,
                             const tc_tensor *abs_sum, int64_t n, const char *what)
{
    double eps = expect->dtype == TC_FLOAT32 ? FLT_EPSILON : DBL_EPSILON;
    int64_t index[TC_MAX_DIMS] = { 0 };

    if (expect->dtype != TC_FLOAT32 && expect->dtype != TC_FLOAT64) {
        check_values(got, expect, what);
        return;
    }
    fz_check_shape(got, tc_shape_of(expect), what);
    FZ_CHECK(abs_sum != NULL, "%s: the sum of magnitudes fails", what);
    if (fz_numel(expect) == 0)
        return;
    do {
        double x = fz_ref_load(got, index), y = fz_ref_load(expect, index);
        double bound = (double)n * eps * fz_ref_load(abs_sum, index);

        FZ_CHECK(x == y || (isnan(x) && isnan(y)) || fabs(x - y) <= bound,
                 "%s: %.17g and %.17g differ by more than %g", what, x, y, bound);
    } while (tc_next_index(expect->dim, expect->sizes, index));
}

static void gen_placements(fz_reader *r, int ndim, int64_t tdim, tc_placement *p)
{
    for (int i = 0; i < TC_MESH_MAX_DIMS; i++) {
        p[i] = gen_placement(r, tdim, true);
        if (p[i].kind == TC_PLACEMENT_SHARD && fz_byte(r) < 40)
            p[i].dim -= (int)tdim;              /* counted from the end */
        if (i >= ndim)
            p[i] = TC_REPLICATE();
    }
}

static bool all_valid_for(int ndim, const tc_placement *p, int64_t tdim, bool partial_ok)
{
    for (int i = 0; i < ndim; i++) {
        tc_placement q = p[i];
        if (q.kind == TC_PLACEMENT_SHARD && q.dim < 0)
            q.dim += (int)tdim;
        if (!placement_valid(q, tdim) || (!partial_ok && q.kind == TC_PLACEMENT_PARTIAL))
            return false;
    }
    return true;
}

static void use_dtensor(fz_reader *r, tc_dtensor *d, const tc_tensor *whole)
{
    tc_device_mesh *mesh = tc_dtensor_mesh(d);
    int ndim = tc_device_mesh_ndim(mesh);
    tc_shape shape = tc_dtensor_shape(d), local;
    int64_t offset[TC_MAX_DIMS];
    tc_placement p[TC_MESH_MAX_DIMS];
    tc_redistribute_plan plan;
    char *text;
    tc_tensor *t;
    tc_dtensor *e;

    check_placements("a DTensor", ndim, tc_dtensor_placements(d), shape.dim);
    text = tc_dtensor_repr(d);
    if (text == NULL)
        fz_check_failed("tc_dtensor_repr");
    free(text);
    local = tc_dtensor_local_offset(d, offset);
    check_same_shape(local, shape, "local_offset on one rank");
    for (int64_t k = 0; k < shape.dim; k++)
        FZ_CHECK(offset[k] == 0, "offset %lld on one rank", (long long)offset[k]);
    t = tc_dtensor_full_tensor(d);
    if (t == NULL)
        fz_check_failed("tc_dtensor_full_tensor");
    else if (whole != NULL)
        check_values(t, whole, "full_tensor");
    tc_release(t);

    for (int round = 0; round < 2 && fz_more(r); round++) {
        gen_placements(r, ndim, shape.dim, p);
        tc_clear_error();
        if (tc_redistribute_plan_make(d, p, &plan) != 0) {
            fz_check_failed("tc_redistribute_plan_make");
            e = tc_dtensor_redistribute(d, p);
            FZ_CHECK(e == NULL, "redistribute ran a plan that could not be made");
            fz_check_failed("tc_dtensor_redistribute");
            continue;
        }
        FZ_CHECK(plan.nsteps >= 0 && plan.nsteps <= TC_PLAN_MAX_STEPS, "%d steps",
                 plan.nsteps);
        for (int i = 0; i < plan.nsteps; i++)
            FZ_CHECK(plan.steps[i].bytes_sent == 0 && plan.steps[i].bytes_received == 0 &&
                         plan.steps[i].padding_sent == 0 && plan.steps[i].padding_received == 0,
                     "step %d moves bytes on a mesh of one rank", i);
        text = tc_redistribute_plan_str(&plan);
        FZ_CHECK(text != NULL, "plan_str: %s", tc_error());
        free(text);
        e = tc_dtensor_redistribute(d, p);
        if (e == NULL) {
            fz_check_failed("tc_dtensor_redistribute");
            continue;
        }
        fz_check_no_error("tc_dtensor_redistribute");
        check_placements("redistributed", ndim, tc_dtensor_placements(e), shape.dim);
        t = tc_dtensor_full_tensor(e);
        if (t == NULL)
            fz_check_failed("full_tensor after redistribute");
        else if (whole != NULL)
            check_values(t, whole, "full_tensor after redistribute");
        tc_release(t);
        tc_dtensor_free(e);
    }
}

/* Strides exactly the contiguous ones, size-1 dims included. */
static bool plain_strides(const tc_tensor *t)
{
    int64_t expect = 1;

    for (int64_t d = t->dim - 1; d >= 0; d--) {
        if (t->strides[d] != expect)
            return false;
        expect *= t->sizes[d] > 0 ? t->sizes[d] : 1;
    }
    return true;
}

/* An operator on dtensors against the same on the whole tensors. */
static void op_on(fz_reader *r, const tc_dtensor *a, const tc_dtensor *b,
                  const tc_tensor *wa, const tc_tensor *wb)
{
    int kind = fz_byte(r) % 8;
    tc_dtensor *d = NULL;
    tc_tensor *expect = NULL, *got;
    int64_t dims[TC_MAX_DIMS];
    int64_t ndims = fz_range(r, 0, 3);
    bool keepdim = fz_bool(r), neg = fz_bool(r);
    tc_shape dl = { .dim = ndims };

    for (int64_t k = 0; k < ndims; k++)
        dl.sizes[k] = dims[k] = fz_dim_arg(r, wa->dim);
    tc_clear_error();
    switch (kind) {
    case 0: d = tc_dtensor_add(a, b); break;
    case 1: d = tc_dtensor_sub(a, b); break;
    case 2: d = tc_dtensor_mul(a, b); break;
    case 3: d = tc_dtensor_div(a, b); break;
    case 4: d = neg ? tc_dtensor_neg(a) : tc_dtensor_relu(a); break;
    case 5: d = tc_dtensor_exp(a); break;
    case 6: d = ndims == 0 ? tc_dtensor_sum(a) : tc_dtensor_sum_dims(a, ndims, dims, keepdim);
        break;
    default:
        /* not yet: chapter 7's tc_gemm_bmm multiplies the stride of a
           size-1 batch dim by the item size, which overflows for a huge
           stride (reported, chapter 7's to fix) */
        if (!plain_strides(wa) || !plain_strides(wb))
            return;
        d = tc_dtensor_matmul(a, b);
        break;
    }
    if (d == NULL) {
        fz_check_failed("an operator on DTensors");
        return;
    }
    fz_check_no_error("an operator on DTensors");
    switch (kind) {
    case 0: expect = tc_add(wa, wb); break;
    case 1: expect = tc_sub(wa, wb); break;
    case 2: expect = tc_mul(wa, wb); break;
    case 3: expect = tc_div(wa, wb); break;
    case 4: expect = neg ? tc_neg(wa) : tc_relu(wa); break;
    case 5: expect = tc_exp(wa); break;
    case 6: expect = ndims == 0 ? tc_sum(wa) : tc_sum_dims(wa, dl, keepdim); break;
    default: expect = tc_matmul(wa, wb); break;
    }
    tc_clear_error();
    got = tc_dtensor_full_tensor(d);
    if (trace) {
        char *ta = tc_dtensor_repr(a), *tb = tc_dtensor_repr(b), *tr = tc_dtensor_repr(d);
        char *tg = got ? tc_repr(got) : NULL, *te = expect ? tc_repr(expect) : NULL;
        fprintf(stderr, "op %d (ndims %lld, keepdim %d)\n  a %s\n  b %s\n  result %s\n"
                "  full %s\n  expected %s\n", kind, (long long)ndims, keepdim, ta, tb, tr,
                tg, te);
        free(ta), free(tb), free(tr), free(tg), free(te);
    }
    if (got == NULL) {
        fz_check_failed("full_tensor of an operator's result");
    } else if (expect != NULL && kind == 6) {
        tc_tensor *magnitudes = tc_abs(wa), *abs_sum = NULL;
        if (magnitudes != NULL)
            abs_sum = ndims == 0 ? tc_sum(magnitudes) : tc_sum_dims(magnitudes, dl, keepdim);
        check_sum_values(got, expect, abs_sum,
                         fz_numel(expect) > 0 ? fz_numel(wa) / fz_numel(expect) : 0,
                         "a sum on DTensors");
        tc_release(abs_sum);
        tc_release(magnitudes);
    } else if (expect != NULL) {
        check_values(got, expect, "an operator on DTensors");
    }
    check_placements("an operator's result", tc_device_mesh_ndim(tc_dtensor_mesh(d)),
                     tc_dtensor_placements(d), tc_dtensor_shape(d).dim);
    tc_release(got);
    tc_release(expect);
    tc_dtensor_free(d);
    tc_clear_error();
}

static tc_dtensor *make_dtensor(fz_reader *r, tc_device_mesh *mesh, const tc_tensor *t,
                                bool *exact)
{
    int ndim = tc_device_mesh_ndim(mesh);
    tc_placement p[TC_MESH_MAX_DIMS];
    tc_dtensor *d;

    gen_placements(r, ndim, t->dim, p);
    tc_clear_error();
    *exact = true;
    if (fz_byte(r) < 170) {
        d = tc_distribute_tensor(t, mesh, p);
        if (all_valid_for(ndim, p, t->dim, false) && t->dim > 0)
            FZ_CHECK(d != NULL, "distribute_tensor refused valid placements: %s", tc_error());
    } else {
        tc_shape global = tc_shape_of(t);
        int g = fz_byte(r) % 4;
        if (g == 1) {
            global = fz_byte(r) < 200 ? fz_shape(r, 4, 6) : fz_wild_shape(r);
            *exact = false;
        }
        d = tc_dtensor_from_local((tc_tensor *)t, mesh, p, g >= 2 ? NULL : &global);
    }
    if (d == NULL) {
        fz_check_failed("making a DTensor");
        return NULL;
    }
    fz_check_no_error("making a DTensor");
    /* avg of int64 is refused, ...; and a Replicate operand of a linear
       operator meets a Partial one by becoming Partial, divided by the mesh
       size as PyTorch 2.4's Partial._partition_value does (tensor / n): a
       bool tensor becomes float there, and True + True is 2, not True */
    for (int i = 0; i < ndim; i++)
        if (tc_dtensor_placements(d)[i].kind == TC_PLACEMENT_PARTIAL &&
            (tc_dtensor_placements(d)[i].op != TC_REDUCE_SUM || t->dtype == TC_BOOL))
            *exact = false;
    return d;
}

static void fuzz_world(fz_reader *r)
{
    int ndim = fz_byte(r) < 240 ? (int)fz_range(r, 1, 4) : (int)fz_range(r, -1, 5);
    int64_t sizes[TC_MESH_MAX_DIMS + 2] = { 1, 1, 1, 1, 1, 1 };
    int ranks[1] = { 0 };
    bool bad = fz_byte(r) >= 240, exact_a, exact_b;
    tc_device_mesh *mesh;
    tc_tensor *a, *b;
    tc_dtensor *da, *db;

    if (bad) {
        sizes[fz_range(r, 0, TC_MESH_MAX_DIMS - 1)] = fz_int64(r);
        ranks[0] = (int)fz_range(r, -2, 2);
    }
    tc_clear_error();
    mesh = tc_device_mesh_new(world, ndim, sizes, fz_bool(r) ? ranks : NULL);
    if (mesh == NULL) {
        fz_check_failed("tc_device_mesh_new");
        return;
    }
    fz_check_no_error("tc_device_mesh_new");
    {
        char *text = tc_device_mesh_repr(mesh);
        FZ_CHECK(text != NULL, "mesh repr: %s", tc_error());
        free(text);
    }
    a = fz_operand(r, 4, 5);
    if (a == NULL) {
        tc_device_mesh_release(mesh);
        return;
    }
    da = make_dtensor(r, mesh, a, &exact_a);
    if (da != NULL) {
        use_dtensor(r, da, exact_a ? a : NULL);
        b = fz_byte(r) < 128 ? tc_retain(a) : fz_operand(r, 4, 5);
        db = b != NULL ? make_dtensor(r, mesh, b, &exact_b) : NULL;
        tc_clear_error();
        if (db != NULL) {
            for (int k = 0; k < 3 && fz_more(r); k++)
                if (exact_a && exact_b)
                    op_on(r, da, db, a, b);
            tc_dtensor_free(db);
        }
        tc_release(b);
        tc_dtensor_free(da);
    }
    tc_release(a);
    tc_device_mesh_release(mesh);
    tc_clear_error();
}

/* ---- collectives on 2-3 ranks --------------------------------------------- */

/* The input, for the ranks: each (a fork of this process) decodes the same
   program from the same bytes. */
static fz_reader program;

/* The value of element i on world rank r at step k: a small integer, so
   that every fold is exact in every dtype. */
static double value_at(int r, int64_t i, int k)
{
    return (double)((r * 7 + i * 3 + k * 5) % 11 - 5);
}

static tc_tensor *filled(int r, int64_t n, tc_dtype dtype, int k)
{
    tc_tensor *t = tc_empty(TC_SHAPE(n), dtype);

    for (int64_t i = 0; t != NULL && i < n; i++)
        tc_store(t, i, value_at(r, i, k));
    return t;
}

static double fold(tc_reduce_op op, double acc, double x)
{
    switch (op) {
    case TC_REDUCE_MIN: return x < acc ? x : acc;
    case TC_REDUCE_MAX: return x > acc ? x : acc;
    default: return acc + x;
    }
}

static int bad(int rank, int step, const char *what, int64_t i, double got, double want)
{
    fprintf(stderr, "rank %d, step %d, %s: element %lld is %g, expected %g\n", rank, step,
            what, (long long)i, got, want);
    return 1;
}

static int rank_body(void *arg, int rank)
{
    static const tc_dtype dtypes[] = { TC_FLOAT32, TC_FLOAT64, TC_INT64 };
    fz_reader *r = &program;
    tc_pg *world;
    int steps, failures = 0;

    (void)arg;
    tc_dist_finalize();              /* the fuzzer's one-rank world, inherited */
    world = tc_dist_init();
    if (world == NULL) {
        fprintf(stderr, "rank %d: %s\n", rank, tc_error());
        return 2;
    }
    steps = (int)fz_range(r, 1, 4);
    for (int k = 0; k < steps && failures == 0; k++) {
        int n = tc_pg_size(world), members[3], m = 0, kind = fz_byte(r) % 7;
        uint8_t mask = fz_byte(r);
        tc_dtype dtype = dtypes[fz_byte(r) % 3];
        tc_reduce_op op = (tc_reduce_op)(fz_byte(r) % 4);
        int64_t c = fz_byte(r) < 230 ? fz_range(r, 0, 40) : fz_range(r, 1000, 200000);
        tc_pg *g = world;
        tc_tensor *in = NULL, *out = NULL;
        int root, rc, me, size;

        if (dtype == TC_INT64 && op == TC_REDUCE_AVG)
            op = TC_REDUCE_SUM;
        if (mask >= 128) {           /* a sub-group: some ranks, maybe reversed */
            for (int w = 0; w < n; w++)
                if (mask >> w & 1)
                    members[m++] = (mask & 64) ? n - 1 - w : w;
            if (m == 0)
                members[m++] = 0;
            if (tc_pg_new_group(world, m, members, &g) != 0) {
                fprintf(stderr, "rank %d: new_group: %s\n", rank, tc_error());
                return 1;
            }
        }
        root = (int)fz_range(r, 0, 2);
        if (g == NULL)               /* not a member */
            continue;
        me = tc_pg_rank(g);
        size = tc_pg_size(g);
        root %= size;
        switch (kind) {
        case 0:                      /* all_reduce */
            out = filled(rank, c, dtype, k);
            rc = tc_all_reduce(g, out, op);
            break;
        case 1:                      /* all_gather */
            in = filled(rank, c, dtype, k);
            out = tc_empty(TC_SHAPE(c * size), dtype);
            rc = tc_all_gather(g, out, in);
            break;
        case 2:                      /* reduce_scatter */
            in = filled(rank, c * size, dtype, k);
            out = tc_empty(TC_SHAPE(c), dtype);
            rc = tc_reduce_scatter(g, out, in, op);
            break;
        case 3:                      /* broadcast */
            out = filled(rank, c, dtype, k);
            rc = tc_broadcast(g, out, root);
            break;
        case 4:                      /* scatter */
            in = me == root ? filled(rank, c * size, dtype, k) : NULL;
            out = tc_empty(TC_SHAPE(c), dtype);
            rc = tc_scatter(g, out, in, root);
            break;
        case 5:                      /* all_to_all */
            in = filled(rank, c * size, dtype, k);
            out = tc_empty(TC_SHAPE(c * size), dtype);
            rc = tc_all_to_all(g, out, in);
            break;
        default:
            rc = tc_barrier(g);
        }
        if (rc != 0) {
            fprintf(stderr, "rank %d, step %d, collective %d: %s\n", rank, k, kind, tc_error());
            failures++;
        }
        for (int64_t i = 0, total = out != NULL ? fz_numel(out) : 0;
             rc == 0 && failures == 0 && i < total; i++) {
            double want = 0, got = tc_load(out, i);
            switch (kind) {
            case 0: case 2: {
                int64_t j = kind == 0 ? i : me * c + i;
                want = value_at(tc_pg_world_rank(g, 0), j, k);
                for (int q = 1; q < size; q++)
                    want = fold(op, want, value_at(tc_pg_world_rank(g, q), j, k));
                if (op == TC_REDUCE_AVG)
                    want = dtype == TC_FLOAT32 ? (double)((float)want / (float)size)
                                               : want / size;
                break;
            }
            case 1: want = value_at(tc_pg_world_rank(g, (int)(i / c)), i % c, k); break;
            case 3: want = value_at(tc_pg_world_rank(g, root), i, k); break;
            case 4: want = value_at(tc_pg_world_rank(g, root), me * c + i, k); break;
            default: want = value_at(tc_pg_world_rank(g, (int)(i / c)), me * c + i % c, k);
            }
            if (got != want)
                failures += bad(rank, k, "result", i, got, want);
        }
        tc_release(in);
        tc_release(out);
        if (g != world)
            tc_pg_free(g);
    }
    tc_dist_finalize();
    return failures != 0;
}

static void fuzz_ranks(fz_reader *r)
{
    tc_launch_options opts = { .nproc = (int)fz_range(r, 2, 3), .timeout_seconds = 20 };
    tc_launch_result result;

    program = *r;
    tc_clear_error();
    FZ_CHECK(tc_launch_fn(&opts, rank_body, NULL, &result) == 0, "tc_launch_fn: %s",
             tc_error());
    FZ_CHECK(result.exit_code == 0, "%d ranks: %s", opts.nproc, result.summary);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = fz_reader_of(data, size);
    uint8_t mode = fz_byte(&r);

    trace = getenv("FZ_TRACE") != NULL;
    if (world == NULL) {
        world = tc_dist_init();
        FZ_CHECK(world != NULL && tc_pg_size(world) == 1, "a one-rank world");
    }
    switch (mode % 8) {
    case 0: fuzz_chunk(&r); break;
    case 1: fuzz_cost(&r, mode >= 128); break;
    case 2: case 3: case 4: fuzz_spec(&r, mode >= 200); break;
    case 7:
        /* a launch costs 0.1-0.5 s (fork, segment, ranks): only in a
           campaign with FZ_RANKS set (libFuzzer's mutations of a ranks
           input stay ranks inputs, and make check's share would grow) */
        if (mode == 255 && fz_byte(&r) >= 240 && getenv("FZ_RANKS") != NULL) {
            fuzz_ranks(&r);
            break;
        }
        /* fall through */
    default: fuzz_world(&r); break;
    }
    tc_clear_error();
    return 0;
}
