/* check_ch09_dtensor.h: device meshes, placements, distribute_tensor,
   from_local, full_tensor, redistribute and its plan (helper dtensor).

   The chunk rule is checked against torch.chunk's sizes (torch 1.13:
   [c.size(0) for c in torch.chunk(torch.arange(n), k)], padded with empty
   chunks as DTensor pads them); reprs and messages are PyTorch 2.4's (read
   in its source: placement_types.py, api.py, _redistribute.py,
   device_mesh.py), as the chapter says. Multi-rank tests run a body in
   every rank through tc_launch_fn; the body builds the global tensor in
   that rank, cuts the expected shard out of it with its own chunk
   arithmetic (d9_chunk below, not tc_chunk_size), and compares. */

/* ----------------------------------------------------------- helpers */

/* torch.chunk's chunk i of n over k, by a different route than
   tc_chunk_size: greedy, each chunk takes ceil(n / k) of what is left. */
static int64_t d9_chunk(int64_t n, int64_t k, int64_t i, int64_t *offset)
{
    int64_t c = (n + k - 1) / k, left = n, at = 0, size = 0;

    for (int64_t j = 0; j <= i; j++) {
        size = left < c ? left : c;
        if (j < i) {
            at += size;
            left -= size;
        }
    }
    *offset = size == 0 ? n : at;
    return size;
}

static int d9_failures;

#define D9_CHECK(cond, ...)                                                    \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "rank %d: %s:%d: ", d9_rank, __FILE__, __LINE__);  \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            d9_failures++;                                                     \
        }                                                                      \
    } while (0)

static int d9_rank;

/* 12 * arange(numel) in shape, so that a division by 2, 3 or 4 is exact
   and sums of small multiples stay integers. */
static tc_tensor *d9_global(tc_shape shape, tc_dtype dtype)
{
    int64_t numel = 1;
    tc_tensor *flat, *t, *out;

    for (int64_t i = 0; i < shape.dim; i++)
        numel *= shape.sizes[i];
    flat = tc_arange_int64(0, 12 * numel, 12);
    t = tc_view(flat, shape);
    out = tc_empty(shape, dtype);
    tc_copy_(out, t);
    tc_release(flat);
    tc_release(t);
    return out;
}

/* The part of `global` that the Shard placements p (of a mesh of sizes
   `mesh` at coordinate `coord`) leave on this rank: narrowed mesh dim by
   mesh dim, in order (nested shards of one dim cut the previous cut). */
static tc_tensor *d9_expected_shard(const tc_tensor *global, int ndim, const int64_t *mesh,
                                    const int64_t *coord, const tc_placement *p)
{
    tc_tensor *t = tc_retain((tc_tensor *)global);

    for (int m = 0; m < ndim; m++) {
        if (p[m].kind != TC_PLACEMENT_SHARD)
            continue;
        int64_t off, size = d9_chunk(t->sizes[p[m].dim], mesh[m], coord[m], &off);
        tc_tensor *next = tc_narrow(t, p[m].dim, size == 0 ? 0 : off, size);
        tc_release(t);
        t = next;
    }
    return t;
}

static bool d9_same(const tc_tensor *a, const tc_tensor *b)
{
    return a != NULL && b != NULL && a->dtype == b->dtype && tc_equal(a, b);
}

static void d9_placements_text(char *buf, size_t cap, int n, const tc_placement *p)
{
    char one[TC_PLACEMENT_STRLEN];

    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        strncat(buf, i > 0 ? ", " : "(", cap - strlen(buf) - 1);
        strncat(buf, tc_placement_repr(p[i], one), cap - strlen(buf) - 1);
    }
    strncat(buf, ")", cap - strlen(buf) - 1);
}

/* ----------------------------------------------------- the chunk rule */

START_TEST(test_dtensor_chunk_rule_examples)
{
    /* torch 1.13: torch.chunk(torch.arange(10), 4) -> 3, 3, 3, 1;
       arange(9) -> 3, 3, 3 (DTensor pads a fourth, empty);
       arange(2) -> 1, 1 (and two empty) */
    const int64_t ten[4] = { 3, 3, 3, 1 }, nine[4] = { 3, 3, 3, 0 }, two[4] = { 1, 1, 0, 0 };
    const int64_t ten_at[4] = { 0, 3, 6, 9 }, nine_at[4] = { 0, 3, 6, 9 }, two_at[4] = { 0, 1, 2, 2 };
    int64_t off;

    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(tc_chunk_size(10, 4, i, &off), ten[i]);
        ck_assert_int_eq(off, ten_at[i]);
        ck_assert_int_eq(tc_chunk_size(9, 4, i, &off), nine[i]);
        ck_assert_int_eq(off, nine_at[i]);
        ck_assert_int_eq(tc_chunk_size(2, 4, i, &off), two[i]);
        ck_assert_int_eq(off, two_at[i]);
    }
    ck_assert_int_eq(tc_chunk_size(0, 3, 1, &off), 0);
    ck_assert_int_eq(off, 0);
    ck_assert_int_eq(tc_chunk_size(5, 4, 2, NULL), 1);       /* 2, 2, 1, 0 */
    ck_assert_int_eq(tc_chunk_size(5, 0, 0, &off), -1);      /* no chunks */
    ck_assert_int_eq(tc_chunk_size(5, 2, 2, &off), -1);      /* no chunk 2 */
    ck_assert_int_eq(tc_chunk_size(-1, 2, 0, &off), -1);
    /* no overflow: chunks of ceil(n / 3) = 3074457345618258603, the last
       one 3074457345618258601 */
    ck_assert_int_eq(tc_chunk_size(INT64_MAX, 3, 2, &off), INT64_C(3074457345618258601));
    ck_assert_int_eq(off, INT64_C(6148914691236517206));
}
END_TEST

