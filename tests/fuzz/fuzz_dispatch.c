/* fuzz_dispatch.c: chapter 8's operator registry. The first byte picks one
   of three programs:
   - schema: the rest of the input as a string, or a text generated from
     it by a grammar of schemas (edges, long names, tokens out of place),
     through tc_schema_parse (without a default namespace and with one). A failure records a
     message and returns -1, a success records none; the printed schema
     parses again to an equal schema that prints the same text; the
     namespace given changes nothing but the namespace.
   - call: an operator of the library (tc_op_at) or a name from a list (an
     unknown one, a name without its overload, malformed ones), called by
     tc_op_call or tc_call_boxed with 0 to 6 boxed arguments (tensors and
     views, wrapped numbers, tensors that require grad, integers at their
     edges, nan and inf, bools, wild int lists, None), mostly of the types
     the schema asks for. The result is NULL iff a message is recorded,
     reaches only its storage, and, for an elementwise operator, equals the
     library function's; the arguments keep their shapes.
   - register: an operator "fz::opHASH" of a generated schema (the name is
     a hash of the schema, so that a name always has one schema whatever
     ran before), 1 to 3 kernels registered at random keys (boxed, unboxed,
     fallthrough), calls, removals in any order. A model of PyTorch's
     dispatch table says which kernels a call runs (redispatching kernels
     included) and whether it fails; the registry must agree, and warn
     exactly when a registration overrides another. Every registration
     is removed again, so the next input finds the operator clean.
   Nothing crashes, nothing leaks, no undefined behaviour (ASan+UBSan).
   Memory grows with the inputs, by design: an operator is never freed
   (at most a few ten thousand schemas here), nor is a removed
   registration (a call may still be running it; ~0.5 KB per register
   input): a campaign of an hour or more may reach -rss_limit_mb. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

/* The operators registered before any input ran (the library's): calls
   choose among them only, so that an input does the same whatever other
   inputs defined before it. */
static int native_count;

/* ---- schemas ------------------------------------------------------------- */

static void check_schema_sane(const tc_schema *s, const char *text)
{
    FZ_CHECK(memchr(s->ns, '\0', TC_NAME_MAX) && memchr(s->name, '\0', TC_NAME_MAX) &&
                 memchr(s->overload, '\0', TC_NAME_MAX),
             "a name is not terminated: %s", text);
    FZ_CHECK(s->name[0] != '\0', "no name: %s", text);
    FZ_CHECK(s->nargs >= 0 && s->nargs <= TC_MAX_ARGS, "nargs %d: %s", s->nargs, text);
    for (int i = 0; i < s->nargs; i++) {
        const tc_argument *a = &s->args[i];

        FZ_CHECK(memchr(a->name, '\0', TC_NAME_MAX) && a->name[0] != '\0',
                 "argument %d: a bad name: %s", i, text);
        FZ_CHECK((int)a->type >= TC_TYPE_TENSOR && (int)a->type <= TC_TYPE_SCALAR,
                 "argument %d: type %d: %s", i, (int)a->type, text);
        FZ_CHECK(a->list_size >= 0 && a->list_size <= TC_MAX_DIMS &&
                     (a->list_size == 0 || a->type == TC_TYPE_INTS),
                 "argument %d: list size %d: %s", i, a->list_size, text);
        if (!a->has_default)
            continue;
        switch (a->default_value.tag) {
        case TC_VALUE_NONE:
            FZ_CHECK(a->optional || a->type == TC_TYPE_TENSOR,
                     "argument %d: None for a type that is not optional: %s", i, text);
            break;
        case TC_VALUE_INT:
            FZ_CHECK(a->type == TC_TYPE_INT || a->type == TC_TYPE_SCALAR,
                     "argument %d: an int default: %s", i, text);
            break;
        case TC_VALUE_DOUBLE:
            FZ_CHECK((a->type == TC_TYPE_FLOAT || a->type == TC_TYPE_SCALAR) &&
                         !isnan(a->default_value.as.d),
                     "argument %d: a float default: %s", i, text);
            break;
        case TC_VALUE_BOOL:
            FZ_CHECK(a->type == TC_TYPE_BOOL, "argument %d: a bool default: %s", i, text);
            break;
        case TC_VALUE_INTS:
            FZ_CHECK(a->type == TC_TYPE_INTS && a->default_value.as.ints.dim >= 0 &&
                         a->default_value.as.ints.dim <= TC_MAX_DIMS,
                     "argument %d: a list default: %s", i, text);
            break;
        default:
            FZ_CHECK(false, "argument %d: default of tag %d: %s", i,
                     (int)a->default_value.tag, text);
        }
    }
}

static bool same_value(const tc_value *x, const tc_value *y)
{
    if (x->tag != y->tag)
        return false;
    switch (x->tag) {
    case TC_VALUE_INT: return x->as.i == y->as.i;
    case TC_VALUE_DOUBLE: return x->as.d == y->as.d;    /* -0 prints as "0." */
    case TC_VALUE_BOOL: return x->as.b == y->as.b;
    case TC_VALUE_INTS:
        if (x->as.ints.dim != y->as.ints.dim)
            return false;
        for (int64_t i = 0; i < x->as.ints.dim; i++)
            if (x->as.ints.sizes[i] != y->as.ints.sizes[i])
                return false;
        return true;
    default: return true;
    }
}

