/* check_ch07_iter.h: the iter helper's tests of chapter 7 (included by
   check_ch07.c): tc_parallel_for and the thread count, then the
   TensorIterator's plan step by step, its loops, and chapter 3's tc_loop
   rerouted through it.

   Expected values are worked out by hand from PyTorch 1.13's algorithms
   (at::parallel_for's chunking in ParallelOpenMP.h, reorder_dimensions and
   coalesce_dimensions in TensorIterator.cpp, DimCounter in
   TensorIteratorInternal.h), the worked examples of chapter 7's prose, or
   printed by PyTorch 1.13; the command is in the comment above each. */
#include <pthread.h>

/* ------------------------------------------------------- parallel_for */

/* What one tc_parallel_for did: each chunk's range and thread. */
struct it7_calls {
    pthread_mutex_t mutex;
    int n;
    int64_t begin[64], end[64];
    int thread[64];
    bool in_region[64];
    unsigned char *covered;        /* per index, offset by `base` */
    int64_t base;
};

static void it7_record(int64_t begin, int64_t end, void *context)
{
    struct it7_calls *c = context;

    pthread_mutex_lock(&c->mutex);
    if (c->n < 64) {
        c->begin[c->n] = begin;
        c->end[c->n] = end;
        c->thread[c->n] = tc_get_thread_num();
        c->in_region[c->n] = tc_in_parallel_region();
        c->n++;
    }
    pthread_mutex_unlock(&c->mutex);
    for (int64_t i = begin; c->covered != NULL && i < end; i++)
        c->covered[i - c->base]++;     /* chunks are disjoint: no race */
}

static int64_t it7_divup(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* at::parallel_for's number of calls of f, from ParallelOpenMP.h and
   Parallel-inl.h (1.13): one call when the range is no longer than the
   grain, has one element, or there is one thread; otherwise
   min(threads, ceil(n / grain)) chunks of ceil(n / chunks), the empty
   ones not called. */
static int it7_expected_calls(int64_t n, int64_t grain, int threads)
{
    if (n <= 0)
        return 0;
    if (n <= grain || n == 1 || threads == 1)
        return 1;
    int64_t chunks = grain > 0 && it7_divup(n, grain) < threads ? it7_divup(n, grain) : threads;
    return (int)it7_divup(n, it7_divup(n, chunks));
}

START_TEST(test_parallel_for_covers_each_index_once)
{
    static const int64_t ns[] = { 0, 1, 2, 3, 5, 7, 100, 1000, 32768, 32769, 65537, 100000 };
    static const int64_t grains[] = { 0, 1, 3, 100, 32768 };
    static const int64_t bases[] = { 0, -5, 1000 };
    static const int threads[] = { 1, 2, 3, 4, 7 };
    int saved = tc_get_num_threads();
    unsigned char *covered = malloc(100000);

    ck_assert_ptr_nonnull(covered);
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
        tc_set_num_threads(threads[t]);
        ck_assert_int_eq(tc_get_num_threads(), threads[t]);
        for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
            for (size_t g = 0; g < sizeof grains / sizeof grains[0]; g++)
                for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++) {
                    struct it7_calls c = { .mutex = PTHREAD_MUTEX_INITIALIZER,
                                           .covered = covered, .base = bases[b] };
                    memset(covered, 0, 100000);
                    tc_parallel_for(bases[b], bases[b] + ns[i], grains[g], it7_record, &c);
                    int64_t wrong = 0;                 /* one assertion per run: */
                    while (wrong < ns[i] && covered[wrong] == 1)    /* Check's are slow */
                        wrong++;
                    ck_assert_msg(wrong == ns[i], "index %lld run %d times (n %lld, "
                                  "grain %lld, %d threads)", (long long)wrong,
                                  wrong < ns[i] ? covered[wrong] : 1, (long long)ns[i],
                                  (long long)grains[g], threads[t]);
                    ck_assert_int_eq(c.n, it7_expected_calls(ns[i], grains[g], threads[t]));
                    for (int k = 0; k < c.n; k++)
                        ck_assert_int_lt(c.begin[k], c.end[k]);   /* never empty */
                }
    }
    free(covered);
    tc_set_num_threads(saved);
}
END_TEST

/* The chunks of 100000 iterations with the default grain, as the prose
   works them out: 2 threads, [0, 50000) and [50000, 100000); 8 threads,
   ceil(100000 / 32768) = 4 chunks of 25000. Chunk i runs on thread i. */
START_TEST(test_parallel_for_chunks)
{
    int saved = tc_get_num_threads();
    struct it7_calls c = { .mutex = PTHREAD_MUTEX_INITIALIZER };

    tc_set_num_threads(2);
    tc_parallel_for(0, 100000, TC_GRAIN_SIZE, it7_record, &c);
    ck_assert_int_eq(c.n, 2);
    for (int k = 0; k < 2; k++) {
        int64_t chunk = c.begin[k] / 50000;
        ck_assert_int_eq(c.begin[k], 50000 * chunk);
        ck_assert_int_eq(c.end[k], 50000 * (chunk + 1));
        ck_assert_int_eq(c.thread[k], (int)chunk);
        ck_assert(c.in_region[k]);
    }
    c.n = 0;
    tc_set_num_threads(8);
    tc_parallel_for(0, 100000, TC_GRAIN_SIZE, it7_record, &c);
    ck_assert_int_eq(c.n, 4);
    for (int k = 0; k < 4; k++) {
        ck_assert_int_eq(c.begin[k] % 25000, 0);
        ck_assert_int_eq(c.end[k] - c.begin[k], 25000);
        ck_assert_int_eq(c.thread[k], (int)(c.begin[k] / 25000));
    }
    /* serial: the caller's thread, outside any parallel region */
    c.n = 0;
    tc_parallel_for(0, 100, TC_GRAIN_SIZE, it7_record, &c);
    ck_assert_int_eq(c.n, 1);
    ck_assert_int_eq(c.thread[0], 0);
    ck_assert(!c.in_region[0]);
    ck_assert(!tc_in_parallel_region());
    tc_set_num_threads(saved);
}
END_TEST

/* A parallel_for inside a parallel region runs serially: one call over
   its whole range, on the thread that called it. */
static void it7_nested(int64_t begin, int64_t end, void *context)
{
    struct it7_calls *outer = context;
    struct it7_calls inner = { .mutex = PTHREAD_MUTEX_INITIALIZER };

    tc_parallel_for(0, 1000, 1, it7_record, &inner);
    pthread_mutex_lock(&outer->mutex);
    if (outer->n < 64) {
        outer->begin[outer->n] = inner.n == 1 && inner.begin[0] == 0 && inner.end[0] == 1000
                                 && inner.thread[0] == tc_get_thread_num();
        outer->end[outer->n] = end - begin;
        outer->n++;
    }
    pthread_mutex_unlock(&outer->mutex);
}

START_TEST(test_parallel_for_nested_is_serial)
{
    int saved = tc_get_num_threads();
    struct it7_calls c = { .mutex = PTHREAD_MUTEX_INITIALIZER };

    tc_set_num_threads(2);
    tc_parallel_for(0, 10, 1, it7_nested, &c);
    ck_assert_int_eq(c.n, 2);                   /* 10 items, grain 1, 2 threads */
    ck_assert_int_eq(c.begin[0], 1);
    ck_assert_int_eq(c.begin[1], 1);
    ck_assert_int_eq(c.end[0] + c.end[1], 10);
    tc_set_num_threads(saved);
}
END_TEST

static void it7_fail_late(int64_t begin, int64_t end, void *context)
{
    (void)end;
    (void)context;
    if (begin > 0)
        tc_fail("chunk at %lld failed", (long long)begin);
}

static void it7_count(int64_t begin, int64_t end, void *context)
{
    *(int64_t *)context += end - begin;
}

