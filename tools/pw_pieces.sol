// Shared by tools/pw_*_coeffs.sol (executed after coeffs_common.sol): piecewise polynomials of
// GELU in t = x − m, one per piece, built so that their binary32 Horner evaluation is monotone
// (impls/pw_fast.h explains why each choice matters):
//  * m is a float in the middle half of the piece for which GELU(m) is nearly a float, and
//    c0 = GELU(m) rounded, so c0 carries almost no error and t = x − m is exact (Sterbenz);
//  * in the piece holding x_min, m = RN(x_min) and c1 = 0;
//  * pieces with an end at 0 are centred on 0 with c0 = 0 (written −0) and c1 given (about 1/2);
//  * each piece equals GELU at both ends: after the minimax fit, c_j·t^j + c_(j+1)·t^(j+1) is
//    corrected so that the ends' errors vanish, the coefficients are rounded, and c_(deg−1),
//    c_deg are corrected once more for what the rounding moved.
// Fits are absolute, except that mode relative fits the pieces at 0 relative to their remainder
// (a multiple of x², which the pieces' monomials from x² on match); elsewhere GELU keeps its
// sign and varies by less than 2x across a piece, so absolute minimax is within that of relative,
// and fpminimax's relative mode cannot fit a remainder that vanishes at t = 0. The worst error is
// then reported relative to GELU. The derivative gets its own (absolute) fit.

pw_gelu = x*erfc(-x/sqrt(2))/2;
pw_gelu_d = erfc(-x/sqrt(2))/2 + x*exp(-x^2/2)/sqrt(2*pi);
pw_xmin = -0.751791524693564457457904164;   // GELU's minimum (reference/, docs/DESIGN.md)

procedure pw_ulp(v) { return 2^(floor(log2(abs(v))) - 23); };

// 400 candidates over the middle half: near x = 5, GELU(x) = x − 7e-7 moves by only 3 ULPs
// across a piece, so consecutive floats around the middle would not do.
procedure pw_centre(F, a, b) {
  var m, best, bm, k, v, u;
  best = 1; bm = round((a + b)/2, SG, RN);
  for k from 0 to 399 do {
    m = round(a + (b - a)*(1/4 + k/800), SG, RN);
    v = F(m); u = abs(v - round(v, SG, RN))/pw_ulp(v);
    if u < best then { best = u; bm = m; };
  };
  return bm;
};

