/* check_ch09_launch.h: (stub; helper launch writes the tests) */
static void ch09_add_launch(Suite *s)
{
    (void)s;
}