/* Equal schemas; with_ns false: apart from the namespace. */
static bool same_schema(const tc_schema *x, const tc_schema *y, bool with_ns)
{
    if ((with_ns && strcmp(x->ns, y->ns) != 0) || strcmp(x->name, y->name) != 0 ||
        strcmp(x->overload, y->overload) != 0 || x->nargs != y->nargs)
        return false;
    for (int i = 0; i < x->nargs; i++) {
        const tc_argument *a = &x->args[i], *b = &y->args[i];

        if (strcmp(a->name, b->name) != 0 || a->type != b->type ||
            a->list_size != b->list_size || a->optional != b->optional ||
            a->kwarg_only != b->kwarg_only || a->has_default != b->has_default ||
            (a->has_default && !same_value(&a->default_value, &b->default_value)))
            return false;
    }
    return true;
}

/* Parse text with default_ns: -1 and a message, or 0, no message, and a
   printed form that parses back to the same schema and prints the same. */
/* Whether the last check_parse failed on the parser's length limit. */
static bool parse_too_long;

static int check_parse(const char *text, const char *default_ns, tc_schema *s)
{
    char printed[TC_SCHEMA_MAX], again[TC_SCHEMA_MAX];
    tc_schema reparsed;
    int status;

    tc_clear_error();
    status = tc_schema_parse(text, default_ns, s);
    FZ_CHECK(status == 0 || status == -1, "tc_schema_parse returned %d", status);
    parse_too_long = status != 0 && tc_error() != NULL &&
                     strncmp(tc_error(), "a schema longer than", 20) == 0;
    if (status != 0) {
        fz_check_failed("tc_schema_parse");
        return -1;
    }
    fz_check_no_error("tc_schema_parse");
    check_schema_sane(s, text);
    FZ_CHECK(default_ns == NULL || strstr(text, "::") != NULL || strcmp(s->ns, default_ns) == 0,
             "namespace %s, not the default %s: %s", s->ns, default_ns, text);
    tc_schema_format(s, printed);
    FZ_CHECK(tc_schema_parse(printed, default_ns, &reparsed) == 0,
             "the printed schema does not parse:\n    %s\n    from %s", printed, text);
    fz_check_no_error("tc_schema_parse of the printed schema");
    FZ_CHECK(same_schema(s, &reparsed, true),
             "the printed schema parses to another schema:\n    %s\n    from %s", printed, text);
    tc_schema_format(&reparsed, again);
    FZ_CHECK(strcmp(printed, again) == 0, "printed again differently:\n    %s\n    %s",
             printed, again);
    return 0;
}

/* A schema text built from the input as from a grammar, mostly well
   formed: names (some of 63 and 64 characters), every type, defaults at
   their edges (int64's ends, numbers past them, hexadecimal and
   subnormal floats, lists of 0 to 17 integers), "*", and now and then a
   token out of place. */
typedef struct {
    char *s;
    size_t size, len;
} text_buf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void emit(text_buf *t, const char *format, ...)
{
    va_list args;
    int n;

    if (t->len + 1 >= t->size)
        return;
    va_start(args, format);
    n = vsnprintf(t->s + t->len, t->size - t->len, format, args);
    va_end(args);
    if (n > 0)
        t->len += (size_t)n < t->size - t->len ? (size_t)n : t->size - t->len - 1;
}

static void emit_name(fz_reader *r, text_buf *t)
{
    static const char *const names[] = { "self", "other", "x", "None", "Tensor", "int", "_",
                                         "a1", "True", "alpha" };
    uint8_t k = fz_byte(r);

    if (k < 230)
        emit(t, "%s", names[k % 10]);
    else    /* 62 to 65 characters */
        emit(t, "n%0*d", (int)fz_range(r, 61, 64), 7);
}

static void emit_token(fz_reader *r, text_buf *t)
{
    static const char *const tokens[] = { "(", ")", ",", "*", "?", "=", "[", "]", "::", ".",
                                          "->", "-", " ", "\t", "\n", "\r", "1", "x", "Tensor",
                                          "int[", "#", "\"", "=None", "-> Tensor" };

    emit(t, "%s", tokens[fz_byte(r) % (sizeof tokens / sizeof tokens[0])]);
}

static void emit_int(fz_reader *r, text_buf *t)
{
    static const char *const odd[] = { "9223372036854775807", "-9223372036854775808",
                                       "9223372036854775808", "-9223372036854775809",
                                       "99999999999999999999", "0x10", "1e3", "-0", "007", "1." };
    uint8_t k = fz_byte(r);

    if (k < 230)
        emit(t, "%lld", (long long)fz_int64(r));
    else
        emit(t, "%s", odd[k % 10]);
}

static void emit_double(fz_reader *r, text_buf *t)
{
    static const char *const odd[] = { "1e400", "-1e400", "1e-400", "4.9e-324", "0x1p-1074",
                                       "0x1.8p3", "1e308", "2.2250738585072014e-308", "-0.0",
                                       "1.0000000000000001e-05", "5.", "0.1", "1e", "1e+" };
    uint8_t k = fz_byte(r);
    double x = fz_double(r);

    if (k >= 220)
        emit(t, "%s", odd[k % 14]);
    else if (!isfinite(x))
        emit(t, "%s", x > 0 ? "1e999" : "-1e999");
    else
        emit(t, k % 3 == 0 ? "%.17g" : k % 3 == 1 ? "%g" : "%a", x);
}

