/* check_ch08_dispatch.h: the operator registry of chapter 8 (helper disp):
   schemas parsed and printed, operators defined and found, kernels per
   dispatch key, calls with their checks and errors, overloads by name,
   fallthrough, redispatch, replacing and removing kernels, the printed
   table, a call racing a replacement.

   Expected texts are PyTorch 1.13's, printed by /usr/bin/python3 with
   torch 1.13 (the command above each); the values are worked out by hand.
   Each test defines operators of its own namespace ("t8a", "t8b", ...):
   with CK_FORK=no (valgrind, ASan) every test shares one registry. */
#include <pthread.h>
#include <stdatomic.h>

/* ---------------------------------------------------- kernels for the tests */

static tc_tensor *d8_twice(const tc_tensor *x) { return tc_add(x, x); }
static tc_tensor *d8_negate(const tc_tensor *x) { return tc_neg(x); }
static tc_tensor *d8_plus(const tc_tensor *x, const tc_tensor *y) { return tc_add(x, y); }

/* A trace of the kernels a call ran, in order ("A" autograd, "C" CPU, "M"
   math), and the arguments the last boxed kernel saw. */
static char d8_trace[64];
static tc_value d8_seen[TC_MAX_ARGS];
static tc_keyset d8_seen_keys;

static void d8_note(const char *what)
{
    strncat(d8_trace, what, sizeof d8_trace - strlen(d8_trace) - 1);
}

static void d8_reset(void)
{
    d8_trace[0] = '\0';
    d8_seen_keys = 0xffff;
}

/* A boxed CPU kernel: notes "C", keeps what it saw, returns x + 1. */
static tc_tensor *d8_cpu(const tc_op *op, tc_keyset keys, const tc_value *args, void *context)
{
    (void)context;
    d8_note("C");
    d8_seen_keys = keys;
    memcpy(d8_seen, args, (size_t)tc_op_schema(op)->nargs * sizeof *args);
    return tc_add_scalar_double(args[0].as.tensor, 1.0);
}

/* A boxed autograd kernel that notes "A" and redispatches below itself,
   as PyTorch's VariableType kernels do. */
static tc_tensor *d8_autograd(const tc_op *op, tc_keyset keys, const tc_value *args,
                              void *context)
{
    (void)context;
    d8_note("A");
    return tc_op_redispatch(op, keys, TC_KEY_AUTOGRAD_CPU, args);
}

/* A math kernel: x + 10, noted "M". */
static tc_tensor *d8_math(const tc_op *op, tc_keyset keys, const tc_value *args, void *context)
{
    (void)op;
    (void)keys;
    (void)context;
    d8_note("M");
    return tc_add_scalar_double(args[0].as.tensor, 10.0);
}

/* A kernel of an operator without tensors, "make(int n)": a tensor [n]. */
static tc_tensor *d8_make(const tc_op *op, tc_keyset keys, const tc_value *args, void *context)
{
    (void)op;
    (void)context;
    d8_note("N");
    d8_seen_keys = keys;
    return tc_full(TC_SHAPE(1), (double)args[0].as.i, TC_FLOAT32);
}

/* The first element of a new tensor, which is released. */
static double d8_first(tc_tensor *t)
{
    double v;

    ck_assert_msg(t != NULL, "call failed: %s", tc_error() ? tc_error() : "(no message)");
    v = testing_element(t, 0);
    tc_release(t);
    return v;
}

