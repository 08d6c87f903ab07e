/* fuzz_autograd.c: random graphs through the autograd layer of chapter 5.
   The input builds up to 4 leaves (small float64 shapes that often
   broadcast, some requiring grad), then up to 12 ag_ operations on them and
   on earlier results (elementwise with tensors and numbers, detach,
   retain_grad, reductions, powers, products, views, in-place operations),
   then one backward pass from one of the results, with the
   implicit gradient, a given one or one of the wrong shape, with or without
   retain_graph; then, sometimes, zero_grad or an in-place operation, and a
   second backward pass.
   Invariants: nothing crashes and nothing leaks (releasing every tensor
   frees every node: LeakSanitizer); a failure returns NULL or -1 and records
   a message; backward fails exactly when PyTorch's checks say it must (no
   grad, implicit gradient of a non-scalar, a gradient of the wrong shape),
   otherwise only with PyTorch's message for a saved tensor modified in place
   (when an in-place operation ran) or, the second time, freed; every leaf
   that requires grad and that the graph reaches gets a gradient of its
   shape and dtype, the others none; a second backward over a retained graph
   adds exactly the same gradient again; and, where the function is smooth
   around the point (no kink nearby, two step sizes agree), the gradients
   match central finite differences in float64, the program being replayed
   under no_grad. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* ---- the program ----------------------------------------------------------- */

enum { MAX_LEAVES = 4, MAX_STEPS = 12, MAX_SLOTS = MAX_LEAVES + MAX_STEPS, MAX_FD = 8 };

typedef enum {
    /* elementwise */
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_ADD_ALPHA, OP_SUB_ALPHA, OP_RSUB, OP_RSUB_NUMBER,
    OP_ADD_NUMBER, OP_SUB_NUMBER, OP_MUL_NUMBER, OP_DIV_NUMBER,
    OP_NEG, OP_EXP, OP_LOG, OP_SQRT, OP_ABS, OP_RELU, OP_SIGMOID, OP_TANH,
    OP_DETACH, OP_RETAIN_GRAD,
    /* reductions, powers, products */
    OP_SUM, OP_MEAN, OP_SUM_DIMS, OP_MEAN_DIMS, OP_MAX, OP_MIN, OP_MAX_DIM, OP_MIN_DIM,
    OP_POW, OP_POW_NUMBER, OP_NUMBER_POW, OP_MATMUL, OP_MM,
    /* views */
    OP_VIEW, OP_RESHAPE, OP_T, OP_TRANSPOSE, OP_PERMUTE, OP_SELECT, OP_SLICE, OP_NARROW,
    OP_EXPAND, OP_SQUEEZE, OP_SQUEEZE_DIM, OP_UNSQUEEZE, OP_FLATTEN, OP_DIAGONAL,
    OP_CLONE, OP_CONTIGUOUS, OP_UNBIND,
    /* in place */
    OP_ADD_, OP_SUB_, OP_MUL_, OP_DIV_, OP_NEG_, OP_EXP_, OP_RELU_,
    NUM_OPS
} op_code;

static const char *const op_names[NUM_OPS] = {
    "add", "sub", "mul", "div", "add_alpha", "sub_alpha", "rsub", "rsub_number",
    "add_number", "sub_number", "mul_number", "div_number",
    "neg", "exp", "log", "sqrt", "abs", "relu", "sigmoid", "tanh", "detach", "retain_grad",
    "sum", "mean", "sum_dims", "mean_dims", "max", "min", "max_dim", "min_dim",
    "pow", "pow_number", "number_pow", "matmul", "mm",
    "view", "reshape", "t", "transpose", "permute", "select", "slice", "narrow",
    "expand", "squeeze", "squeeze_dim", "unsqueeze", "flatten", "diagonal",
    "clone", "contiguous", "unbind",
    "add_", "sub_", "mul_", "div_", "neg_", "exp_", "relu_",
};

typedef struct {
    op_code op;
    int a, b;                 /* operand slots */
    double x;                 /* a number operand */
    int64_t i[3];             /* dims, indices, offsets */
    bool flag;                /* keepdim */
    tc_shape shape;           /* a shape or a list of dims */
    bool skipped;             /* not run: an operand was missing, or it would make a cycle */
    bool failed;              /* failed in the recorded run (so skipped by replays) */
    tc_tensor *frozen;        /* detach: its value in the recorded run, a constant */
} step;

typedef struct {
    int num_leaves, num_steps;
    tc_tensor *initial[MAX_LEAVES];    /* the leaves' values before the run */
    step steps[MAX_STEPS];
} program;

static bool is_inplace(op_code op) { return op >= OP_ADD_ && op <= OP_RELU_; }

/* Does the operation read its second operand? */
static bool is_binary(op_code op)
{
    return op <= OP_RSUB || op == OP_POW || op == OP_MATMUL || op == OP_MM ||
           (op >= OP_ADD_ && op <= OP_DIV_);
}

