// Generates impls/cr_fast_coeffs.h: the coefficients of the first fast path of `cr` (see
// impls/cr.h, "First fast path"). Run by tools/gen_coeffs.sh (meson compile -C build coeffs).
//
// On x in [-3, 5), 16 pieces of width 1/2: piece j = floor(2x + 6), v = 2x + 6 - j - 1/2 in
// [-1/2, 1/2). Per piece a degree-9 polynomial in v, binary64 coefficients, relative error, of
//   P(x) = Phi(x)                                  so GELU(x) = x*P(x);
//   D(x) = (Phi(x) + x*phi(x))/(x + u_m)            so GELU'(x) = (x + u_m)*D(x),
// u_m = -x_min, the zero of GELU' (Newton, 300 bits; cr_coeffs.h carries it as cr_um_hi +
// cr_um_lo). D is smooth (its singularity at -u_m is removable).
// Printed per piece: the fit's error (sampled) and the Horner sum's condition
// sum_k |c_k|/2^k * max |1/f| (sampled).
prec = 300!;
verbosity = 0!;
display = hexadecimal!;
execute("tools/coeffs_common.sol");
c = 1/sqrt(2*pi);
Mf = exp(x^2/2)*erfc(x/sqrt(2))/2;
G = Mf - x*c;
um = 0.75;
for i from 1 to 8 do um = round(um - G(um)/(um*Mf(um) - 2*c), 300, RN); // G' = u*M - 2c
Phi = erfc(-x/sqrt(2))/2;
Der = (Phi + x*c*exp(-x^2/2))/(x + um);
deg = 9;
I = [-1/2; 1/2];
fp = [||]; fd = [||]; ep = [||]; ed = [||]; cp = [||]; cd = [||];
procedure cond(p, f) {
  var k, s;
  s = 0;
  for k from 0 to degree(p) do s = s + abs(coeff(p, k))/2^k;
  return s*dirtyinfnorm(1/f, I);
};
for j from 0 to 15 do {
  xv = (x + j - 11/2)/2;
  f = Phi(xv);
  p = fpminimax(f, deg, [|D...|], I, relative);
  g = Der(xv);
  q = fpminimax(g, deg, [|D...|], I, relative);
  fp = fp :. p; fd = fd :. q;
  ep = ep :. dirtyinfnorm(p/f - 1, I);
  ed = ed :. dirtyinfnorm(q/g - 1, I);
  cp = cp :. cond(p, f);
  cd = cd :. cond(q, g);
};

c_generated_by("tools/cr_fast_coeffs.sol");
procedure table(pre, name, fs, es, cs) {
  var d, l, i;
  write("/* ", name, " on piece j (x in [j/2 - 3, j/2 - 5/2)), v = 2x + 6 - j - 1/2:\n");
  display = decimal!;
  write("   ", pre, "0 + v*(", pre, "1 + ... + v*", pre, deg, ").\n");
  write("   Max relative error of the fit per piece, log2:");
  for i from 0 to 15 do write(" ", round(log2(es[i]), 12, RN));
  write("\n   Horner condition per piece:");
  for i from 0 to 15 do write(" ", round(cs[i], 12, RN));
  display = hexadecimal!;
  write(" */\n");
  for d from 0 to deg do {
    l = [||];
    for i from 0 to 15 do l = l :. coeff(fs[i], d);
    display = decimal!;
    nm = pre @ d;
    display = hexadecimal!;
    c_table("double", "", nm, "16", l);
  };
};
table("cr_fp", "P(x) = Phi(x)", fp, ep, cp);
table("cr_fd", "D(x) = (Phi(x) + x*phi(x))/(x + u_m)", fd, ed, cd);
quit;