START_TEST(test_parallel_errors)
{
    int saved = tc_get_num_threads();
    int64_t count = 0;

    /* torch.set_num_threads(0) and (-1): RuntimeError('set_num_threads
       expects a positive integer') (/usr/bin/python3, torch 1.13) */
    tc_set_num_threads(3);
    tc_clear_error();
    tc_set_num_threads(0);
    ck_assert_str_eq(tc_error(), "set_num_threads expects a positive integer");
    tc_clear_error();
    tc_set_num_threads(-1);
    ck_assert_str_eq(tc_error(), "set_num_threads expects a positive integer");
    ck_assert_int_eq(tc_get_num_threads(), 3);  /* unchanged */
    tc_clear_error();
    /* at::parallel_for's TORCH_CHECK(grain_size >= 0) */
    tc_parallel_for(0, 10, -1, it7_count, &count);
    ck_assert_str_eq(tc_error(), "Expected grain_size >= 0 to be true, but got false.");
    ck_assert_int_eq(count, 0);
    tc_clear_error();
    tc_parallel_for(0, 10, 1, NULL, NULL);
    ck_assert_str_eq(tc_error(), "tc_parallel_for: NULL function");
    tc_clear_error();
    /* a message recorded on a pool thread reaches the caller */
    tc_set_num_threads(2);
    tc_parallel_for(0, 10, 1, it7_fail_late, NULL);
    ck_assert_ptr_nonnull(tc_error());
    ck_assert_str_eq(tc_error(), "chunk at 5 failed");
    tc_clear_error();
    /* an empty or reversed range runs nothing and is no error */
    tc_parallel_for(5, 5, 1, it7_count, &count);
    tc_parallel_for(5, 2, 1, it7_count, &count);
    ck_assert_int_eq(count, 0);
    ck_assert_ptr_null(tc_error());
    tc_set_num_threads(saved);
}
END_TEST

/* OMP_NUM_THREADS=V python3 -c 'import torch; print(torch.get_num_threads())'
   (torch 1.13, whose default here is 1): V=3x prints 3 (std::stoi reads a
   prefix); 0, -1 and junk warn "Invalid OMP_NUM_THREADS variable value"
   and print the default. */
START_TEST(test_parse_num_threads)
{
    ck_assert_int_eq(tc_parse_num_threads("4", 9), 4);
    ck_assert_int_eq(tc_parse_num_threads("3x", 9), 3);
    ck_assert_int_eq(tc_parse_num_threads("  2", 9), 2);
    ck_assert_int_eq(tc_parse_num_threads("+5", 9), 5);
    ck_assert_int_eq(tc_parse_num_threads("0", 9), 9);
    ck_assert_int_eq(tc_parse_num_threads("-1", 9), 9);
    ck_assert_int_eq(tc_parse_num_threads("junk", 9), 9);
    ck_assert_int_eq(tc_parse_num_threads("", 9), 9);
    ck_assert_int_eq(tc_parse_num_threads("99999999999", 9), 9);  /* out of int */
    ck_assert_int_eq(tc_parse_num_threads(NULL, 9), 9);
    ck_assert_int_ge(tc_get_num_threads(), 1);
}
END_TEST

/* ------------------------------------------------------- the plan */

/* Assert the plan's coalesced sizes, and operand k's byte strides. */
#define IT7_SHAPE(it, ...)                                                 \
    do {                                                                   \
        const int64_t want_[] = { __VA_ARGS__ };                           \
        int64_t n_ = (int64_t)(sizeof want_ / sizeof want_[0]);            \
        ck_assert_int_eq((it)->ndim, n_);                                  \
        for (int64_t d_ = 0; d_ < n_; d_++)                                \
            ck_assert_int_eq((it)->shape[d_], want_[d_]);                  \
    } while (0)
#define IT7_STRIDES(it, k, ...)                                            \
    do {                                                                   \
        const int64_t want_[] = { __VA_ARGS__ };                           \
        int64_t n_ = (int64_t)(sizeof want_ / sizeof want_[0]);            \
        ck_assert_int_eq((it)->ndim, n_);                                  \
        for (int64_t d_ = 0; d_ < n_; d_++)                                \
            ck_assert_int_eq((it)->strides[d_][k], want_[d_]);             \
    } while (0)
#define IT7_PERM(it, ...)                                                  \
    do {                                                                   \
        const int64_t want_[] = { __VA_ARGS__ };                           \
        int64_t n_ = (int64_t)(sizeof want_ / sizeof want_[0]);            \
        ck_assert_int_eq((it)->broadcast.dim, n_);                         \
        for (int64_t d_ = 0; d_ < n_; d_++)                                \
            ck_assert_int_eq((it)->perm[d_], want_[d_]);                   \
    } while (0)

static tc_tensor *it7_zeros(tc_shape shape, tc_dtype dtype)
{
    tc_tensor *t = tc_zeros(shape, dtype);

    ck_assert_ptr_nonnull(t);
    return K(t);
}

/* Step 1: the broadcast shape and the common dtype, the inputs cast and
   expanded (a broadcast dimension gets the stride 0). */
START_TEST(test_iter_broadcast_and_dtype)
{
    tc_tensor *col = it7_zeros(TC_SHAPE(3, 1), TC_INT64);
    tc_tensor *row = it7_zeros(TC_SHAPE(1, 4), TC_FLOAT32);
    tc_iter *it = tc_iter_binary_op(NULL, col, row);

    ck_assert_ptr_nonnull(it);
    ck_assert_int_eq(it->noutputs, 1);
    ck_assert_int_eq(it->ntensors, 3);
    ck_assert_int_eq(it->broadcast.dim, 2);                /* (3, 4) */
    ck_assert_int_eq(it->broadcast.sizes[0], 3);
    ck_assert_int_eq(it->broadcast.sizes[1], 4);
    ck_assert_int_eq(it->common_dtype, TC_FLOAT32);        /* int64 + float32 */
    ck_assert_int_eq(it->tensors[1]->dtype, TC_FLOAT32);   /* col, cast */
    ck_assert_int_eq(it->tensors[1]->strides[1], 0);       /* broadcast */
    ck_assert_int_eq(it->tensors[2]->strides[0], 0);
    ck_assert_int_eq(tc_iter_output(it, 0)->dtype, TC_FLOAT32);
    ck_assert_int_eq(it->numel, 12);
    tc_iter_release(it);

    /* torch.zeros(64,4,5,1) + torch.zeros(5,1): shape (64, 4, 5, 1) */
    it = tc_iter_binary_op(NULL, it7_zeros(TC_SHAPE(64, 4, 5, 1), TC_FLOAT32),
                           it7_zeros(TC_SHAPE(5, 1), TC_FLOAT32));
    ck_assert_ptr_nonnull(it);
    ck_assert_int_eq(it->broadcast.dim, 4);
    ck_assert_int_eq(it->broadcast.sizes[0], 64);
    ck_assert_int_eq(it->broadcast.sizes[3], 1);
    ck_assert_int_eq(it->numel, 1280);
    tc_iter_release(it);
}
END_TEST

/* Step 2: the permutation, worked by hand in the prose (reorder_dimensions:
   insertion sort from the reversed order; smaller stride first, equal
   strides: smaller size first, stride 0: no opinion). */