static void emit_argument(fz_reader *r, text_buf *t)
{
    static const char *const types[] = { "Tensor", "int", "float", "bool", "Scalar", "int[]",
                                         "int[1]", "int[2]", "int[16]", "int[0]", "int[17]" };
    uint8_t k = fz_byte(r);
    size_t type = k < 248 ? k % 9 : 9 + k % 2;    /* int[0], int[17]: seldom */

    k = fz_byte(r);

    emit(t, "%s%s ", types[type], k & 1 ? "?" : "");
    emit_name(r, t);
    if (k & 6)
        return;
    emit(t, "=");
    k = fz_byte(r);
    if (k < 24) {
        emit(t, "None");
        return;
    }
    if (k < 32) {
        emit_token(r, t);
        return;
    }
    switch (type) {
    case 0: emit(t, "None"); break;
    case 1: emit_int(r, t); break;
    case 2: emit_double(r, t); break;
    case 3: emit(t, k & 8 ? "True" : "False"); break;
    case 4: if (k & 8) emit_int(r, t); else emit_double(r, t); break;
    default:
        if (type != 5 && k & 8) {
            emit_int(r, t);
        } else {
            int n = (int)fz_range(r, 0, 17);

            emit(t, "[");
            for (int i = 0; i < n; i++) {
                emit(t, i > 0 ? ", " : "");
                emit_int(r, t);
            }
            emit(t, "]");
        }
    }
}

static void generate_schema(fz_reader *r, text_buf *t)
{
    int nargs = fz_byte(r) < 240 ? (int)fz_range(r, 0, 6) : 9;
    int star = (int)fz_range(r, -1, 9);
    uint8_t k = fz_byte(r);

    if (k & 1) {
        emit_name(r, t);
        emit(t, "::");
    }
    emit_name(r, t);
    if (k & 2) {
        emit(t, ".");
        emit_name(r, t);
    }
    emit(t, "(");
    for (int i = 0; i < nargs; i++) {
        if (i > 0)
            emit(t, ", ");
        if (i == star)
            emit(t, "*, ");
        if (fz_byte(r) < 8)
            emit_token(r, t);
        emit_argument(r, t);
    }
    if (star == nargs)
        emit(t, nargs > 0 ? ", *" : "*");
    emit(t, ")%s", k & 4 ? "->Tensor" : " -> Tensor");
    if (k >= 248)
        emit_token(r, t);
}

static void schema_program(fz_reader *r, uint8_t choice)
{
    static char long_ns[TC_NAME_MAX + 8];
    static const char *const namespaces[] = { "aten", "fz", "", long_ns, "a_very_long_one_9" };
    char text[4097];
    size_t n = r->size - r->pos < sizeof text - 1 ? r->size - r->pos : sizeof text - 1;
    const char *ns;
    tc_schema plain, with_ns;
    int s1, s2;

    memset(long_ns, 'n', sizeof long_ns - 1);    /* TC_NAME_MAX + 7 characters */
    ns = namespaces[choice % 5];
    if ((choice / 5) % 3 == 0) {                 /* the rest as the text, up to a NUL */
        memcpy(text, r->data + r->pos, n);
        text[n] = '\0';
        r->pos = r->size;
    } else {                                     /* generated */
        text_buf t = { text, sizeof text, 0 };

        text[0] = '\0';
        generate_schema(r, &t);
    }
    s1 = check_parse(text, NULL, &plain);
    s2 = check_parse(text, ns, &with_ns);
    /* The namespace lengthens the printed form ("fz::" before the name),
       which may then pass the parser's limit of 511 characters. */
    bool longer_with_ns = s1 == 0 && s2 == -1 && parse_too_long;
    if (strlen(ns) >= TC_NAME_MAX)               /* refused only where it is used */
        FZ_CHECK(s2 == -1 || s1 == -1 || strstr(text, "::") != NULL,
                 "a namespace too long was accepted: %s", text);
    else
        FZ_CHECK(s1 == s2 || longer_with_ns, "parsed %s with the namespace %s but %s without: %s",
                 s2 == 0 ? "" : "not", ns, s1 == 0 ? "" : "not", text);
    if (s1 == 0 && s2 == 0) {
        FZ_CHECK(same_schema(&plain, &with_ns, false), "the namespace changed more: %s", text);
        FZ_CHECK(plain.ns[0] != '\0' ? strcmp(plain.ns, with_ns.ns) == 0
                                     : strcmp(with_ns.ns, ns) == 0,
                 "namespaces %s and %s: %s", plain.ns, with_ns.ns, text);
    }
    tc_clear_error();
}

/* ---- arguments ------------------------------------------------------------ */

typedef struct {
    tc_value values[8];
    int n;
    tc_tensor *owned[8];              /* the tensors to release */
    tc_shape shapes[8], strides[8];   /* of each tensor argument, before the call */
    int64_t offsets[8];
} arguments;

static tc_value tensor_value(fz_reader *r, arguments *a)
{
    tc_tensor *t;
    uint8_t kind = fz_byte(r);

    if (kind < 8)
        return tc_value_tensor(NULL);    /* the earlier failure's NULL */
    if (kind < 40)
        t = kind & 2 ? tc_number_double(fz_double(r))
          : kind & 4 ? tc_number_bool(fz_bool(r)) : tc_number_int64(fz_int64(r));
    else
        t = fz_operand(r, 4, 4);
    if (t == NULL) {
        tc_clear_error();
        return tc_value_none();
    }
    if (kind >= 200 && (t->dtype == TC_FLOAT32 || t->dtype == TC_FLOAT64) &&
        ag_set_requires_grad(t, true) != 0)
        tc_clear_error();                /* a view: not a leaf */
    a->owned[a->n] = t;
    return tc_value_tensor(t);
}

