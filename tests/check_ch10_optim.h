/* check_ch10_optim.h: (helper optim fills this in). */

static void ch10_add_optim(Suite *s)
{
    (void)s;
}
