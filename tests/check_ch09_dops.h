/* check_ch09_dops.h: operators on distributed tensors (helper dops).

   Three kinds of test:
   - sharding propagation on specs alone (no communication, one process):
     the placements each input is redistributed to and the output's, as
     PyTorch 2.4's rules give them (torch/distributed/_tensor/ops/
     _pointwise_ops.py, _math_ops.py, _matrix_ops.py, _einsum_strategy.py,
     _collective_utils.py); every expectation is worked out by hand from
     those rules in the comment above it, costs with a calculator;
   - each operator on 1-D and 2-D meshes of several ranks (tc_launch_fn),
     uneven shapes, against the same operator on the full tensor in the same
     process (the serial oracle), with the result's placements and this
     rank's piece checked;
   - errors, on a world of one process. */

/* ------------------------------------------------------------ specs */

#define DOP_S(d) TC_SHARD(d)
#define DOP_R TC_REPLICATE()
#define DOP_P TC_PARTIAL()

/* A spec on a 1-D mesh of n ranks, float32. */
static tc_dtensor_spec dop_spec1(int64_t n, tc_placement p, tc_shape shape)
{
    tc_dtensor_spec s = { .mesh_ndim = 1, .mesh_sizes = { n }, .placements = { p },
                          .shape = shape, .dtype = TC_FLOAT32 };
    return s;
}

/* A spec on a 2-D mesh n0 x n1, float32. */
static tc_dtensor_spec dop_spec2(int64_t n0, int64_t n1, tc_placement p0, tc_placement p1,
                                tc_shape shape)
{
    tc_dtensor_spec s = { .mesh_ndim = 2, .mesh_sizes = { n0, n1 }, .placements = { p0, p1 },
                          .shape = shape, .dtype = TC_FLOAT32 };
    return s;
}

static const char *dop_str(tc_placement p, char buf[TC_PLACEMENT_STRLEN])
{
    return tc_placement_str(p, buf);
}

/* "S(0),R" for ndim placements. */
static void dop_join(int ndim, const tc_placement *p, char *out, size_t cap)
{
    char buf[TC_PLACEMENT_STRLEN];

    out[0] = '\0';
    for (int i = 0; i < ndim; i++) {
        if (i > 0)
            strncat(out, ",", cap - strlen(out) - 1);
        strncat(out, dop_str(p[i], buf), cap - strlen(out) - 1);
    }
}

/* Assert the placements: want is "S(0),R"-style. */
#define DOP_EXPECT_PLACEMENTS(ndim, p, want)                                    \
    do {                                                                       \
        char got_[128];                                                        \
        dop_join((ndim), (p), got_, sizeof got_);                               \
        ck_assert_str_eq(got_, (want));                                        \
    } while (0)

/* The output, each input's target, the output's shape and the cost. */
#define DOP_EXPECT_SHARDING(s, ndim, out, in0, in1)                             \
    do {                                                                       \
        DOP_EXPECT_PLACEMENTS((ndim), (s).output, (out));                       \
        DOP_EXPECT_PLACEMENTS((ndim), (s).inputs[0], (in0));                    \
        if ((s).ninputs > 1)                                                   \
            DOP_EXPECT_PLACEMENTS((ndim), (s).inputs[1], (in1));                \
    } while (0)

#define DOP_COST(s, want) ck_assert_double_eq_tol((s).cost, (want), 1e-4)

/* ----------------------------------------------- elementwise propagation */