START_TEST(test_iter_reorder)
{
    tc_tensor *x = it7_zeros(TC_SHAPE(3, 4), TC_FLOAT32);
    tc_tensor *g = it7_zeros(TC_SHAPE(2, 3, 4), TC_FLOAT32);
    tc_iter *it;

    /* contiguous: the reversed order */
    it = tc_iter_unary_op(NULL, g);
    IT7_PERM(it, 2, 1, 0);
    tc_iter_release(it);
    /* x.t(): byte strides (4, 16), dim 1 is slower: (0, 1) */
    it = tc_iter_unary_op(NULL, K(tc_transpose(x, 0, 1)));
    IT7_PERM(it, 0, 1);
    tc_iter_release(it);
    /* permute(2, 0, 1) of (2, 3, 4): strides (1, 12, 4): (0, 2, 1) */
    it = tc_iter_unary_op(NULL, K(tc_permute(g, TC_SHAPE(2, 0, 1))));
    IT7_PERM(it, 0, 2, 1);
    tc_iter_release(it);
    /* (4, 1) expanded to (4, 3): strides (1, 0); nobody can tell: (1, 0) */
    it = tc_iter_unary_op(NULL, K(tc_expand(K(tc_zeros(TC_SHAPE(4, 1), TC_FLOAT32)),
                                            TC_SHAPE(4, 3))));
    IT7_PERM(it, 1, 0);
    tc_iter_release(it);
    /* (3, 2, 0) with strides (1, 3, 3) (torch.zeros(2,0,3).permute(2,0,1)):
       dims 2 and 1 tie on stride, 2 is not larger: no opinion; then 0 goes
       before both: (0, 2, 1) */
    it = tc_iter_unary_op(NULL, K(tc_permute(K(tc_zeros(TC_SHAPE(2, 0, 3), TC_FLOAT32)),
                                             TC_SHAPE(2, 0, 1))));
    IT7_PERM(it, 0, 2, 1);
    tc_iter_release(it);
    /* the first input with an opinion decides: x.t() + x.t().contiguous() */
    it = tc_iter_binary_op(NULL, K(tc_transpose(x, 0, 1)),
                           K(tc_contiguous(K(tc_transpose(x, 0, 1)))));
    IT7_PERM(it, 0, 1);
    tc_iter_release(it);
    /* a given output decides before the inputs */
    it = tc_iter_binary_op(K(tc_zeros(TC_SHAPE(4, 3), TC_FLOAT32)), K(tc_transpose(x, 0, 1)),
                           K(tc_transpose(x, 0, 1)));
    IT7_PERM(it, 1, 0);
    tc_iter_release(it);
}
END_TEST

/* The strides of a new output of this unary (b NULL) or binary op. */
static void it7_output_strides(const tc_tensor *a, const tc_tensor *b, int64_t *strides)
{
    tc_iter *it = b == NULL ? tc_iter_unary_op(NULL, a) : tc_iter_binary_op(NULL, a, b);
    tc_tensor *out = tc_iter_output(it, 0);

    ck_assert_ptr_nonnull(out);
    memcpy(strides, out->strides, (size_t)out->dim * sizeof *strides);
    tc_iter_release(it);
}

#define IT7_OUT_STRIDES(a, b, ...)                                         \
    do {                                                                   \
        const int64_t want_[] = { __VA_ARGS__ };                           \
        int64_t got_[TC_MAX_DIMS];                                         \
        it7_output_strides(a, b, got_);                                    \
        for (size_t d_ = 0; d_ < sizeof want_ / sizeof want_[0]; d_++)     \
            ck_assert_int_eq(got_[d_], want_[d_]);                         \
    } while (0)

/* Step 3: a new output is laid out in the inputs' memory order. Every
   expected stride is PyTorch 1.13's, printed by
   /usr/bin/python3 -c 'import torch; x=torch.zeros(3,4); print(x.t().neg().stride()) ...'
   with the expression in the comment (a unary op: b NULL). */
START_TEST(test_iter_output_layout)
{
    tc_tensor *x = it7_zeros(TC_SHAPE(3, 4), TC_FLOAT32), *xt = K(tc_transpose(x, 0, 1));
    tc_tensor *g = it7_zeros(TC_SHAPE(2, 3, 4), TC_FLOAT32);

    IT7_OUT_STRIDES(xt, NULL, 1, 4);                        /* x.t().neg(): (1, 4) */
    IT7_OUT_STRIDES(xt, xt, 1, 4);                          /* x.t()+x.t(): (1, 4) */
    IT7_OUT_STRIDES(xt, K(tc_contiguous(xt)), 1, 4);        /* x.t()+x.t().contiguous(): (1, 4) */
    IT7_OUT_STRIDES(K(tc_contiguous(xt)), xt, 3, 1);        /* x.t().contiguous()+x.t(): (3, 1) */
    /* y=torch.zeros(2,3,4).permute(2,0,1); y.neg().stride(): (1, 12, 4) */
    IT7_OUT_STRIDES(K(tc_permute(g, TC_SHAPE(2, 0, 1))), NULL, 1, 12, 4);
    /* w=torch.zeros(2,3,4).transpose(0,2); (w+torch.zeros(3,2)).stride(): (1, 4, 12) */
    IT7_OUT_STRIDES(K(tc_transpose(g, 0, 2)), it7_zeros(TC_SHAPE(3, 2), TC_FLOAT32), 1, 4, 12);
    /* z=torch.zeros(4,1).expand(4,3); z.neg().stride(): (3, 1) */
    IT7_OUT_STRIDES(K(tc_expand(it7_zeros(TC_SHAPE(4, 1), TC_FLOAT32), TC_SHAPE(4, 3))), NULL,
                    3, 1);
    /* (z+torch.zeros(3,4).t()).stride(): (1, 4) */
    IT7_OUT_STRIDES(K(tc_expand(it7_zeros(TC_SHAPE(4, 1), TC_FLOAT32), TC_SHAPE(4, 3))), xt,
                    1, 4);
    /* torch.zeros(3,1)+torch.zeros(1,4) and the other way: (4, 1) */
    IT7_OUT_STRIDES(it7_zeros(TC_SHAPE(3, 1), TC_FLOAT32), it7_zeros(TC_SHAPE(1, 4), TC_FLOAT32),
                    4, 1);
    IT7_OUT_STRIDES(it7_zeros(TC_SHAPE(1, 4), TC_FLOAT32), it7_zeros(TC_SHAPE(3, 1), TC_FLOAT32),
                    4, 1);
    /* torch.zeros(64,4,5,1)+torch.zeros(5,1): (20, 5, 1, 1) */
    IT7_OUT_STRIDES(it7_zeros(TC_SHAPE(64, 4, 5, 1), TC_FLOAT32),
                    it7_zeros(TC_SHAPE(5, 1), TC_FLOAT32), 20, 5, 1, 1);
    /* torch.zeros(5,4).t()+torch.zeros(1,5): (1, 4) */
    IT7_OUT_STRIDES(K(tc_transpose(it7_zeros(TC_SHAPE(5, 4), TC_FLOAT32), 0, 1)),
                    it7_zeros(TC_SHAPE(1, 5), TC_FLOAT32), 1, 4);
    /* torch.zeros(4,5)[:, ::2].neg(): (3, 1) */
    IT7_OUT_STRIDES(K(tc_slice(it7_zeros(TC_SHAPE(4, 5), TC_FLOAT32), 1, 0, 5, 2)), NULL, 3, 1);
    /* u=torch.zeros(3,4).t().unsqueeze(1): (4, 1, 3), strides (1, 12, 4);
       u.neg(): (1, 12, 4) */
    IT7_OUT_STRIDES(K(tc_unsqueeze(xt, 1)), NULL, 1, 12, 4);
    /* PyTorch's fast setup: a unary op, or operands of one shape, all
       contiguous (an empty tensor always is) or all dense with equal strides.
       a=torch.zeros(2,0,3).permute(2,0,1): a.neg().stride(), (a+a).stride():
       (2, 1, 1); only (a+1).stride() is (1, 0, 3), its wrapped number having
       another shape */
    IT7_OUT_STRIDES(K(tc_permute(it7_zeros(TC_SHAPE(2, 0, 3), TC_FLOAT32), TC_SHAPE(2, 0, 1))),
                    NULL, 2, 1, 1);
    /* torch.zeros(3,0).t().neg(): (3, 1); (torch.zeros(3,0).t()+1): (1, 0) */
    IT7_OUT_STRIDES(K(tc_transpose(it7_zeros(TC_SHAPE(3, 0), TC_FLOAT32), 0, 1)), NULL, 3, 1);
    /* A dim an input lacks is broadcast even where the shape has size 1:
       y=torch.zeros(2,1,1,1).permute(1,3,0,2), shape (1,1,2,1), strides
       (1,1,1,1); (torch.zeros(3,2,2)/y).stride(): (2, 2, 6, 1), and the
       other way round, (y+torch.zeros(3,2,2)).stride(): (2, 2, 6, 1) */
    {
        tc_tensor *y = K(tc_permute(it7_zeros(TC_SHAPE(2, 1, 1, 1), TC_FLOAT32),
                                    TC_SHAPE(1, 3, 0, 2)));

        IT7_OUT_STRIDES(it7_zeros(TC_SHAPE(3, 2, 2), TC_FLOAT32), y, 2, 2, 6, 1);
        IT7_OUT_STRIDES(y, it7_zeros(TC_SHAPE(3, 2, 2), TC_FLOAT32), 2, 2, 6, 1);
    }
    {
        tc_tensor *storage = it7_zeros(TC_SHAPE(2000), TC_FLOAT32);
        /* a=torch.zeros(2000).as_strided((3,1,4),(4,1000,1)), contiguous:
           a.neg().stride(), a.square().stride(), (a+a).stride(): (4, 4, 1);
           (a+1).stride(): (4, 12, 1) */
        tc_tensor *a = K(tc_as_strided(storage, TC_SHAPE(3, 1, 4), TC_SHAPE(4, 1000, 1), 0));
        /* d=torch.zeros(2000).as_strided((3,1,4),(1,1000,3)), dense:
           (d+d).stride(), d.neg().stride(): (1, 1000, 3); q=torch.zeros(3,1,4):
           (d+q).stride(): (1, 12, 3); (q+d).stride(): (4, 12, 1) */
        tc_tensor *d = K(tc_as_strided(storage, TC_SHAPE(3, 1, 4), TC_SHAPE(1, 1000, 3), 0));
        tc_tensor *q = it7_zeros(TC_SHAPE(3, 1, 4), TC_FLOAT32);

        IT7_OUT_STRIDES(a, NULL, 4, 4, 1);
        IT7_OUT_STRIDES(a, a, 4, 4, 1);
        IT7_OUT_STRIDES(d, NULL, 1, 1000, 3);
        IT7_OUT_STRIDES(d, d, 1, 1000, 3);
        IT7_OUT_STRIDES(d, q, 1, 12, 3);
        IT7_OUT_STRIDES(q, d, 4, 12, 1);
        {   /* and through chapter 3's driver: a.square().stride(): (4, 4, 1) */
            tc_tensor *sq = K(tc_square(a));
            ck_assert_ptr_nonnull(sq);
            ck_assert_int_eq(sq->strides[0], 4);
            ck_assert_int_eq(sq->strides[1], 4);
            ck_assert_int_eq(sq->strides[2], 1);
        }
    }
}
END_TEST

