/* check_ch08_native.h: tests of chapter 8 (helper native). */
static void ch08_add_native(Suite *s)
{
    (void)s;
}
