// Generates impls/erfc_accurate_coeffs.h: the coefficients of gelu_f32_erfc_accurate (see
// impls/erfc_accurate.h for the algorithm). Run by tools/gen_coeffs.sh (meson compile -C build coeffs).
//
// For u ≥ 0, GELU(−u) = −u·exp(−u²/2 + H(u)) with H(u) = log(erfc(u/√2)/2) + u²/2, the log of
// Φ(−u)·e^{u²/2}: smooth and bounded on [0, 15], unlike Φ(−u), which underflows. H is fitted on
// five intervals [0,1], [1,2], [2,4], [4,8], [8,15] (chosen by the binade of u) by a degree-8
// polynomial in v = u − mid, absolute error (= relative error of the result), coefficients in
// binary64 for c0 and binary32 for the others. exp(r) = 1 + r·P(r) on |r| ≤ 0.36 (the reduced
// argument, ln2/2 plus slack), P of degree 6 in binary64.
prec = 300!;
verbosity = 0!;
display = hexadecimal!;
execute("tools/coeffs_common.sol");
H = log(erfc(x/sqrt(2))/2) + x^2/2;
lo = [|0, 1, 2, 4, 8|];
hi = [|1, 2, 4, 8, 15|];
deg = 8;
mids = [||]; coef = [||]; errs = [||];
for i from 0 to 4 do {
  m = (lo[i] + hi[i]) / 2;
  f = H(m + x);
  I = [lo[i] - m; hi[i] - m];
  p = fpminimax(f, deg, [|D, SG, SG, SG, SG, SG, SG, SG, SG|], I, absolute);
  mids = mids :. m;
  coef = coef :. p;
  errs = errs :. dirtyinfnorm(f - p, I);
};
e = fpminimax(expm1(x)/x, 6, [|D...|], [-0.36; 0.36], relative);
eerr = dirtyinfnorm((1 + x*e)/exp(x) - 1, [-0.36; 0.36]);

c_generated_by("tools/erfc_accurate_coeffs.sol");
write("/* H(u) = log(erfc(u/sqrt2)/2) + u^2/2 per binade of u, in v = u - mid: H = c0 + v*(c1 + ... + v*c8).\n");
write("   Max abs error of the fit per interval, log2:");
display = decimal!;
for i from 0 to 4 do write(" ", round(log2(errs[i]), 12, RN));
display = hexadecimal!;
write(" */\n");
c_table("double", "", "erfc_acc_mid", "8", mids);
names = [|"erfc_acc_c0", "erfc_acc_c1", "erfc_acc_c2", "erfc_acc_c3", "erfc_acc_c4", "erfc_acc_c5",
          "erfc_acc_c6", "erfc_acc_c7", "erfc_acc_c8"|];
for d from 0 to deg do {
  l = [||];
  for i from 0 to 4 do l = l :. coeff(coef[i], d);
  c_table("double", "", names[d], "8", l);
};
display = decimal!;
write("/* exp(r) = 1 + r*P(r), |r| <= 0.36, relative error 2^", round(log2(eerr), 12, RN), " */\n");
display = hexadecimal!;
l = [||];
for d from 0 to 6 do l = l :. coeff(e, d);
c_table("double", "", "erfc_acc_exp", "7", l);
quit;