/* a.add_(b) (and sub_, mul_, div_) gives a a new node with an edge to b's
   graph (and mul_, div_ save b). When b was computed from a (and is not a
   itself), b's graph may have saved a, and a's new history then owns that
   graph: a cycle that only a backward pass through it breaks. PyTorch 1.13
   leaks the same way (y.mul_(y * y) with no backward: measured); the
   library does not break such cycles yet, so the target does not build
   them. The same holds when b is a view of a, or a view of a's base (a
   saved view owns its base): x.div_(x.t()) for a 1-D x, x[0].mul_(x[1]),
   both measured to leak in PyTorch 1.13. */
static bool makes_cycle(const step *s, tc_tensor *const *slots)
{
    return s->op >= OP_ADD_ && s->op <= OP_DIV_ && slots[s->b] != slots[s->a] &&
           (!ag_is_leaf(slots[s->b]) || tc_same_storage(slots[s->a], slots[s->b]));
}

/* A number operand: smooth values mostly, sometimes an edge. */
static double number(fz_reader *r)
{
    static const double smooth[] = { 0.5, 2, -1.5, 3, 0.25, -2, 1.75, -0.75 };
    uint8_t k = fz_byte(r);

    return k < 224 ? smooth[k % 8] : fz_double(r);
}

/* A shape of numel elements (or, sometimes, any small shape). */
static tc_shape shape_for(fz_reader *r, const tc_tensor *t)
{
    int64_t n = tc_numel(t);
    tc_shape s = { .dim = 1, .sizes = { n } };

    switch (fz_byte(r) % 5) {
    case 0: break;
    case 1: s = (tc_shape){ .dim = 2, .sizes = { 1, n } }; break;
    case 2: s = (tc_shape){ .dim = 2, .sizes = { n, 1 } }; break;
    case 3: s = (tc_shape){ .dim = 2, .sizes = { -1, 1 } }; break;
    default: s = fz_shape(r, 3, 4); break;
    }
    return s;
}

/* Read the parameters of step s, whose operands are a and b. */
static void read_params(fz_reader *r, step *s, const tc_tensor *a, const tc_tensor *b)
{
    int64_t n = a->dim;

    s->x = number(r);
    s->flag = fz_bool(r);
    for (int k = 0; k < 3; k++)
        s->i[k] = fz_dim_arg(r, n);
    switch (s->op) {
    case OP_SUM_DIMS: case OP_MEAN_DIMS:
        s->shape.dim = fz_range(r, 0, n > 0 ? n : 1);
        for (int64_t d = 0; d < s->shape.dim; d++)
            s->shape.sizes[d] = fz_dim_arg(r, n);
        break;
    case OP_PERMUTE:    /* a permutation of the dims, sometimes broken */
        s->shape.dim = n;
        for (int64_t d = 0; d < n; d++)
            s->shape.sizes[d] = d;
        for (int64_t d = n - 1; d > 0; d--) {
            int64_t e = fz_range(r, 0, d), t = s->shape.sizes[d];
            s->shape.sizes[d] = s->shape.sizes[e];
            s->shape.sizes[e] = t;
        }
        if (n > 0 && fz_byte(r) < 16)
            s->shape.sizes[0] = fz_dim_arg(r, n);
        break;
    case OP_VIEW: case OP_RESHAPE:
        s->shape = shape_for(r, a);
        break;
    case OP_EXPAND:    /* a's shape with size-1 dims grown, and a new leading dim */
        s->shape = tc_shape_of(a);
        for (int64_t d = 0; d < n; d++)
            if (s->shape.sizes[d] == 1 && fz_bool(r))
                s->shape.sizes[d] = fz_range(r, 0, 3);
        if (n < TC_MAX_DIMS && fz_bool(r)) {
            memmove(s->shape.sizes + 1, s->shape.sizes, (size_t)n * sizeof(int64_t));
            s->shape.sizes[0] = fz_range(r, 1, 3);
            s->shape.dim++;
        }
        break;
    case OP_SLICE: case OP_NARROW:
        s->i[1] = fz_range(r, -3, 3);
        s->i[2] = fz_range(r, s->op == OP_SLICE ? 1 : 0, 3);
        break;
    default:
        break;
    }
    (void)b;
}