START_TEST(test_dtensor_chunk_rule_all_small)
{
    /* every size 0-12 over 1-5 ranks against the greedy rule, which matches
       torch.chunk padded to k chunks for all of them (checked with torch
       1.13 when this test was written); the chunks tile [0, n) in order */
    for (int64_t n = 0; n <= 12; n++) {
        for (int64_t k = 1; k <= 5; k++) {
            int64_t total = 0, end = 0;
            for (int64_t i = 0; i < k; i++) {
                int64_t want_off, got_off;
                int64_t want = d9_chunk(n, k, i, &want_off);
                int64_t got = tc_chunk_size(n, k, i, &got_off);
                ck_assert_msg(got == want && got_off == want_off,
                              "n=%lld k=%lld i=%lld: got %lld at %lld, want %lld at %lld",
                              (long long)n, (long long)k, (long long)i, (long long)got,
                              (long long)got_off, (long long)want, (long long)want_off);
                if (got > 0) {
                    ck_assert_int_eq(got_off, end);
                    end += got;
                }
                total += got;
            }
            ck_assert_int_eq(total, n);
        }
    }
}
END_TEST

START_TEST(test_dtensor_chunk_rule_near_int64_max)
{
    /* Found by tests/fuzz/fuzz_dtensor: n = INT64_MAX over k =
       6148914691236517204 (= 2 * (INT64_MAX / 3)) ranks: ceil(n / k) = 2
       (n / k is 1.5), so chunk i starts at 2i, and for i >= 2^62 that is
       past n (2^63 > INT64_MAX): the chunk is empty, at offset n. The
       product 2i itself does not fit in an int64_t: it overflowed. */
    const int64_t n = INT64_MAX, k = INT64_C(6148914691236517204);
    int64_t off;

    ck_assert_int_eq(tc_chunk_size(n, k, 1, &off), 2);
    ck_assert_int_eq(off, 2);
    /* the last non-empty chunk: i = 2^62 - 1 starts at 2^63 - 2, 1 left */
    ck_assert_int_eq(tc_chunk_size(n, k, INT64_C(4611686018427387903), &off), 1);
    ck_assert_int_eq(off, INT64_MAX - 1);
    ck_assert_int_eq(tc_chunk_size(n, k, INT64_C(4611686018427387904), &off), 0);
    ck_assert_int_eq(off, n);
    ck_assert_int_eq(tc_chunk_size(n, k, k - 1, &off), 0);
    ck_assert_int_eq(off, n);
}
END_TEST

START_TEST(test_dtensor_bad_placements_and_global_shapes)
{
    /* Found by tests/fuzz/fuzz_dtensor: from_local accepted a Partial of a
       reduction that does not exist and a global shape with a negative
       size. A placement is checked wherever it comes in; a global shape
       gets torch.empty's messages (torch 1.13: torch.empty(-4) and
       torch.empty(2**63 - 1, 2)). */
    tc_pg *world = tc_dist_init();
    int64_t one = 1;
    tc_device_mesh *mesh = tc_device_mesh_new(world, 1, &one, NULL);
    tc_tensor *x = tc_zeros(TC_SHAPE(4), TC_FLOAT32);
    tc_placement bad_op = { .kind = TC_PLACEMENT_PARTIAL, .op = (tc_reduce_op)4 };
    tc_placement bad_kind = { .kind = (tc_placement_kind)3 };
    tc_placement r = TC_REPLICATE();
    tc_shape negative = TC_SHAPE(-4), huge = { .dim = 1, .sizes = { INT64_MAX } };
    const char *unknown = "tc: placement 0 is not a Shard, a Replicate or a Partial of a "
                          "known reduction";
    tc_dtensor *d;
    tc_redistribute_plan plan;

    ck_assert_ptr_nonnull(mesh);
    tc_clear_error();
    ck_assert_ptr_null(tc_dtensor_from_local(x, mesh, &bad_op, NULL));
    ck_assert_str_eq(tc_error(), unknown);
    ck_assert_ptr_null(tc_dtensor_from_local(x, mesh, &bad_kind, NULL));
    ck_assert_str_eq(tc_error(), unknown);
    ck_assert_ptr_null(tc_distribute_tensor(x, mesh, &bad_kind));
    ck_assert_str_eq(tc_error(), unknown);
    ck_assert_ptr_null(tc_dtensor_from_local(x, mesh, &r, &negative));
    ck_assert_str_eq(tc_error(), "Trying to create tensor with negative dimension -4: [-4]");
    ck_assert_ptr_null(tc_dtensor_from_local(x, mesh, &r, &huge));
    ck_assert_str_eq(tc_error(), "Storage size calculation overflowed with "
                                 "sizes=[9223372036854775807]");
    /* a bool DTensor of 2^62 elements fits in int64_t bytes; Replicate ->
       Partial makes it float32, whose bytes do not (torch 1.13:
       torch.empty(2**62) fails so, torch.empty(2**62, dtype=torch.bool,
       device='meta') does not) */
    {
        tc_tensor *flags = tc_zeros(TC_SHAPE(4), TC_BOOL);
        tc_shape wide = { .dim = 1, .sizes = { INT64_C(1) << 62 } };
        tc_placement sum = TC_PARTIAL();

        d = tc_dtensor_from_local(flags, mesh, &r, &wide);
        ck_assert_ptr_nonnull(d);
        ck_assert_int_eq(tc_redistribute_plan_make(d, &sum, &plan), -1);
        ck_assert_str_eq(tc_error(), "Storage size calculation overflowed with "
                                     "sizes=[4611686018427387904]");
        ck_assert_int_eq(plan.nsteps, 0);
        tc_dtensor_free(d);
        tc_release(flags);
    }
    d = tc_distribute_tensor(x, mesh, &r);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(tc_redistribute_plan_make(d, &bad_op, &plan), -1);
    ck_assert_str_eq(tc_error(), unknown);
    ck_assert_ptr_null(tc_dtensor_redistribute(d, &bad_kind));
    ck_assert_str_eq(tc_error(), unknown);
    tc_clear_error();
    tc_dtensor_free(d);
    tc_release(x);
    tc_device_mesh_release(mesh);
}
END_TEST