static tc_value ints_value(fz_reader *r)
{
    tc_shape s;

    if (fz_byte(r) < 32)
        return tc_value_ints(fz_wild_shape(r));
    s = (tc_shape){ .dim = fz_range(r, 0, 4) };
    for (int64_t d = 0; d < s.dim; d++)
        s.sizes[d] = fz_byte(r) < 220 ? fz_range(r, -2, 5) : fz_int64(r);
    return tc_value_ints(s);
}

static tc_value any_value(fz_reader *r, arguments *a, int tag)
{
    switch (tag) {
    case TC_VALUE_TENSOR: return tensor_value(r, a);
    case TC_VALUE_INT: return tc_value_int(fz_int64(r));
    case TC_VALUE_DOUBLE: return tc_value_double(fz_double(r));
    case TC_VALUE_BOOL: return tc_value_bool(fz_bool(r));
    case TC_VALUE_INTS: return ints_value(r);
    default: return tc_value_none();
    }
}

/* A value for argument a of a schema: mostly of its type. */
static tc_value value_for(fz_reader *r, arguments *args, const tc_argument *a)
{
    uint8_t k = fz_byte(r);

    if (k < 16 && a->optional)
        return tc_value_none();
    if (k >= 220)
        return any_value(r, args, k % 6);
    switch (a->type) {
    case TC_TYPE_TENSOR: return tensor_value(r, args);
    case TC_TYPE_INT: return any_value(r, args, k < 24 ? TC_VALUE_BOOL : TC_VALUE_INT);
    case TC_TYPE_FLOAT: return any_value(r, args, k < 40 ? TC_VALUE_INT : TC_VALUE_DOUBLE);
    case TC_TYPE_BOOL: return any_value(r, args, k < 40 ? TC_VALUE_INT : TC_VALUE_BOOL);
    case TC_TYPE_INTS:
        return a->list_size > 0 && k < 60 ? tc_value_int(fz_range(r, -2, 4)) : ints_value(r);
    case TC_TYPE_SCALAR: return any_value(r, args, TC_VALUE_INT + k % 3);
    }
    return tc_value_none();
}

/* 0 to 6 arguments, mostly as schema (if any) asks. */
static void make_arguments(fz_reader *r, arguments *a, const tc_schema *schema)
{
    int n = (int)fz_range(r, 0, 6);

    if (schema != NULL && fz_byte(r) < 200)    /* often the schema's own count */
        n = schema->nargs - (fz_byte(r) < 40 ? (int)fz_range(r, 0, 2) : 0);
    if (n < 0)
        n = 0;
    memset(a, 0, sizeof *a);
    for (a->n = 0; a->n < n; a->n++) {
        tc_value v = schema != NULL && a->n < schema->nargs
                         ? value_for(r, a, &schema->args[a->n])
                         : any_value(r, a, fz_byte(r) % 6);
        const tc_tensor *t = v.tag == TC_VALUE_TENSOR ? v.as.tensor : NULL;

        a->values[a->n] = v;
        if (t != NULL) {
            a->shapes[a->n] = tc_shape_of(t);
            a->strides[a->n] = (tc_shape){ .dim = t->dim };
            memcpy(a->strides[a->n].sizes, t->strides, sizeof t->strides);
            a->offsets[a->n] = t->storage_offset;
        }
    }
}

/* The arguments kept their shapes, strides and offsets; then released. */
static void release_arguments(arguments *a, const char *what)
{
    for (int i = 0; i < a->n; i++) {
        const tc_tensor *t = a->owned[i];

        if (t == NULL)
            continue;
        fz_check_shape(t, a->shapes[i], what);
        FZ_CHECK(t->storage_offset == a->offsets[i] &&
                     memcmp(t->strides, a->strides[i].sizes,
                            (size_t)t->dim * sizeof t->strides[0]) == 0,
                 "%s: argument %d changed its strides or offset", what, i);
    }
    for (int i = 0; i < a->n; i++)
        tc_release(a->owned[i]);
}

/* ---- calls of the library's operators ------------------------------------ */

static const char *const names[] = {
    "aten::nope", "nope", "aten::add", "add", "aten::pow", "sum", "aten::mean",
    "aten::transpose", "aten::add.Scalar", "aten::add.", "::add", "aten::", "", ".Tensor",
    "aten::square", "square", "fz::op0", "aten::add.Tensor.x", "aten::sum.dim_IntList",
    "aten::view", "reshape", "aten::matmul", "mm", "aten::::add",
    "aten::a_name_that_is_longer_than_the_sixty_four_characters_a_name_may_have_in_the_registry",
};

typedef tc_tensor *unary(const tc_tensor *);

/* The elementwise operators, for a comparison with the library function. */
static unary *direct_function(const tc_op *op)
{
    static const struct { const char *name; unary *f; } fns[] = {
        { "aten::neg", tc_neg }, { "aten::exp", tc_exp }, { "aten::log", tc_log },
        { "aten::sqrt", tc_sqrt }, { "aten::abs", tc_abs }, { "aten::relu", tc_relu },
        { "aten::sigmoid", tc_sigmoid }, { "aten::tanh", tc_tanh }, { "aten::sum", tc_sum },
        { "aten::mean", tc_mean }, { "aten::t", tc_t }, { "aten::clone", tc_clone },
    };

    for (size_t i = 0; op != NULL && i < sizeof fns / sizeof fns[0]; i++)
        if (strcmp(tc_op_name(op), fns[i].name) == 0)
            return fns[i].f;
    return NULL;
}

