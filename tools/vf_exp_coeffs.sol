// Generates impls/vf_exp_coeffs.h: e^r = 1 + r·P(r) on the reduced argument |r| ≤ 0.36 (ln2/2
// plus slack), P of degree 5 with binary32 coefficients, relative error. Used by impls/vf_exp.h.
// Run by tools/gen_coeffs.sh (meson compile -C build coeffs).
prec = 300!;
verbosity = 0!;
display = hexadecimal!;
execute("tools/coeffs_common.sol");
I = [-0.36; 0.36];
e = fpminimax(expm1(x)/x, 5, [|SG...|], I, relative);
err = dirtyinfnorm((1 + x*e)/exp(x) - 1, I);
c_generated_by("tools/vf_exp_coeffs.sol");
display = decimal!;
write("/* e^r = 1 + r*P(r), |r| <= 0.36, relative error 2^", round(log2(err), 12, RN), " */\n");
display = hexadecimal!;
l = [||];
for d from 0 to 5 do l = l :. coeff(e, d);
c_table("float", "f", "vf_exp_p", "6", l);
quit;
