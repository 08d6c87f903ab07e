/* Exercise 9.2: one dimension of a mesh as a mesh of its own,
   tc_device_mesh *tc_device_mesh_slice(tc_device_mesh *mesh, int dim):
   the 1-D mesh of the ranks on this rank's line along dim (PyTorch 2.4:
   mesh_2d["tp"] for a mesh made with mesh_dim_names=("dp", "tp")), which
   uses the group the mesh already has for that dimension: no new group,
   nothing communicated (PyTorch's _MeshEnv.create_child_mesh reuses the
   parent's _dim_group_infos). The slice stays valid after the mesh it came
   from is released. A dim out of range fails with PyTorch's message for a
   dimension (torch 1.13: torch.ones(2, 2).sum(2) raises "Dimension out of
   range (expected to be in range of [-2, 1], but got 2)"); -1 is the last
   dimension, as everywhere in PyTorch.

   The test starts 4 ranks (tc_launch_fn) on a 2 x 2 mesh [[0, 1], [2, 3]]. */
#include "exercise.h"

tc_device_mesh *tc_device_mesh_slice(tc_device_mesh *mesh, int dim) TC_EXERCISE_WEAK;

static void expect_mesh_repr(const char *what, const tc_device_mesh *m, const char *want)
{
    char *got = m != NULL ? tc_device_mesh_repr(m) : NULL;

    EXPECT(got != NULL && strcmp(got, want) == 0, "%s is %s, want %s", what,
           got != NULL ? got : (tc_error() != NULL ? tc_error() : "NULL"), want);
    free(got);
}

static int ranks_body(void *arg, int rank)
{
    tc_pg *world = tc_dist_init();
    tc_device_mesh *mesh2 = NULL, *rows = NULL, *cols = NULL, *last = NULL;
    tc_tensor *flat = tc_arange(0.0, 40.0, 1.0), *x = tc_reshape(flat, TC_SHAPE(10, 4));
    tc_tensor *full = NULL;
    tc_dtensor *d = NULL;
    char want[64];
    int64_t before = -1;

    (void)arg;
    if (rank != 0 && freopen("/dev/null", "w", stdout) == NULL)
        return 2;
    if (world == NULL || x == NULL
        || (mesh2 = tc_device_mesh_new(world, 2, (int64_t[]){ 2, 2 }, NULL)) == NULL) {
        printf("    cannot make the test's mesh: %s\n", tc_error());
        exercise_missing++;
        goto out;
    }
    before = tc_pg_get_stats(world).calls;
    /* Along dim 0, rank r's line is the column r % 2: [0, 2] or [1, 3];
       along dim 1, its row: [0, 1] or [2, 3]. */
    rows = tc_device_mesh_slice(mesh2, 0);
    cols = tc_device_mesh_slice(mesh2, 1);
    last = tc_device_mesh_slice(mesh2, -1);
    snprintf(want, sizeof want, "DeviceMesh('cpu', [%d, %d])", rank % 2, rank % 2 + 2);
    expect_mesh_repr("mesh2 sliced along dim 0", rows, want);
    snprintf(want, sizeof want, "DeviceMesh('cpu', [%d, %d])", rank / 2 * 2, rank / 2 * 2 + 1);
    expect_mesh_repr("mesh2 sliced along dim 1", cols, want);
    expect_mesh_repr("mesh2 sliced along dim -1", last, want);
    EXPECT(tc_pg_get_stats(world).calls == before, "slicing a mesh communicated");
    EXPECT(rows != NULL && tc_device_mesh_group(rows, 0) == tc_device_mesh_group(mesh2, 0),
           "the slice along dim 0 should use mesh2's group of dim 0, not a new one");
    EXPECT(cols != NULL && tc_device_mesh_group(cols, 0) == tc_device_mesh_group(mesh2, 1),
           "the slice along dim 1 should use mesh2's group of dim 1, not a new one");
    EXPECT(rows != NULL && tc_device_mesh_coordinate(rows, 0) == rank / 2,
           "rank %d's coordinate in the slice along dim 0 should be %d", rank, rank / 2);
    expect_error("mesh2 sliced along dim 2", tc_device_mesh_slice(mesh2, 2),
                 "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
    /* The slice outlives its parent, and a tensor distributed on it is cut
       in two: 10 rows are 5 and 5. */
    tc_device_mesh_release(mesh2);
    mesh2 = NULL;
    if (rows != NULL && (d = tc_distribute_tensor(x, rows, (tc_placement[]){ TC_SHARD(0) })) != NULL) {
        int64_t offset[TC_MAX_DIMS] = { 0 };
        tc_shape local = tc_dtensor_local_offset(d, offset);
        EXPECT(local.dim == 2 && local.sizes[0] == 5 && offset[0] == 5 * (rank / 2),
               "Shard(0) on the slice: rank %d should hold rows %d..%d", rank, 5 * (rank / 2),
               5 * (rank / 2) + 4);
        full = tc_dtensor_full_tensor(d);
        EXPECT(full != NULL && tc_equal(full, x), "full_tensor() on the slice is not x");
    } else {
        EXPECT(false, "distribute_tensor on the slice failed: %s",
               tc_error() != NULL ? tc_error() : "no slice");
    }
out:
    tc_clear_error();
    fflush(stdout);
    if (world != NULL)
        tc_barrier(world);
    tc_dtensor_free(d);
    tc_release(flat), tc_release(x), tc_release(full);
    tc_device_mesh_release(rows), tc_device_mesh_release(cols), tc_device_mesh_release(last);
    tc_device_mesh_release(mesh2);
    tc_dist_finalize();
    return exercise_missing > 0 ? 1 : 0;
}

int main(void)
{
    if (tc_device_mesh_slice == NULL)
        return exercise_not_started("ch09_mesh_slice", "tc_device_mesh_slice");
    exercise_on_ranks(4, ranks_body);
    return exercise_verdict("ch09_mesh_slice");
}
