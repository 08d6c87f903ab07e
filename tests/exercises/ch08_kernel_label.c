/* Exercise 8.1: which kernel serves a key,
   const char *tc_op_kernel_label(const tc_op *op, tc_dispatch_key key):
   for a runtime key (CPU, AutogradCPU), what tc_op_print_table prints on
   that key's line after "KEY: ": "LABEL [kernel]" for a kernel registered
   at the key, "LABEL [math kernel]" for the CompositeImplicitAutograd
   kernel that fills the slot, "fallthrough [backend fallback]" for the
   autograd fallthrough of an operator with no autograd kernel, or
   "missing"; NULL for any other key (the alias has no slot of its own),
   or a NULL op. The string lives until the op's table next changes.
   PyTorch's torch._C._dispatch_dump_table prints the same per key (and
   leaves a missing key out): for a custom op with a CPU kernel only,
   "CPU: ... [kernel]" and "AutogradCPU: fallthrough ... [backend
   fallback]"; for aten::square, "[math kernel]" on both. */
#include "exercise.h"

const char *tc_op_kernel_label(const tc_op *op, tc_dispatch_key key) TC_EXERCISE_WEAK;

static tc_tensor *twice(const tc_tensor *x) { return tc_add(x, x); }
static tc_tensor *thrice(const tc_tensor *x)
{
    tc_tensor *two = tc_add(x, x), *three = tc_add(two, x);

    tc_release(two);
    return three;
}
static tc_tensor *math(const tc_op *op, tc_keyset keys, const tc_value *args, void *context)
{
    (void)op, (void)keys, (void)context;
    return tc_add(args[0].as.tensor, args[0].as.tensor);
}

static void expect_label(const char *what, const tc_op *op, tc_dispatch_key key, const char *want)
{
    const char *got = tc_op_kernel_label(op, key);

    EXPECT(got != NULL && strcmp(got, want) == 0, "%s: the kernel at %s is \"%s\", want \"%s\"",
           what, tc_dispatch_key_name(key), got != NULL ? got : "(NULL)", want);
}

int main(void)
{
    tc_op *f, *g;
    tc_registration *first, *second;

    if (tc_op_kernel_label == NULL)
        return exercise_not_started("ch08_kernel_label", "tc_op_kernel_label");
    f = tc_op_def("ex81::f(Tensor x) -> Tensor");
    g = tc_op_def("ex81::g(Tensor x) -> Tensor");
    if (f == NULL || g == NULL) {
        printf("    cannot define the test's operators: %s\n", tc_error());
        return 1;
    }
    /* A new custom operator: no CPU kernel; autograd falls through. */
    expect_label("a new operator", f, TC_KEY_CPU, "missing");
    expect_label("a new operator", f, TC_KEY_AUTOGRAD_CPU, "fallthrough [backend fallback]");
    first = tc_op_impl(f, TC_KEY_CPU, twice);
    expect_label("after impl(CPU, twice)", f, TC_KEY_CPU, "twice [kernel]");
    expect_label("after impl(CPU, twice)", f, TC_KEY_AUTOGRAD_CPU,
                 "fallthrough [backend fallback]");
    second = tc_op_impl(f, TC_KEY_CPU, thrice);
    tc_op_clear_warning();
    expect_label("after replacing it with thrice", f, TC_KEY_CPU, "thrice [kernel]");
    tc_registration_remove(second);
    expect_label("after removing thrice", f, TC_KEY_CPU, "twice [kernel]");
    tc_registration_remove(first);
    expect_label("after removing twice too", f, TC_KEY_CPU, "missing");
    /* The alias fills both runtime keys, as square's does. */
    tc_op_impl_boxed(g, TC_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, math, NULL, "g_math");
    expect_label("a CompositeImplicitAutograd kernel", g, TC_KEY_CPU, "g_math [math kernel]");
    expect_label("a CompositeImplicitAutograd kernel", g, TC_KEY_AUTOGRAD_CPU,
                 "g_math [math kernel]");
    tc_op_impl(g, TC_KEY_CPU, twice);
    expect_label("a CPU kernel beside the alias", g, TC_KEY_CPU, "twice [kernel]");
    /* PyTorch's computeDispatchTableEntry: an autograd key takes the math
       kernel only when its backend has no kernel of its own; with one, the
       autograd fallback. torch 1.13, for an op with a Python kernel at
       CompositeImplicitAutograd, then one at CPU: "CPU: ... [kernel]",
       "AutogradCPU: fallthrough ... [backend fallback]". */
    expect_label("a CPU kernel beside the alias", g, TC_KEY_AUTOGRAD_CPU,
                 "fallthrough [backend fallback]");
    expect_label("aten::square", tc_op_find("aten::square"), TC_KEY_CPU,
                 "square [math kernel]");
    EXPECT(tc_op_kernel_label(g, TC_KEY_COMPOSITE_IMPLICIT_AUTOGRAD) == NULL,
           "the alias key has no slot of its own: NULL");
    EXPECT(tc_op_kernel_label(NULL, TC_KEY_CPU) == NULL, "a NULL op gives NULL");
    tc_clear_error();
    tc_op_clear_warning();
    return exercise_verdict("ch08_kernel_label");
}
