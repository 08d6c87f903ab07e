/* check_ch05_graph.h: the tests of chapter 5's section "Seeing the graph"
   (ag_repr, ag_print_graph, ag_graph_dot), written on branch demo while
   tests/check_ch05.c was being written on branch tests. Include it in
   check_ch05.c after the helpers (it uses tensor_of, LEAF, CONST, LEAF32,
   CONST32, S, S0, D and K) and call graph_tests(s) from the suite
   function. Every expected string is what PyTorch 1.13 prints for the
   expression in the comment above it (for the tree: the chapter's Python
   print_graph, run on the same graph); the DOT checks are worked out
   from the graph by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What f(stream) wrote, as a string the caller frees. */
static char *graph_written(int (*write)(FILE *, const tc_tensor *, int, const ag_named *),
                           const tc_tensor *t, int n, const ag_named *names)
{
    FILE *f = tmpfile();
    long len;
    char *text;

    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(write(f, t, n, names), 0);
    len = ftell(f);
    rewind(f);
    text = calloc((size_t)len + 1, 1);
    ck_assert_ptr_nonnull(text);
    ck_assert_int_eq((long)fread(text, 1, (size_t)len, f), len);
    fclose(f);
    return text;
}

static void assert_repr(const tc_tensor *t, const char *want)
{
    char *got = ag_repr(t);

    ck_assert_ptr_nonnull(got);
    ck_assert_str_eq(got, want);
    free(got);
}

/* repr of tensors with their autograd suffix; each string is what
   print(...) shows in PyTorch 1.13 for the expression in the comment. */
START_TEST(test_graph_repr)
{
    tc_tensor *x = LEAF32(S(3), 1, 2, 3), *w = LEAF32(S(3), 4, 5, 6);
    tc_tensor *d2 = LEAF(S(2), 1, 2), *big, *grid = K(tc_arange(0, 30, 1));

    /* torch.tensor([1., 2., 3.], requires_grad=True) */
    assert_repr(x, "tensor([1., 2., 3.], requires_grad=True)");
    /* x * w */
    assert_repr(K(ag_mul(x, w)), "tensor([ 4., 10., 18.], grad_fn=<MulBackward0>)");
    /* (x * w + x).sum() */
    assert_repr(K(ag_sum(K(ag_add(K(ag_mul(x, w)), x)))), "tensor(38., grad_fn=<SumBackward0>)");
    /* x.detach(), and a tensor that never met autograd */
    assert_repr(K(ag_detach(x)), "tensor([1., 2., 3.])");
    assert_repr(CONST32(S(2), 1, 2), "tensor([1., 2.])");
    /* d2 = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True); d2.exp().exp().neg() */
    assert_repr(K(ag_neg(K(ag_exp(K(ag_exp(d2)))))),
                "tensor([  -15.1543, -1618.1780], dtype=torch.float64, grad_fn=<NegBackward0>)");
    /* torch.tensor(2., requires_grad=True); torch.tensor(2., dtype=torch.float64,
       requires_grad=True) * 3 */
    assert_repr(tensor_of(S0, TC_FLOAT32, D(2), true), "tensor(2., requires_grad=True)");
    assert_repr(K(ag_mul_scalar(tensor_of(S0, TC_FLOAT64, D(2), true), 3)),
                "tensor(6., dtype=torch.float64, grad_fn=<MulBackward0>)");
    /* torch.ones(0, 3, dtype=torch.float64, requires_grad=True); torch.ones(0, 3,
       requires_grad=True) * 2; torch.ones(0, requires_grad=True) */
    assert_repr(tensor_of(S(0, 3), TC_FLOAT64, D(0), true),
                "tensor([], size=(0, 3), dtype=torch.float64, requires_grad=True)");
    assert_repr(K(ag_mul_scalar(tensor_of(S(0, 3), TC_FLOAT32, D(0), true), 2)),
                "tensor([], size=(0, 3), grad_fn=<MulBackward0>)");
    assert_repr(tensor_of(S(0), TC_FLOAT32, D(0), true), "tensor([], requires_grad=True)");
    /* b = (torch.arange(0, 30) * 1.5).double().requires_grad_(); b * 1000.5: the suffixes
       go to a line of their own */
    big = K(tc_empty(S(30), TC_FLOAT64));
    ck_assert_int_eq(tc_copy_(big, K(tc_mul_scalar(grid, 1.5))), 0);
    ck_assert_int_eq(ag_set_requires_grad(big, true), 0);
    assert_repr(K(ag_mul_scalar(big, 1000.5)),
                "tensor([    0.0000,  1500.7500,  3001.5000,  4502.2500,  6003.0000,  7503.7500,\n"
                "         9004.5000, 10505.2500, 12006.0000, 13506.7500, 15007.5000, 16508.2500,\n"
                "        18009.0000, 19509.7500, 21010.5000, 22511.2500, 24012.0000, 25512.7500,\n"
                "        27013.5000, 28514.2500, 30015.0000, 31515.7500, 33016.5000, 34517.2500,\n"
                "        36018.0000, 37518.7500, 39019.5000, 40520.2500, 42021.0000, 43521.7500],\n"
                "       dtype=torch.float64, grad_fn=<MulBackward0>)");
}
END_TEST