/* Run step s on the slots; a new reference, or NULL (failed). */
static tc_tensor *apply(const step *s, tc_tensor **slots)
{
    tc_tensor *a = slots[s->a], *b = slots[s->b], *out = NULL, *num;

    switch (s->op) {
    case OP_ADD: return ag_add(a, b);
    case OP_SUB: return ag_sub(a, b);
    case OP_MUL: return ag_mul(a, b);
    case OP_DIV: return ag_div(a, b);
    case OP_ADD_ALPHA: case OP_SUB_ALPHA:
        num = tc_number(s->x);
        out = num == NULL ? NULL : s->op == OP_ADD_ALPHA ? ag_add_alpha(a, b, num)
                                                        : ag_sub_alpha(a, b, num);
        tc_release(num);
        return out;
    case OP_RSUB: return ag_rsub(a, b);
    case OP_RSUB_NUMBER: return ag_rsub_scalar(a, s->x);
    case OP_ADD_NUMBER: return ag_add_scalar(a, s->x);
    case OP_SUB_NUMBER: return ag_sub_scalar(a, s->x);
    case OP_MUL_NUMBER: return ag_mul_scalar(a, s->x);
    case OP_DIV_NUMBER: return ag_div_scalar(a, s->x);
    case OP_NEG: return ag_neg(a);
    case OP_EXP: return ag_exp(a);
    case OP_LOG: return ag_log(a);
    case OP_SQRT: return ag_sqrt(a);
    case OP_ABS: return ag_abs(a);
    case OP_RELU: return ag_relu(a);
    case OP_SIGMOID: return ag_sigmoid(a);
    case OP_TANH: return ag_tanh(a);
    case OP_DETACH: return ag_detach(a);
    case OP_RETAIN_GRAD:    /* the same tensor, retaining its grad in grad mode */
        if (ag_is_grad_enabled() && ag_retain_grad(a) < 0)
            return NULL;
        return tc_retain(a);
    case OP_SUM: return ag_sum(a);
    case OP_MEAN: return ag_mean(a);
    case OP_SUM_DIMS: return ag_sum_dims(a, s->shape, s->flag);
    case OP_MEAN_DIMS: return ag_mean_dims(a, s->shape, s->flag);
    case OP_MAX: return ag_max(a);
    case OP_MIN: return ag_min(a);
    case OP_MAX_DIM: case OP_MIN_DIM: {
        tc_tensor *values = NULL, *indices = NULL;
        int status = (s->op == OP_MAX_DIM ? ag_max_dim : ag_min_dim)(a, s->i[0], s->flag,
                                                                      &values, &indices);
        FZ_CHECK(status == 0 || status == -1, "max_dim returned %d", status);
        FZ_CHECK(status == 0 || (values == NULL && indices == NULL),
                 "max_dim failed but returned tensors");
        tc_release(indices);
        return status == 0 ? values : NULL;
    }
    case OP_POW: return ag_pow(a, b);
    case OP_POW_NUMBER:
        num = tc_number(s->x);
        out = num == NULL ? NULL : ag_pow(a, num);
        tc_release(num);
        return out;
    case OP_NUMBER_POW: return ag_pow_number(s->x, a);
    case OP_MATMUL: return ag_matmul(a, b);
    case OP_MM: return ag_mm(a, b);
    case OP_VIEW: return ag_view(a, s->shape);
    case OP_RESHAPE: return ag_reshape(a, s->shape);
    case OP_T: return ag_t(a);
    case OP_TRANSPOSE: return ag_transpose(a, s->i[0], s->i[1]);
    case OP_PERMUTE: return ag_permute(a, s->shape);
    case OP_SELECT: return ag_select(a, s->i[0], s->i[1]);
    case OP_SLICE: return ag_slice(a, s->i[0], s->i[1], s->i[1] + 2, s->i[2]);
    case OP_NARROW: return ag_narrow(a, s->i[0], s->i[1], s->i[2]);
    case OP_EXPAND: return ag_expand(a, s->shape);
    case OP_SQUEEZE: return ag_squeeze(a);
    case OP_SQUEEZE_DIM: return ag_squeeze_dim(a, s->i[0]);
    case OP_UNSQUEEZE: return ag_unsqueeze(a, s->i[0]);
    case OP_FLATTEN: return ag_flatten(a, s->i[0], s->i[1]);
    case OP_DIAGONAL: return ag_diagonal(a, s->i[2], s->i[0], s->i[1]);
    case OP_CLONE: return ag_clone(a);
    case OP_CONTIGUOUS: return ag_contiguous(a);
    case OP_UNBIND: {    /* keep output i[1] (wrapped), release the others */
        int64_t n = -1;
        tc_tensor **outs = ag_unbind(a, s->i[0], &n);
        if (outs == NULL)
            return NULL;
        FZ_CHECK(n >= 0, "unbind: %lld outputs", (long long)n);
        for (int64_t k = 0; k < n; k++) {
            FZ_CHECK(outs[k] != NULL, "unbind: output %lld is NULL", (long long)k);
            if (k == (s->i[1] % n + n) % n)
                out = outs[k];
            else
                tc_release(outs[k]);
        }
        free(outs);
        if (out == NULL)    /* no outputs: a's size along dim is 0 */
            out = tc_retain(a);
        return out;
    }
    case OP_ADD_: return ag_add_(a, b);
    case OP_SUB_: return ag_sub_(a, b);
    case OP_MUL_: return ag_mul_(a, b);
    case OP_DIV_: return ag_div_(a, b);
    case OP_NEG_: return ag_neg_(a);
    case OP_EXP_: return ag_exp_(a);
    case OP_RELU_: return ag_relu_(a);
    default: return NULL;
    }
}

/* ---- reading the input into a program, running it with grad ------------ */

/* A leaf: float64 (float32 sometimes), of base's shape or one that
   broadcasts with it, contiguous or transposed; smooth values (no ties,
   no zeros) when smooth. */
