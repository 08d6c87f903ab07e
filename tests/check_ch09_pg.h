/* check_ch09_pg.h: (stub; helper pg writes the tests) */
static void ch09_add_pg(Suite *s)
{
    (void)s;
}
