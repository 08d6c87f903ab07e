/* check_ch09_dtensor.h: (stub; helper dtensor writes the tests) */
static void ch09_add_dtensor(Suite *s)
{
    (void)s;
}