static tc_tensor *leaf(fz_reader *r, tc_shape base, bool smooth)
{
    tc_shape s = base;
    tc_dtype dtype = fz_byte(r) < 240 ? TC_FLOAT64 : TC_FLOAT32;
    tc_tensor *t;

    switch (fz_byte(r) % 5) {
    case 0: case 1: break;
    case 2:    /* size-1 dims */
        for (int64_t d = 0; d < s.dim; d++)
            if (fz_bool(r))
                s.sizes[d] = 1;
        break;
    case 3:    /* trailing dims only */
        if (s.dim > 0) {
            int64_t k = fz_range(r, 0, s.dim);
            memmove(s.sizes, s.sizes + k, (size_t)(s.dim - k) * sizeof(int64_t));
            s.dim -= k;
        }
        break;
    default:
        s = fz_shape(r, 3, 3);
        break;
    }
    if (smooth) {
        t = tc_empty(s, dtype);
        for (int64_t i = 0; t != NULL && i < tc_numel(t); i++)
            tc_store(t, i, (double)fz_range(r, -24, 24) / 8 + 0.0137 * (double)(i + 1));
    } else {
        t = fz_tensor(r, s, dtype);
    }
    if (t != NULL && s.dim == 2 && fz_byte(r) < 64) {    /* the transpose of a contiguous */
        tc_tensor *u = tc_transpose(t, 0, 1), *v = u == NULL ? NULL : tc_contiguous(u);
        tc_tensor *w = v == NULL ? NULL : tc_transpose(v, 0, 1);
        tc_release(u);
        tc_release(v);
        tc_release(t);
        t = w;
    }
    if (t == NULL)
        tc_clear_error();
    return t;
}

/* An operand slot, the later ones more often. */
static int operand(fz_reader *r, int num_slots)
{
    int k = (int)fz_range(r, 0, num_slots - 1);

    return fz_bool(r) ? num_slots - 1 : k;
}

static bool any_inplace_ran, trace;

/* Each slot's version and grad_fn when it was made. A tensor whose version
   moved while its grad_fn stayed is an alias (a view, a base) of a tensor
   changed in place: PyTorch regenerates a view's grad_fn then
   (AsStridedBackward0 over the base's new history); the library does not
   yet (reported), so such a graph is not compared with PyTorch's answers. */
static int64_t made_version[MAX_SLOTS];
static const ag_node *made_fn[MAX_SLOTS];

/* Is slot an unbind output, or a view of one made by view operations?
   Such a view inherits the unbind output's refusal after an in-place
   change of its base: PyTorch 1.13 propagates the creation meta
   MULTI_OUTPUT_NODE to views of views (x.unbind(0)[0].squeeze() after an
   in-place op on x: "Output 0 of SqueezeBackward0 is a view and ..."). */
static bool from_unbind(const program *p, int slot)
{
    while (slot >= p->num_leaves) {
        const step *s = &p->steps[slot - p->num_leaves];

        if (s->op == OP_UNBIND)
            return true;
        if (!((s->op >= OP_VIEW && s->op <= OP_DIAGONAL) || s->op == OP_CONTIGUOUS))
            return false;
        slot = s->a;
    }
    return false;
}

static bool stale(tc_tensor *const *slots, int k)
{
    return slots[k] != NULL && ag_version(slots[k]) != made_version[k] &&
           ag_grad_fn(slots[k]) == made_fn[k];
}

static void remember(tc_tensor *const *slots, int k)
{
    made_version[k] = slots[k] == NULL ? 0 : ag_version(slots[k]);
    made_fn[k] = slots[k] == NULL ? NULL : ag_grad_fn(slots[k]);
}

/* Read the program's steps from r and run them in grad mode, checking each
   result; slots[num_leaves ..] get the results. */
static void record(fz_reader *r, program *p, tc_tensor **slots)
{
    p->num_steps = (int)fz_range(r, 0, MAX_STEPS);
    for (int k = 0; k < p->num_steps; k++) {
        step *s = &p->steps[k];
        int n = p->num_leaves + k;
        tc_tensor *out;

        memset(s, 0, sizeof *s);
        s->op = (op_code)(fz_byte(r) % NUM_OPS);
        s->a = operand(r, n);
        s->b = operand(r, n);
        if (slots[s->a] == NULL || (is_binary(s->op) && slots[s->b] == NULL) ||
            makes_cycle(s, slots)) {
            s->skipped = true;
            continue;
        }
        read_params(r, s, slots[s->a], slots[s->b]);
        tc_clear_error();
        out = apply(s, slots);
        if (out == NULL) {
            s->failed = true;
            fz_check_failed(op_names[s->op]);
        } else {
            fz_check_no_error(op_names[s->op]);
            fz_check_in_storage(out);
            if (is_inplace(s->op)) {
                FZ_CHECK(out == slots[s->a], "%s returned another tensor", op_names[s->op]);
                any_inplace_ran = true;
            }
            if (s->op == OP_DETACH) {
                FZ_CHECK(!ag_requires_grad(out) && ag_is_leaf(out), "detach: in the graph");
                s->frozen = tc_clone(out);
                FZ_CHECK(s->frozen != NULL, "clone failed");
            }
            if (s->op == OP_RETAIN_GRAD)
                FZ_CHECK(ag_retains_grad(out) || ag_is_leaf(out), "retain_grad: not retained");
        }
        if (trace) {
            fprintf(stderr, "slot %d = %s(slot %d, slot %d; number %.17g)\n", n,
                    op_names[s->op], s->a, s->b, s->x);
            fz_trace(op_names[s->op], slots[s->a], out);
        }
        slots[n] = out;
        remember(slots, n);
    }
}