/* The tree of next_functions, as the chapter's Python print_graph prints it
   for the same graph in PyTorch 1.13. */
START_TEST(test_graph_print_tree)
{
    tc_tensor *x = LEAF(S(2), 1, 2), *w = LEAF(S(2), 3, 4), *c = CONST(S(2), 5, 6);
    /* b = x * w; d = (b + b) * (b - c): b's node is met three times */
    tc_tensor *b = K(ag_mul(x, w)), *d = K(ag_mul(K(ag_add(b, b)), K(ag_sub(b, c))));
    ag_named names[] = { { x, "x" }, { w, "w" } };
    char *text = graph_written(ag_print_graph, d, 2, names);

    ck_assert_str_eq(text, "MulBackward0\n"
                           "    (AddBackward0, 0)\n"
                           "        (MulBackward0, 0)\n"
                           "            (AccumulateGrad, 0)  x\n"
                           "            (AccumulateGrad, 0)  w\n"
                           "        (MulBackward0, 0)  (see above)\n"
                           "    (SubBackward0, 0)\n"
                           "        (MulBackward0, 0)  (see above)\n"
                           "        (None, 0)\n");
    free(text);
    /* print_graph(x.exp(), {}): no names (a count without a list is no list);
       print_graph(x, {}): a leaf has no grad_fn */
    text = graph_written(ag_print_graph, K(ag_exp(x)), 3, NULL);
    ck_assert_str_eq(text, "ExpBackward0\n    (AccumulateGrad, 0)\n");
    free(text);
    text = graph_written(ag_print_graph, x, 0, NULL);
    ck_assert_str_eq(text, "None\n");
    free(text);
}
END_TEST

/* A chain of 1000 nodes prints one line per edge, without recursion. */
START_TEST(test_graph_print_deep)
{
    tc_tensor *y = tc_retain(LEAF(S(1), 1));
    char *text;
    size_t lines = 0;

    for (int i = 0; i < 1000; i++) {
        tc_tensor *next = ag_neg(y);
        tc_release(y);
        ck_assert_ptr_nonnull(next);
        y = next;
    }
    text = graph_written(ag_print_graph, y, 0, NULL);
    for (const char *p = text; *p != '\0'; p++)
        lines += *p == '\n';
    ck_assert_uint_eq(lines, 1 + 1000);    /* the root, then one edge per node */
    free(text);
    tc_release(y);
}
END_TEST

static bool graph_has(const char *dot, const char *line)
{
    return strstr(dot, line) != NULL;
}

/* The DOT description: one box per node, one arrow per non-empty edge,
   labelled with input_nr; names escaped; dependency counts as the engine
   counts them (edges into a node from the nodes reachable from the root). */