START_TEST(test_dops_pointwise_follows_most_sharded)
{
    tc_op_sharding s;
    tc_dtensor_spec in[2];

    /* add(S(0), R) on 4 ranks: follow the sharded one; R -> S(0) is a local
       chunk, free (a replicated spec costs 0). */
    in[0] = dop_spec1(4, DOP_S(0), TC_SHAPE(8, 6));
    in[1] = dop_spec1(4, DOP_R, TC_SHAPE(8, 6));
    ck_assert_int_eq(tc_propagate_pointwise(2, in, true, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(0)", "S(0)", "S(0)");
    ck_assert_int_eq(s.shape.dim, 2);
    DOP_COST(s, 0.0);

    /* mul(R, S(1)): the second has more shards. */
    in[0] = dop_spec1(4, DOP_R, TC_SHAPE(8, 6));
    in[1] = dop_spec1(4, DOP_S(1), TC_SHAPE(8, 6));
    ck_assert_int_eq(tc_propagate_pointwise(2, in, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(1)", "S(1)", "S(1)");

    /* mul(S(0), S(1)): a tie, the first wins; the second goes S(1) -> S(0),
       costed as an all_gather of its piece (192 B / 4 = 48 B) plus 1:
       6.6 + 3 * 2.7 + 48/2^30 * 3/4 / 19.294 * 1e6 + 1 = 15.70174. */
    in[0] = dop_spec1(4, DOP_S(0), TC_SHAPE(8, 6));
    in[1] = dop_spec1(4, DOP_S(1), TC_SHAPE(8, 6));
    ck_assert_int_eq(tc_propagate_pointwise(2, in, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(0)", "S(0)", "S(0)");
    DOP_COST(s, 15.70174);
}
END_TEST

START_TEST(test_dops_pointwise_broadcast)
{
    tc_op_sharding s;
    tc_dtensor_spec in[2];

    /* [4, 3] S(0) + [3] R: the vector lacks dim 0, it stays whole. */
    in[0] = dop_spec1(2, DOP_S(0), TC_SHAPE(4, 3));
    in[1] = dop_spec1(2, DOP_R, TC_SHAPE(3));
    ck_assert_int_eq(tc_propagate_pointwise(2, in, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(0)", "S(0)", "R");
    ck_assert_int_eq(s.shape.dim, 2);
    ck_assert_int_eq(s.shape.sizes[0], 4);
    ck_assert_int_eq(s.shape.sizes[1], 3);

    /* [4, 3] R + [3] S(0): the vector is followed; its dim 0 is the
       output's dim 1. */
    in[0] = dop_spec1(2, DOP_R, TC_SHAPE(4, 3));
    in[1] = dop_spec1(2, DOP_S(0), TC_SHAPE(3));
    ck_assert_int_eq(tc_propagate_pointwise(2, in, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(1)", "S(1)", "S(0)");

    /* [1, 3] S(0) + [4, 3] R: the followed input is broadcast along the cut
       dim, so it is gathered whole and the other one cut. */
    in[0] = dop_spec1(2, DOP_S(0), TC_SHAPE(1, 3));
    in[1] = dop_spec1(2, DOP_R, TC_SHAPE(4, 3));
    ck_assert_int_eq(tc_propagate_pointwise(2, in, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(0)", "R", "S(0)");
}
END_TEST

START_TEST(test_dops_pointwise_partial)
{
    tc_op_sharding s;
    tc_dtensor_spec in[2];
    tc_shape shape = TC_SHAPE(8, 6);

    /* add is linear (PyTorch 2.4's linear_pointwise_ops): P + P stays P. */
    in[0] = dop_spec1(4, DOP_P, shape);
    in[1] = dop_spec1(4, DOP_P, shape);
    ck_assert_int_eq(tc_propagate_pointwise(2, in, true, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "P", "P", "P");
    DOP_COST(s, 0.0);
    /* sub is not in 2.4's list: both sums are done first. */
    ck_assert_int_eq(tc_propagate_pointwise(2, in, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "R", "R", "R");

    /* P + R: the first is followed (no shards either way): the replicated
       input is split into a partial (R -> P, free). */
    in[1] = dop_spec1(4, DOP_R, shape);
    ck_assert_int_eq(tc_propagate_pointwise(2, in, true, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "P", "P", "P");
    DOP_COST(s, 0.0);

    /* R + P: R is followed, the partial is all-reduced: 192 bytes,
       6.6 + 7 * 2.7 + 192/2^30 * 7/4 / 19.294 * 1e6 = 25.51622. */
    in[0] = dop_spec1(4, DOP_R, shape);
    in[1] = dop_spec1(4, DOP_P, shape);
    ck_assert_int_eq(tc_propagate_pointwise(2, in, true, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "R", "R", "R");
    DOP_COST(s, 25.51622);

    /* P + S(0): the shard is followed, the partial reduce-scattered. */
    in[0] = dop_spec1(4, DOP_P, shape);
    in[1] = dop_spec1(4, DOP_S(0), shape);
    ck_assert_int_eq(tc_propagate_pointwise(2, in, true, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(0)", "S(0)", "S(0)");

    /* relu and exp are not linear: the sum is done first. */
    ck_assert_int_eq(tc_propagate_pointwise(1, in, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "R", "R", "");

    /* A pending max is not a sum: add does not pass it on. */
    in[0].placements[0] = (tc_placement){ .kind = TC_PLACEMENT_PARTIAL, .op = TC_REDUCE_MAX };
    ck_assert_int_eq(tc_propagate_pointwise(1, in, true, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "R", "R", "");
}
END_TEST

START_TEST(test_dops_pointwise_2d_mesh)
{
    tc_op_sharding s;
    tc_dtensor_spec in[2];

    /* (S(0), R) and (R, S(1)) on 2 x 2: two shards each, the first wins. */
    in[0] = dop_spec2(2, 2, DOP_S(0), DOP_R, TC_SHAPE(5, 4));
    in[1] = dop_spec2(2, 2, DOP_R, DOP_S(1), TC_SHAPE(5, 4));
    ck_assert_int_eq(tc_propagate_pointwise(2, in, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 2, "S(0),R", "S(0),R", "S(0),R");

    /* (S(1), R) against (S(0), S(1)): four shards beat two. */
    in[0] = dop_spec2(2, 2, DOP_S(1), DOP_R, TC_SHAPE(5, 4));
    in[1] = dop_spec2(2, 2, DOP_S(0), DOP_S(1), TC_SHAPE(5, 4));
    ck_assert_int_eq(tc_propagate_pointwise(2, in, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 2, "S(0),S(1)", "S(0),S(1)", "S(0),S(1)");

    /* (P, S(0)) + (R, S(0)): add keeps the pending sum, mul does it. */
    in[0] = dop_spec2(2, 2, DOP_P, DOP_S(0), TC_SHAPE(5, 4));
    in[1] = dop_spec2(2, 2, DOP_R, DOP_S(0), TC_SHAPE(5, 4));
    ck_assert_int_eq(tc_propagate_pointwise(2, in, true, &s), 0);
    DOP_EXPECT_SHARDING(s, 2, "P,S(0)", "P,S(0)", "P,S(0)");
    ck_assert_int_eq(tc_propagate_pointwise(2, in, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 2, "R,S(0)", "R,S(0)", "R,S(0)");

    /* exp of (S(1), P): the shard stays, the sum is done. */
    in[0] = dop_spec2(2, 2, DOP_S(1), DOP_P, TC_SHAPE(5, 4));
    ck_assert_int_eq(tc_propagate_pointwise(1, in, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 2, "S(1),R", "S(1),R", "");
}
END_TEST

/* ------------------------------------------------------ sum propagation */

START_TEST(test_dops_sum_propagation)
{
    tc_op_sharding s;
    tc_dtensor_spec in = dop_spec1(4, DOP_S(0), TC_SHAPE(8, 6));

    /* all dims of a row-sharded tensor: each rank sums its rows: Partial. */
    ck_assert_int_eq(tc_propagate_sum(&in, 0, NULL, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "P", "S(0)", "");
    ck_assert_int_eq(s.shape.dim, 0);
    DOP_COST(s, 0.0);
    /* over the cut dim: Partial; over the other: still cut. */
    ck_assert_int_eq(tc_propagate_sum(&in, 1, SIZES(0), false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "P", "S(0)", "");
    ck_assert_int_eq(s.shape.dim, 1);
    ck_assert_int_eq(s.shape.sizes[0], 6);
    ck_assert_int_eq(tc_propagate_sum(&in, 1, SIZES(-1), false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(0)", "S(0)", "");
    ck_assert_int_eq(s.shape.sizes[0], 8);
    /* keepdim: the cut dim survives with size 1 but is summed: Partial. */
    ck_assert_int_eq(tc_propagate_sum(&in, 1, SIZES(0), true, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "P", "S(0)", "");
    ck_assert_int_eq(s.shape.dim, 2);
    ck_assert_int_eq(s.shape.sizes[0], 1);
    ck_assert_int_eq(tc_propagate_sum(&in, 1, SIZES(1), true, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(0)", "S(0)", "");

    /* Replicate and Partial(sum) pass through a sum. */
    in.placements[0] = DOP_R;
    ck_assert_int_eq(tc_propagate_sum(&in, 0, NULL, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "R", "R", "");
    in.placements[0] = DOP_P;
    ck_assert_int_eq(tc_propagate_sum(&in, 0, NULL, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "P", "P", "");
    /* a pending max is taken first (ours; 2.4 would keep it). */
    in.placements[0] = (tc_placement){ .kind = TC_PLACEMENT_PARTIAL, .op = TC_REDUCE_MAX };
    ck_assert_int_eq(tc_propagate_sum(&in, 0, NULL, false, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "R", "R", "");

    /* (S(0), S(1)) on 2 x 2, [5, 7]: over dim 1 -> (S(0), P) of [5]; over
       dim 0 -> (P, S(0)) of [7] (dim 1 became dim 0). */
    in = dop_spec2(2, 2, DOP_S(0), DOP_S(1), TC_SHAPE(5, 7));
    ck_assert_int_eq(tc_propagate_sum(&in, 1, SIZES(1), false, &s), 0);
    DOP_EXPECT_SHARDING(s, 2, "S(0),P", "S(0),S(1)", "");
    ck_assert_int_eq(tc_propagate_sum(&in, 1, SIZES(0), false, &s), 0);
    DOP_EXPECT_SHARDING(s, 2, "P,S(0)", "S(0),S(1)", "");
    ck_assert_int_eq(s.shape.sizes[0], 7);
}
END_TEST

START_TEST(test_dops_sum_propagation_errors)
{
    tc_op_sharding s;
    tc_dtensor_spec in = dop_spec1(4, DOP_S(0), TC_SHAPE(8, 6));

    /* torch.ones(8, 6).sum([2]) and .sum([0, -2]) in torch 1.13. */
    tc_clear_error();
    ck_assert_int_eq(tc_propagate_sum(&in, 1, SIZES(2), false, &s), -1);
    ck_assert_str_eq(tc_error(),
                     "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    ck_assert_int_eq(tc_propagate_sum(&in, 2, SIZES(0, -2), false, &s), -1);
    ck_assert_str_eq(tc_error(), "dim 0 appears multiple times in the list of dims");
    /* every dim in range before any repeat: torch.ones(8, 6).sum([0, 0, 5]) */
    tc_clear_error();
    ck_assert_int_eq(tc_propagate_sum(&in, 3, SIZES(0, 0, 5), false, &s), -1);
    ck_assert_str_eq(tc_error(),
                     "Dimension out of range (expected to be in range of [-2, 1], but got 5)");
    tc_clear_error();
}
END_TEST

/* --------------------------------------------------- matmul propagation */

START_TEST(test_dops_mm_four_rules)
{
    tc_op_sharding s;
    tc_dtensor_spec a, b;

    /* Each of the four rules with inputs already placed: cost 0. */
    a = dop_spec1(4, DOP_S(0), TC_SHAPE(8, 6));
    b = dop_spec1(4, DOP_R, TC_SHAPE(6, 5));
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(0)", "S(0)", "R");
    DOP_COST(s, 0.0);
    ck_assert_int_eq(s.shape.sizes[0], 8);
    ck_assert_int_eq(s.shape.sizes[1], 5);

    a.placements[0] = DOP_R;
    b.placements[0] = DOP_S(1);
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(1)", "R", "S(1)");
    DOP_COST(s, 0.0);

    a.placements[0] = DOP_S(1);
    b.placements[0] = DOP_S(0);
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "P", "S(1)", "S(0)");
    DOP_COST(s, 0.0);

    a.placements[0] = DOP_R;
    b.placements[0] = DOP_R;
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "R", "R", "R");
    DOP_COST(s, 0.0);
}
END_TEST

START_TEST(test_dops_mm_redistributes_cheapest)
{
    tc_op_sharding s;
    tc_dtensor_spec a, b;

    /* S(0) x S(0), [8, 6] x [6, 5] float32 on 4 ranks. Candidates:
       R,R:    a S0->R 14.70695 + b S0->R (120 B) 14.70434 = 29.41
       S1,S0:  a S0->S1 (48 B piece) 15.70174 + 0
       S0,R:   0 + b S0->R 14.70434          <- cheapest
       R,S1:   a S0->R 14.70695 + b S0->S1 15.70... */
    a = dop_spec1(4, DOP_S(0), TC_SHAPE(8, 6));
    b = dop_spec1(4, DOP_S(0), TC_SHAPE(6, 5));
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(0)", "S(0)", "R");
    DOP_COST(s, 14.70434);

    /* S(1) x S(1): by symmetry the R x S(1) rule, a gathered (192 B). */
    a.placements[0] = DOP_S(1);
    b.placements[0] = DOP_S(1);
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "S(1)", "R", "S(1)");
    DOP_COST(s, 14.70695);

    /* P x R: reduce-scattering a to S(1) or to S(0) costs the same
       (14.70695); the first candidate, the Partial one, wins. */
    a.placements[0] = DOP_P;
    b.placements[0] = DOP_R;
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "P", "S(1)", "S(0)");
    DOP_COST(s, 14.70695);

    /* [2, 6] S(0) x [6, 5] R on 4 ranks: 2 rows cannot be cut in 4, so
       S(0) x R is not a candidate; R,R (gather a: 48 B, 14.70...) ties
       with R x S(1) and comes first. */
    a = dop_spec1(4, DOP_S(0), TC_SHAPE(2, 6));
    b = dop_spec1(4, DOP_R, TC_SHAPE(6, 5));
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), 0);
    DOP_EXPECT_SHARDING(s, 1, "R", "R", "R");
}
END_TEST

START_TEST(test_dops_mm_2d_mesh)
{
    tc_op_sharding s;
    tc_dtensor_spec a, b;

    /* (S(0), R) x (R, S(1)) on 2 x 2: S(0) x R along mesh dim 0, R x S(1)
       along mesh dim 1, nothing moves. */
    a = dop_spec2(2, 2, DOP_S(0), DOP_R, TC_SHAPE(8, 6));
    b = dop_spec2(2, 2, DOP_R, DOP_S(1), TC_SHAPE(6, 5));
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), 0);
    DOP_EXPECT_SHARDING(s, 2, "S(0),S(1)", "S(0),R", "R,S(1)");
    DOP_COST(s, 0.0);

    /* (S(1), S(0)) x (S(0), R): the k cut along mesh dim 0, the m cut along
       mesh dim 1. */
    a = dop_spec2(2, 2, DOP_S(1), DOP_S(0), TC_SHAPE(8, 6));
    b = dop_spec2(2, 2, DOP_S(0), DOP_R, TC_SHAPE(6, 5));
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), 0);
    DOP_EXPECT_SHARDING(s, 2, "P,S(0)", "S(1),S(0)", "S(0),R");
    DOP_COST(s, 0.0);
}
END_TEST

START_TEST(test_dops_redistribute_cost)
{
    /* float64 [8, 6] (384 B) on 2 x 2, (S(0), S(0)) -> (R, R): the piece is
       96 B; mesh dim 0 gathers 192 B: 6.6 + 2.7 + 192/2^30 / 2 / 19.294 *
       1e6; then mesh dim 1 gathers 384 B: total 18.61390. */
    tc_dtensor_spec s = dop_spec2(2, 2, DOP_S(0), DOP_S(0), TC_SHAPE(8, 6));
    s.dtype = TC_FLOAT64;
    ck_assert_double_eq_tol(tc_redistribute_cost(&s, (tc_placement[]){ DOP_R, DOP_R }),
                            18.61390, 1e-4);
    /* Shard -> Partial is refused: an infinite cost. */
    ck_assert(isinf(tc_redistribute_cost(&s, (tc_placement[]){ DOP_P, DOP_S(0) })));
    /* From all-Replicate, anything is free. */
    s.placements[0] = s.placements[1] = DOP_R;
    ck_assert_double_eq(tc_redistribute_cost(&s, (tc_placement[]){ DOP_P, DOP_S(1) }), 0.0);
}
END_TEST

START_TEST(test_dops_spec_validation)
{
    /* Found by tests/fuzz/fuzz_dtensor: a spec is a struct a caller fills
       by hand, and the propagation multiplied what it found there (mesh
       sizes of 2^62 overflowed num_shards) or went on with a negative
       size. Every field is checked first. */
    const char *mesh_msg = "tc: a DTensor spec's mesh has sizes of at least 1 and at most "
                           "2147483647 ranks, got ";
    char want[256];
    tc_op_sharding s;
    tc_dtensor_spec a = dop_spec2(INT64_C(1) << 62, INT64_C(1) << 62, DOP_S(0), DOP_S(0),
                                  TC_SHAPE(8, 6));

    tc_clear_error();
    ck_assert(isnan(tc_redistribute_cost(&a, (tc_placement[]){ DOP_R, DOP_R })));
    snprintf(want, sizeof want, "%s[4611686018427387904, 4611686018427387904]", mesh_msg);
    ck_assert_str_eq(tc_error(), want);
    a = dop_spec1(0, DOP_S(0), TC_SHAPE(8, 6));
    tc_dtensor_spec b = dop_spec1(0, DOP_R, TC_SHAPE(6, 5));
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), -1);
    snprintf(want, sizeof want, "%s[0]", mesh_msg);
    ck_assert_str_eq(tc_error(), want);
    /* torch 1.13: torch.empty(-4)'s message */
    a = dop_spec1(2, DOP_S(0), TC_SHAPE(-4));
    ck_assert_int_eq(tc_propagate_sum(&a, 0, NULL, false, &s), -1);
    ck_assert_str_eq(tc_error(), "Trying to create tensor with negative dimension -4: [-4]");
    a = dop_spec1(2, (tc_placement){ .kind = (tc_placement_kind)3 }, TC_SHAPE(4));
    ck_assert_int_eq(tc_propagate_pointwise(1, &a, false, &s), -1);
    ck_assert_str_eq(tc_error(), "tc: placement 0 of a DTensor spec is not a Shard, a "
                                 "Replicate or a Partial of a known reduction");
    a = dop_spec1(2, (tc_placement){ .kind = TC_PLACEMENT_PARTIAL, .op = (tc_reduce_op)5 },
                  TC_SHAPE(4));
    ck_assert_int_eq(tc_propagate_pointwise(1, &a, false, &s), -1);
    ck_assert_str_eq(tc_error(), "tc: placement 0 of a DTensor spec is not a Shard, a "
                                 "Replicate or a Partial of a known reduction");
    tc_clear_error();
}
END_TEST

START_TEST(test_dops_mm_propagation_errors)
{
    tc_op_sharding s;
    tc_dtensor_spec a = dop_spec1(4, DOP_S(0), TC_SHAPE(8, 6));
    tc_dtensor_spec b = dop_spec1(4, DOP_R, TC_SHAPE(5, 5));

    /* torch.ones(8, 6) @ torch.ones(5, 5) in torch 1.13. */
    tc_clear_error();
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), -1);
    ck_assert_str_eq(tc_error(), "mat1 and mat2 shapes cannot be multiplied (8x6 and 5x5)");
    b = dop_spec1(4, DOP_R, TC_SHAPE(6));
    ck_assert_int_eq(tc_propagate_mm(&a, &b, &s), -1);
    ck_assert_str_eq(tc_error(), "tc: a DTensor matmul takes 2-D operands, got 2-D and 1-D");
    /* shapes that do not broadcast (torch.ones(4, 3) + torch.ones(5, 3)). */
    tc_dtensor_spec in[2] = { dop_spec1(2, DOP_R, TC_SHAPE(4, 3)),
                              dop_spec1(2, DOP_R, TC_SHAPE(5, 3)) };
    ck_assert_int_eq(tc_propagate_pointwise(2, in, true, &s), -1);
    ck_assert_str_eq(tc_error(), "The size of tensor a (4) must match the size of tensor b (5) "
                                 "at non-singleton dimension 0");
    tc_clear_error();
}
END_TEST

/* ----------------------------------------------- on several ranks */

/* The weight of mesh coordinate c among n for a Partial input: dyadic
   fractions that add up to 1, so the pieces sum to the full tensor. */
static double dop_weight(int64_t n, int64_t c)
{
    static const double w2[] = { 0.25, 0.75 }, w3[] = { 0.25, 0.5, 0.25 },
                        w4[] = { 0.125, 0.25, 0.5, 0.125 };
    return n == 1 ? 1.0 : n == 2 ? w2[c] : n == 3 ? w3[c] : w4[c];
}

/* A full float64 tensor of shape, the same on every rank: small integers
   and halves, of both signs. */
static tc_tensor *dop_full(tc_shape shape, int salt)
{
    tc_tensor *t = tc_empty(shape, TC_FLOAT64);
    int64_t n = tc_numel(t);
    double *p = tc_data_ptr(t);

    for (int64_t i = 0; i < n; i++)
        p[i] = (double)((i * 7 + salt * 3) % 11 - 5) / 2.0;
    return t;
}

/* full on mesh with placements, Partial ones included: distributed with
   Replicate in their place, then each rank keeps its weighted share. */
static tc_dtensor *dop_make(const tc_tensor *full, tc_device_mesh *mesh, const tc_placement *p)
{
    int ndim = tc_device_mesh_ndim(mesh);
    tc_placement q[TC_MESH_MAX_DIMS];
    double w = 1.0;

    for (int i = 0; i < ndim; i++) {
        q[i] = p[i].kind == TC_PLACEMENT_PARTIAL ? TC_REPLICATE() : p[i];
        if (p[i].kind == TC_PLACEMENT_PARTIAL)
            w *= dop_weight(tc_device_mesh_size(mesh, i), tc_device_mesh_coordinate(mesh, i));
    }
    tc_dtensor *d = tc_distribute_tensor(full, mesh, q);
    if (d == NULL || w == 1.0)
        return d;
    tc_tensor *local = tc_dtensor_to_local(d);
    tc_tensor *share = tc_mul_scalar(local, w);
    tc_shape global = tc_shape_of(full);
    tc_dtensor *r = tc_dtensor_from_local(share, mesh, p, &global);
    tc_release(local);
    tc_release(share);
    tc_dtensor_free(d);
    return r;
}

/* The shape of this rank's piece of a tensor of shape global under
   placements: each Shard(d) cuts dim d by the torch.chunk rule, mesh dim
   by mesh dim (compute_local_shape_and_global_offset). */
static tc_shape dop_local_shape(tc_shape global, tc_device_mesh *mesh, const tc_placement *p)
{
    tc_shape s = global;

    for (int i = 0; i < tc_device_mesh_ndim(mesh); i++)
        if (p[i].kind == TC_PLACEMENT_SHARD)
            s.sizes[p[i].dim] = tc_chunk_size(s.sizes[p[i].dim], tc_device_mesh_size(mesh, i),
                                              tc_device_mesh_coordinate(mesh, i), NULL);
    return s;
}

typedef enum { DOP_ADD, DOP_SUB, DOP_MUL, DOP_DIV, DOP_NEG, DOP_RELU, DOP_EXP, DOP_SUM, DOP_SUM0,
               DOP_SUM1K, DOP_MATMUL } dop_op;
static const char *const dop_op_names[] = { "add", "sub", "mul", "div", "neg", "relu", "exp",
                                           "sum", "sum(0)", "sum(1, keepdim)", "matmul" };

/* One case: an operator, the inputs' shapes and placements (per mesh dim),
   and the placements the result must have. */
typedef struct {
    dop_op op;
    tc_shape shape_a, shape_b;
    tc_placement pa[2], pb[2];
    const char *want;
} dop_case;

static tc_dtensor *dop_apply(dop_op op, const tc_dtensor *a, const tc_dtensor *b)
{
    switch (op) {
    case DOP_ADD: return tc_dtensor_add(a, b);
    case DOP_SUB: return tc_dtensor_sub(a, b);
    case DOP_MUL: return tc_dtensor_mul(a, b);
    case DOP_DIV: return tc_dtensor_div(a, b);
    case DOP_NEG: return tc_dtensor_neg(a);
    case DOP_RELU: return tc_dtensor_relu(a);
    case DOP_EXP: return tc_dtensor_exp(a);
    case DOP_SUM: return tc_dtensor_sum(a);
    case DOP_SUM0: return tc_dtensor_sum_dims(a, 1, SIZES(0), false);
    case DOP_SUM1K: return tc_dtensor_sum_dims(a, 1, SIZES(-1), true);
    case DOP_MATMUL: return tc_dtensor_matmul(a, b);
    }
    return NULL;
}

static tc_tensor *dop_serial(dop_op op, const tc_tensor *a, const tc_tensor *b)
{
    switch (op) {
    case DOP_ADD: return tc_add(a, b);
    case DOP_SUB: return tc_sub(a, b);
    case DOP_MUL: return tc_mul(a, b);
    case DOP_DIV: return tc_div(a, b);
    case DOP_NEG: return tc_neg(a);
    case DOP_RELU: return tc_relu(a);
    case DOP_EXP: return tc_exp(a);
    case DOP_SUM: return tc_sum(a);
    case DOP_SUM0: return tc_sum_dims(a, TC_DIMS(0), false);
    case DOP_SUM1K: return tc_sum_dims(a, TC_DIMS(-1), true);
    case DOP_MATMUL: return tc_matmul(a, b);
    }
    return NULL;
}

static bool dop_binary(dop_op op)
{
    return op == DOP_ADD || op == DOP_SUB || op == DOP_MUL || op == DOP_DIV || op == DOP_MATMUL;
}

/* Whether got and want have one shape and close values (partial sums are
   added in another order than the serial loop). */
static bool dop_close(const tc_tensor *got, const tc_tensor *want)
{
    if (got == NULL || want == NULL || got->dim != want->dim)
        return false;
    for (int64_t d = 0; d < got->dim; d++)
        if (got->sizes[d] != want->sizes[d])
            return false;
    for (int64_t k = 0; k < tc_numel(want); k++) {
        double g = testing_element(got, k), w = testing_element(want, k);
        if (!(fabs(g - w) <= 1e-9 * (1.0 + fabs(w))))
            return false;
    }
    return true;
}

/* Run one case on this rank; 0 if it holds, else 1 with what differs. */
static int dop_run_case(tc_device_mesh *mesh, const dop_case *c, int rank)
{
    int ndim = tc_device_mesh_ndim(mesh), failed = 0;
    char got[128] = "";
    tc_tensor *fa = dop_full(c->shape_a, 1);
    tc_tensor *fb = dop_binary(c->op) ? dop_full(c->shape_b, 2) : NULL;
    if (c->op == DOP_DIV && fb != NULL) {            /* no division by zero */
        tc_tensor *shifted = tc_add_scalar_double(fb, 5.75);
        tc_release(fb);
        fb = shifted;
    }
    tc_dtensor *a = dop_make(fa, mesh, c->pa);
    tc_dtensor *b = fb ? dop_make(fb, mesh, c->pb) : NULL;
    tc_dtensor *r = dop_apply(c->op, a, b);
    tc_tensor *want = dop_serial(c->op, fa, fb);
    tc_tensor *full = r ? tc_dtensor_full_tensor(r) : NULL;
    tc_tensor *local = r ? tc_dtensor_to_local(r) : NULL;

    if (r == NULL) {
        printf("rank %d: %s failed: %s\n", rank, dop_op_names[c->op], tc_error());
        failed = 1;
    } else {
        dop_join(ndim, tc_dtensor_placements(r), got, sizeof got);
        tc_shape piece = dop_local_shape(tc_shape_of(want), mesh, tc_dtensor_placements(r));
        bool piece_ok = local != NULL && local->dim == piece.dim;
        for (int64_t d = 0; piece_ok && d < piece.dim; d++)
            piece_ok = local->sizes[d] == piece.sizes[d];
        if (strcmp(got, c->want) != 0 || !piece_ok || !dop_close(full, want)) {
            printf("rank %d: %s: placements %s (want %s), piece %s, values %s\n", rank,
                   dop_op_names[c->op], got, c->want, piece_ok ? "ok" : "WRONG",
                   dop_close(full, want) ? "ok" : "WRONG");
            failed = 1;
        }
    }
    tc_release(local);
    tc_release(full);
    tc_release(want);
    tc_dtensor_free(r);
    tc_dtensor_free(a);
    tc_dtensor_free(b);
    tc_release(fa);
    tc_release(fb);
    return failed;
}

/* A mesh and its cases, run in every rank. */
typedef struct {
    int ndim;
    int64_t sizes[2];
    const dop_case *cases;
    int ncases;
} dop_job;

static int dop_rank_body(void *arg, int rank)
{
    const dop_job *job = arg;
    int failed = 0;
    tc_pg *world = tc_dist_init();
    tc_device_mesh *mesh = world ? tc_device_mesh_new(world, job->ndim, job->sizes, NULL) : NULL;

    if (mesh == NULL) {
        printf("rank %d: no mesh: %s\n", rank, tc_error());
        tc_dist_finalize();
        return 1;
    }
    for (int k = 0; k < job->ncases; k++)
        failed |= dop_run_case(mesh, &job->cases[k], rank);
    fflush(stdout);
    tc_device_mesh_release(mesh);
    tc_dist_finalize();
    return failed;
}

#define DOP_CASE(o, sa, sb, p0a, p1a, p0b, p1b, w)                              \
    { .op = (o), .shape_a = sa, .shape_b = sb, .pa = { p0a, p1a }, .pb = { p0b, p1b }, \
      .want = (w) }

START_TEST(test_dops_on_1d_mesh)
{
    /* sizes 5 and 7 cut unevenly (5 rows on 4 ranks: 2, 2, 1, 0). */
    const dop_case dop_cases_1d[] = {
        DOP_CASE(DOP_ADD, TC_SHAPE(5, 7), TC_SHAPE(5, 7), DOP_S(0), DOP_R, DOP_R, DOP_R, "S(0)"),
        DOP_CASE(DOP_ADD, TC_SHAPE(5, 7), TC_SHAPE(5, 7), DOP_P, DOP_R, DOP_P, DOP_R, "P"),
        DOP_CASE(DOP_ADD, TC_SHAPE(5, 7), TC_SHAPE(5, 7), DOP_P, DOP_R, DOP_R, DOP_R, "P"),
        DOP_CASE(DOP_MUL, TC_SHAPE(5, 7), TC_SHAPE(7), DOP_S(1), DOP_R, DOP_S(0), DOP_R, "S(1)"),
        DOP_CASE(DOP_SUB, TC_SHAPE(5, 7), TC_SHAPE(5, 7), DOP_S(0), DOP_R, DOP_S(1), DOP_R, "S(0)"),
        DOP_CASE(DOP_DIV, TC_SHAPE(1, 7), TC_SHAPE(5, 7), DOP_S(0), DOP_R, DOP_R, DOP_R, "S(0)"),
        DOP_CASE(DOP_MUL, TC_SHAPE(5, 7), TC_SHAPE(5, 7), DOP_P, DOP_R, DOP_S(0), DOP_R, "S(0)"),
        DOP_CASE(DOP_RELU, TC_SHAPE(5, 7), TC_SHAPE(1), DOP_P, DOP_R, DOP_R, DOP_R, "R"),
        DOP_CASE(DOP_EXP, TC_SHAPE(5, 7), TC_SHAPE(1), DOP_S(1), DOP_R, DOP_R, DOP_R, "S(1)"),
        DOP_CASE(DOP_NEG, TC_SHAPE(5, 7), TC_SHAPE(1), DOP_S(0), DOP_R, DOP_R, DOP_R, "S(0)"),
        DOP_CASE(DOP_SUM, TC_SHAPE(5, 7), TC_SHAPE(1), DOP_S(0), DOP_R, DOP_R, DOP_R, "P"),
        DOP_CASE(DOP_SUM0, TC_SHAPE(5, 7), TC_SHAPE(1), DOP_S(1), DOP_R, DOP_R, DOP_R, "S(0)"),
        DOP_CASE(DOP_SUM1K, TC_SHAPE(5, 7), TC_SHAPE(1), DOP_S(1), DOP_R, DOP_R, DOP_R, "P"),
        DOP_CASE(DOP_MATMUL, TC_SHAPE(5, 7), TC_SHAPE(7, 6), DOP_S(0), DOP_R, DOP_R, DOP_R, "S(0)"),
        DOP_CASE(DOP_MATMUL, TC_SHAPE(5, 7), TC_SHAPE(7, 6), DOP_R, DOP_R, DOP_S(1), DOP_R, "S(1)"),
        DOP_CASE(DOP_MATMUL, TC_SHAPE(5, 7), TC_SHAPE(7, 6), DOP_S(1), DOP_R, DOP_S(0), DOP_R, "P"),
        DOP_CASE(DOP_MATMUL, TC_SHAPE(5, 7), TC_SHAPE(7, 6), DOP_R, DOP_R, DOP_R, DOP_R, "R"),
        /* S(0) x S(0): mat2 is gathered, the S(0) x R rule runs. */
        DOP_CASE(DOP_MATMUL, TC_SHAPE(5, 7), TC_SHAPE(7, 6), DOP_S(0), DOP_R, DOP_S(0), DOP_R, "S(0)"),
    };
    int ncases = (int)(sizeof dop_cases_1d / sizeof dop_cases_1d[0]);
    dop_job job4 = { .ndim = 1, .sizes = { 4 }, .cases = dop_cases_1d, .ncases = ncases };
    dop_job job3 = { .ndim = 1, .sizes = { 3 }, .cases = dop_cases_1d, .ncases = ncases };

    ranks_launch(4, dop_rank_body, (void *)&job4);
    if (!testing_quick())
        ranks_launch(3, dop_rank_body, (void *)&job3);
}
END_TEST

START_TEST(test_dops_on_2d_mesh)
{
    const dop_case dop_cases_2d[] = {
        DOP_CASE(DOP_ADD, TC_SHAPE(5, 3), TC_SHAPE(5, 3), DOP_S(0), DOP_S(1), DOP_R, DOP_R, "S(0),S(1)"),
        DOP_CASE(DOP_ADD, TC_SHAPE(5, 3), TC_SHAPE(5, 3), DOP_P, DOP_S(0), DOP_R, DOP_S(0), "P,S(0)"),
        /* b must go Shard -> Partial along mesh dim 0: through Replicate. */
        DOP_CASE(DOP_ADD, TC_SHAPE(5, 3), TC_SHAPE(5, 3), DOP_P, DOP_S(0), DOP_S(0), DOP_R, "P,S(0)"),
        DOP_CASE(DOP_MUL, TC_SHAPE(5, 3), TC_SHAPE(3), DOP_P, DOP_S(0), DOP_R, DOP_R, "R,S(0)"),
        DOP_CASE(DOP_EXP, TC_SHAPE(5, 3), TC_SHAPE(1), DOP_S(1), DOP_P, DOP_R, DOP_R, "S(1),R"),
        DOP_CASE(DOP_SUM0, TC_SHAPE(5, 3), TC_SHAPE(1), DOP_S(0), DOP_S(1), DOP_R, DOP_R, "P,S(0)"),
        DOP_CASE(DOP_SUM, TC_SHAPE(5, 3), TC_SHAPE(1), DOP_S(0), DOP_S(0), DOP_R, DOP_R, "P,P"),
        DOP_CASE(DOP_MATMUL, TC_SHAPE(5, 3), TC_SHAPE(3, 6), DOP_S(0), DOP_R, DOP_R, DOP_S(1),
                "S(0),S(1)"),
        DOP_CASE(DOP_MATMUL, TC_SHAPE(5, 3), TC_SHAPE(3, 6), DOP_S(1), DOP_S(0), DOP_S(0), DOP_R,
                "P,S(0)"),
    };
    dop_job job = { .ndim = 2, .sizes = { 2, 2 }, .cases = dop_cases_2d,
                   .ncases = (int)(sizeof dop_cases_2d / sizeof dop_cases_2d[0]) };

    ranks_launch(4, dop_rank_body, (void *)&job);
}
END_TEST

/* ----------------------------------------------------------- errors */

START_TEST(test_dops_errors)
{
    tc_pg *world = tc_dist_init();
    ck_assert_ptr_nonnull(world);
    tc_device_mesh *line = tc_device_mesh_new(world, 1, SIZES(1), NULL);
    tc_device_mesh *grid = tc_device_mesh_new(world, 2, SIZES(1, 1), NULL);
    tc_device_mesh *again = tc_device_mesh_new(world, 1, SIZES(1), NULL);
    tc_tensor *x = dop_full(TC_SHAPE(4, 3), 1), *y = dop_full(TC_SHAPE(5, 3), 2);
    tc_tensor *m = dop_full(TC_SHAPE(3, 3), 3);
    tc_dtensor *a = tc_distribute_tensor(x, line, (tc_placement[]){ DOP_S(0) });
    tc_dtensor *b = tc_distribute_tensor(y, line, (tc_placement[]){ DOP_R });
    tc_dtensor *c = tc_distribute_tensor(m, grid, (tc_placement[]){ DOP_R, DOP_R });
    tc_dtensor *e = tc_distribute_tensor(x, again, (tc_placement[]){ DOP_R });

    ck_assert(a && b && c && e);
    /* shapes that do not broadcast: torch 1.13's message for
       torch.ones(4, 3) + torch.ones(5, 3). */
    tc_clear_error();
    ck_assert_ptr_null(tc_dtensor_add(a, b));
    ck_assert_str_eq(tc_error(), "The size of tensor a (4) must match the size of tensor b (5) "
                                 "at non-singleton dimension 0");
    ck_assert_ptr_null(tc_dtensor_matmul(a, b));
    ck_assert_str_eq(tc_error(), "mat1 and mat2 shapes cannot be multiplied (4x3 and 5x3)");
    /* different meshes: PyTorch 2.4's _op_dispatcher text. */
    ck_assert_ptr_null(tc_dtensor_mul(a, c));
    ck_assert_str_eq(tc_error(), "aten.mul.Tensor: DTensor does not support cross-mesh "
                                 "operation yet!");
    ck_assert_ptr_null(tc_dtensor_matmul(c, a));
    ck_assert_str_eq(tc_error(), "aten.mm.default: DTensor does not support cross-mesh "
                                 "operation yet!");
    /* two meshes made apart with one layout are one mesh, as DeviceMesh's ==. */
    tc_dtensor *sum = tc_dtensor_add(a, e);
    ck_assert_ptr_nonnull(sum);
    tc_dtensor_free(sum);
    /* NULL in: NULL out, the earlier message kept. */
    tc_clear_error();
    ck_assert_ptr_null(tc_dtensor_relu(NULL));
    ck_assert_ptr_nonnull(tc_error());
    ck_assert_ptr_null(tc_dtensor_sum_dims(a, 1, NULL, false));
    ck_assert_ptr_null(tc_dtensor_sum_dims(a, 1, SIZES(2), false));
    ck_assert_str_eq(tc_error(),
                     "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    tc_clear_error();

    tc_dtensor_free(a);
    tc_dtensor_free(b);
    tc_dtensor_free(c);
    tc_dtensor_free(e);
    tc_release(x);
    tc_release(y);
    tc_release(m);
    tc_device_mesh_release(line);
    tc_device_mesh_release(grid);
    tc_device_mesh_release(again);
    tc_dist_finalize();
}
END_TEST

static void ch09_add_dops(Suite *s)
{
    TCase *prop = tcase_create("dops_propagation");
    tcase_add_test(prop, test_dops_pointwise_follows_most_sharded);
    tcase_add_test(prop, test_dops_pointwise_broadcast);
    tcase_add_test(prop, test_dops_pointwise_partial);
    tcase_add_test(prop, test_dops_pointwise_2d_mesh);
    tcase_add_test(prop, test_dops_sum_propagation);
    tcase_add_test(prop, test_dops_sum_propagation_errors);
    tcase_add_test(prop, test_dops_mm_four_rules);
    tcase_add_test(prop, test_dops_mm_redistributes_cheapest);
    tcase_add_test(prop, test_dops_mm_2d_mesh);
    tcase_add_test(prop, test_dops_redistribute_cost);
    tcase_add_test(prop, test_dops_mm_propagation_errors);
    tcase_add_test(prop, test_dops_spec_validation);
    suite_add_tcase(s, prop);

    TCase *ranks = tcase_create("dops_on_ranks");
    tcase_set_timeout(ranks, 120);
    tcase_add_test(ranks, test_dops_on_1d_mesh);
    tcase_add_test(ranks, test_dops_on_2d_mesh);
    tcase_add_test(ranks, test_dops_errors);
    suite_add_tcase(s, ranks);
}