/* ---- backward ---------------------------------------------------------------- */

/* Does the graph of root reach the AccumulateGrad of leaf? */
static bool reaches(const tc_tensor *root, const tc_tensor *leaf)
{
    const ag_node *seen[256];
    int n = 0;

    if (root == leaf)
        return ag_requires_grad(leaf);
    if (ag_grad_fn(root) == NULL)
        return false;
    seen[n++] = ag_grad_fn(root);
    for (int k = 0; k < n; k++) {
        if (ag_node_variable(seen[k]) == leaf)
            return true;
        for (int j = 0; j < ag_node_num_next(seen[k]); j++) {
            const ag_node *next = ag_node_next(seen[k], j).node;
            bool known = next == NULL;
            for (int i = 0; i < n && !known; i++)
                known = seen[i] == next;
            if (!known && n < 256)
                seen[n++] = next;
        }
    }
    return false;
}

static bool starts_with(const char *message, const char *prefix)
{
    return message != NULL && strncmp(message, prefix, strlen(prefix)) == 0;
}

static const char NO_GRAD[] = "element 0 of tensors does not require grad and does not "
                              "have a grad_fn";
static const char IMPLICIT[] = "grad can be implicitly created only for scalar outputs";
static const char MISMATCH[] = "Mismatch in shape: grad_output[0] has a shape of";
static const char MODIFIED[] = "one of the variables needed for gradient computation has "
                               "been modified by an inplace operation";
static const char SECOND[] = "Trying to backward through the graph a second time";
/* PyTorch's refusal of an unbind output whose base changed in place:
   "Output 0 of UnbindBackward0 is a view and ...", or, when the output was
   made with no graph (its base did not require grad then), "A view was
   created in no_grad mode and ...". The library used to say NO_GRAD there,
   which is still accepted. */
static const char UNBIND_VIEW[] = "Output ";
static const char NO_GRAD_VIEW[] = "A view was created in no_grad mode";

/* Nodes whose formula reads what they saved: a second backward through
   one of them, after the first freed it, must fail. */
static bool saves(const ag_node *fn)
{
    static const char *const names[] = { "MulBackward0", "DivBackward0", "ExpBackward0",
                                         "LogBackward0", "SqrtBackward0", "AbsBackward0",
                                         "ReluBackward0", "SigmoidBackward0",
                                         "TanhBackward0" };

    for (size_t k = 0; fn != NULL && k < sizeof names / sizeof names[0]; k++)
        if (strcmp(ag_node_type_name(fn), names[k]) == 0)
            return true;
    return false;
}

/* The leaves' gradients after a successful backward from root. */
static void check_leaf_grads(tc_tensor *const *slots, int num_leaves, const tc_tensor *root,
                             bool first_pass)
{
    for (int k = 0; k < num_leaves; k++) {
        tc_tensor *g;

        /* a leaf modified in place by an op with a tensor that requires
           grad is no longer a leaf */
        if (slots[k] == NULL || !ag_requires_grad(slots[k]) || !ag_is_leaf(slots[k]))
            continue;
        g = ag_grad(slots[k]);
        if (!reaches(root, slots[k])) {
            FZ_CHECK(!first_pass || g == NULL, "leaf %d: not reached, but has a grad", k);
            continue;
        }
        FZ_CHECK(g != NULL, "leaf %d: reached by the graph but no grad", k);
        fz_check_shape(g, tc_shape_of(slots[k]), "leaf grad");
        FZ_CHECK(g->dtype == slots[k]->dtype, "leaf %d: grad of dtype %s", k,
                 tc_dtype_name(g->dtype));
        FZ_CHECK(ag_is_leaf(g) && !ag_requires_grad(g), "leaf %d: its grad is in a graph", k);
        fz_check_in_storage(g);
    }
}

/* Retained gradients of computed tensors have their tensor's shape. */
static void check_retained(tc_tensor *const *slots, int num_slots)
{
    for (int k = 0; k < num_slots; k++) {
        tc_tensor *g;

        if (slots[k] == NULL || ag_is_leaf(slots[k]) || !ag_retains_grad(slots[k]))
            continue;
        g = ag_grad(slots[k]);
        FZ_CHECK(ag_warning() == NULL || g == NULL, "retained grad read with a warning");
        if (g != NULL) {
            fz_check_shape(g, tc_shape_of(slots[k]), "retained grad");
            fz_check_in_storage(g);
        }
    }
}

/* ---- finite differences ------------------------------------------------------ */

/* sum(gradient * root) of the program replayed under no_grad from the
   initial leaves, leaf `which` at index `element` moved by delta. */