/* Step 4: coalescing, the sizes and byte strides worked by hand in the
   prose. */
START_TEST(test_iter_coalesce)
{
    tc_tensor *x = it7_zeros(TC_SHAPE(3, 4), TC_FLOAT32), *xt = K(tc_transpose(x, 0, 1));
    tc_iter *it;

    /* (64, 4, 5, 1) + (5, 1): sizes (5, 256); (4, 20) and (4, 0) */
    it = tc_iter_binary_op(NULL, it7_zeros(TC_SHAPE(64, 4, 5, 1), TC_FLOAT32),
                           it7_zeros(TC_SHAPE(5, 1), TC_FLOAT32));
    IT7_PERM(it, 3, 2, 1, 0);
    IT7_SHAPE(it, 5, 256);
    IT7_STRIDES(it, 0, 4, 20);
    IT7_STRIDES(it, 1, 4, 20);
    IT7_STRIDES(it, 2, 4, 0);
    tc_iter_release(it);
    /* x.t() + x.t(): one row of 12, stride 4 */
    it = tc_iter_binary_op(NULL, xt, xt);
    IT7_SHAPE(it, 12);
    IT7_STRIDES(it, 0, 4);
    IT7_STRIDES(it, 2, 4);
    tc_iter_release(it);
    /* a contiguous (2, 3, 4) float64 tensor: one dim, stride 8 */
    it = tc_iter_unary_op(NULL, it7_zeros(TC_SHAPE(2, 3, 4), TC_FLOAT64));
    IT7_SHAPE(it, 24);
    IT7_STRIDES(it, 1, 8);
    tc_iter_release(it);
    /* torch.zeros(4,6)[:, ::2]: strides (6, 2), evenly spaced: one dim,
       the input's stride 8 bytes, the output's 4 */
    it = tc_iter_unary_op(NULL, K(tc_slice(it7_zeros(TC_SHAPE(4, 6), TC_FLOAT32), 1, 0, 6, 2)));
    IT7_SHAPE(it, 12);
    IT7_STRIDES(it, 0, 4);
    IT7_STRIDES(it, 1, 8);
    tc_iter_release(it);
    /* torch.zeros(4,5)[:, ::2]: strides (5, 2), 3 * 2 != 5: sizes (3, 4),
       output (4, 12), input (8, 20) */
    it = tc_iter_unary_op(NULL, K(tc_slice(it7_zeros(TC_SHAPE(4, 5), TC_FLOAT32), 1, 0, 5, 2)));
    IT7_SHAPE(it, 3, 4);
    IT7_STRIDES(it, 0, 4, 12);
    IT7_STRIDES(it, 1, 8, 20);
    tc_iter_release(it);
    /* a comparison: float32 inputs, a bool output given: byte strides differ
       (1 and 4) and still coalesce, each operand by its own element size */
    it = tc_iter_build(&(tc_iter_config){
        .noutputs = 1, .ninputs = 2, .outputs = { it7_zeros(TC_SHAPE(2, 3), TC_BOOL) },
        .inputs = { it7_zeros(TC_SHAPE(2, 3), TC_FLOAT32), it7_zeros(TC_SHAPE(2, 3), TC_FLOAT32) },
        .has_dtype = true, .dtype = TC_BOOL });
    ck_assert_ptr_nonnull(it);
    IT7_SHAPE(it, 6);
    IT7_STRIDES(it, 0, 1);
    IT7_STRIDES(it, 1, 4);
    tc_iter_release(it);
    /* the same with a broadcast row: (3, 2); (1, 3), (4, 12), (4, 0) */
    it = tc_iter_build(&(tc_iter_config){
        .noutputs = 1, .ninputs = 2, .outputs = { it7_zeros(TC_SHAPE(2, 3), TC_BOOL) },
        .inputs = { it7_zeros(TC_SHAPE(2, 3), TC_FLOAT32), it7_zeros(TC_SHAPE(3), TC_FLOAT32) },
        .has_dtype = true, .dtype = TC_BOOL });
    ck_assert_ptr_nonnull(it);
    IT7_SHAPE(it, 3, 2);
    IT7_STRIDES(it, 0, 1, 3);
    IT7_STRIDES(it, 1, 4, 12);
    IT7_STRIDES(it, 2, 4, 0);
    tc_iter_release(it);
    /* a 0-d tensor: no dimension, one element */
    it = tc_iter_unary_op(NULL, K(tc_number(2.5)));
    ck_assert_int_eq(it->ndim, 0);
    ck_assert_int_eq(it->numel, 1);
    tc_iter_release(it);
}
END_TEST

/* ------------------------------------------------------- the loops */

/* The loop2d calls: sizes, strides, and data offsets from the bases. */
struct it7_blocks {
    const tc_iter *it;
    int n;
    int64_t size0[16], size1[16], strides[16][2 * TC_ITER_MAX_OPERANDS];
    int64_t offset[16][TC_ITER_MAX_OPERANDS];
};

static void it7_block(char **data, const int64_t *strides, int64_t size0, int64_t size1,
                      void *context)
{
    struct it7_blocks *b = context;
    int nt = b->it->ntensors;

    if (b->n >= 16)
        return;
    b->size0[b->n] = size0;
    b->size1[b->n] = size1;
    for (int k = 0; k < 2 * nt; k++)
        b->strides[b->n][k] = strides[k];
    for (int k = 0; k < nt; k++)
        b->offset[b->n][k] = data[k] - b->it->data[k];
    b->n++;
}

