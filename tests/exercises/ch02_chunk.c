/* Exercise 2.1: torch.chunk as views,
   int64_t tc_chunk(const tc_tensor *self, int64_t chunks, int64_t dim, tc_tensor **out):
   writes at most `chunks` new views into out and returns how many, or -1. */
#include "exercise.h"

int64_t tc_chunk(const tc_tensor *self, int64_t chunks, int64_t dim, tc_tensor **out)
    TC_EXERCISE_WEAK;

/* The pieces of x.chunk(chunks, dim): their sizes along dim and offsets. */
static void expect_pieces(const char *what, const tc_tensor *x, int64_t chunks, int64_t dim,
                          int64_t n, const int64_t *sizes, const int64_t *offsets)
{
    tc_tensor *out[16] = { NULL };
    int64_t got = tc_chunk(x, chunks, dim, out);
    int64_t d = dim < 0 ? dim + x->dim : dim;

    EXPECT(got == n, "%s gave %lld pieces, want %lld", what, (long long)got, (long long)n);
    for (int64_t i = 0; i < got && i < n; i++) {
        EXPECT(out[i] != NULL && out[i]->sizes[d] == sizes[i] &&
                   out[i]->storage_offset == offsets[i] && out[i]->storage == x->storage,
               "%s: piece %lld should be a view of size %lld at offset %lld", what,
               (long long)i, (long long)sizes[i], (long long)offsets[i]);
    }
    for (int64_t i = 0; i < got && i < 16; i++)
        tc_release(out[i]);
}

int main(void)
{
    tc_tensor *x = tc_arange(0.0, 10.0, 1.0);                           /* torch.arange(10.) */
    tc_tensor *flat = tc_arange(0.0, 12.0, 1.0);
    tc_tensor *y = tc_view(flat, TC_SHAPE(3, 4));                       /* torch.arange(12.).view(3, 4) */
    tc_tensor *s = tc_full(TC_SCALAR_SHAPE, 1, TC_FLOAT32);
    tc_tensor *out[4] = { NULL };

    if (tc_chunk == NULL) {
        tc_release(x), tc_release(flat), tc_release(y), tc_release(s);
        return exercise_not_started("ch02_chunk", "tc_chunk");
    }
    /* [(t.shape[0], t.storage_offset()) for t in x.chunk(3)] == [(4, 0), (4, 4), (2, 8)] */
    expect_pieces("x.chunk(3)", x, 3, 0, 3, (const int64_t[]){ 4, 4, 2 }, (const int64_t[]){ 0, 4, 8 });
    /* x.chunk(4): [(3, 0), (3, 3), (3, 6), (1, 9)] */
    expect_pieces("x.chunk(4)", x, 4, 0, 4, (const int64_t[]){ 3, 3, 3, 1 },
                  (const int64_t[]){ 0, 3, 6, 9 });
    /* x.chunk(6): five pieces of 2, [(2, 0), (2, 2), (2, 4), (2, 6), (2, 8)] */
    expect_pieces("x.chunk(6)", x, 6, 0, 5, (const int64_t[]){ 2, 2, 2, 2, 2 },
                  (const int64_t[]){ 0, 2, 4, 6, 8 });
    /* y.chunk(2, 1): sizes (3, 2), strides (4, 1), offsets 0 and 2 */
    expect_pieces("y.chunk(2, 1)", y, 2, 1, 2, (const int64_t[]){ 2, 2 }, (const int64_t[]){ 0, 2 });
    /* y.chunk(2, -2): sizes (2, 4) at 0 and (1, 4) at 8 */
    expect_pieces("y.chunk(2, -2)", y, 2, -2, 2, (const int64_t[]){ 2, 1 }, (const int64_t[]){ 0, 8 });
    /* x.chunk(0) */
    tc_clear_error();
    EXPECT(tc_chunk(x, 0, 0, out) == -1 && tc_error() != NULL &&
               strcmp(tc_error(), "chunk expects `chunks` to be greater than 0, got: 0") == 0,
           "x.chunk(0) should fail with PyTorch's message");
    tc_clear_error();
    /* torch.tensor(1.).chunk(2) */
    EXPECT(tc_chunk(s, 2, 0, out) == -1 && tc_error() != NULL &&
               strcmp(tc_error(), "chunk expects at least a 1-dimensional tensor") == 0,
           "chunk of a scalar should fail with PyTorch's message");
    tc_clear_error();
    tc_release(x);
    tc_release(flat);
    tc_release(y);
    tc_release(s);
    return exercise_verdict("ch02_chunk");
}