static double objective(const program *p, int root, const tc_tensor *gradient, int which,
                        const int64_t *element, double delta)
{
    tc_tensor *slots[MAX_SLOTS] = { NULL };
    bool previous = ag_set_grad_enabled(false);
    double sum = NAN;

    for (int k = 0; k < p->num_leaves; k++) {
        slots[k] = p->initial[k] == NULL ? NULL : tc_clone(p->initial[k]);
        if (k == which && slots[k] != NULL) {
            int64_t at = slots[k]->storage_offset;
            for (int64_t d = 0; d < slots[k]->dim; d++)
                at += element[d] * slots[k]->strides[d];
            tc_store(slots[k], at, tc_load(slots[k], at) + delta);
        }
    }
    for (int k = 0; k < p->num_steps; k++) {
        const step *s = &p->steps[k];
        tc_tensor *out = NULL;

        if (s->frozen != NULL) {    /* a constant for the gradient: so for the differences */
            out = tc_clone(s->frozen);
            FZ_CHECK(out != NULL, "clone failed");
        } else if (!s->skipped && !s->failed && slots[s->a] != NULL &&
                   (!is_binary(s->op) || slots[s->b] != NULL)) {
            out = apply(s, slots);
            FZ_CHECK(out != NULL, "%s: ran with grad, fails under no_grad", op_names[s->op]);
        }
        slots[p->num_leaves + k] = out;
    }
    tc_clear_error();
    if (slots[root] != NULL) {
        int64_t index[TC_MAX_DIMS] = { 0 };
        const tc_tensor *y = slots[root];
        sum = 0;
        if (tc_numel(y) > 0)
            do
                sum += (gradient == NULL ? 1.0 : fz_ref_load(gradient, index)) *
                       fz_ref_load(y, index);
            while (tc_next_index(y->dim, y->sizes, index));
    }
    for (int k = 0; k < p->num_leaves + p->num_steps; k++)
        tc_release(slots[k]);
    ag_set_grad_enabled(previous);
    return sum;
}

/* Are the values of t finite and moderate, and, as asked, away from 0 (where
   abs, relu, sqrt, log and a divisor misbehave) and from each other (ties
   of max and min)? */
static bool tame(const tc_tensor *t, bool near_zero, bool ties)
{
    int64_t index[TC_MAX_DIMS] = { 0 }, n = 0;
    double seen[64];

    if (t == NULL || tc_numel(t) == 0)
        return true;
    do {
        double v = fz_ref_load(t, index);
        if (!isfinite(v) || fabs(v) > 1e4 || (near_zero && fabs(v) < 1e-2))
            return false;
        for (int64_t k = 0; ties && k < n; k++)
            if (fabs(seen[k] - v) < 1e-2)
                return false;
        if (n < 64)
            seen[n++] = v;
    } while (tc_next_index(t->dim, t->sizes, index));
    return true;
}

/* Are the values of t positive? */
static bool positive(const tc_tensor *t)
{
    int64_t index[TC_MAX_DIMS] = { 0 };

    if (t == NULL || tc_numel(t) == 0)
        return true;
    do
        if (!(fz_ref_load(t, index) > 0))
            return false;
    while (tc_next_index(t->dim, t->sizes, index));
    return true;
}

/* Is step s at a point where its function is smooth, and its gradient
   finite? (a ** b with a tensor b needs log(a): its gradient is NaN for
   a < 0, in PyTorch as here. A number that scales the gradient by 1e300
   makes it inf two steps later, and x - x then gives inf - inf = NaN:
   for z = x - x, then twice z = torch.sub(z, z, alpha=-1e300), PyTorch
   1.13 gives x.grad = nan, while the finite differences of a constant
   are 0.) */
static bool smooth_at(const step *s, tc_tensor *const *slots)
{
    switch (s->op) {
    case OP_POW:
        return tame(slots[s->a], true, false) && positive(slots[s->a]);
    case OP_NUMBER_POW:
        return s->x > 0;
    case OP_POW_NUMBER:    /* x ** -1e300 is 1 at x = 1, its derivative -1e300 */
        return tame(slots[s->a], true, false) && fabs(s->x) <= 8;
    case OP_ABS: case OP_RELU: case OP_RELU_: case OP_SQRT: case OP_LOG:
        return tame(slots[s->a], true, false);
    case OP_MAX: case OP_MIN: case OP_MAX_DIM: case OP_MIN_DIM:
        return tame(slots[s->a], false, true);
    case OP_DIV: case OP_DIV_:
        return tame(slots[s->b], true, false);
    case OP_ADD_ALPHA: case OP_SUB_ALPHA: case OP_MUL_NUMBER:
        return fabs(s->x) <= 1e8;
    case OP_DIV_NUMBER:
        return fabs(s->x) >= 1e-8;
    default:
        return true;
    }
}

