// Generates impls/cr_coeffs.h: the coefficients of the correctly rounded GELU `cr` (see
// impls/cr.h for the algorithm and its error analysis). Run by tools/gen_coeffs.sh
// (meson compile -C build coeffs); takes about four minutes.
//
// With u = |x| ≥ 0, c = 1/√(2π), E(u) = e^{−u²/2}:
//   M(u) = Φ(−u)·e^{u²/2}                        so GELU(−u) = −u·E(u)·M(u);
//   G(u) = M(u) − c·u,  K(u) = G(u)/(u − u_m)    so GELU'(−u) = E(u)·(u − u_m)·K(u),
// u_m = −x_min, the zero of GELU' (Newton below, 300 bits). M and K are smooth on [0, 16]; each
// is fitted on the 16 pieces [i, i+1] by a degree-12 polynomial in v = u − (i + ½), binary64
// coefficients, relative error. e^r = 1 + r·P(r) on |r| ≤ 0.35 (ln2/2 plus slack), P of degree
// 9, relative error.
prec = 300!;
verbosity = 0!;
display = hexadecimal!;
execute("tools/coeffs_common.sol");
c = 1/sqrt(2*pi);
M = exp(x^2/2)*erfc(x/sqrt(2))/2;
G = M - x*c;
um = 0.75;
for i from 1 to 8 do um = round(um - G(um)/(um*M(um) - 2*c), 300, RN); // G' = u·M − 2c
um_hi = round(um, D, RN);
um_lo = round(um - um_hi, D, RN);
deg = 12;
fm = [||]; fk = [||]; em = [||]; ek = [||];
for i from 0 to 15 do {
  m = i + 1/2;
  I = [-1/2; 1/2];
  f = M(m + x);
  p = fpminimax(f, deg, [|D...|], I, relative);
  k = G(m + x)/(m + x - um);
  q = fpminimax(k, deg, [|D...|], I, relative);
  fm = fm :. p; fk = fk :. q;
  em = em :. dirtyinfnorm(p/f - 1, I);
  ek = ek :. dirtyinfnorm(q/k - 1, I);
};
e = fpminimax(expm1(x)/x, 9, [|D...|], [-0.35; 0.35], relative);
eerr = dirtyinfnorm((1 + x*e)/exp(x) - 1, [-0.35; 0.35]);

c_generated_by("tools/cr_coeffs.sol");
display = decimal!;
write("/* u_m = -x_min, the zero of GELU'(-u), as um_hi + um_lo (|G(um)| = 2^", round(log2(abs(G(um))), 12, RN), " at 300 bits) */\n");
display = hexadecimal!;
write("static const double cr_um_hi = ", um_hi, ";\n");
write("static const double cr_um_lo = ", um_lo, ";\n");
write("/* M(u) = Phi(-u)*exp(u^2/2) on [i, i+1], v = u - (i + 1/2): M = m0 + v*(m1 + ... + v*m12).\n");
write("   Max relative error of the fit per piece, log2:");
display = decimal!;
for i from 0 to 15 do write(" ", round(log2(em[i]), 12, RN));
display = hexadecimal!;
write(" */\n");
for d from 0 to deg do {
  l = [||];
  for i from 0 to 15 do l = l :. coeff(fm[i], d);
  display = decimal!;
  name = "cr_m" @ d;
  display = hexadecimal!;
  c_table("double", "", name, "16", l);
};
write("/* K(u) = (M(u) - u/sqrt(2pi))/(u - u_m) on [i, i+1], same form (k0 ... k12).\n");
write("   Max relative error of the fit per piece, log2:");
display = decimal!;
for i from 0 to 15 do write(" ", round(log2(ek[i]), 12, RN));
display = hexadecimal!;
write(" */\n");
for d from 0 to deg do {
  l = [||];
  for i from 0 to 15 do l = l :. coeff(fk[i], d);
  display = decimal!;
  name = "cr_k" @ d;
  display = hexadecimal!;
  c_table("double", "", name, "16", l);
};
display = decimal!;
write("/* exp(r) = 1 + r*P(r), |r| <= 0.35, relative error 2^", round(log2(eerr), 12, RN), " */\n");
display = hexadecimal!;
l = [||];
for d from 0 to 9 do l = l :. coeff(e, d);
c_table("double", "", "cr_exp", "10", l);
quit;