/* The 2-D blocks of serial_for_each (DimCounter's max_2d_step): over
   the (5, 256) plan of (64, 4, 5, 1) + (5, 1), the whole range is one
   block of 256 rows of 5, strides (4, 4, 4, 20, 20, 0); the range
   [3, 17) is the rest of row 0 (2 elements at offset 3 * 4), two whole
   rows 1 and 2 (offset 20; b's offset 0), and 2 elements of row 3
   (offset 60). */
START_TEST(test_iter_loop2d_blocks)
{
    tc_iter *it = tc_iter_binary_op(NULL, it7_zeros(TC_SHAPE(64, 4, 5, 1), TC_FLOAT32),
                                    it7_zeros(TC_SHAPE(5, 1), TC_FLOAT32));
    struct it7_blocks b = { .it = it };
    static const int64_t whole[6] = { 4, 4, 4, 20, 20, 0 };

    tc_iter_serial_for_each(it, it7_block, &b, 0, it->numel);
    ck_assert_int_eq(b.n, 1);
    ck_assert_int_eq(b.size0[0], 5);
    ck_assert_int_eq(b.size1[0], 256);
    for (int k = 0; k < 6; k++)
        ck_assert_int_eq(b.strides[0][k], whole[k]);

    b.n = 0;
    tc_iter_serial_for_each(it, it7_block, &b, 3, 17);
    ck_assert_int_eq(b.n, 3);
    ck_assert_int_eq(b.size0[0], 2);
    ck_assert_int_eq(b.size1[0], 1);
    ck_assert_int_eq(b.offset[0][0], 12);
    ck_assert_int_eq(b.offset[0][2], 12);
    ck_assert_int_eq(b.size0[1], 5);
    ck_assert_int_eq(b.size1[1], 2);
    ck_assert_int_eq(b.offset[1][0], 20);
    ck_assert_int_eq(b.offset[1][2], 0);
    ck_assert_int_eq(b.size0[2], 2);
    ck_assert_int_eq(b.size1[2], 1);
    ck_assert_int_eq(b.offset[2][1], 60);
    tc_iter_release(it);

    /* one dim (12 elements): the outer size is 1 and the outer strides 0 */
    it = tc_iter_unary_op(NULL, it7_zeros(TC_SHAPE(3, 4), TC_FLOAT32));
    b = (struct it7_blocks){ .it = it };
    tc_iter_serial_for_each(it, it7_block, &b, 5, 12);
    ck_assert_int_eq(b.n, 1);
    ck_assert_int_eq(b.size0[0], 7);
    ck_assert_int_eq(b.size1[0], 1);
    ck_assert_int_eq(b.offset[0][1], 20);
    ck_assert_int_eq(b.strides[0][0], 4);
    ck_assert_int_eq(b.strides[0][2], 0);
    ck_assert_int_eq(b.strides[0][3], 0);
    tc_iter_release(it);

    /* a 0-d tensor: one block of one element */
    it = tc_iter_unary_op(NULL, K(tc_number(2.5)));
    b = (struct it7_blocks){ .it = it };
    tc_iter_for_each(it, it7_block, &b, TC_GRAIN_SIZE);
    ck_assert_int_eq(b.n, 1);
    ck_assert_int_eq(b.size0[0], 1);
    ck_assert_int_eq(b.size1[0], 1);
    tc_iter_release(it);

    /* nothing at all for an empty tensor */
    it = tc_iter_unary_op(NULL, it7_zeros(TC_SHAPE(3, 0), TC_FLOAT32));
    b = (struct it7_blocks){ .it = it };
    tc_iter_for_each(it, it7_block, &b, 1);
    ck_assert_int_eq(b.n, 0);
    tc_iter_release(it);
}
END_TEST

/* out = a * 2 + b, float32, through a loop2d that uses both strides. */
static void it7_axpb(char **data, const int64_t *strides, int64_t size0, int64_t size1,
                     void *context)
{
    (void)context;
    for (int64_t j = 0; j < size1; j++)
        for (int64_t i = 0; i < size0; i++) {
            char *o = data[0] + j * strides[3] + i * strides[0];
            const char *a = data[1] + j * strides[4] + i * strides[1];
            const char *b = data[2] + j * strides[5] + i * strides[2];
            *(float *)o = *(const float *)a * 2.0f + *(const float *)b;
        }
}

/* Every element is visited once, with the right operands, on 1 and 2
   threads, over a transposed input plus a broadcast row large enough to
   be split (120000 elements > the grain): the result is each element's
   own a * 2 + b, checked against a scalar loop over tc_get. */
START_TEST(test_iter_for_each_threads)
{
    int saved = tc_get_num_threads();
    tc_tensor *a = K(tc_arange(0.0, 120000.0, 1.0));
    tc_tensor *at = K(tc_transpose(K(tc_view(a, TC_SHAPE(300, 400))), 0, 1));  /* (400, 300) */
    tc_tensor *row = K(tc_arange(0.0, 300.0, 1.0));
    tc_tensor *outs[2];

    for (int t = 0; t < 2; t++) {
        tc_set_num_threads(t + 1);
        tc_iter *it = tc_iter_binary_op(NULL, at, row);
        ck_assert_ptr_nonnull(it);
        outs[t] = K(tc_retain(tc_iter_output(it, 0)));
        memset(tc_data_ptr(outs[t]), 0xff, 120000 * sizeof(float));   /* NaNs */
        tc_iter_for_each(it, it7_axpb, NULL, TC_GRAIN_SIZE);
        tc_iter_release(it);
    }
    for (int64_t i = 0; i < 400; i++)
        for (int64_t j = 0; j < 300; j++) {
            float want = (float)(j * 400 + i) * 2.0f + (float)j;
            ck_assert_float_eq(testing_get(outs[0], IDX(i, j)), want);
            ck_assert_float_eq(testing_get(outs[1], IDX(i, j)), want);
        }
    tc_set_num_threads(saved);
}
END_TEST

/* Elementwise operations of chapter 3, rerouted, give the same bits on 1
   and 2 threads: x.t() + x.t() and a broadcast x * row - 3 on
   300 x 400 float32 and float64 (above the grain, so 2 threads split). */
START_TEST(test_iter_ops_same_for_thread_counts)
{
    int saved = tc_get_num_threads();
    tc_tensor *results[2][3];

    for (int t = 0; t < 2; t++) {
        tc_set_num_threads(t + 1);
        tc_tensor *x = K(tc_view(K(tc_arange(0.0, 120000.0, 1.0)), TC_SHAPE(300, 400)));
        tc_tensor *xt = K(tc_transpose(K(tc_div(x, K(tc_number(7.0)))), 0, 1));
        tc_tensor *row = K(tc_div(K(tc_arange(0.0, 300.0, 1.0)), K(tc_number(3.0))));
        results[t][0] = K(tc_add(xt, xt));
        results[t][1] = K(tc_sub(K(tc_mul(xt, row)), K(tc_number(3.0))));
        tc_tensor *row64 = K(tc_add(it7_zeros(TC_SHAPE(300), TC_FLOAT64), row));
        results[t][2] = K(tc_mul(xt, row64));                    /* float64 */
        for (int k = 0; k < 3; k++)
            ck_assert_ptr_nonnull(results[t][k]);
    }
    ASSERT_STRIDES(results[1][0], 1, 400);          /* (x.t() + x.t()).stride() */
    for (int k = 0; k < 3; k++) {
        size_t bytes = 120000 * tc_itemsize(results[0][k]->dtype);
        ck_assert(memcmp(tc_data_ptr(results[0][k]), tc_data_ptr(results[1][k]), bytes) == 0);
    }
    tc_set_num_threads(saved);
}
END_TEST

/* What chapter 3's tc_loop hands the kernel now: over x.t() of a (3, 4)
   tensor, one row of 12 elements with stride 4 bytes (chapter 3's own
   loop made 4 calls of 3 elements with stride 16). */