/* Compare the first MAX_FD gradient elements with central differences. */
static void check_finite_differences(const program *p, tc_tensor *const *slots,
                                     int root, const tc_tensor *gradient)
{
    int checked = 0;

    if (!tame(gradient, false, false))
        return;
    for (int k = 0; k < p->num_leaves + p->num_steps; k++)
        if (slots[k] != NULL && (!tame(slots[k], false, false) || slots[k]->dtype != TC_FLOAT64))
            return;
    for (int k = 0; k < p->num_steps; k++)
        if (!p->steps[k].skipped && !p->steps[k].failed && !smooth_at(&p->steps[k], slots))
            return;
    for (int k = 0; k < p->num_leaves + p->num_steps; k++)
        if (stale(slots, k))
            return;
    if (any_inplace_ran)    /* it may have changed a detached alias: not a constant */
        for (int k = 0; k < p->num_steps; k++)
            if (p->steps[k].frozen != NULL)
                return;
    for (int which = 0; which < p->num_leaves && checked < MAX_FD; which++) {
        tc_tensor *g = ag_is_leaf(slots[which]) ? ag_grad(slots[which]) : NULL;
        int64_t index[TC_MAX_DIMS] = { 0 };

        if (g == NULL || tc_numel(g) == 0)
            continue;
        do {
            double x = fabs(fz_ref_load(p->initial[which], index));
            double h = 1e-4 * (x > 1 ? x : 1), analytic = fz_ref_load(g, index);
            double fd1, fd2, scale;

            fd1 = (objective(p, root, gradient, which, index, h) -
                   objective(p, root, gradient, which, index, -h)) / (2 * h);
            fd2 = (objective(p, root, gradient, which, index, h / 2) -
                   objective(p, root, gradient, which, index, -h / 2)) / h;
            scale = 1 + fabs(fd2);
            checked++;
            if (!isfinite(fd1) || !isfinite(fd2) || fabs(fd1 - fd2) > 1e-5 * scale)
                continue;    /* not smooth enough here to tell */
            FZ_CHECK(fabs(analytic - fd2) <= 1e-4 * scale,
                     "leaf %d (of %lld elements): gradient %.10g, finite differences %.10g "
                     "(step %g: %.10g)", which, (long long)fz_numel(g), analytic, fd2, h, fd1);
        } while (checked < MAX_FD && tc_next_index(g->dim, g->sizes, index));
    }
}

/* ---- the target --------------------------------------------------------------- */