// p + t^j·(α + β·t) with α, β such that the result equals F at ta and at tb (only tb if ta is 0)
procedure pw_pin(p, F, j, ta, tb) {
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

procedure pw_single(p, deg) {
  var k, q;
  q = 0;
  for k from 0 to deg do q = q + round(coeff(p, k), SG, RN)*x^k;
  return q;
};

// f, fd: GELU and its derivative; bounds: the n + 1 piece ends (increasing); half_pos,
// half_neg: c1 of the pieces starting and ending at 0. Returns [|ms, ps, ds, worst, worst at the
// ends, worst of the derivative|], worst in the mode's measure (relative: |error/GELU|).
procedure pw_fit(f, fd, bounds, deg, xmin, mode, half_pos, half_neg) {
  var i, a, b, m, c0, j, lo, ta, tb, I, F, p, d, e, ms, ps, ds, worst, worstend, worstd, md;
  ms = [||]; ps = [||]; ds = [||]; worst = 0; worstend = 0; worstd = 0;
  for i from 0 to length(bounds) - 2 do {
    a = bounds[i]; b = bounds[i + 1]; md = absolute;
    if (a == 0 || b == 0) then {
      m = 0; j = 2;
      if a == 0 then { ta = 0; tb = b; lo = half_pos*x; } else { ta = 0; tb = a; lo = half_neg*x; };
      md = mode;
    } else if (a < xmin && xmin < b) then {
      m = round(xmin, SG, RN); c0 = round(f(m), SG, RN); j = 2; lo = c0;
      ta = a - m; tb = b - m;
    } else {
      m = pw_centre(f, a, b); c0 = round(f(m), SG, RN); j = 1; lo = c0;
      ta = a - m; tb = b - m;
    };
    I = [a - m; b - m];
    if m == 0 then I = [inf(I) - (b - a)/64; sup(I) + (b - a)/64]; // fpminimax fails on [0, w]
    F = f(m + x);
    p = lo + fpminimax(F - lo, [|j,...,deg|], [|SG...|], I, md);
    p = pw_single(pw_pin(p, F, j, ta, tb), deg);
    p = pw_single(pw_pin(p, F, deg - 1, ta, tb), deg);
    if mode == relative then e = dirtyinfnorm((F - p)/F, I) else e = dirtyinfnorm(F - p, I);
    if e > worst then worst = e;
    e = max(abs(evaluate(F - p, ta)), abs(evaluate(F - p, tb)));
    if e > worstend then worstend = e;
    if m == 0 then d = 0.5 + fpminimax(fd(x) - 0.5, [|1,...,deg|], [|SG...|], I, mode)
    else d = fpminimax(fd(m + x), deg, [|SG...|], I, absolute);
    e = dirtyinfnorm(fd(m + x) - d, I);
    if e > worstd then worstd = e;
    ms = ms :. m; ps = ps :. p; ds = ds :. d;
  };
  return [|ms, ps, ds, worst, worstend, worstd|];
};

// The tables <prefix>_m, <prefix>_c0..c<deg>, <prefix>_h and <prefix>_d0..d<deg>, in
// hexadecimal, for y = (c0 + h·t) + t·(c1 + t·(c2 + …)) with the first sum and the last step one
// FMA each. h is c1 in the pieces at 0 (about 1/2): their y = RN(h·t) + t·RN(t·B) is
// monotone because t/2 moves by more than t·RN(t·B)'s rounding; as c0 + t·RN(1/2 + t·B) it
// was not (B's rounding steps, relative 2^-24, match t's: 62214 violations on (0, 0.33)). The
// other pieces have h = 0. c0's zeros print as −0.0: x = ±0 then gives ±0, the sign of x.
procedure pw_write(prefix, fit, deg) {
  var names, k, l, i, ps, ds, n, sz;
  names = [|"0", "1", "2", "3", "4", "5", "6", "7", "8"|];
  ps = fit[1]; ds = fit[2]; n = length(ps);
  display = decimal!;
  sz = "" @ n;
  display = hexadecimal!;
  c_table("float", "f", prefix @ "_m", sz, fit[0]);
  write("static const float ", prefix, "_c0[", sz, "] = {");
  for i from 0 to n - 1 do if coeff(ps[i], 0) == 0 then write("-0.0f, ") else write(coeff(ps[i], 0), "f, ");
  write("};\n");
  // the pieces at 0 move c1 (about 1/2) to h and keep 2^-100 in c1: t·RN(2^-100 + t·B) then
  // has the sign of t² even where t·B underflows, so x = −2^-149 (h·t rounds to −0) stays −0
  l = [||]; for i from 0 to n - 1 do if fit[0][i] == 0 then l = l :. coeff(ps[i], 1) else l = l :. 0;
  c_table("float", "f", prefix @ "_h", sz, l);
  l = [||]; for i from 0 to n - 1 do if fit[0][i] == 0 then l = l :. 2^-100 else l = l :. coeff(ps[i], 1);
  c_table("float", "f", prefix @ "_c1", sz, l);
  for k from 2 to deg do {
    l = [||]; for i from 0 to n - 1 do l = l :. coeff(ps[i], k);
    c_table("float", "f", prefix @ "_c" @ names[k], sz, l);
  };
  for k from 0 to deg do {
    l = [||]; for i from 0 to n - 1 do l = l :. coeff(ds[i], k);
    c_table("float", "f", prefix @ "_d" @ names[k], sz, l);
  };
};
