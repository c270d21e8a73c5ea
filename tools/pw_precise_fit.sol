// Shared by tools/pw_precise_coeffs.sol and tools/pw_tanh_coeffs.sol (executed after
// coeffs_common.sol and pw_pieces.sol): the fit of impls/pw_precise.h's pieces, c0 + c0lo + c1·t
// exact and the rest relative, for any function f of GELU's shape (a minimum at xmin, f(0) = 0,
// f'(0) = 1/2), and the writer of its tables. pw_precise_coeffs.sol explains each choice.

procedure pp_single_rest(q, deg) {
  var k, r;
  r = 0;
  for k from 1 to deg do r = r + round(coeff(q, k), SG, RN)*x^k;
  return r;
};

// [|ms, c0s, c0los, qs, dc0s, dc0los, dqs, worst relative, worst at the ends, worst relative
// of the derivative (x_min's piece left out), its relative error in x_min's piece, Fast2Sum
// failures, dc1los|]: GELU ≈ c0 + c0lo + q(t), GELU' ≈ dc0 + dc0lo + dc1lo·t + dq(t),
// q(0) = dq(0) = 0; fdd is GELU''.
procedure pp_fit(f, fd, fdd, bounds, deg, xmin) {
  var i, a, b, m, c0, c0lo, K, j, ta, tb, I, F, FD, q, p, dq, d0, d0lo, KD, e, worst, worstend,
      worstd, worstdmin, bad, ms, c0s, c0los, qs, dc0s, dc0los, dqs, d1, d1lo, t0, E, dc1los;
  ms = [||]; c0s = [||]; c0los = [||]; qs = [||]; dc0s = [||]; dc0los = [||]; dqs = [||];
  dc1los = [||];
  worst = 0; worstend = 0; worstd = 0; worstdmin = 0; bad = 0;
  for i from 0 to length(bounds) - 2 do {
    a = bounds[i]; b = bounds[i + 1];
    if (a == 0 || b == 0) then {
      m = 0; c0 = 0; c0lo = 0; K = x/2; j = 2;
      if a == 0 then { ta = 0; tb = b; } else { ta = 0; tb = a; };
    } else if (a < xmin && xmin < b) then {
      m = round(xmin, SG, RN); j = 2;
      ta = a - m; tb = b - m;
    } else {
      m = round((a + b)/2, SG, RN); j = 1;
      ta = a - m; tb = b - m;
    };
    if m != 0 then {
      c0 = round(f(m), SG, RN); c0lo = round(f(m) - c0, SG, RN); K = c0 + c0lo;
    };
    I = [a - m; b - m];
    if m == 0 then I = [inf(I) - (b - a)/64; sup(I) + (b - a)/64]; // fpminimax fails on [0, w]
    F = f(m + x);
    // in x_min's piece fpminimax returns 0 for F − K (both modes; Sollya 8): remez there, then
    // rounded (GELU is nearly constant there, so absolute and relative differ by 2%)
    if j == 2 && m != 0 then p = K + pp_single_rest(remez(F - K, [|j,...,deg|], I), deg)
    else p = fpminimax(F, [|j,...,deg|], [|SG...|], I, relative, floating, K);
    q = pp_single_rest(pw_pin(p, F, j, ta, tb) - K, deg);
    q = pp_single_rest(pw_pin(K + q, F, deg - 1, ta, tb) - K, deg);
    if m == 0 then { q = q + x/2; K = 0; }; // c1 = 1/2 in the table, c0 + c0lo = 0
    p = K + q;
    e = dirtyinfnorm((F - p)/F, I);
    if e > worst then worst = e;
    e = max(abs(evaluate(F - p, ta)), abs(evaluate(F - p, tb)));
    if e > worstend then worstend = e;
    // Fast2Sum(c0, RN(c1·t)): |c1·t| ≤ |c0| at the piece's ends bounds it inside
    if (m != 0 && abs(coeff(q, 1))*max(abs(ta), abs(tb)) > abs(c0)) then bad = bad + 1;
    FD = fd(m + x);
    d0 = round(fd(m), SG, RN); d0lo = round(fd(m) - d0, SG, RN); KD = d0 + d0lo;
    if m == 0 then { d0 = 1/2; d0lo = 0; KD = 1/2; };
    d1lo = 0;
    if (a < xmin && xmin < b) then {
      d1 = round(fdd(m), SG, RN); d1lo = round(fdd(m) - d1, SG, RN);
      dq = d1*x + pp_single_rest(expand(x*remez((FD - KD)/x - d1 - d1lo, [|1,...,deg-1|], I)), deg);
      t0 = xmin - m;
      E = (FD - KD - d1lo*x - dq)/FD;
      e = max(dirtyinfnorm(E, [inf(I); t0 - 2^-24]), dirtyinfnorm(E, [t0 + 2^-24; sup(I)]));
      if e > worstdmin then worstdmin = e;
    } else {
      dq = pp_single_rest(fpminimax(FD, [|1,...,deg|], [|SG...|], I, relative, floating, KD) - KD, deg);
      e = dirtyinfnorm((FD - KD - dq)/FD, I);
      if e > worstd then worstd = e;
    };
    ms = ms :. m; c0s = c0s :. c0; c0los = c0los :. c0lo; qs = qs :. q;
    dc0s = dc0s :. d0; dc0los = dc0los :. d0lo; dqs = dqs :. dq; dc1los = dc1los :. d1lo;
  };
  return [|ms, c0s, c0los, qs, dc0s, dc0los, dqs, worst, worstend, worstd, worstdmin, bad,
           dc1los|];
};

// The tables <prefix>_m, <prefix>_c0, _c0lo, _c1.._c<deg>, _d0, _d0lo, _d1.._d<deg>, _d1lo,
// for n pieces, in hexadecimal; c0's zeros print as −0.0 (x = ±0 then gives ±0).
procedure pp_write(prefix, fit, n, deg) {
  var sz;
  display = decimal!;
  sz = "" @ n;
  display = hexadecimal!;
  c_table("float", "f", prefix @ "_m", sz, fit[0]);
  pp_tables(prefix @ "_c", fit[1], fit[2], fit[3], n, deg, sz);
  pp_tables(prefix @ "_d", fit[4], fit[5], fit[6], n, deg, sz);
  c_table("float", "f", prefix @ "_d1lo", sz, fit[12]); // f''(m) − d1 in x_min's piece
};
procedure pp_tables(prefix, k0, k0lo, qs, n, deg, sz) {
  var k, l, i, names;
  names = [|"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"|];
  write("static const float ", prefix, "0[", sz, "] = {");
  for i from 0 to n - 1 do if k0[i] == 0 then write("-0.0f, ") else write(k0[i], "f, ");
  write("};\n");
  c_table("float", "f", prefix @ "0lo", sz, k0lo);
  for k from 1 to deg do {
    l = [||]; for i from 0 to n - 1 do l = l :. coeff(qs[i], k);
    c_table("float", "f", prefix @ names[k], sz, l);
  };
};
