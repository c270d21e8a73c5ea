// Generates impls/cr_sigma_coeffs.h: the constants of the correctly rounded GELUs of the form
// x·σ(t(x)), cr_tanh and cr_sigmoid (see impls/cr_sigma.h for the algorithm and its error
// analysis). Run by tools/gen_coeffs.sh (meson compile -C build coeffs).
//
// t(u) = u·(c1 + c3·u²), t'(u) = c1 + 3·c3·u²: the tanh form's c1 = 2·√(2/π), c3 = c1·0.044715;
// the sigmoid form's c1 = 1.702, c3 = 0 (the published decimals as real numbers). Each constant
// rounded to nearest binary64 (the fast path) and to nearest x87 extended (the accurate path).
// e^r = 1 + r·P(r) on |r| ≤ 0.35 (ln2/2 plus slack), P of degree 9, binary64, relative error.
prec = 300!;
verbosity = 0!;
display = hexadecimal!;
execute("tools/coeffs_common.sol");
c1 = 2*sqrt(2/pi);
c3 = c1*0.044715;
k = 1.702;
e = fpminimax(expm1(x)/x, 9, [|D...|], [-0.35; 0.35], relative);
eerr = dirtyinfnorm((1 + x*e)/exp(x) - 1, [-0.35; 0.35]);

c_generated_by("tools/cr_sigma_coeffs.sol");
write("/* The tanh form: t(u) = u*(c1 + c3*u^2), c1 = 2*sqrt(2/pi), c3 = c1*0.044715, 3*c3 for t'. */\n");
write("static const double cr_tanh_c1 = ", round(c1, D, RN), ";\n");
write("static const double cr_tanh_c3 = ", round(c3, D, RN), ";\n");
write("static const double cr_tanh_3c3 = ", round(3*c3, D, RN), ";\n");
write("static const long double cr_tanh_c1_l = ", round(c1, DE, RN), "L;\n");
write("static const long double cr_tanh_c3_l = ", round(c3, DE, RN), "L;\n");
write("/* The sigmoid form: t(u) = 1.702*u. */\n");
write("static const double cr_sigmoid_c1 = ", round(k, D, RN), ";\n");
write("static const long double cr_sigmoid_c1_l = ", round(k, DE, RN), "L;\n");
display = decimal!;
write("/* e^r = 1 + r*P(r), |r| <= 0.35, relative error 2^", round(log2(eerr), 12, RN), " */\n");
display = hexadecimal!;
l = [||];
for d from 0 to 9 do l = l :. coeff(e, d);
c_table("double", "", "cr_sigma_exp", "10", l);
quit;