static void call_program(fz_reader *r)
{
    const tc_op *op = NULL;
    const char *name;
    const tc_schema *schema = NULL;
    arguments a;
    tc_tensor *out;
    bool by_name, grad_mode;
    unary *direct;

    if (fz_byte(r) < 200) {
        op = tc_op_at((int)fz_range(r, 0, native_count - 1));
        FZ_CHECK(op != NULL, "tc_op_at of a defined index failed");
        name = tc_op_name(op);
        schema = tc_op_schema(op);
        if (fz_byte(r) < 32) {    /* by its name without the overload */
            static char plain[2 * TC_NAME_MAX + 4];

            snprintf(plain, sizeof plain, "%s::%s", schema->ns, schema->name);
            name = plain;
            op = NULL;
        }
    } else {
        name = names[fz_byte(r) % (sizeof names / sizeof names[0])];
        tc_clear_error();
        op = tc_op_find(name);    /* NULL (with a message) for most */
        if (op == NULL)
            tc_clear_error();
        else
            schema = tc_op_schema(op);
    }
    make_arguments(r, &a, schema);
    by_name = op == NULL || fz_bool(r);
    grad_mode = ag_set_grad_enabled(fz_byte(r) < 200);
    tc_clear_error();
    out = by_name ? tc_call_boxed(name, a.n, a.values) : tc_op_call(op, a.n, a.values);
    ag_set_grad_enabled(grad_mode);
    if (getenv("FZ_TRACE"))
        fz_trace(name, NULL, out);
    if (out == NULL) {
        fz_check_failed(name);
    } else {
        fz_check_no_error(name);
        fz_check_in_storage(out);
        direct = direct_function(op);
        if (direct != NULL && !by_name && a.n == 1 && a.values[0].tag == TC_VALUE_TENSOR) {
            tc_tensor *expected = direct(a.values[0].as.tensor);

            FZ_CHECK(expected != NULL, "%s succeeded but the function failed", name);
            fz_check_same_values(out, expected, name);
            tc_release(expected);
        }
    }
    tc_release(out);
    release_arguments(&a, name);
    tc_clear_error();
}

/* ---- registering kernels on an operator of our own ------------------------ */

enum { MAX_KERNELS = 3, TRACE_MAX = 16 };

typedef enum { OWN_NUMBER, OWN_CLONE, OWN_FAIL, OWN_NULL, OWN_FIRST } result_kind;
typedef enum { NO_REDISPATCH, BELOW_AUTOGRAD, BELOW_CPU } redispatch_kind;

/* One kernel of ours: what it does when it runs. */
typedef struct {
    int id;                           /* 1, 2, 3 */
    tc_dispatch_key key;
    bool fallthrough, unboxed, removed;
    result_kind result;
    redispatch_kind redispatch;
    tc_registration *handle;
} kernel;

static kernel *kernels;               /* of the running input */
static int nkernels;
static int trace[TRACE_MAX], ntrace;  /* the ids of the kernels that ran, in order */
static const tc_schema *current_schema;

static void note(int id)
{
    if (ntrace < TRACE_MAX)
        trace[ntrace] = id;
    ntrace++;
}

/* The arguments a kernel sees are the schema's, of its types. */
static void check_kernel_arguments(const tc_value *args)
{
    const tc_schema *s = current_schema;

    for (int i = 0; i < s->nargs; i++) {
        const tc_argument *a = &s->args[i];
        const tc_value *v = &args[i];
        bool ok;

        switch (a->type) {
        case TC_TYPE_TENSOR: ok = v->tag == TC_VALUE_TENSOR && v->as.tensor != NULL; break;
        case TC_TYPE_INT: ok = v->tag == TC_VALUE_INT; break;
        case TC_TYPE_FLOAT: ok = v->tag == TC_VALUE_DOUBLE; break;
        case TC_TYPE_BOOL: ok = v->tag == TC_VALUE_BOOL; break;
        case TC_TYPE_INTS:
            ok = v->tag == TC_VALUE_INTS && v->as.ints.dim >= 0 &&
                 v->as.ints.dim <= TC_MAX_DIMS;
            break;
        default:
            ok = v->tag == TC_VALUE_INT || v->tag == TC_VALUE_DOUBLE || v->tag == TC_VALUE_BOOL;
        }
        ok = ok || (v->tag == TC_VALUE_NONE &&
                    (a->optional || (a->has_default && a->default_value.tag == TC_VALUE_NONE)));
        FZ_CHECK(ok, "a kernel got argument %d (%s) of tag %d", i, a->name, (int)v->tag);
    }
}

static const tc_tensor *first_tensor(const tc_value *args, int n)
{
    for (int i = 0; i < n; i++)
        if (args[i].tag == TC_VALUE_TENSOR && args[i].as.tensor != NULL)
            return args[i].as.tensor;
    return NULL;
}

static tc_tensor *own_result(const kernel *k, const tc_value *args, int n)
{
    const tc_tensor *first = first_tensor(args, n);

    switch (k->result) {
    case OWN_FAIL: return tc_fail("fz kernel %d failed", k->id);
    case OWN_NULL: return NULL;
    case OWN_CLONE: if (first != NULL) return tc_clone(first); break;
    case OWN_FIRST: if (first != NULL) return tc_retain((tc_tensor *)first); break;
    case OWN_NUMBER: break;
    }
    return tc_number_int64(k->id);
}