static void it7_row(char **data, const int64_t *strides, int64_t n, void *context)
{
    struct it7_blocks *b = context;

    if (b->n < 16) {
        b->size0[b->n] = n;
        b->strides[b->n][0] = strides[0];
        b->offset[b->n][0] = data[0] - (char *)tc_data_ptr(b->it->tensors[0]);
        b->n++;
    }
}

START_TEST(test_iter_tc_loop_rerouted)
{
    tc_tensor *xt = K(tc_transpose(it7_zeros(TC_SHAPE(3, 4), TC_FLOAT32), 0, 1));
    tc_iter holder = { .ntensors = 1, .tensors = { xt } };
    struct it7_blocks b = { .it = &holder };

    tc_loop(1, &xt, it7_row, &b);
    ck_assert_int_eq(b.n, 1);
    ck_assert_int_eq(b.size0[0], 12);
    ck_assert_int_eq(b.strides[0][0], 4);
    ck_assert_int_eq(b.offset[0][0], 0);
    /* a (2, 3) slice of columns 0..2 of a (2, 4) tensor: 2 rows of 3 */
    tc_tensor *s = K(tc_slice(it7_zeros(TC_SHAPE(2, 4), TC_FLOAT32), 1, 0, 3, 1));
    holder.tensors[0] = s;
    b.n = 0;
    tc_loop(1, &s, it7_row, &b);
    ck_assert_int_eq(b.n, 2);
    ck_assert_int_eq(b.size0[1], 3);
    ck_assert_int_eq(b.offset[1][0], 16);
}
END_TEST

/* ------------------------------------------------------- errors */

START_TEST(test_iter_errors)
{
    tc_tensor *a = it7_zeros(TC_SHAPE(2, 3), TC_FLOAT32);
    tc_iter *it;

    /* torch.zeros(2,3)+torch.zeros(4) */
    tc_clear_error();
    ck_assert_ptr_null(tc_iter_binary_op(NULL, a, it7_zeros(TC_SHAPE(4), TC_FLOAT32)));
    ck_assert_str_eq(tc_error(), "The size of tensor a (3) must match the size of tensor b "
                                 "(4) at non-singleton dimension 1");
    /* torch.zeros(3).add_(torch.zeros(2,3)) */
    tc_clear_error();
    ck_assert_ptr_null(tc_iter_binary_op(it7_zeros(TC_SHAPE(3), TC_FLOAT32),
                                         it7_zeros(TC_SHAPE(3), TC_FLOAT32), a));
    ck_assert_str_eq(tc_error(), "output with shape [3] doesn't match the broadcast shape [2, 3]");
    /* torch.add(torch.zeros(2), torch.zeros(2), out=torch.zeros(2, dtype=torch.long)) */
    tc_clear_error();
    ck_assert_ptr_null(tc_iter_binary_op(it7_zeros(TC_SHAPE(2), TC_INT64),
                                         it7_zeros(TC_SHAPE(2), TC_FLOAT32),
                                         it7_zeros(TC_SHAPE(2), TC_FLOAT32)));
    ck_assert_str_eq(tc_error(), "result type Float can't be cast to the desired output type Long");
    /* the iterator does not cast outputs (PyTorch's add does, through
       cast_outputs): a float32 output of int64 inputs is refused */
    tc_clear_error();
    ck_assert_ptr_null(tc_iter_binary_op(it7_zeros(TC_SHAPE(2), TC_FLOAT32),
                                         it7_zeros(TC_SHAPE(2), TC_INT64),
                                         it7_zeros(TC_SHAPE(2), TC_INT64)));
    ck_assert_str_eq(tc_error(), "Found dtype Float but expected Long");
    /* an output that overlaps itself: torch.zeros(1).expand(3).add_(1) */
    tc_clear_error();
    ck_assert_ptr_null(tc_iter_unary_op(K(tc_expand(it7_zeros(TC_SHAPE(1), TC_FLOAT32),
                                                    TC_SHAPE(3))),
                                        it7_zeros(TC_SHAPE(3), TC_FLOAT32)));
    ck_assert_ptr_nonnull(tc_error());
    ck_assert_str_eq(tc_error(), "unsupported operation: more than one element of the "
                     "written-to tensor refers to a single memory location. Please clone() "
                     "the tensor before performing the operation.");
    /* x=torch.zeros(4); torch.add(x[1:3], 1, out=x[0:2]) */
    tc_clear_error();
    tc_tensor *x4 = it7_zeros(TC_SHAPE(4), TC_FLOAT32);
    ck_assert_ptr_null(tc_iter_unary_op(K(tc_slice(x4, 0, 0, 2, 1)), K(tc_slice(x4, 0, 1, 3, 1))));
    ck_assert_str_eq(tc_error(), "unsupported operation: some elements of the input tensor and "
                     "the written-to tensor refer to a single memory location. Please clone() "
                     "the tensor before performing the operation.");
    /* exactly the same memory is allowed: x.add_(1) */
    tc_clear_error();
    it = tc_iter_unary_op(x4, x4);
    ck_assert_ptr_nonnull(it);
    tc_iter_release(it);
    /* NULL and failed operands pass the earlier message on */
    tc_clear_error();
    tc_fail("earlier");
    ck_assert_ptr_null(tc_iter_binary_op(NULL, a, NULL));
    ck_assert_str_eq(tc_error(), "earlier");
    tc_clear_error();
    ck_assert_ptr_null(tc_iter_unary_op(NULL, NULL));
    ck_assert_str_eq(tc_error(), "tc: NULL argument, but no earlier call failed");
    tc_clear_error();
    ck_assert_ptr_null(tc_iter_build(NULL));
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
    ck_assert_ptr_null(tc_iter_build(&(tc_iter_config){ .noutputs = 5, .ninputs = 4 }));
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
    ck_assert_ptr_null(tc_iter_nullary_op(NULL));
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
    /* a nullary op over a given output: its shape and dtype */
    it = tc_iter_nullary_op(a);
    ck_assert_ptr_nonnull(it);
    ck_assert_int_eq(it->ntensors, 1);
    IT7_SHAPE(it, 6);
    ck_assert_ptr_eq(tc_iter_output(it, 0), a);
    ck_assert_ptr_null(tc_iter_output(it, 1));
    ck_assert_str_eq(tc_error(), "tc_iter_output: no output 1");
    tc_clear_error();
    tc_iter_release(it);
    tc_iter_release(NULL);
    /* broadcast shapes whose element count overflows */
    ck_assert_ptr_null(tc_iter_binary_op(NULL,
                                         K(tc_expand(it7_zeros(TC_SHAPE(1, 1), TC_FLOAT32),
                                                     TC_SHAPE(1 << 20, 1))),
                                         K(tc_expand(it7_zeros(TC_SHAPE(1, 1), TC_FLOAT32),
                                                     TC_SHAPE(1, INT64_C(1) << 50)))));
    ck_assert_str_eq(tc_error(), "Storage size calculation overflowed with sizes="
                                 "[1048576, 1125899906842624]");
    tc_clear_error();
}
END_TEST