/* ------------------------------------------------------- placements */

START_TEST(test_dtensor_placement_reprs)
{
    char buf[TC_PLACEMENT_STRLEN];
    tc_placement avg = { .kind = TC_PLACEMENT_PARTIAL, .op = TC_REDUCE_AVG };

    /* PyTorch 2.4: repr(Shard(0)), repr(Replicate()), repr(Partial()),
       str(...) "S(0)", "R", "P" */
    ck_assert_str_eq(tc_placement_repr(TC_SHARD(0), buf), "Shard(dim=0)");
    ck_assert_str_eq(tc_placement_repr(TC_SHARD(2), buf), "Shard(dim=2)");
    ck_assert_str_eq(tc_placement_repr(TC_REPLICATE(), buf), "Replicate()");
    ck_assert_str_eq(tc_placement_repr(TC_PARTIAL(), buf), "Partial(sum)");
    ck_assert_str_eq(tc_placement_repr(avg, buf), "Partial(avg)");
    ck_assert_str_eq(tc_placement_str(TC_SHARD(1), buf), "S(1)");
    ck_assert_str_eq(tc_placement_str(TC_REPLICATE(), buf), "R");
    ck_assert_str_eq(tc_placement_str(TC_PARTIAL(), buf), "P");
    ck_assert_str_eq(tc_placement_str(avg, buf), "P");
    ck_assert(tc_placement_equal(TC_SHARD(1), TC_SHARD(1)));
    ck_assert(!tc_placement_equal(TC_SHARD(0), TC_SHARD(1)));
    ck_assert(!tc_placement_equal(TC_SHARD(0), TC_REPLICATE()));
    ck_assert(tc_placement_equal(TC_REPLICATE(), TC_REPLICATE()));
    ck_assert(tc_placement_equal(TC_PARTIAL(), TC_PARTIAL()));
    ck_assert(!tc_placement_equal(TC_PARTIAL(), avg));
}
END_TEST

/* --------------------------------------------- one rank (no launcher) */

START_TEST(test_dtensor_mesh_one_rank)
{
    tc_pg *world = tc_dist_init();
    int64_t one = 1, four = 4, zero[2] = { 2, 0 }, coord = 0;
    tc_device_mesh *mesh;
    char *text;

    ck_assert_ptr_nonnull(world);
    mesh = tc_device_mesh_new(world, 1, &one, NULL);
    ck_assert_ptr_nonnull(mesh);
    text = tc_device_mesh_repr(mesh);
    ck_assert_str_eq(text, "DeviceMesh('cpu', [0])");
    free(text);
    ck_assert_int_eq(tc_device_mesh_ndim(mesh), 1);
    ck_assert_int_eq(tc_device_mesh_size(mesh, 0), 1);
    ck_assert_int_eq(tc_device_mesh_size(mesh, -1), 1);
    ck_assert_int_eq(tc_device_mesh_size(mesh, 1), -1);
    ck_assert_int_eq(tc_device_mesh_coordinate(mesh, 0), 0);
    ck_assert_int_eq(tc_device_mesh_rank_at(mesh, &coord), 0);
    coord = 1;
    ck_assert_int_eq(tc_device_mesh_rank_at(mesh, &coord), -1);
    ck_assert_ptr_eq(tc_device_mesh_group(mesh, 0), world);   /* PyTorch reuses the world */
    ck_assert_ptr_null(tc_device_mesh_group(mesh, 1));
    tc_device_mesh_release(mesh);

    /* device_mesh.py's text for a mesh bigger than the world */
    ck_assert_ptr_null(tc_device_mesh_new(world, 1, &four, NULL));
    ck_assert_str_eq(tc_error(), "Mesh should not be bigger than default world size 1, but "
                                 "found 4 ranks!");
    ck_assert_ptr_null(tc_device_mesh_new(world, 2, zero, NULL));
    ck_assert_str_eq(tc_error(), "DeviceMesh: every size of a mesh is at least 1, got [2, 0]");
    ck_assert_ptr_null(tc_device_mesh_new(world, 0, &one, NULL));
    ck_assert_str_eq(tc_error(), "DeviceMesh: a mesh has 1 to 4 dimensions, got 0");
    ck_assert_ptr_null(tc_device_mesh_new(NULL, 1, &one, NULL));
    tc_dist_finalize();
}
END_TEST