static tc_tensor *boxed_kernel(const tc_op *op, tc_keyset keys, const tc_value *args,
                               void *context)
{
    const kernel *k = context;

    FZ_CHECK(k >= kernels && k < kernels + nkernels && !k->removed,
             "a call reached a kernel that is not registered");
    note(k->id);
    check_kernel_arguments(args);
    FZ_CHECK((keys & ~(tc_keyset)3) == 0, "keys %#x", (unsigned)keys);
    if (k->redispatch == BELOW_AUTOGRAD && (keys & (1u << TC_KEY_AUTOGRAD_CPU)))
        return tc_op_redispatch(op, keys, TC_KEY_AUTOGRAD_CPU, args);
    if (k->redispatch == BELOW_CPU && keys != 0)
        return tc_op_redispatch(op, keys, TC_KEY_CPU, args);
    return own_result(k, args, tc_op_schema(op)->nargs);
}

/* Unboxed kernels of 1 to 4 tensors: the kernel of that id. */
static const kernel *kernel_of_id(int id)
{
    for (int i = 0; i < nkernels; i++)
        if (kernels[i].id == id && kernels[i].unboxed && !kernels[i].removed)
            return &kernels[i];
    fz_finding(__FILE__, __LINE__, "kernel_of_id", "a call reached unboxed kernel %d, "
               "which is not registered", id);
}

static tc_tensor *unboxed(int id, const tc_tensor *x, const tc_tensor *y, const tc_tensor *z,
                          const tc_tensor *w)
{
    const kernel *k = kernel_of_id(id);
    tc_value args[4] = { tc_value_tensor(x), tc_value_tensor(y), tc_value_tensor(z),
                         tc_value_tensor(w) };
    int n = current_schema->nargs;

    note(id);
    for (int i = 0; i < n; i++)
        FZ_CHECK(args[i].as.tensor != NULL ||
                     (current_schema->args[i].has_default &&
                      current_schema->args[i].default_value.tag == TC_VALUE_NONE),
                 "unboxed kernel %d got NULL for argument %d", id, i);
    return own_result(k, args, n);
}

#define UNBOXED(id)                                                                      \
    static tc_tensor *unboxed1_##id(const tc_tensor *x) { return unboxed(id, x, NULL, NULL, NULL); } \
    static tc_tensor *unboxed2_##id(const tc_tensor *x, const tc_tensor *y)               \
    { return unboxed(id, x, y, NULL, NULL); }                                             \
    static tc_tensor *unboxed3_##id(const tc_tensor *x, const tc_tensor *y, const tc_tensor *z) \
    { return unboxed(id, x, y, z, NULL); }                                                \
    static tc_tensor *unboxed4_##id(const tc_tensor *x, const tc_tensor *y, const tc_tensor *z, \
                                    const tc_tensor *w)                                   \
    { return unboxed(id, x, y, z, w); }
UNBOXED(1)
UNBOXED(2)
UNBOXED(3)

static tc_unboxed_fn *unboxed_fn(int id, int nargs)
{
    tc_unboxed_fn *const fns[3][4] = {
        { (tc_unboxed_fn *)unboxed1_1, (tc_unboxed_fn *)unboxed2_1, (tc_unboxed_fn *)unboxed3_1,
          (tc_unboxed_fn *)unboxed4_1 },
        { (tc_unboxed_fn *)unboxed1_2, (tc_unboxed_fn *)unboxed2_2, (tc_unboxed_fn *)unboxed3_2,
          (tc_unboxed_fn *)unboxed4_2 },
        { (tc_unboxed_fn *)unboxed1_3, (tc_unboxed_fn *)unboxed2_3, (tc_unboxed_fn *)unboxed3_3,
          (tc_unboxed_fn *)unboxed4_3 },
    };

    return fns[id - 1][nargs >= 1 && nargs <= 4 ? nargs - 1 : 0];
}

/* ---- the model ------------------------------------------------------------- */

/* The newest registration of ours still at key; NULL if none. */
static const kernel *top(tc_dispatch_key key)
{
    const kernel *newest = NULL;

    for (int i = 0; i < nkernels; i++)    /* registered in order: the last is the newest */
        if (!kernels[i].removed && kernels[i].handle != NULL && kernels[i].key == key)
            newest = &kernels[i];
    return newest;
}

static const kernel fallthrough_entry = { .fallthrough = true };

/* OperatorEntry's computeDispatchTableEntry, as CH08 describes it. */
static const kernel *entry(tc_dispatch_key key)
{
    const kernel *own = top(key), *math = top(TC_KEY_COMPOSITE_IMPLICIT_AUTOGRAD);

    if (own != NULL)
        return own;
    if (math != NULL && !(key == TC_KEY_AUTOGRAD_CPU && top(TC_KEY_CPU) != NULL))
        return math;
    return key == TC_KEY_AUTOGRAD_CPU ? &fallthrough_entry : NULL;
}

/* What a call with these keys does: the kernels it runs (appended to
   expect) and whether it succeeds; *result_id: the kernel whose own result
   it returns. */
static bool model_dispatch(tc_keyset keys, bool has_tensor, int *expect, int *nexpect,
                           const kernel **result)
{
    const kernel *k = NULL;
    tc_keyset below = 0;

    for (int key = TC_KEY_AUTOGRAD_CPU; key >= TC_KEY_CPU && k == NULL; key--) {
        if ((keys & (1u << key)) == 0)
            continue;
        k = entry((tc_dispatch_key)key);
        if (k == NULL)
            return false;                        /* "Could not run ..." */
        if (k->fallthrough) {
            keys &= ~(1u << key);
            k = NULL;
            continue;
        }
        below = keys & ((1u << (key + 1)) - 1);
    }
    if (k == NULL) {                             /* no key left */
        k = top(TC_KEY_COMPOSITE_IMPLICIT_AUTOGRAD);
        if (k == NULL || k->fallthrough)
            return false;                        /* "There were no tensor arguments ..." */
        below = 0;
    }
    if (*nexpect < TRACE_MAX)
        expect[*nexpect] = k->id;
    (*nexpect)++;
    if (*nexpect > 8)
        return false;    /* cannot happen: each redispatch drops a key */
    if (!k->unboxed && k->redispatch == BELOW_AUTOGRAD && (below & 2u))
        return model_dispatch(below & 1u, has_tensor, expect, nexpect, result);
    if (!k->unboxed && k->redispatch == BELOW_CPU && below != 0)
        return model_dispatch(0, has_tensor, expect, nexpect, result);
    *result = k;
    return k->result != OWN_FAIL && k->result != OWN_NULL;
}