/* tc_iter_print_plan's three stages for the example of the prose. */
START_TEST(test_iter_print_plan)
{
    tc_iter *it = tc_iter_binary_op(NULL, it7_zeros(TC_SHAPE(64, 4, 5, 1), TC_FLOAT32),
                                    it7_zeros(TC_SHAPE(5, 1), TC_FLOAT32));
    char text[2048] = "";
    FILE *f = tmpfile();

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(tc_iter_print_plan(f, it), 0);
    rewind(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    ck_assert_ptr_nonnull(strstr(text, "broadcast    sizes (64, 4, 5, 1)\n"));
    ck_assert_ptr_nonnull(strstr(text, "input  1 strides (0, 0, 4, 4)\n"));
    ck_assert_ptr_nonnull(strstr(text, "reordered    perm (3, 2, 1, 0)\n"));
    ck_assert_ptr_nonnull(strstr(text, "sizes (1, 5, 4, 64)\n"));
    ck_assert_ptr_nonnull(strstr(text, "coalesced    sizes (5, 256)\n"));
    ck_assert_ptr_nonnull(strstr(text, "output 0 strides (4, 20)\n"));
    ck_assert_ptr_nonnull(strstr(text, "input  1 strides (4, 0)\n"));
    tc_iter_release(it);
    ck_assert_int_eq(tc_iter_print_plan(NULL, NULL), -1);
    tc_clear_error();
}
END_TEST


/* ------------------------------------------------------- tiles */

/* What a tiled walk did: each element's visits (in the output, a float
   incremented per visit), the calls and their largest sizes. */
struct it7_tiles {
    pthread_mutex_t mutex;
    int nt;                              /* the iterator's operands */
    int64_t calls, max0, max1, first0, first1;
};

static void it7_tile_count(char **data, const int64_t *strides, int64_t size0,
                           int64_t size1, void *context)
{
    struct it7_tiles *c = context;

    for (int64_t j = 0; j < size1; j++)           /* tiles are disjoint: no race */
        for (int64_t i = 0; i < size0; i++)
            *(float *)(data[0] + j * strides[c->nt] + i * strides[0]) += 1.0f;
    pthread_mutex_lock(&c->mutex);
    if (c->calls++ == 0) {
        c->first0 = size0;
        c->first1 = size1;
    }
    c->max0 = size0 > c->max0 ? size0 : c->max0;
    c->max1 = size1 > c->max1 ? size1 : c->max1;
    pthread_mutex_unlock(&c->mutex);
}

/* out = in * in, element by element through both strides (float32). */
static void it7_tile_square(char **data, const int64_t *strides, int64_t size0,
                            int64_t size1, void *context)
{
    (void)context;
    for (int64_t j = 0; j < size1; j++)
        for (int64_t i = 0; i < size0; i++) {
            float a = *(const float *)(data[1] + j * strides[3] + i * strides[1]);
            *(float *)(data[0] + j * strides[2] + i * strides[0]) = a * a;
        }
}

/* The float32 element of t at index idx, read through its strides. */
static float it7_elem(const tc_tensor *t, const int64_t *idx)
{
    const float *p = tc_data_ptr(t);

    for (int64_t d = 0; d < t->dim; d++)
        p += idx[d] * t->strides[d];
    return *p;
}

/* in (of any layout) into a new contiguous float32 output, on `threads`
   threads with grain 1 (so that 2 threads split even small spaces):
   every element visited exactly once; the square kernel's bits equal
   in * in computed element by element here, and so do those of the
   library's square kernel run by tc_iter_loop into a contiguous output,
   as the bench runs it, and of tc_add(in.contiguous(), in) (whose output
   is contiguous, like its first input), a + a; the tiles no larger
   than TC_ITER_TILE0 x TC_ITER_TILE1 when the walk is tiled. Returns the
   tile dim. */
static int64_t it7_check_tiled(const tc_tensor *in, int threads)
{
    tc_tensor *out = tc_zeros(tc_shape_of(in), TC_FLOAT32);
    tc_tensor *sq = tc_zeros(tc_shape_of(in), TC_FLOAT32);
    tc_tensor *sum = tc_add(K(tc_contiguous(in)), in);
    struct it7_tiles c = { .mutex = PTHREAD_MUTEX_INITIALIZER, .nt = 2 };
    int64_t n = tc_numel(in), idx[TC_MAX_DIMS] = { 0 }, d;
    tc_iter *it;

    ck_assert_ptr_nonnull(out);
    ck_assert_ptr_nonnull(sq);
    ck_assert_ptr_nonnull(sum);
    tc_set_num_threads(threads);
    ck_assert(tc_iter_loop(2, (tc_tensor *[]){ sq, (tc_tensor *)in },
                           tc_vec_kernel(TC_VEC_SQUARE, TC_FLOAT32), NULL));
    it = tc_iter_unary_op(out, in);
    ck_assert_ptr_nonnull(it);
    d = tc_iter_tile_dim(it);
    tc_iter_for_each(it, it7_tile_count, &c, 1);
    const float *o = tc_data_ptr(out);
    for (int64_t i = 0; i < n; i++)
        if (o[i] != 1.0f)
            ck_abort_msg("element %lld visited %g times (threads %d)", (long long)i,
                         (double)o[i], threads);
    if (d > 0) {
        ck_assert_int_le(c.max0, TC_ITER_TILE0);
        ck_assert_int_le(c.max1, TC_ITER_TILE1);
    }
    tc_iter_for_each(it, it7_tile_square, NULL, 1);
    for (int64_t i = 0; i < n; i++) {
        float a = it7_elem(in, idx), want = a * a, twice = a + a;
        float got = ((const float *)tc_data_ptr(out))[i], lib = it7_elem(sq, idx);
        float add = it7_elem(sum, idx);
        if (memcmp(&got, &want, sizeof want) != 0 || memcmp(&lib, &want, sizeof want) != 0
            || memcmp(&add, &twice, sizeof twice) != 0)
            ck_abort_msg("element %lld: %a, %a and %a, want %a and %a", (long long)i,
                         (double)got, (double)lib, (double)add, (double)want, (double)twice);
        for (int64_t k = in->dim - 1; k >= 0 && ++idx[k] == in->sizes[k]; k--)
            idx[k] = 0;                                   /* the next index, row-major */
    }
    tc_iter_release(it);
    tc_release(out);
    tc_release(sq);
    tc_release(sum);
    return d;
}

/* A float32 tensor of shape (sizes) whose elements are all different and
   not exactly representable squares: (i + 0.1) / 3. */
static tc_tensor *it7_values(tc_shape shape)
{
    int64_t n = 1;

    for (int64_t d = 0; d < shape.dim; d++)
        n *= shape.sizes[d];
    tc_tensor *a = tc_arange(0.1, (double)n + 0.1, 1.0);     /* float32 */
    tc_tensor *v = a == NULL ? NULL : tc_view(a, shape);
    tc_tensor *t = v == NULL ? NULL : tc_div(v, K(tc_number(3.0)));

    tc_release(a), tc_release(v);
    ck_assert_ptr_nonnull(t);
    return t;
}

/* The tiled walk over odd shapes around the tile's sides, on 1 and 2
   threads: x.t() of a contiguous (C, R) tensor; the same of a slice
   (rows 2.., columns 1.. of a larger tensor: neither side contiguous);
   x.permute(2, 1, 0) of (C, 3, R), whose fastest dim is the plan's dim 2
   (dim 1 when R = 1);
   x.permute(0, 2, 1) of (2, R, C), tiled over the plan's dims 0 and 1
   with dim 2 around the tiles. The plan's dim 0 is the output's last
   (size C): tiled exactly when C > TC_ITER_TILE0 and R > 1. */
START_TEST(test_iter_tiles_visit_once)
{
    static const int64_t sides[] = { 1, 7, 9, 33, 127, 128, 129, 200, 257 };
    int saved = tc_get_num_threads();
    enum { NS = sizeof sides / sizeof sides[0] };

    for (int threads = 1; threads <= 2; threads++)
        for (int a = 0; a < NS; a++)
            for (int b = 0; b < NS; b++) {
                int64_t r = sides[a], c = sides[b], tiled = c > TC_ITER_TILE0 && r > 1;
                tc_tensor *x = it7_values(TC_SHAPE(c, r));
                tc_tensor *xt = K(tc_t(x));
                ck_assert_int_eq(it7_check_tiled(xt, threads) > 0, tiled);
                tc_tensor *big = it7_values(TC_SHAPE(c + 5, r + 3));
                tc_tensor *s = tc_slice(K(tc_slice(big, 0, 2, 2 + c, 1)), 1, 1, 1 + r, 1);
                ck_assert_int_eq(it7_check_tiled(K(tc_t(K(s))), threads) > 0, tiled);
                tc_tensor *x3 = it7_values(TC_SHAPE(c, 3, r));
                int64_t d = it7_check_tiled(K(tc_permute(x3, TC_SHAPE(2, 1, 0))), threads);
                ck_assert_int_eq(d, c > TC_ITER_TILE0 ? (r > 1 ? 2 : 1) : 0);
                tc_tensor *y3 = it7_values(TC_SHAPE(2, c, r));
                d = it7_check_tiled(K(tc_permute(y3, TC_SHAPE(0, 2, 1))), threads);
                ck_assert_int_eq(d, tiled);
                tc_release(x), tc_release(big), tc_release(x3), tc_release(y3);
                testing_release_kept();
            }
    tc_set_num_threads(saved);
}
END_TEST

/* Packed tiles in every dtype (1-, 4- and 8-byte elements): y + y.t()
   for a square (R, R) y, whose output follows the contiguous first input,
   so that the second, transposed, is copied into each tile's buffer; its
   bits against y + z, z = y.t() made contiguous first (the untiled,
   unpacked walk), on 1 and 2 threads, for R around the tile's side. */
START_TEST(test_iter_tiles_packed_every_dtype)
{
    static const tc_dtype dtypes[] = { TC_BOOL, TC_INT64, TC_FLOAT32, TC_FLOAT64 };
    static const int64_t sides[] = { 129, 200, 300 };
    int saved = tc_get_num_threads();

    for (int threads = 1; threads <= 2; threads++)
        for (int k = 0; k < 4; k++)
            for (int s = 0; s < 3; s++) {
                int64_t r = sides[s], n = r * r;
                size_t item = tc_itemsize(dtypes[k]);
                tc_tensor *y = K(tc_empty(TC_SHAPE(r, r), dtypes[k]));
                unsigned char *bytes = tc_data_ptr(y);

                tc_set_num_threads(threads);
                for (int64_t i = 0; i < n; i++) {    /* distinct values, bools mixed */
                    double v = (double)(i * 7 % 1001) - 500.25;
                    if (dtypes[k] == TC_BOOL)
                        bytes[i] = (unsigned char)(i % 3 == 0);
                    else if (dtypes[k] == TC_INT64)
                        ((int64_t *)bytes)[i] = (int64_t)(v * 4);
                    else if (dtypes[k] == TC_FLOAT32)
                        ((float *)bytes)[i] = (float)v;
                    else
                        ((double *)bytes)[i] = v;
                }
                tc_tensor *yt = K(tc_t(y));
                tc_tensor *got = K(tc_add(y, yt)), *want = K(tc_add(y, K(tc_contiguous(yt))));
                ck_assert_ptr_nonnull(got);
                ck_assert_ptr_nonnull(want);
                ck_assert(tc_is_contiguous(got));
                ck_assert_msg(memcmp(tc_data_ptr(got), tc_data_ptr(want), (size_t)n * item) == 0,
                              "%s, side %lld, %d threads: packed tiles differ",
                              tc_dtype_name(dtypes[k]), (long long)r, threads);
                testing_release_kept();
            }
    tc_set_num_threads(saved);
}
END_TEST

/* Where the operands agree, loop2d gets the full rows of the untiled
   walk, so contiguous work is not cut up: x.t() + x.t() of (300, 400) is
   one call of 120000 elements; a (50, 100) slice of a (50, 128) tensor
   plus itself, one call of 50 rows of 100; a column broadcast along the
   plan's dim 0 (stride 0 there: no opinion), one call of 50 rows of 100.
   A disagreeing input with at most TC_ITER_TILE0 (128) elements along
   dim 0 keeps the untiled walk too (its rows are a tile wide already):
   (40, 128) from a transposed (128, 40), one call of 40 rows of 128; with
   129 columns, tiles of 128 and of 1 column, 40 rows each (TC_ITER_TILE1
   is 128): two calls. */
START_TEST(test_iter_untiled_full_rows)
{
    int saved = tc_get_num_threads();
    tc_tensor *xt = K(tc_t(it7_zeros(TC_SHAPE(400, 300), TC_FLOAT32)));
    tc_tensor *s = K(tc_slice(it7_zeros(TC_SHAPE(50, 128), TC_FLOAT32), 1, 0, 100, 1));
    tc_tensor *col = it7_zeros(TC_SHAPE(50, 1), TC_FLOAT32);
    tc_tensor *wide = it7_zeros(TC_SHAPE(50, 100), TC_FLOAT32);
    tc_tensor *narrow = K(tc_t(it7_zeros(TC_SHAPE(128, 40), TC_FLOAT32)));
    tc_tensor *wider = K(tc_t(it7_zeros(TC_SHAPE(129, 40), TC_FLOAT32)));
    struct { tc_iter *it; int64_t size0, size1; } cases[4];

    tc_set_num_threads(1);
    cases[0].it = tc_iter_binary_op(NULL, xt, xt), cases[0].size0 = 120000, cases[0].size1 = 1;
    cases[1].it = tc_iter_binary_op(NULL, s, s), cases[1].size0 = 100, cases[1].size1 = 50;
    cases[2].it = tc_iter_binary_op(NULL, wide, col), cases[2].size0 = 100, cases[2].size1 = 50;
    cases[3].it = tc_iter_binary_op(NULL, it7_zeros(TC_SHAPE(40, 128), TC_FLOAT32), narrow);
    cases[3].size0 = 128, cases[3].size1 = 40;
    for (int k = 0; k < 4; k++) {
        struct it7_tiles c = { .mutex = PTHREAD_MUTEX_INITIALIZER, .nt = 3 };
        ck_assert_ptr_nonnull(cases[k].it);
        ck_assert_int_eq(tc_iter_tile_dim(cases[k].it), 0);
        tc_iter_for_each(cases[k].it, it7_tile_count, &c, TC_GRAIN_SIZE * 4);
        ck_assert_int_eq(c.calls, 1);
        ck_assert_int_eq(c.first0, cases[k].size0);
        ck_assert_int_eq(c.first1, cases[k].size1);
        tc_iter_release(cases[k].it);
    }
    tc_iter *it = tc_iter_binary_op(NULL, it7_zeros(TC_SHAPE(40, 129), TC_FLOAT32), wider);
    struct it7_tiles c = { .mutex = PTHREAD_MUTEX_INITIALIZER, .nt = 3 };
    ck_assert_int_eq(tc_iter_tile_dim(it), 1);
    tc_iter_for_each(it, it7_tile_count, &c, TC_GRAIN_SIZE);
    ck_assert_int_eq(c.calls, 2);
    ck_assert_int_eq(c.first0, 128);
    ck_assert_int_eq(c.first1, 40);
    ck_assert_int_eq(c.max0, 128);
    ck_assert_int_eq(c.max1, 40);
    tc_iter_release(it);
    tc_set_num_threads(saved);
}
END_TEST

static void ch07_add_iter(Suite *s)
{
    TCase *tc = testing_tcase("threads", NULL, NULL);

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_parallel_for_covers_each_index_once);
    tcase_add_test(tc, test_parallel_for_chunks);
    tcase_add_test(tc, test_parallel_for_nested_is_serial);
    tcase_add_test(tc, test_parallel_errors);
    tcase_add_test(tc, test_parse_num_threads);
    suite_add_tcase(s, tc);

    tc = testing_tcase("iterator", NULL, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_iter_broadcast_and_dtype);
    tcase_add_test(tc, test_iter_reorder);
    tcase_add_test(tc, test_iter_output_layout);
    tcase_add_test(tc, test_iter_coalesce);
    tcase_add_test(tc, test_iter_loop2d_blocks);
    tcase_add_test(tc, test_iter_for_each_threads);
    tcase_add_test(tc, test_iter_ops_same_for_thread_counts);
    tcase_add_test(tc, test_iter_tc_loop_rerouted);
    tcase_add_test(tc, test_iter_tiles_visit_once);
    tcase_add_test(tc, test_iter_tiles_packed_every_dtype);
    tcase_add_test(tc, test_iter_untiled_full_rows);
    tcase_add_test(tc, test_iter_errors);
    tcase_add_test(tc, test_iter_print_plan);
    suite_add_tcase(s, tc);
}
