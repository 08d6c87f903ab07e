/* Exercise 9.1: the transpose of a distributed matrix,
   tc_dtensor *tc_dtensor_t(const tc_dtensor *a):
   a.t() for a DTensor of 2 dimensions (of 1 or 0 too, which t() returns as
   they are), with PyTorch 2.4's propagation (torch/distributed/_tensor/
   ops/view_ops.py: t is dim_transpose(ndim, 0, 1)): Shard(0) becomes
   Shard(1) and Shard(1) becomes Shard(0), on every mesh dimension;
   Replicate() and Partial(sum) stay. Each rank transposes its own shard and
   nothing is communicated. More than 2 dimensions fail with PyTorch's
   message (torch 1.13: torch.ones(3, 4, 5).t() raises "t() expects a
   tensor with <= 2 dimensions, but self is 3D").

   The test starts 4 ranks (tc_launch_fn); each compares, in its own
   process, the full tensor of the result with the serial x.t(). */
#include "exercise.h"

tc_dtensor *tc_dtensor_t(const tc_dtensor *a) TC_EXERCISE_WEAK;

static tc_pg_stats mesh_stats(tc_device_mesh *mesh)
{
    tc_pg_stats sum = { 0 };

    for (int dim = 0; dim < tc_device_mesh_ndim(mesh); dim++) {
        tc_pg_stats s = tc_pg_get_stats(tc_device_mesh_group(mesh, dim));
        sum.calls += s.calls;
        sum.bytes_sent += s.bytes_sent;
    }
    return sum;
}

/* d = distribute_tensor(x, mesh, from); d.t() has the placements want,
   moves nothing, and its full tensor is x.t() times scale. */
static void check(const char *what, tc_device_mesh *mesh, const tc_tensor *x,
                  const tc_placement *from, const tc_placement *want, double scale)
{
    tc_dtensor *d = tc_distribute_tensor(x, mesh, from), *t = NULL;
    tc_tensor *serial = tc_t(x), *scaled = NULL, *full = NULL;
    tc_pg_stats before, after;

    if (d == NULL || serial == NULL) {
        EXPECT(false, "%s: cannot distribute the test's tensor: %s", what, tc_error());
        goto out;
    }
    before = mesh_stats(mesh);
    t = tc_dtensor_t(d);
    after = mesh_stats(mesh);
    EXPECT(t != NULL, "%s: d.t() failed: %s", what, tc_error() != NULL ? tc_error() : "NULL");
    if (t == NULL)
        goto out;
    EXPECT(after.calls == before.calls && after.bytes_sent == before.bytes_sent,
           "%s: d.t() communicated (it needs no collective)", what);
    for (int i = 0; i < tc_device_mesh_ndim(mesh); i++)
        EXPECT(tc_placement_equal(tc_dtensor_placements(t)[i], want[i]),
               "%s: placement %d of d.t() is %s, want %s", what, i,
               tc_placement_repr(tc_dtensor_placements(t)[i], (char[TC_PLACEMENT_STRLEN]){ 0 }),
               tc_placement_repr(want[i], (char[TC_PLACEMENT_STRLEN]){ 0 }));
    scaled = tc_mul_scalar(serial, scale);
    full = tc_dtensor_full_tensor(t);
    EXPECT(full != NULL && scaled != NULL && tc_equal(full, scaled),
           "%s: d.t().full_tensor() is not x.t()", what);
out:
    tc_clear_error();
    tc_dtensor_free(d), tc_dtensor_free(t);
    tc_release(serial), tc_release(scaled), tc_release(full);
}

static int ranks_body(void *arg, int rank)
{
    tc_pg *world = tc_dist_init();
    tc_device_mesh *mesh = NULL, *mesh2 = NULL;
    tc_tensor *flat = tc_arange(0.0, 40.0, 1.0), *x = NULL, *cube = NULL, *local = NULL;
    tc_dtensor *d = NULL, *p = NULL;

    (void)arg;
    if (rank != 0 && freopen("/dev/null", "w", stdout) == NULL)
        return 2;
    if (world == NULL) {
        printf("    cannot join the world: %s\n", tc_error());
        return 1;
    }
    mesh = tc_device_mesh_new(world, 1, (int64_t[]){ 4 }, NULL);
    mesh2 = tc_device_mesh_new(world, 2, (int64_t[]){ 2, 2 }, NULL);
    x = tc_reshape(flat, TC_SHAPE(10, 4));
    if (mesh == NULL || mesh2 == NULL || x == NULL) {
        printf("    cannot make the test's meshes: %s\n", tc_error());
        exercise_missing++;
        goto out;
    }
    check("Shard(0) on 4 ranks", mesh, x, (tc_placement[]){ TC_SHARD(0) },
          (tc_placement[]){ TC_SHARD(1) }, 1);
    check("Shard(1) on 4 ranks", mesh, x, (tc_placement[]){ TC_SHARD(1) },
          (tc_placement[]){ TC_SHARD(0) }, 1);
    check("Replicate() on 4 ranks", mesh, x, (tc_placement[]){ TC_REPLICATE() },
          (tc_placement[]){ TC_REPLICATE() }, 1);
    check("(Shard(0), Shard(1)) on 2 x 2", mesh2, x,
          (tc_placement[]){ TC_SHARD(0), TC_SHARD(1) },
          (tc_placement[]){ TC_SHARD(1), TC_SHARD(0) }, 1);
    check("(Shard(0), Replicate()) on 2 x 2", mesh2, x,
          (tc_placement[]){ TC_SHARD(0), TC_REPLICATE() },
          (tc_placement[]){ TC_SHARD(1), TC_REPLICATE() }, 1);
    /* Every rank holds x as its part of a Partial(sum): the whole is 4 x. */
    local = tc_clone(x);
    p = tc_dtensor_from_local(local, mesh, (tc_placement[]){ TC_PARTIAL() }, NULL);
    if (p != NULL) {
        tc_dtensor *t = tc_dtensor_t(p);
        tc_tensor *full = tc_dtensor_full_tensor(t), *serial = tc_t(x);
        tc_tensor *four = tc_mul_scalar(serial, 4);
        EXPECT(t != NULL && tc_placement_equal(tc_dtensor_placements(t)[0], TC_PARTIAL()),
               "Partial(sum): d.t() should stay Partial(sum)");
        EXPECT(full != NULL && four != NULL && tc_equal(full, four),
               "Partial(sum): d.t().full_tensor() is not (4 x).t()");
        tc_dtensor_free(t), tc_release(full), tc_release(serial), tc_release(four);
    }
    tc_clear_error();
    cube = tc_ones(TC_SHAPE(4, 4, 5), TC_FLOAT32);
    d = tc_distribute_tensor(cube, mesh, (tc_placement[]){ TC_SHARD(0) });
    if (d != NULL)
        expect_error("a 3-D DTensor's t()", tc_dtensor_t(d),
                     "t() expects a tensor with <= 2 dimensions, but self is 3D");
out:
    fflush(stdout);
    tc_barrier(world);
    tc_dtensor_free(d), tc_dtensor_free(p);
    tc_release(flat), tc_release(x), tc_release(cube), tc_release(local);
    tc_device_mesh_release(mesh), tc_device_mesh_release(mesh2);
    tc_dist_finalize();
    return exercise_missing > 0 ? 1 : 0;
}

int main(void)
{
    if (tc_dtensor_t == NULL)
        return exercise_not_started("ch09_transpose", "tc_dtensor_t");
    exercise_on_ranks(4, ranks_body);
    return exercise_verdict("ch09_transpose");
}
