/* check_ch10_data.h: (helper data fills this in). */

static void ch10_add_data(Suite *s)
{
    (void)s;
}
