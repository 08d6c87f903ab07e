/* Exercise 8.3: a jiterator on load_inline,
   const tc_op *tc_jit_unary(const char *name, const char *expression):
   an elementwise float32 operator "name::name(Tensor self) -> Tensor"
   whose value at each element is the C expression `expression` of the
   float `a` (PyTorch 1.13's torch.cuda.jiterator._create_jit_fn, on the
   CPU): the library writes the source of an extension, as this chapter's
   program writes square_ext's, with the iterator and any strides, and
   loads it with tc_load_inline (options NULL: $TC_EXTENSIONS_DIR is the
   cache). The same name and expression again give the same operator
   without compiling; an expression that does not compile fails with
   load_inline's "Error building extension 'name':" and the compiler's
   messages; a tensor of another dtype fails with "name: expected a float32
   tensor, got torch.float64" (the dtype as tc_dtype_name names it). */
#define _XOPEN_SOURCE 700    /* mkdtemp, setenv, nftw */
#include <ftw.h>

#include "exercise.h"

const tc_op *tc_jit_unary(const char *name, const char *expression) TC_EXERCISE_WEAK;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(path);
}

int main(void)
{
    static const float values[] = { -3, -2, -1, 0, 1, 2, 3, 4, 0.5f, -0.25f, 10, 100 };
    char dir[] = "/tmp/ch08_jit-XXXXXX";
    const tc_op *cube, *again;
    tc_tensor *x, *xt, *y, *yt, *d, *r;

    if (tc_jit_unary == NULL)
        return exercise_not_started("ch08_jit", "tc_jit_unary");
    if (mkdtemp(dir) == NULL || setenv("TC_EXTENSIONS_DIR", dir, 1) != 0) {
        printf("    cannot make a private cache directory\n");
        return 1;
    }
    x = tc_from_data(TC_SHAPE(3, 4), TC_FLOAT32, values);
    xt = tc_t(x);
    cube = tc_jit_unary("cube", "a * a * a");
    EXPECT(cube != NULL && strcmp(tc_op_name(cube), "cube::cube") == 0,
           "tc_jit_unary(\"cube\", \"a * a * a\") should define cube::cube: %s",
           cube != NULL ? tc_op_name(cube) : tc_error());
    y = tc_call("cube::cube", tc_value_tensor(x));
    /* torch.tensor([[-3., -2, -1, 0], [1, 2, 3, 4], [.5, -.25, 10, 100]]) ** 3 */
    expect_values("cube(x)", y, 12,
                  (const double[]){ -27, -8, -1, 0, 1, 8, 27, 64, 0.125, -0.015625, 1000, 1e6 });
    yt = tc_call("cube::cube", tc_value_tensor(xt));
    /* (x ** 3).t(), in x.t()'s layout: row-major values of the transpose */
    expect_values("cube(x.t())", yt, 12,
                  (const double[]){ -27, 1, 0.125, -8, 8, -0.015625, -1, 27, 1000, 0, 64, 1e6 });
    again = tc_jit_unary("cube", "a * a * a");
    EXPECT(again == cube, "the same name and expression should give the same operator");
    d = tc_full(TC_SHAPE(2), 1.0, TC_FLOAT64);
    r = tc_call("cube::cube", tc_value_tensor(d));
    expect_error("cube of a float64 tensor", r, "cube: expected a float32 tensor, got torch.float64");
    EXPECT(tc_jit_unary("bad", "a * b") == NULL && tc_error() != NULL
               && strncmp(tc_error(), "Error building extension 'bad':", 31) == 0,
           "an expression that does not compile should fail with load_inline's \"Error building "
           "extension 'bad':\" and the compiler's messages, got %s",
           tc_error() != NULL ? tc_error() : "no error");
    tc_clear_error();
    tc_release(x), tc_release(xt), tc_release(y), tc_release(yt), tc_release(d), tc_release(r);
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return exercise_verdict("ch08_jit");
}