START_TEST(test_graph_dot)
{
    tc_tensor *x = LEAF(S(3), 1, 2, 3), *c = CONST(S(3), 1, 1, 1);
    /* y = x * x + x; s = y.sum(); and z = x * c (one empty edge) */
    tc_tensor *xx = K(ag_mul(x, x)), *y = K(ag_add(xx, x)), *s = K(ag_sum(y));
    tc_tensor *z = K(ag_mul(x, c));
    ag_named names[] = { { x, "x \"leaf\"\nline 2 \\" }, { s, "s" }, { c, "unused" } };
    char *dot = ag_graph_dot(s, 3, names, "deps");
    size_t arrows = 0;

    ck_assert_ptr_nonnull(dot);
    ck_assert(strncmp(dot, "digraph autograd {\n", 19) == 0);
    ck_assert(graph_has(dot, "n0 [label=\"SumBackward0\\ndeps 0\"];"));
    ck_assert(graph_has(dot, "n1 [label=\"AddBackward0\\ndeps 1\"];"));
    ck_assert(graph_has(dot, "n2 [label=\"MulBackward0\\ndeps 1\"];"));
    ck_assert(graph_has(dot, "n3 [label=\"AccumulateGrad\\ndeps 3\", fillcolor="));
    ck_assert(graph_has(dot, "n0 -> n1 [label=\" 0\"];"));
    ck_assert(graph_has(dot, "n1 -> n2 [label=\" 0\"];"));
    ck_assert(graph_has(dot, "n1 -> n3 [label=\" 0\"];"));
    ck_assert(graph_has(dot, "n2 -> n3 [label=\" 0\"];"));
    for (const char *p = dot; (p = strstr(p, "[label=\" 0\"];")) != NULL; p++)
        arrows++;
    ck_assert_uint_eq(arrows, 5);    /* MulBackward0's two edges into one node are two */
    /* the leaf, escaped, under its AccumulateGrad; s points at its grad_fn; c,
       which needs no gradient, is not in the graph */
    ck_assert(graph_has(dot, "t0 [label=\"x \\\"leaf\\\"\\nline 2 \\\\\", shape=ellipse"));
    ck_assert(graph_has(dot, "n3 -> t0 [style=dashed, label=\" .grad\"];"));
    ck_assert(graph_has(dot, "t1 -> n0 [style=dashed, label=\" grad_fn\"];"));
    ck_assert(!graph_has(dot, "unused"));
    ck_assert(dot[strlen(dot) - 2] == '}');
    free(dot);
    /* without the word, no counts; an empty edge (x * c) draws no arrow; a
       count without a list, or a name that is NULL, is no name */
    dot = ag_graph_dot(z, 2, NULL, NULL);
    ck_assert_ptr_nonnull(dot);
    ck_assert(graph_has(dot, "n0 [label=\"MulBackward0\"];"));
    ck_assert(graph_has(dot, "n0 -> n1 [label=\" 0\"];"));
    ck_assert(!graph_has(dot, "n2"));
    free(dot);
    names[0].name = NULL;
    dot = ag_graph_dot(z, 1, names, NULL);
    ck_assert_ptr_nonnull(dot);
    ck_assert(graph_has(dot, "t0 [label=\"\", shape=ellipse"));
    free(dot);
    /* a leaf: no nodes at all */
    dot = ag_graph_dot(x, 0, NULL, NULL);
    ck_assert_ptr_nonnull(dot);
    ck_assert(!graph_has(dot, "n0"));
    free(dot);
}
END_TEST

/* Printing and drawing leave the engine's bookkeeping as it was: a backward
   after them gives the gradients of FACTS d.1. */
START_TEST(test_graph_then_backward)
{
    tc_tensor *x = LEAF(S(3), 1, 2, 3);
    tc_tensor *y = K(ag_add(K(ag_mul(x, x)), x));
    char *dot = ag_graph_dot(y, 0, NULL, "deps"), *text = graph_written(ag_print_graph, y, 0, NULL);

    free(dot);
    free(text);
    ck_assert_int_eq(ag_backward(y, CONST(S(3), 1, 1, 1), false), 0);
    /* d.1: x.grad = [3.0, 5.0, 7.0] */
    ck_assert(testing_get(ag_grad(x), IDX(0)) == 3.0);
    ck_assert(testing_get(ag_grad(x), IDX(1)) == 5.0);
    ck_assert(testing_get(ag_grad(x), IDX(2)) == 7.0);
}
END_TEST

static void graph_tests(Suite *s)
{
    TCase *tc = testing_tcase("graph", NULL, NULL);

    tcase_add_test(tc, test_graph_repr);
    tcase_add_test(tc, test_graph_print_tree);
    tcase_add_test(tc, test_graph_print_deep);
    tcase_add_test(tc, test_graph_dot);
    tcase_add_test(tc, test_graph_then_backward);
    suite_add_tcase(s, tc);
}
