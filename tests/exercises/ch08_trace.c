/* Exercise 8.2: the dispatch trace,
   void tc_dispatch_trace(FILE *f):
   from now on (f == NULL: no more) every call through the registry writes
   to f, before its kernel runs, one line as PyTorch's debug builds print
   them with TORCH_SHOW_DISPATCH_TRACE=1 (aten/src/ATen/core/dispatch/
   Dispatcher.h, call and redispatch):
       " [call] op=[ex82::f], key=[AutogradCPU]"
       "  [redispatch] op=[ex82::f], key=[CPU]"
   indented by one space per level of nesting (a call made from inside a
   kernel is one level deeper; the outermost call has one space), the
   operator's name with its overload ("aten::add.Tensor"), and the key
   whose kernel runs. A fallthrough is skipped, as PyTorch masks
   fallthrough keys out of the key set before it looks: a custom operator
   with a CPU kernel only prints key=[CPU]. A call whose arguments do not
   match the schema prints nothing (PyTorch checks them before it
   dispatches). The expected lines are worked out from those rules. */
#define _POSIX_C_SOURCE 200809L    /* open_memstream */
#include "exercise.h"

void tc_dispatch_trace(FILE *f) TC_EXERCISE_WEAK;

static tc_tensor *twice(const tc_tensor *x) { return tc_add(x, x); }

/* g's CPU kernel calls f by name: a nested call. */
static tc_tensor *g_cpu(const tc_tensor *x) { return tc_call("ex82::f", tc_value_tensor(x)); }

/* f's autograd kernel: nothing to record here, straight below autograd. */
static tc_tensor *f_autograd(const tc_op *op, tc_keyset keys, const tc_value *args, void *context)
{
    (void)context;
    return tc_op_redispatch(op, keys, TC_KEY_AUTOGRAD_CPU, args);
}

/* What the calls of run() write to the trace. */
static void expect_trace(const char *what, void (*run)(const tc_tensor *), const tc_tensor *x,
                         const char *want)
{
    char *text = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&text, &n);

    if (f == NULL)
        return;
    tc_dispatch_trace(f);
    run(x);
    tc_dispatch_trace(NULL);
    fclose(f);
    EXPECT(strcmp(text, want) == 0, "%s: the trace is\n%s\n      want\n%s", what, text, want);
    free(text);
}

static void call_f(const tc_tensor *x) { tc_release(tc_call("ex82::f", tc_value_tensor(x))); }
static void call_g(const tc_tensor *x) { tc_release(tc_call("ex82::g", tc_value_tensor(x))); }
static void call_h(const tc_tensor *x) { tc_release(tc_call("ex82::h", tc_value_tensor(x))); }
static void call_wrong(const tc_tensor *x)
{
    tc_release(tc_call("ex82::f", tc_value_tensor(x), tc_value_tensor(x)));
    tc_clear_error();
}

int main(void)
{
    tc_op *f, *g, *h;
    tc_tensor *x = tc_full(TC_SHAPE(3), 1.5, TC_FLOAT32);

    if (tc_dispatch_trace == NULL) {
        tc_release(x);
        return exercise_not_started("ch08_trace", "tc_dispatch_trace");
    }
    f = tc_op_def("ex82::f(Tensor x) -> Tensor");
    g = tc_op_def("ex82::g(Tensor x) -> Tensor");
    h = tc_op_def("ex82::h(Tensor x) -> Tensor");
    if (x == NULL || f == NULL || g == NULL || h == NULL
        || tc_op_impl(f, TC_KEY_CPU, twice) == NULL
        || tc_op_impl_boxed(f, TC_KEY_AUTOGRAD_CPU, f_autograd, NULL, "f_autograd") == NULL
        || tc_op_impl(g, TC_KEY_CPU, g_cpu) == NULL || tc_op_impl(h, TC_KEY_CPU, twice) == NULL) {
        printf("    cannot set up the test's operators: %s\n", tc_error());
        tc_release(x);
        return 1;
    }
    expect_trace("f: autograd, then a redispatch", call_f, x,
                 " [call] op=[ex82::f], key=[AutogradCPU]\n"
                 "  [redispatch] op=[ex82::f], key=[CPU]\n");
    expect_trace("h: a CPU kernel only (autograd falls through)", call_h, x,
                 " [call] op=[ex82::h], key=[CPU]\n");
    expect_trace("g: a CPU kernel that calls f", call_g, x,
                 " [call] op=[ex82::g], key=[CPU]\n"
                 "  [call] op=[ex82::f], key=[AutogradCPU]\n"
                 "   [redispatch] op=[ex82::f], key=[CPU]\n");
    expect_trace("a call with too many arguments", call_wrong, x, "");
    tc_release(x);
    return exercise_verdict("ch08_trace");
}
