/* Exercise 10.1: nn.Tanh(), tc_module *tc_nn_tanh(void): a module without
   parameters whose forward is chapter 5's ag_tanh (TanhBackward0), printed
   as "Tanh()", that fits in a Sequential like ReLU. NULL only when memory
   runs out.

   Expected values from torch 1.13:
       torch.manual_seed(0)
       m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
       x = torch.tensor([[0.5, -1., 2.], [1.5, 0., -0.5]])
       y = m(x); y.sum().backward()
   repr(m), [n for n, _ in m.named_parameters()], y, m[0].weight.grad and
   m[0].bias.grad as printed below (the Linears' weights are the bits of
   torch.manual_seed(0), which tc_manual_seed(0) reproduces). */
#include "exercise.h"

tc_module *tc_nn_tanh(void) TC_EXERCISE_WEAK;

int main(void)
{
    static const char want_repr[] = "Sequential(\n"
                                    "  (0): Linear(in_features=3, out_features=4, bias=True)\n"
                                    "  (1): Tanh()\n"
                                    "  (2): Linear(in_features=4, out_features=2, bias=True)\n"
                                    ")";
    static const char *const want_names[] = { "0.weight", "0.bias", "2.weight", "2.bias" };
    static const double want_y[] = { -0.07085597515106201, -0.059851646423339844,
                                     -0.3701110780239105, -0.2006089687347412 };
    static const double want_w_grad[] = {
        0.5333992838859558,  -0.03826203942298889, -0.09489867091178894,
        0.7433289885520935,  -0.7123916149139404,  1.2957388162612915,
        -0.7519406676292419, 0.2457307130098343,   -0.28176963329315186,
        0.2918561100959778,  -0.15610414743423462, 0.24094028770923615,
    };
    static const double want_b_grad[] = { 0.38110753893852234, 0.9704804420471191,
                                          -0.6651142835617065, 0.2986401617527008 };
    static const float xs[] = { 0.5f, -1.f, 2.f, 1.5f, 0.f, -0.5f };
    tc_module *layers[3], *m = NULL, *alone;
    tc_tensor *x = NULL, *y = NULL, *sum = NULL;
    char *repr = NULL;

    if (tc_nn_tanh == NULL)
        return exercise_not_started("ch10_tanh", "tc_nn_tanh");
    /* one layer after the other: each Linear draws from the default generator */
    tc_manual_seed(0);
    layers[0] = tc_nn_linear(3, 4, true, NULL);
    layers[1] = tc_nn_tanh();
    layers[2] = tc_nn_linear(4, 2, true, NULL);
    EXPECT(layers[1] != NULL, "tc_nn_tanh() returned NULL: %s", tc_error() ? tc_error() : "");
    if (layers[0] == NULL || layers[1] == NULL || layers[2] == NULL) {
        for (int i = 0; i < 3; i++)
            if (layers[i] != NULL)
                tc_module_free(layers[i]);
        return exercise_verdict("ch10_tanh");
    }
    m = tc_nn_sequential(3, layers);
    EXPECT(m != NULL, "Sequential(Linear, Tanh, Linear) failed: %s", tc_error());
    if (m == NULL)
        return exercise_verdict("ch10_tanh");
    repr = tc_module_repr(m);
    EXPECT(repr != NULL && strcmp(repr, want_repr) == 0, "repr(m) is\n%s\nwant\n%s",
           repr ? repr : "NULL", want_repr);
    EXPECT(tc_module_num_parameters(m) == 4, "m has %d parameters, want 4 (Tanh has none)",
           tc_module_num_parameters(m));
    for (int i = 0; i < 4 && i < tc_module_num_parameters(m); i++)
        EXPECT(strcmp(tc_module_parameter_name(m, i), want_names[i]) == 0,
               "parameter %d is named %s, want %s", i, tc_module_parameter_name(m, i),
               want_names[i]);
    x = tc_from_data(TC_SHAPE(2, 3), TC_FLOAT32, xs);
    y = tc_module_forward(m, x);
    expect_values("m(x)", y, 4, want_y);
    sum = ag_sum(y);
    EXPECT(sum != NULL && ag_backward(sum, NULL, false) == 0, "y.sum().backward() failed: %s",
           tc_error() ? tc_error() : "");
    tc_clear_error();
    expect_values("m[0].weight.grad", ag_grad(tc_module_parameter(m, 0)), 12, want_w_grad);
    expect_values("m[0].bias.grad", ag_grad(tc_module_parameter(m, 1)), 4, want_b_grad);
    /* a Tanh alone: no parameters, its own repr */
    alone = tc_nn_tanh();
    if (alone != NULL) {
        char *r = tc_module_repr(alone);
        EXPECT(r != NULL && strcmp(r, "Tanh()") == 0, "repr(nn.Tanh()) is %s, want Tanh()",
               r ? r : "NULL");
        EXPECT(tc_module_num_parameters(alone) == 0, "nn.Tanh() has %d parameters, want 0",
               tc_module_num_parameters(alone));
        free(r);
        tc_module_free(alone);
    }
    free(repr);
    tc_release(x), tc_release(y), tc_release(sum);
    tc_module_free(m);
    return exercise_verdict("ch10_tanh");
}