/* ---- the register program ---------------------------------------------------- */

static const char *const arg_types[] = {
    "Tensor", "Tensor?", "int", "float", "bool", "int[]", "int[2]", "Scalar", "Scalar?",
    "int[1]?", "bool?",
};
static const char *const arg_defaults[] = {
    "None", "None", "-3", "2.5", "True", "[1, 2]", "4", "1", "None", "None", "False",
};

/* "fz::opHASH.overload(args) -> Tensor", the hash of the rest. */
static void make_schema(fz_reader *r, char text[TC_SCHEMA_MAX])
{
    char rest[TC_SCHEMA_MAX - 64];
    size_t len = 0;
    int nargs = (int)fz_range(r, 0, 3);    /* a bounded number of schemas, of operators */
    bool star = false;
    uint32_t hash = 2166136261u;

    len += (size_t)snprintf(rest + len, sizeof rest - len, "%s(",
                            fz_byte(r) < 128 ? "" : fz_bool(r) ? ".a" : ".Tensor");
    for (int i = 0; i < nargs; i++) {
        uint8_t k = fz_byte(r);
        size_t t = fz_byte(r) < 160 ? 0 : fz_byte(r) % (sizeof arg_types / sizeof arg_types[0]);

        if (!star && k >= 240) {    /* the rest keyword-only */
            len += (size_t)snprintf(rest + len, sizeof rest - len, "%s*", i > 0 ? ", " : "");
            star = true;
        }
        len += (size_t)snprintf(rest + len, sizeof rest - len, "%s%s x%d%s%s",
                                i > 0 || star ? ", " : "", arg_types[t], i,
                                k % 4 == 0 ? "=" : "", k % 4 == 0 ? arg_defaults[t] : "");
    }
    snprintf(rest + len, sizeof rest - len, ") -> Tensor");
    for (const char *p = rest; *p != '\0'; p++)
        hash = (hash ^ (uint8_t)*p) * 16777619u;
    snprintf(text, TC_SCHEMA_MAX, "fz::op%08x%s", (unsigned)hash, rest);
}

static void check_call(const tc_op *op, fz_reader *r)
{
    arguments a;
    tc_tensor *out;
    int expect[TRACE_MAX], nexpect = 0;
    const kernel *result = NULL;
    bool expect_ok, has_tensor = false, fits;
    tc_value checked[TC_MAX_ARGS];
    tc_schema const *s = tc_op_schema(op);

    make_arguments(r, &a, s);
    /* Would the arguments fit the schema? Then the call dispatches. */
    fits = a.n <= s->nargs;
    for (int i = 0; fits && i < s->nargs; i++) {
        const tc_argument *arg = &s->args[i];
        const tc_value *v = i < a.n ? &a.values[i] : NULL;

        if (v == NULL) {
            fits = arg->has_default;
            checked[i] = fits ? arg->default_value : tc_value_none();
        } else if (v->tag == TC_VALUE_NONE) {
            fits = arg->optional;
            checked[i] = *v;
        } else {
            fits = false;    /* decided below */
            checked[i] = *v;
            switch (arg->type) {
            case TC_TYPE_TENSOR: fits = v->tag == TC_VALUE_TENSOR && v->as.tensor != NULL; break;
            case TC_TYPE_INT: fits = v->tag == TC_VALUE_INT || v->tag == TC_VALUE_BOOL; break;
            case TC_TYPE_INTS:
                fits = (v->tag == TC_VALUE_INTS && v->as.ints.dim >= 0 &&
                        v->as.ints.dim <= TC_MAX_DIMS) ||
                       (v->tag == TC_VALUE_INT && arg->list_size > 0);
                break;
            default:
                fits = v->tag == TC_VALUE_INT || v->tag == TC_VALUE_DOUBLE ||
                       v->tag == TC_VALUE_BOOL;
            }
        }
        has_tensor = has_tensor || (fits && checked[i].tag == TC_VALUE_TENSOR);
    }
    for (int i = 0; fits && i < a.n; i++)    /* a NULL tensor anywhere is an error */
        fits = !(a.values[i].tag == TC_VALUE_TENSOR && a.values[i].as.tensor == NULL);
    expect_ok = fits && model_dispatch(has_tensor ? 3u : 0u, has_tensor, expect, &nexpect,
                                       &result);
    if (!fits)
        nexpect = 0;

    ntrace = 0;
    tc_clear_error();
    out = fz_bool(r) ? tc_op_call(op, a.n, a.values) : tc_call_boxed(tc_op_name(op), a.n, a.values);
    if (out == NULL)
        fz_check_failed(tc_op_name(op));
    else
        fz_check_no_error(tc_op_name(op));
    FZ_CHECK((out != NULL) == expect_ok, "%s: the call %s, the model says it %s",
             tc_op_name(op), out != NULL ? "succeeded" : "failed",
             expect_ok ? "succeeds" : "fails");
    FZ_CHECK(ntrace == nexpect, "%s: %d kernels ran, the model says %d", tc_op_name(op),
             ntrace, nexpect);
    for (int i = 0; i < ntrace && i < TRACE_MAX; i++)
        FZ_CHECK(trace[i] == expect[i], "%s: kernel %d ran %d-th, the model says %d",
                 tc_op_name(op), trace[i], i, expect[i]);
    if (out != NULL) {
        fz_check_in_storage(out);
        if (result->result == OWN_NUMBER || first_tensor(checked, s->nargs) == NULL)
            FZ_CHECK(out->dim == 0 && tc_load_int64(out, out->storage_offset) == result->id,
                     "the result is not kernel %d's", result->id);
        else if (result->result == OWN_FIRST)
            FZ_CHECK(out == first_tensor(checked, s->nargs), "not the first tensor");
    }
    tc_release(out);
    release_arguments(&a, tc_op_name(op));
}

