/* check_ch09_dops.h: (stub; helper dops writes the tests) */
static void ch09_add_dops(Suite *s)
{
    (void)s;
}
