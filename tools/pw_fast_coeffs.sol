// Generates impls/pw_fast_coeffs.h: GELU(x) = x·Φ(x) on [−L, L] (L = 5.3) cut into 32 equal
// pieces, each a degree-5 polynomial in t = x − m with binary32 coefficients (impls/pw_fast.h
// evaluates it by Horner). The choices that make the binary32 evaluation monotone:
//  * m is a float near the piece's middle for which GELU(m) is nearly a float (searched), and
//    c0 = GELU(m) rounded: so c0 carries almost no error, and t = x − m is exact (Sterbenz);
//  * the piece holding GELU's minimum x_min is centred on m = RN(x_min) with c1 = 0: there the
//    Horner steps keep their signs (t·(0 + t·B)), and the two pieces around 0 are centred on 0
//    with c0 = 0 and c1 = 1/2 (x/2 exact for small x);
//  * each piece matches GELU at both of its ends (after an absolute minimax fit, a correction
//    c_j·t^j + c_{j+1}·t^(j+1) moves the end errors to zero), so neighbouring pieces meet where
//    GELU moves less than an ULP between consecutive floats (near x_min).
// The derivative Φ(x) + x·φ(x) gets its own degree-5 fit per piece, same centres.
// Run by tools/gen_coeffs.sh (meson compile -C build coeffs).
prec = 300!;
verbosity = 0!;
execute("tools/coeffs_common.sol");
f = x*erfc(-x/sqrt(2))/2;
fd = erfc(-x/sqrt(2))/2 + x*exp(-x^2/2)/sqrt(2*pi);
xmin = -0.751791524693564457457904164;   // GELU's minimum (reference/, DESIGN.md)
n = 32; deg = 5; L = 5.3;
w = 2*L/n;

procedure ulp_of(v) { return 2^(floor(log2(abs(v))) - 23); };

// a float in the middle half of [a, b] whose GELU is closest to a float, in units of its ULP
// (400 candidates spread over the half: near x = 5, GELU(x) = x − 7e-7 moves by only 3 ULPs
// across a piece, so consecutive floats would not do)
procedure centre(a, b) {
  var m, best, bm, k, v, u;
  best = 1; bm = round((a + b)/2, SG, RN);
  for k from 0 to 399 do {
    m = round(a + (b - a)*(1/4 + k/800), SG, RN);
    v = f(m); u = abs(v - round(v, SG, RN))/ulp_of(v);
    if u < best then { best = u; bm = m; };
  };
  return bm;
};

// p + t^j·(α + β·t) with α, β such that the result equals F at ta and at tb (tb only if ta is 0)
procedure pin(p, F, j, ta, tb) {
  var ea, eb, al, be;
  eb = evaluate(F - p, tb);
  if ta == 0 then {
    al = eb/tb^j; be = 0;
  } else {
    ea = evaluate(F - p, ta);
    be = (eb/tb^j - ea/ta^j)/(tb - ta);
    al = ea/ta^j - be*ta;
  };
  return p + x^j*(al + be*x);
};

procedure to_single(p) {
  var k, q;
  q = 0;
  for k from 0 to deg do q = q + round(coeff(p, k), SG, RN)*x^k;
  return q;
};

ms = [||]; ps = [||]; ds = [||]; worst = 0; worstd = 0; worstend = 0;
for i from 0 to n - 1 do {
  a = -L + i*w; b = a + w;
  if (i == n/2 - 1 || i == n/2) then {           // [−w, 0] and [0, w]: x/2 + t²·(…)
    // c1 is the float just above (x > 0) or below (x < 0) 1/2: for an odd subnormal x, x/2 is
    // a tie that exact GELU = x/2 + x²/√(2π) breaks upward, and x·c1 rounds that way too
    m = 0; c0 = 0; j = 2;
    if i == n/2 then { ta = 0; tb = b; lo = (1/2 + 2^-24)*x; } else { ta = 0; tb = a; lo = (1/2 - 2^-25)*x; };
  } else if (a < xmin && xmin < b) then {        // the minimum: c0 + t²·(…)
    m = round(xmin, SG, RN); c0 = round(f(m), SG, RN); j = 2; lo = c0;
    ta = a - m; tb = b - m;
  } else {
    m = centre(a, b); c0 = round(f(m), SG, RN); j = 1; lo = c0;
    ta = a - m; tb = b - m;
  };
  I = [a - m; b - m];
  if m == 0 then I = [inf(I) - w/64; sup(I) + w/64]; // fpminimax fails on [0, w]; overlap a little
  F = f(m + x);
  p = lo + fpminimax(F - lo, [|j,...,deg|], [|SG...|], I, absolute);
  p = to_single(pin(p, F, j, ta, tb));
  p = to_single(pin(p, F, deg - 1, ta, tb));   // the roundings moved the ends: pin again, on c4, c5
  e = dirtyinfnorm(F - p, I);
  if e > worst then worst = e;
  e = max(abs(evaluate(F - p, ta)), abs(evaluate(F - p, tb)));
  if e > worstend then worstend = e;
  if m == 0 then d = 0.5 + fpminimax(fd(x) - 0.5, [|1,...,deg|], [|SG...|], I, absolute)
  else d = fpminimax(fd(m + x), deg, [|SG...|], I, absolute);
  e = dirtyinfnorm(fd(m + x) - d, I);
  if e > worstd then worstd = e;
  ms = ms :. m; ps = ps :. p; ds = ds :. d;
};

names = [|"0", "1", "2", "3", "4", "5"|];
c_generated_by("tools/pw_fast_coeffs.sol");
display = decimal!;
write("/* GELU on 32 pieces of [-5.3, 5.3], degree 5 in t = x - m; max abs error of the polynomials ",
      round(worst, 12, RN), " (at the pieces' ends ", round(worstend, 12, RN),
      "), of the derivative's ", round(worstd, 12, RN), " */\n");
display = hexadecimal!;
write("static const float pw_fast_scale = ", round(n/(2*L), SG, RN), "f; /* pieces per unit of x */\n");
display = decimal!;
write("static const float pw_fast_offset = ", n/2, ".0f; /* piece of x: trunc(x·scale + offset) */\n");
display = hexadecimal!;
c_table("float", "f", "pw_fast_m", "32", ms);
// c0 of the pieces around 0 is −0: x = ±0 then gives t·A + (−0) = ±0, the sign of x
write("static const float pw_fast_c0[32] = {");
for i from 0 to n - 1 do if coeff(ps[i], 0) == 0 then write("-0.0f, ") else write(coeff(ps[i], 0), "f, ");
write("};\n");
for k from 1 to deg do {
  l = [||]; for i from 0 to n - 1 do l = l :. coeff(ps[i], k);
  c_table("float", "f", "pw_fast_c" @ names[k], "32", l);
};
for k from 0 to deg do {
  l = [||]; for i from 0 to n - 1 do l = l :. coeff(ds[i], k);
  c_table("float", "f", "pw_fast_d" @ names[k], "32", l);
};
quit;