static void register_program(fz_reader *r)
{
    char text[TC_SCHEMA_MAX], other[TC_SCHEMA_MAX + 16];
    kernel ks[MAX_KERNELS];
    tc_op *op;
    int n, order[MAX_KERNELS];

    make_schema(r, text);
    tc_clear_error();
    op = tc_op_def(text);
    FZ_CHECK(op != NULL, "tc_op_def of %s", text);
    fz_check_no_error("tc_op_def");
    FZ_CHECK(tc_op_def(text) == op, "defined twice: two operators");
    FZ_CHECK(tc_op_find(tc_op_name(op)) == op, "tc_op_find did not find %s", tc_op_name(op));
    if (fz_byte(r) < 32) {    /* the same name, another schema: refused */
        snprintf(other, sizeof other, "%.*s(Tensor zz) -> Tensor", (int)strcspn(text, "("),
                 text);
        tc_clear_error();
        FZ_CHECK(tc_op_def(other) == NULL, "redefined with another schema: %s", other);
        FZ_CHECK(tc_error() != NULL && strncmp(tc_error(), "Tried to register an operator (",
                                               31) == 0,
                 "redefinition: another message");
        tc_clear_error();
    }
    current_schema = tc_op_schema(op);
    n = (int)fz_range(r, 1, MAX_KERNELS);
    memset(ks, 0, sizeof ks);
    kernels = ks;
    nkernels = 0;
    for (int i = 0; i < n; i++) {
        kernel *k = &ks[i];
        bool overriding;
        uint8_t how = fz_byte(r);

        k->id = i + 1;
        k->key = (tc_dispatch_key)fz_range(r, 0, TC_NUM_KEYS - 1);
        k->result = (result_kind)(fz_byte(r) % 5);
        k->redispatch = (redispatch_kind)(fz_byte(r) % 3);
        k->fallthrough = how < 24;
        k->unboxed = !k->fallthrough && how >= 200;
        overriding = top(k->key) != NULL;
        nkernels = i + 1;
        tc_op_clear_warning();
        tc_clear_error();
        if (k->fallthrough)
            k->handle = tc_op_impl_fallthrough(op, k->key);
        else if (k->unboxed)
            k->handle = tc_op_impl_unboxed(op, k->key, unboxed_fn(k->id, current_schema->nargs),
                                           "fz unboxed");
        else
            k->handle = tc_op_impl_boxed(op, k->key, boxed_kernel, k, "fz boxed");
        if (k->handle == NULL) {    /* only an unboxed kernel of another schema */
            bool unboxable = current_schema->nargs >= 1 && current_schema->nargs <= 4;

            for (int j = 0; j < current_schema->nargs; j++)
                unboxable = unboxable && current_schema->args[j].type == TC_TYPE_TENSOR &&
                            !current_schema->args[j].optional;
            FZ_CHECK(k->unboxed && !unboxable, "registration %d failed", k->id);
            fz_check_failed("tc_op_impl_unboxed");
            FZ_CHECK(tc_op_warning() == NULL, "a refused registration warned");
            continue;
        }
        fz_check_no_error("tc_op_impl");
        FZ_CHECK((tc_op_warning() != NULL) == overriding, "registration %d: %s", k->id,
                 overriding ? "no warning" : "a warning without an override");
        FZ_CHECK(!overriding || strstr(tc_op_warning(), "Overriding a previously registered "
                                                        "kernel") == tc_op_warning(),
                 "another warning");
        if (fz_bool(r))
            check_call(op, r);
    }
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = n - 1; i > 0; i--) {    /* remove in an order the input chooses */
        int j = (int)fz_range(r, 0, i), t = order[i];

        order[i] = order[j];
        order[j] = t;
    }
    check_call(op, r);
    for (int i = 0; i < n; i++) {
        kernel *k = &ks[order[i]];

        if (k->handle == NULL)
            continue;
        tc_registration_remove(k->handle);
        if (fz_byte(r) < 16)
            tc_registration_remove(k->handle);    /* twice: nothing more happens */
        k->removed = true;
        if (fz_bool(r))
            check_call(op, r);
    }
    check_call(op, r);    /* nothing left: "Could not run", or no tensors: no fallback */
    kernels = NULL;
    nkernels = 0;
    current_schema = NULL;
    tc_op_clear_warning();
    tc_clear_error();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_reader r = fz_reader_of(data, size);
    uint8_t choice = fz_byte(&r);

    if (native_count == 0)
        native_count = tc_op_count();
    FZ_CHECK(native_count > 0, "the library registered no operators");
    tc_clear_error();
    switch (choice % 3) {
    case 0: schema_program(&r, choice / 3); break;
    case 1: call_program(&r); break;
    default: register_program(&r); break;
    }
    return 0;
}