/* After a successful backward: grads copied (NULL where none). */
static void snapshot(tc_tensor *const *slots, int n, tc_tensor **copies)
{
    for (int k = 0; k < n; k++) {
        tc_tensor *g = slots[k] == NULL || !ag_is_leaf(slots[k]) ? NULL : ag_grad(slots[k]);
        copies[k] = g == NULL ? NULL : tc_clone(g);
        FZ_CHECK(g == NULL || copies[k] != NULL, "clone of a grad failed");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = fz_reader_of(data, size);
    program p = { 0 };
    tc_tensor *slots[MAX_SLOTS] = { NULL }, *root, *gradient = NULL, *first[MAX_LEAVES] = { 0 };
    bool smooth = fz_bool(&r), retain, implicit = false, wrong_shape = false, between_inplace;
    bool root_saved, root_unbind;
    tc_shape base = fz_shape(&r, 2, 3);
    int root_slot, status, action;
    const char *message;

    tc_clear_error();
    ag_clear_warning();
    any_inplace_ran = false;
    trace = getenv("FZ_TRACE") != NULL;
    p.num_leaves = (int)fz_range(&r, 1, MAX_LEAVES);
    for (int k = 0; k < p.num_leaves; k++) {
        slots[k] = leaf(&r, base, smooth);
        p.initial[k] = slots[k] == NULL ? NULL : tc_clone(slots[k]);
        if (slots[k] != NULL && fz_byte(&r) < 160 && ag_set_requires_grad(slots[k], true) < 0)
            FZ_CHECK(false, "requires_grad_ on a floating leaf failed");
        remember(slots, k);
        tc_clear_error();
    }
    record(&r, &p, slots);

    /* the first backward */
    root_slot = fz_bool(&r) ? p.num_leaves + p.num_steps - 1
                            : (int)fz_range(&r, 0, p.num_leaves + p.num_steps - 1);
    root = slots[root_slot];
    retain = fz_bool(&r);
    if (root == NULL)
        goto done;
    switch (fz_byte(&r) % 4) {
    case 0:
        implicit = true;
        break;
    case 1: {    /* a shape that differs */
        tc_shape s = fz_shape(&r, 3, 3);
        wrong_shape = s.dim != root->dim ||
                      memcmp(s.sizes, root->sizes, (size_t)s.dim * sizeof(int64_t)) != 0;
        gradient = fz_tensor(&r, s, root->dtype);
        break;
    }
    default:
        gradient = smooth ? tc_ones_like(root) : fz_tensor(&r, tc_shape_of(root), root->dtype);
        if (smooth && gradient != NULL)
            for (int64_t i = 0; i < tc_numel(gradient); i++)
                tc_store(gradient, i, (double)fz_range(&r, -8, 8) / 4);
        break;
    }
    if (!implicit && gradient == NULL)
        goto done;
    tc_clear_error();
    status = ag_backward(root, gradient, retain);
    message = tc_error();
    if (trace)
        fprintf(stderr, "backward from slot %d, retain_graph %d: %d %s\n", root_slot, retain,
                status, message ? message : "");
    FZ_CHECK(status == 0 || status == -1, "backward returned %d", status);
    root_unbind = from_unbind(&p, root_slot);
    if (status != 0 && (stale(slots, root_slot) || (root_unbind && any_inplace_ran)) &&
        (starts_with(message, NO_GRAD) || starts_with(message, UNBIND_VIEW) ||
         starts_with(message, NO_GRAD_VIEW))) {
        /* the library's answer for a stale view (see stale); not PyTorch's */
    } else if (!ag_requires_grad(root)) {
        FZ_CHECK(status == -1 && starts_with(message, NO_GRAD), "backward without grad");
    } else if (implicit && tc_numel(root) != 1) {
        FZ_CHECK(status == -1 && starts_with(message, IMPLICIT), "implicit non-scalar");
    } else if (wrong_shape) {
        FZ_CHECK(status == -1 && starts_with(message, MISMATCH), "gradient of a wrong shape");
    } else if (status != 0) {
        FZ_CHECK(any_inplace_ran && starts_with(message, MODIFIED),
                 "backward failed: %s", message ? message : "(no message)");
    }
    if (status != 0) {
        fz_check_failed("backward");
        goto done;
    }
    fz_check_no_error("backward");
    check_leaf_grads(slots, p.num_leaves, root, true);
    check_retained(slots, p.num_leaves + p.num_steps);
    if (smooth && fz_bool(&r))
        check_finite_differences(&p, slots, root_slot, gradient);
    snapshot(slots, p.num_leaves, first);
    root_saved = saves(ag_grad_fn(root));    /* before an in-place op replaces it */

    /* between the two: nothing, zero_grad, or an in-place operation */
    action = fz_byte(&r) % 4;
    between_inplace = false;
    if (action == 1 || action == 2) {
        for (int k = 0; k < p.num_leaves; k++)
            FZ_CHECK(slots[k] == NULL || ag_zero_grad(slots[k], action == 2) == 0,
                     "zero_grad failed");
    } else if (action == 3) {
        step s = { .op = (op_code)(OP_ADD_ + fz_byte(&r) % (OP_RELU_ - OP_ADD_ + 1)),
                   .a = operand(&r, p.num_leaves + p.num_steps),
                   .b = operand(&r, p.num_leaves + p.num_steps) };
        if (slots[s.a] != NULL && slots[s.b] != NULL && !makes_cycle(&s, slots)) {
            tc_tensor *out;

            if (trace)
                fprintf(stderr, "between the two: %s(slot %d, slot %d)\n", op_names[s.op],
                        s.a, s.b);
            out = apply(&s, slots);
            if (out == NULL)
                fz_check_failed(op_names[s.op]);
            else
                between_inplace = true;
            tc_release(out);
        }
    }

    /* the second backward */
    if (!fz_bool(&r))
        goto done;
    tc_clear_error();
    status = ag_backward(root, gradient, fz_bool(&r));
    message = tc_error();
    if (trace)
        fprintf(stderr, "second backward after action %d: %d %s\n", action, status,
                message ? message : "");
    FZ_CHECK(status == 0 || status == -1, "backward returned %d", status);
    if (!retain && root_saved) {    /* the new node of an in-place op runs first */
        FZ_CHECK(status == -1 && (starts_with(message, SECOND) ||
                                  (between_inplace && starts_with(message, MODIFIED))),
                 "second backward through a freed node that saved tensors");
    } else if (retain && !between_inplace) {
        FZ_CHECK(status == 0, "second backward over a retained graph failed");
    } else if (status != 0 && root_unbind && (between_inplace || any_inplace_ran) &&
               (starts_with(message, NO_GRAD) || starts_with(message, UNBIND_VIEW) ||
         starts_with(message, NO_GRAD_VIEW))) {
        /* see UNBIND_VIEW */
    } else if (status != 0) {
        FZ_CHECK(starts_with(message, SECOND) ||
                     ((between_inplace || any_inplace_ran) && starts_with(message, MODIFIED)),
                 "second backward failed: %s", message ? message : "(no message)");
    }
    if (status != 0) {
        fz_check_failed("second backward");
        goto done;
    }
    fz_check_no_error("second backward");
    check_leaf_grads(slots, p.num_leaves, root, false);
    check_retained(slots, p.num_leaves + p.num_steps);
    if (!between_inplace)    /* the same gradient again: 2 g, or g after zero_grad */
        for (int k = 0; k < p.num_leaves; k++) {
            tc_tensor *g = slots[k] == NULL ? NULL : ag_grad(slots[k]), *expected;
            if (first[k] == NULL)
                continue;
            FZ_CHECK(g != NULL, "leaf %d lost its grad", k);
            expected = action == 1 || action == 2 ? tc_retain(first[k])
                                                   : tc_mul_scalar(first[k], 2.0);
            FZ_CHECK(expected != NULL, "mul_scalar failed");
            fz_check_same_values(g, expected, "accumulated grad");
            tc_release(expected);
        }
done:
    for (int k = 0; k < MAX_SLOTS; k++)
        tc_release(slots[k]);
    for (int k = 0; k < p.num_steps; k++)
        tc_release(p.steps[k].frozen);
    for (int k = 0; k < MAX_LEAVES; k++) {
        tc_release(p.initial[k]);
        tc_release(first[k]);
    }
    tc_release(gradient);
    tc_clear_error();
    ag_clear_warning();
    return 0;
}