START_TEST(test_dtensor_one_rank_round_trip)
{
    /* On a world of one rank every placement holds the whole tensor, and
       the repr is PyTorch 2.4's:
       DTensor(local_tensor=tensor([[0., 1.], [2., 3.]]) ... printed by
       torch 1.13's repr of the local tensor inside 2.4's f-string. */
    tc_pg *world = tc_dist_init();
    int64_t one = 1;
    tc_device_mesh *mesh = tc_device_mesh_new(world, 1, &one, NULL);
    tc_tensor *flat = tc_arange_double(0.0, 4.0, 1.0);
    tc_tensor *x = tc_view(flat, TC_SHAPE(2, 2));
    tc_placement s1 = TC_SHARD(-1), p = TC_PARTIAL(), r = TC_REPLICATE();
    tc_dtensor *d = tc_distribute_tensor(x, mesh, &s1), *e;
    tc_tensor *local, *full;
    int64_t off[TC_MAX_DIMS];
    tc_shape shape;
    char *text;

    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(tc_dtensor_placements(d)[0].dim, 1);     /* Shard(-1) -> Shard(1) */
    text = tc_dtensor_repr(d);
    ck_assert_str_eq(text, "DTensor(local_tensor=tensor([[0., 1.],\n        [2., 3.]]), "
                           "device_mesh=DeviceMesh('cpu', [0]), placements=(Shard(dim=1),))");
    free(text);
    local = tc_dtensor_to_local(d);
    ck_assert(d9_same(local, x));
    shape = tc_dtensor_local_offset(d, off);
    ck_assert_int_eq(shape.dim, 2);
    ck_assert_int_eq(shape.sizes[1], 2);
    ck_assert_int_eq(off[0] + off[1], 0);
    full = tc_dtensor_full_tensor(d);
    ck_assert(d9_same(full, x));
    tc_release(full);

    /* a tensor of the caller's is never written by distribute_tensor */
    e = tc_distribute_tensor(x, mesh, &r);
    ck_assert_ptr_nonnull(e);
    full = tc_dtensor_to_local(e);
    ck_assert_ptr_ne(tc_data_ptr(full), tc_data_ptr(x));
    tc_release(full);
    tc_dtensor_free(e);

    /* Partial: api.py's distribute_tensor refuses it, printing str(P) */
    ck_assert_ptr_null(tc_distribute_tensor(x, mesh, &p));
    ck_assert_str_eq(tc_error(), "Trying to distribute tensor with unsupported placements P "
                                 "on device mesh dimension 0!");
    /* Shard dims: _split_tensor's assert, then torch.chunk's IndexError */
    s1 = TC_SHARD(3);
    ck_assert_ptr_null(tc_distribute_tensor(x, mesh, &s1));
    ck_assert_str_eq(tc_error(), "Sharding dim 3 greater than tensor ndim 2");
    s1 = TC_SHARD(2);
    ck_assert_ptr_null(tc_distribute_tensor(x, mesh, &s1));
    ck_assert_str_eq(tc_error(),
                     "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    s1 = TC_SHARD(0);
    {
        tc_tensor *scalar = tc_full(TC_SCALAR_SHAPE, 1.0, TC_FLOAT32);
        ck_assert_ptr_null(tc_distribute_tensor(scalar, mesh, &s1));
        ck_assert_str_eq(tc_error(), "chunk expects at least a 1-dimensional tensor");
        tc_release(scalar);
    }
    ck_assert_ptr_null(tc_distribute_tensor(NULL, mesh, &s1));

    /* Shard -> Partial: _redistribute.py's text, str() of both */
    ck_assert_ptr_null(tc_dtensor_redistribute(d, &p));
    ck_assert_str_eq(tc_error(), "redistribute from S(1) to P not supported yet");
    {
        tc_redistribute_plan plan;
        char *lines;
        ck_assert_int_eq(tc_redistribute_plan_make(d, &s1, &plan), 0);
        ck_assert_int_eq(plan.nsteps, 1);
        lines = tc_redistribute_plan_str(&plan);
        ck_assert_str_eq(lines, "mesh dim 0: S(1) -> S(0), all_to_all in a group of 1: "
                                "sent 0 B, received 0 B, padding sent 0 B, received 0 B\n");
        free(lines);
        ck_assert_int_eq(tc_redistribute_plan_make(d, tc_dtensor_placements(d), &plan), 0);
        ck_assert_int_eq(plan.nsteps, 0);
        lines = tc_redistribute_plan_str(&plan);
        ck_assert_str_eq(lines, "nothing to do: the placements are the same\n");
        free(lines);
    }

    /* from_local: the global shape by PyTorch's rule, its messages */
    {
        tc_placement bad = TC_SHARD(-3);
        tc_dtensor *f = tc_dtensor_from_local(local, mesh, &r, NULL);
        ck_assert_ptr_nonnull(f);
        tc_dtensor_free(f);
        ck_assert_ptr_null(tc_dtensor_from_local(local, mesh, &bad, NULL));
        ck_assert_str_eq(tc_error(), "Shard placements should have negative dims normalized "
                                     "in the user-facing APIs: S(-1)");
        bad = TC_SHARD(2);
        ck_assert_ptr_null(tc_dtensor_from_local(local, mesh, &bad, NULL));
        ck_assert_str_eq(tc_error(), "Sharding dim 2 greater than tensor ndim 2 for "
                                     "placement number 0.");
    }
    tc_release(local);
    tc_dtensor_free(d);
    tc_device_mesh_release(mesh);
    tc_release(x);
    tc_release(flat);
    tc_dist_finalize();
}
END_TEST

/* ----------------------------------------------- meshes on four ranks */

static int d9_body_meshes(void *arg, int rank)
{
    tc_pg *world = tc_dist_init();
    int64_t four = 4, square[2] = { 2, 2 };
    const int flipped[4] = { 3, 1, 2, 0 }, twice[4] = { 0, 0, 2, 3 };
    tc_device_mesh *line, *grid, *other;
    char *text;

    (void)arg;
    d9_rank = rank;
    d9_failures = 0;
    if (world == NULL) {
        fprintf(stderr, "rank %d: %s\n", rank, tc_error());
        return 1;
    }
    line = tc_device_mesh_new(world, 1, &four, NULL);
    grid = tc_device_mesh_new(world, 2, square, NULL);
    other = tc_device_mesh_new(world, 2, square, flipped);
    D9_CHECK(line != NULL && grid != NULL && other != NULL, "mesh: %s", tc_error());
    if (line == NULL || grid == NULL || other == NULL)
        return 1;
    text = tc_device_mesh_repr(grid);
    D9_CHECK(strcmp(text, "DeviceMesh('cpu', [[0, 1], [2, 3]])") == 0, "%s", text);
    free(text);
    text = tc_device_mesh_repr(other);
    D9_CHECK(strcmp(text, "DeviceMesh('cpu', [[3, 1], [2, 0]])") == 0, "%s", text);
    free(text);
    /* 1-D: the world itself; coordinate = rank */
    D9_CHECK(tc_device_mesh_group(line, 0) == world, "line group");
    D9_CHECK(tc_device_mesh_coordinate(line, 0) == rank, "line coordinate");
    /* 2-D: rank r at (r / 2, r % 2); the group along dim 0 is the column
       {b, 2 + b}, along dim 1 the row {2a, 2a + 1}; group rank = coordinate */
    for (int m = 0; m < 2; m++) {
        const tc_device_mesh *mesh = m == 0 ? grid : other;
        int pos = m == 0 ? rank : (rank == 3 ? 0 : rank == 0 ? 3 : rank);
        int64_t a = pos / 2, b = pos % 2;
        const int *ranks = m == 0 ? (const int[4]){ 0, 1, 2, 3 } : flipped;
        tc_pg *col = tc_device_mesh_group(mesh, 0), *row = tc_device_mesh_group(mesh, 1);
        D9_CHECK(tc_device_mesh_coordinate(mesh, 0) == a && tc_device_mesh_coordinate(mesh, 1) == b,
                 "coordinate of mesh %d", m);
        D9_CHECK(tc_pg_size(col) == 2 && tc_pg_size(row) == 2, "group sizes");
        D9_CHECK(tc_pg_rank(col) == a && tc_pg_rank(row) == b, "group ranks");
        for (int i = 0; i < 2; i++) {
            D9_CHECK(tc_pg_world_rank(col, i) == ranks[i * 2 + b], "column of mesh %d", m);
            D9_CHECK(tc_pg_world_rank(row, i) == ranks[a * 2 + i], "row of mesh %d", m);
        }
        for (int64_t c = 0; c < 4; c++) {
            int64_t coord[2] = { c / 2, c % 2 };
            D9_CHECK(tc_device_mesh_rank_at(mesh, coord) == ranks[c], "rank_at");
        }
    }
    /* a mesh with a repeated rank: 2.1's validation text (2.4 no longer
       checks); a rank outside the world */
    D9_CHECK(tc_device_mesh_new(world, 2, square, twice) == NULL &&
                 strcmp(tc_error(), "DeviceMesh cannot have duplicate values, but found "
                                    "[[0, 0], [2, 3]]") == 0,
             "duplicates: %s", tc_error());
    {
        const int outside[4] = { 0, 1, 2, 4 };
        D9_CHECK(tc_device_mesh_new(world, 2, square, outside) == NULL &&
                     strcmp(tc_error(), "DeviceMesh: rank 4 is not a rank of the world (0 to 3)") == 0,
                 "outside: %s", tc_error());
    }
    tc_device_mesh_release(line);
    tc_device_mesh_release(grid);
    tc_device_mesh_release(other);
    tc_dist_finalize();
    return d9_failures != 0;
}

START_TEST(test_dtensor_meshes_four_ranks)
{
    ranks_launch(4, d9_body_meshes, NULL);
}
END_TEST

/* ------------------------------------------ distribute and full_tensor */

typedef struct {
    int ndim;
    int64_t mesh[2];
} d9_mesh_case;

static tc_device_mesh *d9_mesh(tc_pg *world, const d9_mesh_case *c)
{
    return tc_device_mesh_new(world, c->ndim, c->mesh, NULL);
}

static void d9_coords(const tc_device_mesh *mesh, int64_t *coord)
{
    for (int m = 0; m < tc_device_mesh_ndim(mesh); m++)
        coord[m] = tc_device_mesh_coordinate(mesh, m);
}

/* TC_SHARD() and friends are compound literals, not constants: the
   tables spell the initializers out. */
#define D9_S(d) { .kind = TC_PLACEMENT_SHARD, .dim = (d) }
#define D9_R { .kind = TC_PLACEMENT_REPLICATE }
#define D9_P { .kind = TC_PLACEMENT_PARTIAL, .op = TC_REDUCE_SUM }

static const tc_placement d9_placements_1d[][1] = {
    { D9_S(0) }, { D9_S(1) }, { D9_R }, { D9_P },
};

static const tc_placement d9_placements_2d[][2] = {
    { D9_S(0), D9_S(1) }, { D9_S(1), D9_S(0) }, { D9_S(0), D9_S(0) },
    { D9_R, D9_S(1) }, { D9_S(0), D9_R },
    { D9_R, D9_R }, { D9_P, D9_R },
    { D9_P, D9_S(0) }, { D9_S(1), D9_P }, { D9_R, D9_P },
};

static const tc_shape d9_shapes[] = {
    { 2, { 10, 3 } }, { 2, { 5, 7 } }, { 2, { 2, 5 } }, { 2, { 3, 0 } },
};

/* Distribute 12 * arange(shape) + 1000 * rank (only coordinate 0's values
   may arrive) with every placement list without Partial; the shard, its
   offsets and full_tensor against the oracle. */
static int d9_body_distribute(void *arg, int rank)
{
    const d9_mesh_case *mc = arg;
    tc_pg *world = tc_dist_init();
    tc_device_mesh *mesh;
    int64_t coord[2];
    size_t nshapes = testing_quick() ? 2 : sizeof d9_shapes / sizeof d9_shapes[0];
    size_t nplace = mc->ndim == 1 ? 3 : 6;

    d9_rank = rank;
    d9_failures = 0;
    if (world == NULL || (mesh = d9_mesh(world, mc)) == NULL) {
        fprintf(stderr, "rank %d: %s\n", rank, tc_error());
        return 1;
    }
    d9_coords(mesh, coord);
    for (size_t s = 0; s < nshapes; s++) {
        tc_dtype dtype = s % 2 == 0 ? TC_FLOAT32 : TC_INT64;
        tc_tensor *global = d9_global(d9_shapes[s], dtype);
        tc_tensor *mine = tc_add_scalar_int64(global, 1000 * rank);
        for (size_t k = 0; k < nplace; k++) {
            const tc_placement *p = mc->ndim == 1 ? d9_placements_1d[k] : d9_placements_2d[k];
            char what[128];
            tc_dtensor *d = tc_distribute_tensor(mine, mesh, p);
            tc_tensor *want = d9_expected_shard(global, mc->ndim, mc->mesh, coord, p);
            tc_tensor *local = d != NULL ? tc_dtensor_to_local(d) : NULL;
            tc_tensor *full = d != NULL ? tc_dtensor_full_tensor(d) : NULL;
            int64_t off[TC_MAX_DIMS];
            tc_shape shape = d != NULL ? tc_dtensor_local_offset(d, off) : (tc_shape){ 0 };
            d9_placements_text(what, sizeof what, mc->ndim, p);
            D9_CHECK(d9_same(local, want), "distribute %s of shape [%lld, %lld]: %s", what,
                     (long long)d9_shapes[s].sizes[0], (long long)d9_shapes[s].sizes[1],
                     d == NULL ? tc_error() : "wrong shard");
            D9_CHECK(d9_same(full, global), "full_tensor %s", what);
            /* offsets: where the expected shard starts in the global tensor */
            D9_CHECK(shape.dim == 2 && want != NULL && shape.sizes[0] == want->sizes[0] &&
                         shape.sizes[1] == want->sizes[1],
                     "local shape %s", what);
            if (want != NULL && tc_numel(want) > 0)
                D9_CHECK(d != NULL && (char *)tc_data_ptr(want) - (char *)tc_data_ptr(global) ==
                                          (off[0] * global->strides[0] + off[1]) *
                                              (int64_t)tc_itemsize(dtype),
                         "offsets %s: %lld, %lld", what, (long long)off[0], (long long)off[1]);
            tc_release(local);
            tc_release(full);
            tc_release(want);
            tc_dtensor_free(d);
        }
        tc_release(mine);
        tc_release(global);
    }
    tc_device_mesh_release(mesh);
    tc_dist_finalize();
    return d9_failures != 0;
}

START_TEST(test_dtensor_distribute_1d)
{
    d9_mesh_case three = { 1, { 3, 0 } }, four = { 1, { 4, 0 } };

    ranks_launch(3, d9_body_distribute, &three);
    if (!testing_quick())
        ranks_launch(4, d9_body_distribute, &four);
}
END_TEST

START_TEST(test_dtensor_distribute_2d)
{
    d9_mesh_case grid = { 2, { 2, 2 } };

    ranks_launch(4, d9_body_distribute, &grid);
}
END_TEST

/* ------------------------------------------------------- redistribute */

/* The source DTensor of placements p: Shard and Replicate distributed
   from `global`; a Partial mesh dim m holds (coordinate m + 1) times the
   value (from_local with the global shape), so that its sum over the
   group is n(n + 1)/2 times it. */
static tc_dtensor *d9_source(const tc_tensor *global, tc_device_mesh *mesh, const int64_t *sizes,
                             const int64_t *coord, const tc_placement *p)
{
    int ndim = tc_device_mesh_ndim(mesh);
    tc_tensor *local = d9_expected_shard(global, ndim, sizes, coord, p), *t;
    tc_shape shape = tc_shape_of(global);
    tc_dtensor *d;

    for (int m = 0; m < ndim; m++) {
        if (p[m].kind == TC_PLACEMENT_PARTIAL) {
            t = tc_mul_scalar(local, coord[m] + 1);
            tc_release(local);
            local = t;
        }
    }
    t = tc_contiguous(local);
    d = tc_dtensor_from_local(t, mesh, p, &shape);
    tc_release(t);
    tc_release(local);
    return d;
}

/* What this rank must hold after redistributing from src to dst: the dst
   shard of global, times, per mesh dim: n(n+1)/2 for a Partial reduced,
   coordinate + 1 for a Partial kept; divided by n for a Replicate made
   Partial. */
static tc_tensor *d9_expected(const tc_tensor *global, int ndim, const int64_t *sizes,
                              const int64_t *coord, const tc_placement *src,
                              const tc_placement *dst)
{
    tc_tensor *t = d9_expected_shard(global, ndim, sizes, coord, dst), *u;
    int64_t times = 1, divide = 1;

    for (int m = 0; m < ndim; m++) {
        bool was = src[m].kind == TC_PLACEMENT_PARTIAL, is = dst[m].kind == TC_PLACEMENT_PARTIAL;
        if (was && is)
            times *= coord[m] + 1;
        else if (was)
            times *= sizes[m] * (sizes[m] + 1) / 2;
        else if (is)
            divide *= sizes[m];
    }
    u = tc_mul_scalar(t, times);
    tc_release(t);
    if (divide > 1) {                 /* int64 / n is float32, as in PyTorch */
        t = tc_div_scalar(u, divide);
        tc_release(u);
        u = t;
    }
    t = tc_contiguous(u);
    tc_release(u);
    return t;
}

static bool d9_shard_to_partial(int ndim, const tc_placement *src, const tc_placement *dst)
{
    for (int m = 0; m < ndim; m++)
        if (src[m].kind == TC_PLACEMENT_SHARD && dst[m].kind == TC_PLACEMENT_PARTIAL)
            return true;
    return false;
}

/* The plan's bytes, summed per mesh dim, against what the groups counted. */
static void d9_check_counts(const tc_device_mesh *mesh, const tc_redistribute_plan *plan,
                            const tc_pg_stats *before, const char *what)
{
    for (int m = 0; m < tc_device_mesh_ndim(mesh); m++) {
        tc_pg_stats want = before[m], got = tc_pg_get_stats(tc_device_mesh_group(mesh, m));
        for (int i = 0; i < plan->nsteps; i++) {
            const tc_redistribute_step *s = &plan->steps[i];
            if (s->mesh_dim != m || strncmp(s->collective, "local", 5) == 0 ||
                strcmp(s->collective, "none") == 0)
                continue;
            want.calls++;
            want.bytes_sent += s->bytes_sent;
            want.bytes_received += s->bytes_received;
            want.padding_sent += s->padding_sent;
            want.padding_received += s->padding_received;
        }
        D9_CHECK(got.calls == want.calls && got.bytes_sent == want.bytes_sent &&
                     got.bytes_received == want.bytes_received &&
                     got.padding_sent == want.padding_sent &&
                     got.padding_received == want.padding_received,
                 "%s: mesh dim %d counted %lld calls, %lld/%lld B, padding %lld/%lld B; the "
                 "plan says %lld calls, %lld/%lld B, padding %lld/%lld B",
                 what, m, (long long)got.calls, (long long)got.bytes_sent,
                 (long long)got.bytes_received, (long long)got.padding_sent,
                 (long long)got.padding_received, (long long)want.calls,
                 (long long)want.bytes_sent, (long long)want.bytes_received,
                 (long long)want.padding_sent, (long long)want.padding_received);
    }
}

static void d9_one_redistribute(const tc_tensor *global, tc_device_mesh *mesh,
                                const d9_mesh_case *mc, const int64_t *coord,
                                const tc_placement *src, const tc_placement *dst)
{
    char what[256], a[96], b[96];
    tc_dtensor *d = d9_source(global, mesh, mc->mesh, coord, src), *e;
    tc_redistribute_plan plan;
    tc_pg_stats before[2];
    int rc;

    d9_placements_text(a, sizeof a, mc->ndim, src);
    d9_placements_text(b, sizeof b, mc->ndim, dst);
    snprintf(what, sizeof what, "%s -> %s on [%lld, %lld] %s", a, b,
             (long long)global->sizes[0], (long long)global->sizes[1],
             tc_dtype_name(global->dtype));
    D9_CHECK(d != NULL, "%s: source: %s", what, tc_error());
    if (d == NULL)
        return;
    rc = tc_redistribute_plan_make(d, dst, &plan);
    if (d9_shard_to_partial(mc->ndim, src, dst)) {
        e = tc_dtensor_redistribute(d, dst);
        D9_CHECK(rc == -1 && e == NULL && strstr(tc_error(), "to P not supported yet") != NULL,
                 "%s: not refused", what);
        tc_dtensor_free(e);
        tc_dtensor_free(d);
        return;
    }
    D9_CHECK(rc == 0, "%s: plan: %s", what, tc_error());
    for (int m = 0; m < mc->ndim; m++)
        before[m] = tc_pg_get_stats(tc_device_mesh_group(mesh, m));
    e = tc_dtensor_redistribute(d, dst);
    D9_CHECK(e != NULL, "%s: %s", what, tc_error());
    if (e != NULL) {
        tc_tensor *want = d9_expected(global, mc->ndim, mc->mesh, coord, src, dst);
        tc_tensor *got = tc_dtensor_to_local(e);
        D9_CHECK(d9_same(got, want), "%s: wrong local tensor", what);
        for (int m = 0; m < mc->ndim; m++)
            D9_CHECK(tc_placement_equal(tc_dtensor_placements(e)[m], dst[m]), "%s: placements",
                     what);
        tc_release(got);
        tc_release(want);
        d9_check_counts(mesh, &plan, before, what);
    }
    tc_dtensor_free(e);
    tc_dtensor_free(d);
}

static int d9_body_redistribute(void *arg, int rank)
{
    const d9_mesh_case *mc = arg;
    tc_pg *world = tc_dist_init();
    tc_device_mesh *mesh;
    int64_t coord[2];
    size_t nplace = mc->ndim == 1 ? 4 : sizeof d9_placements_2d / sizeof d9_placements_2d[0];
    size_t nshapes = testing_quick() ? 1 : 3;

    d9_rank = rank;
    d9_failures = 0;
    if (world == NULL || (mesh = d9_mesh(world, mc)) == NULL) {
        fprintf(stderr, "rank %d: %s\n", rank, tc_error());
        return 1;
    }
    d9_coords(mesh, coord);
    for (size_t s = 0; s < nshapes; s++) {
        tc_tensor *global = d9_global(d9_shapes[s], s == 1 ? TC_INT64 : s == 2 ? TC_FLOAT64
                                                                               : TC_FLOAT32);
        for (size_t i = 0; i < nplace; i++)
            for (size_t j = 0; j < nplace; j++)
                if (!testing_quick() || mc->ndim == 1 || (i + j) % 3 == 0)
                        d9_one_redistribute(
                        global, mesh, mc, coord,
                        mc->ndim == 1 ? d9_placements_1d[i] : d9_placements_2d[i],
                        mc->ndim == 1 ? d9_placements_1d[j] : d9_placements_2d[j]);
        tc_release(global);
    }
    tc_device_mesh_release(mesh);
    tc_dist_finalize();
    return d9_failures != 0;
}

START_TEST(test_dtensor_redistribute_1d)
{
    d9_mesh_case three = { 1, { 3, 0 } }, four = { 1, { 4, 0 } };

    ranks_launch(3, d9_body_redistribute, &three);
    if (!testing_quick())
        ranks_launch(4, d9_body_redistribute, &four);
}
END_TEST

START_TEST(test_dtensor_redistribute_2d)
{
    d9_mesh_case grid = { 2, { 2, 2 } };

    ranks_launch(4, d9_body_redistribute, &grid);
}
END_TEST

/* The plan of one case worked out by hand: 10 x 3 float32 rows on 4 ranks,
   S(0) -> R. Shards of 3, 3, 3, 1 rows are padded to 3 rows (36 B) and
   all-gathered: each rank sends 36 B to 3 peers and receives 3 x 36 B.
   Rank 3 pads 2 rows (24 B) in each block it sends; ranks 0-2 receive
   those 24 B from rank 3. */
static int d9_body_plan_by_hand(void *arg, int rank)
{
    tc_pg *world = tc_dist_init();
    int64_t four = 4;
    tc_device_mesh *mesh = world != NULL ? tc_device_mesh_new(world, 1, &four, NULL) : NULL;
    tc_tensor *global = d9_global(TC_SHAPE(10, 3), TC_FLOAT32);
    tc_placement s0 = TC_SHARD(0), r = TC_REPLICATE();
    tc_dtensor *d = mesh != NULL ? tc_distribute_tensor(global, mesh, &s0) : NULL;
    tc_redistribute_plan plan;
    char *text, want[256];

    (void)arg;
    d9_rank = rank;
    d9_failures = 0;
    if (d == NULL || tc_redistribute_plan_make(d, &r, &plan) != 0) {
        fprintf(stderr, "rank %d: %s\n", rank, tc_error());
        return 1;
    }
    snprintf(want, sizeof want,
             "mesh dim 0: S(0) -> R, all_gather in a group of 4: sent %d B, received %d B, "
             "padding sent %d B, received %d B\n",
             rank == 3 ? 36 : 108, rank == 3 ? 108 : 84, rank == 3 ? 72 : 0,
             rank == 3 ? 0 : 24);
    text = tc_redistribute_plan_str(&plan);
    D9_CHECK(strcmp(text, want) == 0, "plan:\n%s", text);
    free(text);
    /* distribute_tensor's scatter from rank 0: it sent 3 shards of 36 B,
       8 B ... of which rank 3's 24 B are padding */
    {
        tc_pg_stats st = tc_pg_get_stats(world);
        D9_CHECK(st.calls == 1, "calls %lld", (long long)st.calls);
        D9_CHECK(rank == 0 ? st.bytes_sent == 84 && st.padding_sent == 24
                           : st.bytes_received == (rank == 3 ? 12 : 36) &&
                                 st.padding_received == (rank == 3 ? 24 : 0),
                 "scatter counts: sent %lld + %lld, received %lld + %lld",
                 (long long)st.bytes_sent, (long long)st.padding_sent,
                 (long long)st.bytes_received, (long long)st.padding_received);
    }
    tc_dtensor_free(d);
    tc_release(global);
    tc_device_mesh_release(mesh);
    tc_dist_finalize();
    return d9_failures != 0;
}

START_TEST(test_dtensor_plan_by_hand)
{
    ranks_launch(4, d9_body_plan_by_hand, NULL);
}
END_TEST

/* 2.4's _gen_transform_infos on a 2 x 2 mesh: (S(0), S(0)) -> (R, S(0))
   replicates the inner shard first, then the outer, then shards again. */
static int d9_body_nested(void *arg, int rank)
{
    tc_pg *world = tc_dist_init();
    int64_t square[2] = { 2, 2 };
    tc_device_mesh *mesh = world != NULL ? tc_device_mesh_new(world, 2, square, NULL) : NULL;
    tc_tensor *global = d9_global(TC_SHAPE(8, 2), TC_FLOAT32);
    tc_placement src[2] = { TC_SHARD(0), TC_SHARD(0) }, dst[2] = { TC_REPLICATE(), TC_SHARD(0) };
    tc_dtensor *d = mesh != NULL ? tc_distribute_tensor(global, mesh, src) : NULL;
    tc_redistribute_plan plan;
    char *text;
    char *repr;

    (void)arg;
    d9_rank = rank;
    d9_failures = 0;
    if (d == NULL || tc_redistribute_plan_make(d, dst, &plan) != 0) {
        fprintf(stderr, "rank %d: %s\n", rank, tc_error());
        return 1;
    }
    text = tc_redistribute_plan_str(&plan);
    D9_CHECK(strcmp(text, "mesh dim 1: S(0) -> R, all_gather in a group of 2: sent 16 B, "
                          "received 16 B, padding sent 0 B, received 0 B\n"
                          "mesh dim 0: S(0) -> R, all_gather in a group of 2: sent 32 B, "
                          "received 32 B, padding sent 0 B, received 0 B\n"
                          "mesh dim 1: R -> S(0), local chunk, no communication\n") == 0,
             "plan:\n%s", text);
    free(text);
    /* rank 1 at (0, 1) holds global rows 2-3 (12 * [4, 7]) */
    repr = tc_dtensor_repr(d);
    if (rank == 1)
        D9_CHECK(strcmp(repr, "DTensor(local_tensor=tensor([[48., 60.],\n        [72., 84.]]), "
                              "device_mesh=DeviceMesh('cpu', [[0, 1], [2, 3]]), "
                              "placements=(Shard(dim=0), Shard(dim=0)))") == 0,
                 "%s", repr);
    free(repr);
    tc_dtensor_free(d);
    tc_release(global);
    tc_device_mesh_release(mesh);
    tc_dist_finalize();
    return d9_failures != 0;
}

START_TEST(test_dtensor_nested_sharding_plan)
{
    ranks_launch(4, d9_body_nested, NULL);
}
END_TEST

static void ch09_add_dtensor(Suite *s)
{
    TCase *tc = tcase_create("dtensor");

    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_dtensor_chunk_rule_examples);
    tcase_add_test(tc, test_dtensor_chunk_rule_all_small);
    tcase_add_test(tc, test_dtensor_chunk_rule_near_int64_max);
    tcase_add_test(tc, test_dtensor_bad_placements_and_global_shapes);
    tcase_add_test(tc, test_dtensor_placement_reprs);
    tcase_add_test(tc, test_dtensor_mesh_one_rank);
    tcase_add_test(tc, test_dtensor_one_rank_round_trip);
    tcase_add_test(tc, test_dtensor_meshes_four_ranks);
    tcase_add_test(tc, test_dtensor_distribute_1d);
    tcase_add_test(tc, test_dtensor_distribute_2d);
    tcase_add_test(tc, test_dtensor_redistribute_1d);
    tcase_add_test(tc, test_dtensor_redistribute_2d);
    tcase_add_test(tc, test_dtensor_plan_by_hand);
    tcase_add_test(tc, test_dtensor_nested_sharding_plan);
    suite_add_tcase(s, tc);
}