static char *d8_table(const tc_op *op)
{
    static char text[1024];
    FILE *f = tmpfile();
    size_t n;

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(tc_op_print_table(f, op), 0);
    rewind(f);
    n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

/* ------------------------------------------------------------- schemas */

/* Parse and print again: PyTorch's canonical text.
   python3 -c 'import torch; print(torch._C.parse_schema(S))' */
static void d8_round_trip(const char *text, const char *default_ns, const char *want)
{
    tc_schema s;
    char buf[TC_SCHEMA_MAX];

    tc_clear_error();
    ck_assert_msg(tc_schema_parse(text, default_ns, &s) == 0, "%s: %s", text, tc_error());
    ck_assert_str_eq(tc_schema_format(&s, buf), want);
}

START_TEST(test_schema_round_trips)
{
    /* torch._C._jit_get_schemas_for_operator("aten::add") etc. (1.13) */
    static const char *const pytorch[] = {
        "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
        "aten::square(Tensor self) -> Tensor",
        "aten::pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor",
        "aten::transpose.int(Tensor self, int dim0, int dim1) -> Tensor",
        "aten::leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor",
        "aten::dropout(Tensor input, float p, bool train) -> Tensor",
        "aten::clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
        "aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
        "int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor",
        "aten::std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor",
        "aten::layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, "
        "Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enable=True) -> Tensor",
    };

    for (size_t i = 0; i < sizeof pytorch / sizeof pytorch[0]; i++)
        d8_round_trip(pytorch[i], NULL, pytorch[i]);
    d8_round_trip("sq(Tensor x) -> Tensor", NULL, "sq(Tensor x) -> Tensor");
    d8_round_trip("sq(Tensor x) -> Tensor", "myns", "myns::sq(Tensor x) -> Tensor");
    d8_round_trip("other::sq(Tensor x)->Tensor", "myns", "other::sq(Tensor x) -> Tensor");
    /* defaults as PyTorch 1.13 prints them back */
    d8_round_trip("f(Tensor x, int[2] s=1, int[2] p=[0, 1], int[] q=[], int[1] r=[3], "
                  "float e=1e-5, float g=1.0, Scalar a=2.5) -> Tensor", NULL,
                  "f(Tensor x, int[2] s=1, int[2] p=[0, 1], int[] q=[], int[1] r=[3], "
                  "float e=1.0000000000000001e-05, float g=1., Scalar a=2.5) -> Tensor");
    d8_round_trip("f(bool k=True, int? c=None, Tensor? w=None) -> Tensor", NULL,
                  "f(bool k=True, int? c=None, Tensor? w=None) -> Tensor");
    d8_round_trip("f(int[]? x=None, int[3] z=[2, 2, 2], int[1] w=4, float a=3, int n=-3) -> Tensor",
                  NULL, "f(int[]? x=None, int[3] z=2, int[1] w=[4], float a=3., int n=-3) -> Tensor");
    d8_round_trip("f(float a=1e15, float b=1e17, float c=1e20, float e=1e-20, float f=0.1, "
                  "float g=0.0001, float j=-0.0) -> Tensor", NULL,
                  "f(float a=1000000000000000., float b=100000000000000000., float c=1e+20, "
                  "float e=9.9999999999999995e-21, float f=0.10000000000000001, "
                  "float g=0.0001, float j=0.) -> Tensor");
    d8_round_trip("f(Scalar x=3.0, Scalar y=-2) -> Tensor", NULL,
                  "f(Scalar x=3., Scalar y=-2) -> Tensor");
    /* a "*" with nothing after it is dropped; one before everything stays */
    d8_round_trip("f(Tensor x, *) -> Tensor", NULL, "f(Tensor x) -> Tensor");
    d8_round_trip("f(*, Tensor x) -> Tensor", NULL, "f(*, Tensor x) -> Tensor");
}
END_TEST

static void d8_parse_fails(const char *text, const char *want)
{
    tc_schema s;

    tc_clear_error();
    ck_assert_int_eq(tc_schema_parse(text, NULL, &s), -1);
    ck_assert_ptr_nonnull(tc_error());
    ck_assert_str_eq(tc_error(), want);
}

START_TEST(test_schema_parse_errors)
{
    /* PyTorch 1.13's texts: torch._C.parse_schema(S) */
    d8_parse_fails("f(Tensor x", "expected ) but found 'eof' here:\nf(Tensor x");
    d8_parse_fails("f(Tensur x) -> Tensor",
                   "\nunknown type specifier:\nf(Tensur x) -> Tensor\n  ~~~~~~ <--- HERE\n");
    d8_parse_fails("f(Tensor) -> Tensor",
                   "expected ident but found ')' here:\nf(Tensor) -> Tensor\n        ~ <--- HERE\n");
    d8_parse_fails("f(Tensor x) Tensor",
                   "expected arrow but found 'ident' here:\nf(Tensor x) Tensor\n"
                   "            ~~~~~~ <--- HERE\n");
    d8_parse_fails("f(Tensor x=1) -> Tensor",
                   "expected None but found 'number' here:\nf(Tensor x=1) -> Tensor\n"
                   "           ~ <--- HERE\n");
    d8_parse_fails("f(int[] x=1) -> Tensor",
                   "expected [ but found 'number' here:\nf(int[] x=1) -> Tensor\n"
                   "          ~ <--- HERE\n");
    d8_parse_fails("(Tensor x) -> Tensor",
                   "expected ident but found '(' here:\n(Tensor x) -> Tensor\n~ <--- HERE\n");
    d8_parse_fails("f.(Tensor x) -> Tensor",
                   "expected ident but found '(' here:\nf.(Tensor x) -> Tensor\n  ~ <--- HERE\n");
    d8_parse_fails("f(Tensor x,) -> Tensor",
                   "expected ident but found ')' here:\nf(Tensor x,) -> Tensor\n"
                   "           ~ <--- HERE\n");
    /* Where PyTorch's parser is lax, crashes or reads more than we
       support, the message is ours, in its shape. */
    d8_parse_fails("f(Tensor x) -> ", "expected Tensor but found 'eof' here:\nf(Tensor x) -> ");
    d8_parse_fails("f(Tensor x) -> Tensor y",
                   "expected eof but found 'ident' here:\nf(Tensor x) -> Tensor y\n"
                   "                      ~ <--- HERE\n");
    d8_parse_fails("f(int x=1.5) -> Tensor",
                   "expected an integer but found 'number' here:\nf(int x=1.5) -> Tensor\n"
                   "        ~~~ <--- HERE\n");
    d8_parse_fails("f(int x=99999999999999999999) -> Tensor",
                   "integer out of range here:\nf(int x=99999999999999999999) -> Tensor\n"
                   "        ~~~~~~~~~~~~~~~~~~~~ <--- HERE\n");
    d8_parse_fails("f(float x=1e400) -> Tensor",
                   "number out of range here:\nf(float x=1e400) -> Tensor\n"
                   "          ~~~~~ <--- HERE\n");
    d8_parse_fails("f(int x=None) -> Tensor",
                   "None as the default of an argument that is not optional here:\n"
                   "f(int x=None) -> Tensor\n        ~~~~ <--- HERE\n");
    d8_parse_fails("f(bool x=1) -> Tensor",
                   "expected True or False but found 'number' here:\nf(bool x=1) -> Tensor\n"
                   "         ~ <--- HERE\n");
    d8_parse_fails("f(Tensor(a) x) -> Tensor",
                   "expected ident but found '(' here:\nf(Tensor(a) x) -> Tensor\n"
                   "        ~ <--- HERE\n");
    d8_parse_fails("f(str x) -> Tensor",
                   "\nunknown type specifier:\nf(str x) -> Tensor\n  ~~~ <--- HERE\n");
    d8_parse_fails("f(Tensor a, Tensor b, Tensor c, Tensor d, Tensor e, Tensor f, Tensor g, "
                   "Tensor h, Tensor i) -> Tensor",
                   "more than 8 arguments here:\nf(Tensor a, Tensor b, Tensor c, Tensor d, "
                   "Tensor e, Tensor f, Tensor g, Tensor h, Tensor i) -> Tensor\n"
                   "                                                                         "
                   "         ~~~~~~ <--- HERE\n");
    d8_parse_fails("f(int[17] x) -> Tensor",
                   "a list size from 0 to 16 expected before here:\nf(int[17] x) -> Tensor\n"
                   "        ~ <--- HERE\n");
    d8_parse_fails("a::b::c(Tensor x) -> Tensor",
                   "expected ( but found '::' here:\na::b::c(Tensor x) -> Tensor\n"
                   "    ~~ <--- HERE\n");
    tc_clear_error();
    ck_assert_int_eq(tc_schema_parse(NULL, NULL, NULL), -1);
    ck_assert_str_eq(tc_error(), "tc_schema_parse: text is NULL");
}
END_TEST

START_TEST(test_schema_fields)
{
    tc_schema s;
    const tc_argument *a;

    ck_assert_int_eq(tc_schema_parse("aten::sum.dim_IntList(Tensor self, int[1]? dim, "
                                     "bool keepdim=False) -> Tensor", NULL, &s), 0);
    ck_assert_str_eq(s.ns, "aten");
    ck_assert_str_eq(s.name, "sum");
    ck_assert_str_eq(s.overload, "dim_IntList");
    ck_assert_int_eq(s.nargs, 3);
    a = &s.args[1];
    ck_assert_str_eq(a->name, "dim");
    ck_assert_int_eq(a->type, TC_TYPE_INTS);
    ck_assert_int_eq(a->list_size, 1);
    ck_assert(a->optional && !a->has_default && !a->kwarg_only);
    a = &s.args[2];
    ck_assert(a->has_default && a->default_value.tag == TC_VALUE_BOOL && !a->default_value.as.b);
    ck_assert_int_eq(tc_schema_parse("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) "
                                     "-> Tensor", "aten", &s), 0);
    ck_assert(!s.args[1].kwarg_only && s.args[2].kwarg_only);
    ck_assert(s.args[2].default_value.tag == TC_VALUE_INT && s.args[2].default_value.as.i == 1);
}
END_TEST

/* ---------------------------------------------- operators: def and find */

START_TEST(test_def_find_and_list)
{
    int before = tc_op_count();
    tc_op *op = tc_op_def("t8a::sq(Tensor x) -> Tensor");
    tc_op *aten = tc_op_def("t8a_sq(Tensor x) -> Tensor");

    ck_assert_ptr_nonnull(op);
    ck_assert_int_eq(tc_op_count(), before + 2);
    ck_assert_ptr_eq(tc_op_at(before), op);
    ck_assert_ptr_eq(tc_op_at(before + 1), aten);
    ck_assert_str_eq(tc_op_name(op), "t8a::sq");
    ck_assert_str_eq(tc_op_name(aten), "aten::t8a_sq");        /* no namespace: aten */
    ck_assert_ptr_eq(tc_op_find("t8a::sq"), op);
    ck_assert_ptr_eq(tc_op_find("t8a_sq"), aten);
    ck_assert_str_eq(tc_op_schema(op)->args[0].name, "x");
    /* The same schema again, spelled differently: the same operator. */
    ck_assert_ptr_eq(tc_op_def("t8a::sq( Tensor  x )->Tensor"), op);
    ck_assert_int_eq(tc_op_count(), before + 2);
    /* Another schema under the name: PyTorch's message, without its
       "registered at" tails. */
    tc_clear_error();
    ck_assert_ptr_null(tc_op_def("t8a::sq(Tensor y) -> Tensor"));
    ck_assert_str_eq(tc_error(), "Tried to register an operator (t8a::sq(Tensor y) -> Tensor) "
                     "with the same name and overload name multiple times. Each overload's "
                     "schema should only be registered with a single call to def().");
    tc_clear_error();
    ck_assert_ptr_null(tc_op_def("t8a::sq(Tensor x"));
    ck_assert_str_eq(tc_error(), "expected ) but found 'eof' here:\nt8a::sq(Tensor x");
    tc_clear_error();
    ck_assert_ptr_null(tc_op_at(-1));
    ck_assert_ptr_nonnull(tc_error());
    ck_assert_str_eq(tc_dispatch_key_name(TC_KEY_CPU), "CPU");
    ck_assert_str_eq(tc_dispatch_key_name(TC_KEY_AUTOGRAD_CPU), "AutogradCPU");
    ck_assert_str_eq(tc_dispatch_key_name(TC_KEY_COMPOSITE_IMPLICIT_AUTOGRAD),
                     "CompositeImplicitAutograd");
    ck_assert_ptr_null(tc_dispatch_key_name(TC_NUM_KEYS));
}
END_TEST

START_TEST(test_unknown_names)
{
    /* torch._C._dispatch_find_schema_or_throw is findSchemaOrThrow:
       "Could not find schema for aten::nope." */
    EXPECT_FAILS(tc_call("aten::nope", tc_value_int(1)), "Could not find schema for aten::nope.");
    EXPECT_FAILS(tc_call("nope", tc_value_int(1)), "Could not find schema for aten::nope.");
    EXPECT_FAILS(tc_call("t8z::nope.x", tc_value_int(1)), "Could not find schema for t8z::nope.x.");
    tc_clear_error();
    ck_assert_ptr_null(tc_op_find("t8z::nope"));
    ck_assert_str_eq(tc_error(), "Could not find schema for t8z::nope.");
    /* an overload that is not there, of a name that is */
    ck_assert_ptr_nonnull(tc_op_def("t8z::f.a(Tensor x) -> Tensor"));
    tc_clear_error();
    ck_assert_ptr_null(tc_op_find("t8z::f"));
    ck_assert_str_eq(tc_error(), "Could not find schema for t8z::f.");
    ck_assert_ptr_null(tc_op_find("t8z::f.b"));
}
END_TEST

/* ----------------------------------------------------------------- calls */

START_TEST(test_call_unboxed_and_boxed)
{
    tc_op *sq = tc_op_def("t8b::twice(Tensor x) -> Tensor");
    tc_op *plus = tc_op_def("t8b::plus(Tensor x, Tensor y) -> Tensor");
    tc_op *box = tc_op_def("t8b::box(Tensor x, Tensor y, *, Scalar alpha=1, int[2] k=3, "
                           "float p=0.5, bool b=False) -> Tensor");
    tc_tensor *x = K(tc_full(TC_SHAPE(2), 3.0, TC_FLOAT32));
    tc_registration *r1 = tc_op_impl(sq, TC_KEY_CPU, d8_twice);
    tc_registration *r2 = tc_op_impl(plus, TC_KEY_CPU, d8_plus);
    tc_registration *r3 = tc_op_impl_boxed(box, TC_KEY_CPU, d8_cpu, NULL, "d8_cpu");

    ck_assert(r1 != NULL && r2 != NULL && r3 != NULL);
    ck_assert_double_eq(d8_first(tc_call("t8b::twice", tc_value_tensor(x))), 6.0);
    ck_assert_double_eq(d8_first(tc_op_call(sq, 1, (tc_value[]){ tc_value_tensor(x) })), 6.0);
    ck_assert_double_eq(d8_first(tc_call("t8b::plus", tc_value_tensor(x), tc_value_tensor(x))),
                        6.0);
    /* Boxed: the kernel sees every argument, the defaults filled in and
       converted to their types, and both keys (a tensor carries both). */
    d8_reset();
    ck_assert_double_eq(d8_first(tc_call("t8b::box", tc_value_tensor(x), tc_value_tensor(x))),
                        4.0);
    ck_assert_str_eq(d8_trace, "C");
    ck_assert_int_eq(d8_seen_keys, 1u << TC_KEY_CPU);   /* the keys at and below its own */
    ck_assert(d8_seen[2].tag == TC_VALUE_INT && d8_seen[2].as.i == 1);
    ck_assert(d8_seen[3].tag == TC_VALUE_INTS && d8_seen[3].as.ints.dim == 2);
    ck_assert(d8_seen[3].as.ints.sizes[0] == 3 && d8_seen[3].as.ints.sizes[1] == 3);
    ck_assert(d8_seen[4].tag == TC_VALUE_DOUBLE && d8_seen[4].as.d == 0.5);
    ck_assert(d8_seen[5].tag == TC_VALUE_BOOL && !d8_seen[5].as.b);
    /* Python's conversions (torch 1.13 accepts each of these):
       a Scalar keeps its kind, an int fills int[2], an int is a float, a
       bool is an int, an int is a bool. Keyword-only arguments go by
       position: C has no keywords. */
    ck_assert_double_eq(d8_first(tc_call("t8b::box", tc_value_tensor(x), tc_value_tensor(x),
                                         tc_value_double(2.5), tc_value_int(7), tc_value_int(2),
                                         tc_value_int(3))), 4.0);
    ck_assert(d8_seen[2].tag == TC_VALUE_DOUBLE && d8_seen[2].as.d == 2.5);
    ck_assert(d8_seen[3].tag == TC_VALUE_INTS && d8_seen[3].as.ints.dim == 2
              && d8_seen[3].as.ints.sizes[1] == 7);
    ck_assert(d8_seen[4].tag == TC_VALUE_DOUBLE && d8_seen[4].as.d == 2.0);
    ck_assert(d8_seen[5].tag == TC_VALUE_BOOL && d8_seen[5].as.b);
    ck_assert_double_eq(d8_first(tc_call("t8b::box", tc_value_tensor(x), tc_value_tensor(x),
                                         tc_value_bool(true), tc_value_ints(TC_SHAPE(1, 2)),
                                         tc_value_bool(true), tc_value_double(0.0))), 4.0);
    ck_assert(d8_seen[2].tag == TC_VALUE_BOOL && d8_seen[2].as.b);
    ck_assert(d8_seen[3].as.ints.dim == 2 && d8_seen[3].as.ints.sizes[0] == 1);
    ck_assert(d8_seen[4].tag == TC_VALUE_DOUBLE && d8_seen[4].as.d == 1.0);
    ck_assert(d8_seen[5].tag == TC_VALUE_BOOL && !d8_seen[5].as.b);
    /* An unboxed kernel needs an all-Tensor schema. */
    tc_clear_error();
    ck_assert_ptr_null(tc_op_impl(box, TC_KEY_CPU, d8_twice));
    ck_assert_str_eq(tc_error(), "t8b::box: an unboxed kernel needs an operator of 1 to 4 "
                     "Tensor arguments and nothing else; register a boxed kernel for "
                     "t8b::box(Tensor x, Tensor y, *, Scalar alpha=1, int[2] k=3, float p=0.5, "
                     "bool b=False) -> Tensor");
    tc_clear_error();
    ck_assert_ptr_null(tc_op_impl_boxed(box, (tc_dispatch_key)7, d8_cpu, NULL, "x"));
    ck_assert_str_eq(tc_error(), "t8b::box: 7 is not a dispatch key");
    tc_clear_error();
    ck_assert_ptr_null(tc_op_impl_boxed(NULL, TC_KEY_CPU, d8_cpu, NULL, "x"));
    ck_assert_ptr_nonnull(tc_error());
    tc_registration_remove(r1);
    tc_registration_remove(r2);
    tc_registration_remove(r3);
}
END_TEST

START_TEST(test_call_argument_errors)
{
    tc_op *sq = tc_op_def("t8c::square(Tensor self) -> Tensor");
    tc_op *add = tc_op_def("t8c::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    tc_op *sum = tc_op_def("t8c::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False) "
                           "-> Tensor");
    tc_op *tr = tc_op_def("t8c::transpose.int(Tensor self, int dim0, int dim1) -> Tensor");
    tc_tensor *x = K(tc_full(TC_SHAPE(2), 1.0, TC_FLOAT32));
    tc_registration *r = tc_op_impl(sq, TC_KEY_CPU, d8_twice);

    ck_assert(sq != NULL && add != NULL && sum != NULL && tr != NULL && r != NULL);
    /* torch.ops.aten.square.default(x, x), (3), (); add.Tensor(x): torch 1.13 */
    EXPECT_FAILS(tc_call("t8c::square", tc_value_tensor(x), tc_value_tensor(x)),
                 "t8c::square() expected at most 1 argument(s) but received 2 argument(s). "
                 "Declaration: t8c::square(Tensor self) -> Tensor");
    EXPECT_FAILS(tc_call("t8c::square", tc_value_int(3)),
                 "t8c::square() Expected a value of type 'Tensor' for argument 'self' but "
                 "instead found type 'int'.\nPosition: 0\nValue: 3\n"
                 "Declaration: t8c::square(Tensor self) -> Tensor");
    EXPECT_FAILS(tc_op_call(sq, 0, NULL),
                 "t8c::square() is missing value for argument 'self'. "
                 "Declaration: t8c::square(Tensor self) -> Tensor");
    EXPECT_FAILS(tc_call("t8c::add.Tensor", tc_value_tensor(x)),
                 "t8c::add() is missing value for argument 'other'. Declaration: "
                 "t8c::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    /* the values as Python's repr writes them:
       torch.ops.aten.square.default(2.5), (True), ([1, 2]) */
    EXPECT_FAILS(tc_call("t8c::square", tc_value_double(2.5)),
                 "t8c::square() Expected a value of type 'Tensor' for argument 'self' but "
                 "instead found type 'float'.\nPosition: 0\nValue: 2.5\n"
                 "Declaration: t8c::square(Tensor self) -> Tensor");
    EXPECT_FAILS(tc_call("t8c::square", tc_value_bool(true)),
                 "t8c::square() Expected a value of type 'Tensor' for argument 'self' but "
                 "instead found type 'bool'.\nPosition: 0\nValue: True\n"
                 "Declaration: t8c::square(Tensor self) -> Tensor");
    EXPECT_FAILS(tc_call("t8c::square", tc_value_ints(TC_SHAPE(1, 2))),
                 "t8c::square() Expected a value of type 'Tensor' for argument 'self' but "
                 "instead found type 'list'.\nPosition: 0\nValue: [1, 2]\n"
                 "Declaration: t8c::square(Tensor self) -> Tensor");
    /* torch.ops.aten.transpose.int(x, 1.5, 0), (x, x, 0) */
    EXPECT_FAILS(tc_call("t8c::transpose.int", tc_value_tensor(x), tc_value_double(1.5),
                         tc_value_int(0)),
                 "t8c::transpose() Expected a value of type 'int' for argument 'dim0' but "
                 "instead found type 'float'.\nPosition: 1\nValue: 1.5\n"
                 "Declaration: t8c::transpose.int(Tensor self, int dim0, int dim1) -> Tensor");
    EXPECT_FAILS(tc_call("t8c::transpose.int", tc_value_tensor(x), tc_value_tensor(x),
                         tc_value_int(0)),
                 "t8c::transpose() Expected a value of type 'int' for argument 'dim0' but "
                 "instead found type 'Tensor'.\nPosition: 1\nValue: tensor([1., 1.])\n"
                 "Declaration: t8c::transpose.int(Tensor self, int dim0, int dim1) -> Tensor");
    /* torch.ops.aten.sum.dim_IntList(x, 1.5); torch.ops.aten.pow.Tensor_Scalar(x, None) */
    EXPECT_FAILS(tc_call("t8c::sum.dim_IntList", tc_value_tensor(x), tc_value_double(1.5)),
                 "t8c::sum() Expected a value of type 'Optional[List[int]]' for argument 'dim' "
                 "but instead found type 'float'.\nPosition: 1\nValue: 1.5\nDeclaration: "
                 "t8c::sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False) -> Tensor");
    EXPECT_FAILS(tc_call("t8c::add.Tensor", tc_value_tensor(x), tc_value_tensor(x),
                         tc_value_none()),
                 "t8c::add() Expected a value of type 'number' for argument 'alpha' but "
                 "instead found type 'NoneType'.\nPosition: 2\nValue: None\nDeclaration: "
                 "t8c::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
    /* torch.ops.aten.add.Tensor(x, None): the kernel's message in PyTorch */
    EXPECT_FAILS(tc_call("t8c::add.Tensor", tc_value_tensor(x), tc_value_none()),
                 "Expected a proper Tensor but got None (or an undefined Tensor in C++) for "
                 "argument #1 'other'");
    /* A NULL tensor is an earlier failure: its message stays. */
    tc_clear_error();
    tc_fail("an earlier failure");
    ck_assert_ptr_null(tc_call("t8c::square", tc_value_tensor(NULL)));
    ck_assert_str_eq(tc_error(), "an earlier failure");
    tc_clear_error();
    ck_assert_ptr_null(tc_op_call(NULL, 0, NULL));
    ck_assert_str_eq(tc_error(), "tc: NULL argument, but no earlier call failed");
    EXPECT_FAILS(tc_op_call(sq, -1, NULL), "t8c::square: a negative number of arguments");
    /* the optional None passes; the call goes on to the missing kernel */
    EXPECT_FAILS(tc_call("t8c::sum.dim_IntList", tc_value_tensor(x), tc_value_none()),
                 "Could not run 't8c::sum.dim_IntList' with arguments from the 'CPU' backend. "
                 "This could be because the operator doesn't exist for this backend, or was "
                 "omitted during the selective/custom build process (if using custom build). "
                 "'t8c::sum.dim_IntList' is only available for these backends: [AutogradCPU].");
    tc_registration_remove(r);
}
END_TEST

START_TEST(test_missing_kernel)
{
    /* python3: lib = torch.library.Library("myns", "DEF");
       lib.define("sq(Tensor x) -> Tensor"); torch.ops.myns.sq(torch.ones(2))
       (PyTorch's list of backends is longer: it has more keys) */
    tc_op *op = tc_op_def("t8d::sq(Tensor x) -> Tensor");
    tc_op *none = tc_op_def("t8d::make(int n) -> Tensor");
    tc_tensor *x = K(tc_full(TC_SHAPE(2), 1.0, TC_FLOAT32));
    tc_registration *r;

    ck_assert(op != NULL && none != NULL);
    EXPECT_FAILS(tc_call("t8d::sq", tc_value_tensor(x)),
                 "Could not run 't8d::sq' with arguments from the 'CPU' backend. This could be "
                 "because the operator doesn't exist for this backend, or was omitted during "
                 "the selective/custom build process (if using custom build). 't8d::sq' is "
                 "only available for these backends: [AutogradCPU].");
    ck_assert_str_eq(d8_table(op), "t8d::sq(Tensor x) -> Tensor\nCPU: missing\n"
                     "AutogradCPU: fallthrough [backend fallback]\n");
    /* No tensor argument: no key; only a math kernel would serve. */
    EXPECT_FAILS(tc_call("t8d::make", tc_value_int(2)),
                 "There were no tensor arguments to this function (e.g., you passed an empty "
                 "list of Tensors), but no fallback function is registered for schema t8d::make."
                 "  This usually means that this function requires a non-empty list of Tensors, "
                 "or that you (the operator writer) forgot to register a fallback function.  "
                 "Available functions are [AutogradCPU].");
    /* A fallthrough at CPU too: no key is left. */
    r = tc_op_impl_fallthrough(op, TC_KEY_CPU);
    ck_assert_ptr_nonnull(r);
    ck_assert_str_eq(d8_table(op), "t8d::sq(Tensor x) -> Tensor\nCPU: fallthrough [kernel]\n"
                     "AutogradCPU: fallthrough [backend fallback]\n");
    EXPECT_FAILS(tc_call("t8d::sq", tc_value_tensor(x)),
                 "There were no tensor arguments to this function (e.g., you passed an empty "
                 "list of Tensors), but no fallback function is registered for schema t8d::sq."
                 "  This usually means that this function requires a non-empty list of Tensors, "
                 "or that you (the operator writer) forgot to register a fallback function.  "
                 "Available functions are [CPU, AutogradCPU].");
    tc_registration_remove(r);
}
END_TEST

/* ------------------------------------- keys: alias, fallthrough, redispatch */

START_TEST(test_math_kernel_fills_both_keys)
{
    tc_op *op = tc_op_def("t8e::sq(Tensor x) -> Tensor");
    tc_op *none = tc_op_def("t8e::make(int n) -> Tensor");
    tc_tensor *x = K(tc_full(TC_SHAPE(2), 2.0, TC_FLOAT32));
    tc_registration *math, *cpu, *none_math;

    ck_assert(op != NULL && none != NULL);
    /* torch._C._dispatch_dump_table("aten::square"): the math kernel at
       CPU and at AutogradCPU */
    math = tc_op_impl_boxed(op, TC_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, d8_math, NULL, "d8_math");
    ck_assert_ptr_nonnull(math);
    ck_assert_str_eq(d8_table(op), "t8e::sq(Tensor x) -> Tensor\nCPU: d8_math [math kernel]\n"
                     "AutogradCPU: d8_math [math kernel]\n");
    d8_reset();
    ck_assert_double_eq(d8_first(tc_call("t8e::sq", tc_value_tensor(x))), 12.0);
    ck_assert_str_eq(d8_trace, "M");
    /* A CPU kernel of its own: CPU takes it, and AutogradCPU does not use
       the math kernel any more (computeDispatchTableEntry's
       has_backend_kernel): the autograd fallthrough leads to CPU. */
    cpu = tc_op_impl_boxed(op, TC_KEY_CPU, d8_cpu, NULL, "d8_cpu");
    ck_assert_str_eq(d8_table(op), "t8e::sq(Tensor x) -> Tensor\nCPU: d8_cpu [kernel]\n"
                     "AutogradCPU: fallthrough [backend fallback]\n");
    d8_reset();
    ck_assert_double_eq(d8_first(tc_call("t8e::sq", tc_value_tensor(x))), 3.0);
    ck_assert_str_eq(d8_trace, "C");
    tc_registration_remove(cpu);
    d8_reset();
    ck_assert_double_eq(d8_first(tc_call("t8e::sq", tc_value_tensor(x))), 12.0);
    ck_assert_str_eq(d8_trace, "M");
    /* the math kernel serves calls without tensors too (PyTorch's
       Undefined entry); it receives an empty key set */
    none_math = tc_op_impl_boxed(none, TC_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, d8_make, NULL, "m");
    d8_reset();
    ck_assert_double_eq(d8_first(tc_call("t8e::make", tc_value_int(2))), 2.0);
    ck_assert_str_eq(d8_trace, "N");
    ck_assert_int_eq(d8_seen_keys, 0);
    tc_registration_remove(none_math);
    tc_registration_remove(math);
}
END_TEST

START_TEST(test_fallthrough_and_redispatch)
{
    tc_op *op = tc_op_def("t8f::sq(Tensor x) -> Tensor");
    tc_tensor *x = K(tc_full(TC_SHAPE(2), 2.0, TC_FLOAT32));
    tc_registration *cpu, *ag, *through;

    ck_assert_ptr_nonnull(op);
    cpu = tc_op_impl_boxed(op, TC_KEY_CPU, d8_cpu, NULL, "d8_cpu");
    ag = tc_op_impl_boxed(op, TC_KEY_AUTOGRAD_CPU, d8_autograd, NULL, "d8_autograd");
    ck_assert(cpu != NULL && ag != NULL);
    /* AutogradCPU first, then its redispatch reaches CPU with only CPU
       left in the key set */
    d8_reset();
    ck_assert_double_eq(d8_first(tc_call("t8f::sq", tc_value_tensor(x))), 3.0);
    ck_assert_str_eq(d8_trace, "AC");
    ck_assert_int_eq(d8_seen_keys, 1u << TC_KEY_CPU);
    ck_assert_str_eq(d8_table(op), "t8f::sq(Tensor x) -> Tensor\nCPU: d8_cpu [kernel]\n"
                     "AutogradCPU: d8_autograd [kernel]\n");
    /* a fallthrough registered over the autograd kernel: straight to CPU */
    through = tc_op_impl_fallthrough(op, TC_KEY_AUTOGRAD_CPU);
    d8_reset();
    ck_assert_double_eq(d8_first(tc_call("t8f::sq", tc_value_tensor(x))), 3.0);
    ck_assert_str_eq(d8_trace, "C");
    ck_assert_str_eq(d8_table(op), "t8f::sq(Tensor x) -> Tensor\nCPU: d8_cpu [kernel]\n"
                     "AutogradCPU: fallthrough [kernel]\n");
    tc_registration_remove(through);
    d8_reset();
    ck_assert_double_eq(d8_first(tc_call("t8f::sq", tc_value_tensor(x))), 3.0);
    ck_assert_str_eq(d8_trace, "AC");
    /* redispatch below CPU: nothing is left */
    tc_clear_error();
    ck_assert_ptr_null(tc_op_redispatch(op, 3, TC_KEY_CPU, (tc_value[]){ tc_value_tensor(x) }));
    ck_assert_ptr_nonnull(strstr(tc_error(), "There were no tensor arguments"));
    tc_registration_remove(ag);
    tc_registration_remove(cpu);
}
END_TEST

/* --------------------------------------------------- replace and remove */

START_TEST(test_replace_and_restore)
{
    tc_op *op = tc_op_def("t8g::sq(Tensor x) -> Tensor");
    tc_tensor *x = K(tc_full(TC_SHAPE(2), 2.0, TC_FLOAT32));
    tc_registration *first, *second, *third;

    ck_assert_ptr_nonnull(op);
    tc_op_clear_warning();
    first = tc_op_impl(op, TC_KEY_CPU, d8_twice);
    ck_assert_ptr_null(tc_op_warning());                 /* the first: no warning */
    ck_assert_double_eq(d8_first(tc_call("t8g::sq", tc_value_tensor(x))), 4.0);
    second = tc_op_impl(op, TC_KEY_CPU, d8_negate);
    /* PyTorch 1.13's warning (OperatorEntry::registerKernel), without the
       line of the schema's "registered at" */
    ck_assert_ptr_nonnull(tc_op_warning());
    ck_assert_str_eq(tc_op_warning(),
                     "Overriding a previously registered kernel for the same operator and the "
                     "same dispatch key\n  operator: t8g::sq(Tensor x) -> Tensor\n"
                     "  dispatch key: CPU\n  previous kernel: d8_twice\n"
                     "       new kernel: d8_negate");
    ck_assert_double_eq(d8_first(tc_call("t8g::sq", tc_value_tensor(x))), -2.0);
    third = tc_op_impl_boxed(op, TC_KEY_CPU, d8_cpu, NULL, "d8_cpu");
    ck_assert_double_eq(d8_first(tc_call("t8g::sq", tc_value_tensor(x))), 3.0);
    /* removing one from the middle changes nothing that is served */
    tc_registration_remove(second);
    ck_assert_double_eq(d8_first(tc_call("t8g::sq", tc_value_tensor(x))), 3.0);
    /* removing the newest brings back the one below it */
    tc_registration_remove(third);
    ck_assert_double_eq(d8_first(tc_call("t8g::sq", tc_value_tensor(x))), 4.0);
    tc_registration_remove(third);                       /* twice: nothing */
    tc_registration_remove(NULL);
    tc_registration_remove(first);
    EXPECT_FAILS(tc_call("t8g::sq", tc_value_tensor(x)),
                 "Could not run 't8g::sq' with arguments from the 'CPU' backend. This could be "
                 "because the operator doesn't exist for this backend, or was omitted during "
                 "the selective/custom build process (if using custom build). 't8g::sq' is "
                 "only available for these backends: [AutogradCPU].");
    tc_op_clear_warning();
    ck_assert_ptr_null(tc_op_warning());
}
END_TEST

/* ------------------------------------------------------------ overloads */

START_TEST(test_overloads_by_name)
{
    /* python3: lib = torch.library.Library("t8o", "DEF");
       lib.define("f.a(Tensor x, int n) -> Tensor");
       lib.define("f.b(Tensor x, Tensor y) -> Tensor"); torch.ops.t8o.f(x, 2.5) */
    tc_op *a = tc_op_def("t8h::f.a(Tensor x, int n) -> Tensor");
    tc_op *b = tc_op_def("t8h::f.b(Tensor x, Tensor y) -> Tensor");
    tc_tensor *x = K(tc_full(TC_SHAPE(2), 2.0, TC_FLOAT32));
    tc_registration *ra = tc_op_impl_boxed(a, TC_KEY_CPU, d8_cpu, NULL, "d8_cpu");
    tc_registration *rb = tc_op_impl(b, TC_KEY_CPU, d8_plus);

    ck_assert(ra != NULL && rb != NULL);
    /* the first overload the arguments fit */
    ck_assert_double_eq(d8_first(tc_call("t8h::f", tc_value_tensor(x), tc_value_int(3))), 3.0);
    ck_assert_double_eq(d8_first(tc_call("t8h::f", tc_value_tensor(x), tc_value_tensor(x))), 4.0);
    ck_assert_double_eq(d8_first(tc_call("t8h::f", tc_value_tensor(x), tc_value_bool(true))),
                        3.0);
    ck_assert_double_eq(d8_first(tc_call("t8h::f.b", tc_value_tensor(x), tc_value_tensor(x))),
                        4.0);
    /* none fits: each overload's reason (without pybind's "Cast error
       details" lines), PyTorch's typo "many" included */
    EXPECT_FAILS(tc_call("t8h::f", tc_value_tensor(x), tc_value_double(2.5)),
                 "Overloaded torch operator invoked from Python failed to many any schema:\n"
                 "t8h::f() Expected a value of type 'int' for argument 'n' but instead found "
                 "type 'float'.\nPosition: 1\nValue: 2.5\n"
                 "Declaration: t8h::f.a(Tensor x, int n) -> Tensor\n\n"
                 "t8h::f() Expected a value of type 'Tensor' for argument 'y' but instead found "
                 "type 'float'.\nPosition: 1\nValue: 2.5\n"
                 "Declaration: t8h::f.b(Tensor x, Tensor y) -> Tensor\n\n");
    EXPECT_FAILS(tc_call("t8h::f", tc_value_tensor(x)),
                 "Overloaded torch operator invoked from Python failed to many any schema:\n"
                 "t8h::f() is missing value for argument 'n'. "
                 "Declaration: t8h::f.a(Tensor x, int n) -> Tensor\n\n"
                 "t8h::f() is missing value for argument 'y'. "
                 "Declaration: t8h::f.b(Tensor x, Tensor y) -> Tensor\n\n");
    EXPECT_FAILS(tc_call("t8h::f", tc_value_tensor(x), tc_value_tensor(x), tc_value_tensor(x)),
                 "Overloaded torch operator invoked from Python failed to many any schema:\n"
                 "t8h::f() expected at most 2 argument(s) but received 3 argument(s). "
                 "Declaration: t8h::f.a(Tensor x, int n) -> Tensor\n\n"
                 "t8h::f() expected at most 2 argument(s) but received 3 argument(s). "
                 "Declaration: t8h::f.b(Tensor x, Tensor y) -> Tensor\n\n");
    /* an error of the kernel is not a mismatch: it is the call's error */
    EXPECT_FAILS(tc_call("t8h::f", tc_value_tensor(x), tc_value_tensor(K(tc_full(TC_SHAPE(3), 1.0,
                                                                              TC_FLOAT32)))),
                 "The size of tensor a (2) must match the size of tensor b (3) at "
                 "non-singleton dimension 0");
    tc_registration_remove(ra);
    tc_registration_remove(rb);
}
END_TEST

/* ---------------------------------------------------------- thread safety */

struct d8_race {
    tc_op *op;
    tc_tensor *x;
    atomic_bool stop;
    atomic_int calls;
    int bad;
};

static void *d8_caller(void *p)
{
    struct d8_race *r = p;

    while (!atomic_load(&r->stop)) {
        tc_tensor *y = tc_op_call(r->op, 1, (tc_value[]){ tc_value_tensor(r->x) });
        double v = y != NULL ? testing_element(y, 0) : 0.0;

        /* either kernel, never anything else */
        if (v != 4.0 && v != -2.0)
            r->bad++;
        atomic_fetch_add(&r->calls, 1);
        tc_release(y);
    }
    return NULL;
}

START_TEST(test_call_races_replacement)
{
    struct d8_race race = { .op = tc_op_def("t8i::sq(Tensor x) -> Tensor") };
    tc_registration *base;
    pthread_t caller;

    race.x = K(tc_full(TC_SHAPE(2), 2.0, TC_FLOAT32));
    atomic_init(&race.stop, false);
    atomic_init(&race.calls, 0);
    base = tc_op_impl(race.op, TC_KEY_CPU, d8_twice);
    ck_assert_ptr_nonnull(base);
    ck_assert_int_eq(pthread_create(&caller, NULL, d8_caller, &race), 0);
    /* replace and restore while the other thread calls, until it has
       called often enough to have met both states */
    for (int i = 0; i < 2000 || atomic_load(&race.calls) < 500; i++) {
        tc_registration *r = tc_op_impl(race.op, TC_KEY_CPU, d8_negate);

        tc_registration_remove(r);
    }
    atomic_store(&race.stop, true);
    ck_assert_int_eq(pthread_join(caller, NULL), 0);
    ck_assert_int_eq(race.bad, 0);
    ck_assert_int_ge(atomic_load(&race.calls), 500);
    tc_registration_remove(base);
}
END_TEST

/* An operator keeps its schema as printed, in TC_SCHEMA_MAX bytes: a schema
   whose printed form is longer is refused by the parser. Found by
   tests/fuzz/fuzz_dispatch.c (corpus: crash-schema-cut-short-when-printed):
   tc_schema_format cut the text short, the cut text did not parse again,
   and tc_op_def, which compares printed texts, took two schemas that differ
   past the cut for one operator. */
static void d8_long_schema(char *text, size_t size, const char *ns, const char *type,
                           const char *fill_default, int nfill, const char *last)
{
    char name[64];
    size_t len = (size_t)snprintf(text, size, "%s::f(", ns);

    for (int i = 0; i < nfill; i++) {
        memset(name, 'a' + i, 63);
        name[63] = '\0';
        len += (size_t)snprintf(text + len, size - len, "%s %s%s, ", type, name, fill_default);
    }
    snprintf(text + len, size - len, "%s) -> Tensor", last);
}

START_TEST(test_schema_too_long_when_printed)
{
    char text[1024], other[1024], want[1200], buf[TC_SCHEMA_MAX], last[80];
    tc_schema s;

    /* 511 characters as printed fit, 512 do not */
    snprintf(last, sizeof last, "Tensor %.53s",    /* 8 + 6 * 72 + 7 + 53 + 11 */
             "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz");
    d8_long_schema(text, sizeof text, "t8fz", "Tensor", "", 6, last);
    ck_assert_uint_eq(strlen(text), 511);
    tc_clear_error();
    ck_assert_int_eq(tc_schema_parse(text, NULL, &s), 0);
    ck_assert_str_eq(tc_schema_format(&s, buf), text);
    strcat(last, "z");
    d8_long_schema(text, sizeof text, "t8fz", "Tensor", "", 6, last);
    ck_assert_uint_eq(strlen(text), 512);
    snprintf(want, sizeof want, "a schema longer than 511 characters as printed:\n%s", text);
    d8_parse_fails(text, want);
    /* Short as written, long as printed: 1e-5 prints as 1.0000000000000001e-05.
       The two differ only past the 511th printed character. */
    d8_long_schema(text, sizeof text, "t8fz", "float", "=1e-5", 6, "float z=1e-5");
    d8_long_schema(other, sizeof other, "t8fz", "float", "=1e-5", 6, "int z=1");
    ck_assert_uint_lt(strlen(text), 511);
    tc_clear_error();
    ck_assert_ptr_null(tc_op_def(text));
    ck_assert_ptr_nonnull(tc_error());
    ck_assert_msg(strncmp(tc_error(), "a schema longer than 511 characters as printed:\n", 48) == 0,
                  "%s", tc_error());
    tc_clear_error();
    ck_assert_ptr_null(tc_op_def(other));
    ck_assert_ptr_nonnull(tc_error());
    tc_clear_error();
    ck_assert_ptr_null(tc_op_find("t8fz::f"));
    tc_clear_error();
}
END_TEST

/* A list default of equal values prints as the one value only for int[N]
   with N values: it reads back as N copies. PyTorch 1.13 prints `int[] a=3`
   for [3, 3] (its parser refuses it) and `int[2] a=3` for [3, 3, 3] (it
   reads back as [3, 3]):
   python3 -c 'import torch; print(torch._C.parse_schema("f(int[] a=[3, 3]) -> Tensor"))'
   Found by tests/fuzz/fuzz_dispatch.c (corpus: crash-equal-list-default-printed-as-one-value);
   tc_op_def took the two schemas below for one. */
START_TEST(test_schema_equal_list_defaults)
{
    tc_op *op;

    d8_round_trip("f(int[] a=[3, 3]) -> Tensor", NULL, "f(int[] a=[3, 3]) -> Tensor");
    d8_round_trip("f(int[2] a=[3, 3, 3]) -> Tensor", NULL, "f(int[2] a=[3, 3, 3]) -> Tensor");
    d8_round_trip("f(int[3] a=[3, 3]) -> Tensor", NULL, "f(int[3] a=[3, 3]) -> Tensor");
    d8_round_trip("f(int[2]? a=[3, 3]) -> Tensor", NULL, "f(int[2]? a=3) -> Tensor");
    op = tc_op_def("t8fz::g(int[] a=[3, 3]) -> Tensor");
    ck_assert_ptr_nonnull(op);
    tc_clear_error();
    ck_assert_ptr_null(tc_op_def("t8fz::g(int[] a=[3, 3, 3]) -> Tensor"));
    ck_assert_str_eq(tc_error(), "Tried to register an operator (t8fz::g(int[] a=[3, 3, 3]) -> "
                     "Tensor) with the same name and overload name multiple times. Each "
                     "overload's schema should only be registered with a single call to def().");
    tc_clear_error();
    ck_assert_int_eq(tc_op_schema(op)->args[0].default_value.as.ints.dim, 2);
}
END_TEST

static void ch08_add_dispatch(Suite *s)
{
    TCase *tc = testing_tcase("dispatch", NULL, NULL);

    tcase_add_test(tc, test_schema_round_trips);
    tcase_add_test(tc, test_schema_parse_errors);
    tcase_add_test(tc, test_schema_too_long_when_printed);
    tcase_add_test(tc, test_schema_equal_list_defaults);
    tcase_add_test(tc, test_schema_fields);
    tcase_add_test(tc, test_def_find_and_list);
    tcase_add_test(tc, test_unknown_names);
    tcase_add_test(tc, test_call_unboxed_and_boxed);
    tcase_add_test(tc, test_call_argument_errors);
    tcase_add_test(tc, test_missing_kernel);
    tcase_add_test(tc, test_math_kernel_fills_both_keys);
    tcase_add_test(tc, test_fallthrough_and_redispatch);
    tcase_add_test(tc, test_replace_and_restore);
    tcase_add_test(tc, test_overloads_by_name);
    tcase_add_test(tc, test_call_races_replacement);
    suite_add_tcase(s, tc);
}
