// Generates impls/poly_erf8x6_coeffs.h: G(u) = Φ(u) − ½ = erf(u/√2)/2 on [0, 5.4] cut into 8
// equal intervals, each a degree-6 polynomial in v = u − mid with binary32 coefficients,
// minimax in absolute error (GELU's error is u times it). Used by impls/poly_erf.h.
// Run by tools/gen_coeffs.sh (meson compile -C build coeffs).
prec = 300!;
verbosity = 0!;
display = hexadecimal!;
execute("tools/coeffs_common.sol");
G = erf(x/sqrt(2))/2;
n = 8; deg = 6; top = 5.4;
w = top/n;
mids = [||]; coef = [||]; worst = 0;
for i from 0 to n - 1 do {
  m = round((i + 1/2)*w, SG, RN);
  I = [i*w - m; (i + 1)*w - m];
  p = fpminimax(G(m + x), deg, [|SG...|], I, absolute);
  e = dirtyinfnorm(G(m + x) - p, I) * (i + 1)*w;
  if e > worst then worst = e;
  mids = mids :. m;
  coef = coef :. p;
};
c_generated_by("tools/poly_erf8x6_coeffs.sol");
display = decimal!;
write("/* G(u) = erf(u/sqrt2)/2 on 8 intervals of [0, 5.4], degree 6 in v = u - mid; max of u*|error| ", round(worst, 12, RN), " */\n");
display = hexadecimal!;
c_table("float", "f", "poly_erf_mid", "16", mids);
names = [|"poly_erf_c0", "poly_erf_c1", "poly_erf_c2", "poly_erf_c3", "poly_erf_c4", "poly_erf_c5", "poly_erf_c6"|];
for d from 0 to deg do {
  l = [||];
  for i from 0 to n - 1 do l = l :. coeff(coef[i], d);
  c_table("float", "f", names[d], "16", l);
};
quit;
