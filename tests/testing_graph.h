/* testing_graph.h: checks of a graph's nodes, for the suites of chapter 5
   on (static, so each suite that includes it gets its own copy; testing.c
   cannot hold them: snapshots 1-4 have no autograd). */
#ifndef TESTING_GRAPH_H
#define TESTING_GRAPH_H

#include <check.h>
#include <string.h>

#include "tc.h"

typedef struct {
    const char *name;    /* type name of the next node, or NULL */
    int input_nr;
} edge_spec;

/* fn's type name, name() and next_functions, against what PyTorch prints. */
static void expect_node(int line, const ag_node *fn, const char *type, const char *name,
                        int n, const edge_spec *next)
{
    ck_assert_msg(fn != NULL, "line %d: no grad_fn, expected %s", line, type);
    ck_assert_msg(strcmp(ag_node_type_name(fn), type) == 0, "line %d: type %s, expected %s",
                  line, ag_node_type_name(fn), type);
    ck_assert_msg(strcmp(ag_node_name(fn), name) == 0, "line %d: name() %s, expected %s", line,
                  ag_node_name(fn), name);
    ck_assert_msg(ag_node_num_next(fn) == n, "line %d: %s has %d next_functions, expected %d",
                  line, type, ag_node_num_next(fn), n);
    for (int j = 0; j < n; j++) {
        ag_edge e = ag_node_next(fn, j);
        if (next[j].name == NULL)
            ck_assert_msg(e.node == NULL, "line %d: %s edge %d leads to %s, expected None",
                          line, type, j, ag_node_type_name(e.node));
        else
            ck_assert_msg(e.node != NULL && strcmp(ag_node_type_name(e.node), next[j].name) == 0,
                          "line %d: %s edge %d leads to %s, expected %s", line, type, j,
                          e.node ? ag_node_type_name(e.node) : "None", next[j].name);
        ck_assert_msg(e.input_nr == next[j].input_nr,
                      "line %d: %s edge %d input_nr %d, expected %d", line, type, j, e.input_nr,
                      next[j].input_nr);
    }
}

/* EDGES({"MulBackward0", 0}, ACC): the count and the array of next_functions. */
#define EDGES(...) (int)(sizeof((const edge_spec[]){ __VA_ARGS__ }) / sizeof(edge_spec)), \
                   (const edge_spec[]){ __VA_ARGS__ }

#endif
