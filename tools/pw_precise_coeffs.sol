// Generates impls/pw_precise_coeffs.h, the pieces of impls/pw_precise.h: GELU and GELU' on 32
// equal pieces of [−4.23, 6.18] (below, impls/gelu_tail.h's exp tail; above, x and 1), degree
// DEG in t = x − m, each piece's value at m carried as two floats c0 + c0lo (the kernel adds
// c1·t to it exactly, impls/pw_precise.h), the rest fitted by fpminimax relative to the
// function, c0 + c0lo being fpminimax's constrained part. The pieces end exactly where the
// kernel's index changes (x·scale + offset crosses an integer; scale and offset are binary32).
// Run by tools/gen_coeffs.sh (meson compile -C build coeffs).
//  * forward: m = RN(midpoint), c0 = RN(GELU(m)), c0lo = RN(GELU(m) − c0); in the piece of
//    x_min, m = RN(x_min) and c1 = 0 (so t·(t·B) keeps its sign structure, impls/pw_fast.h);
//    in the two pieces at 0, m = 0, c0 = −0 (x = ±0 then gives ±0), c1 = 1/2 = GELU'(0).
//    Each piece equals GELU at both ends (tools/pw_pieces.sol's pw_pin, twice, as pw_fit does).
//  * the kernel's exact c0 + c1·t is Fast2Sum(c0, RN(c1·t)), which needs |RN(c1·t)| ≤ |c0|:
//    checked here for every piece and every t of it; a piece that breaks it writes #error.
//  * derivative: the same form with d0 + d0lo = GELU'(m), relative fits, except in the
//    piece of x_min, where GELU' has its zero near t = 0: there d1 + d1lo = GELU''(m) (the
//    kernel adds d1lo·t; a single d1 would be off by up to 2^-25 relative, an ULP of the
//    result), the rest a remez fit of (GELU'(m + t) − d0 − d0lo)/t − d1 − d1lo, its error
//    measured relative to GELU' away from the zero (|t − t0| ≥ 2^-24, t0 = x_min − m; a float t
//    is never closer but at t = 0, where the result is d0 + d0lo).
prec = 300!;
verbosity = 0!;
execute("tools/coeffs_common.sol");
execute("tools/pw_pieces.sol");
n = 32; deg = 7; below0 = 13;
scale = round(n/10.4, SG, RN);
bounds = [||];
for i from 0 to n do bounds = bounds :. ((i - below0)/scale);

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

fit = pp_fit(pw_gelu, pw_gelu_d, exp(-x^2/2)*(2 - x^2)/sqrt(2*pi), bounds, deg, pw_xmin);

c_generated_by("tools/pw_precise_coeffs.sol");
if fit[7] > 2^-26 then write("#error pw_precise: a fit failed (relative error 2^", log2(fit[7]), ")\n");
if fit[11] != 0 then write("#error pw_precise: ", fit[11], " pieces break Fast2Sum's |c1 t| <= |c0|\n");
display = decimal!;
write("/* GELU on 32 pieces of [", round(bounds[0], 12, RN), ", ", round(bounds[n], 12, RN), "], degree ", deg,
      " in t = x - m; max relative error of the polynomials 2^", round(log2(fit[7]), 12, RN),
      " (abs error at the pieces' ends ", round(fit[8], 12, RN), "); the derivative's, relative 2^",
      round(log2(fit[9]), 12, RN), " (in the piece of x_min, 2^", round(log2(fit[10]), 12, RN), ", away from the zero) */\n");
display = hexadecimal!;
write("static const float pw_precise_scale = ", scale, "f; /* pieces per unit of x */\n");
display = decimal!;
write("static const float pw_precise_offset = ", below0, ".0f; /* piece of x: floor(x·scale + offset) */\n");
display = hexadecimal!;
write("static const float pw_precise_bottom = ", round(bounds[0], SG, RU), "f; /* the first piece's start, rounded up */\n");
write("static const float pw_precise_top = ", round(bounds[n], SG, RD), "f; /* the last piece's end, rounded down */\n");
procedure pp_tables(prefix, k0, k0lo, qs) {
  var k, l, i, names;
  names = [|"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"|];
  write("static const float ", prefix, "0[32] = {");
  for i from 0 to n - 1 do if k0[i] == 0 then write("-0.0f, ") else write(k0[i], "f, ");
  write("};\n");
  c_table("float", "f", prefix @ "0lo", "32", k0lo);
  for k from 1 to deg do {
    l = [||]; for i from 0 to n - 1 do l = l :. coeff(qs[i], k);
    c_table("float", "f", prefix @ names[k], "32", l);
  };
};
c_table("float", "f", "pw_precise_m", "32", fit[0]);
pp_tables("pw_precise_c", fit[1], fit[2], fit[3]);
pp_tables("pw_precise_d", fit[4], fit[5], fit[6]);
c_table("float", "f", "pw_precise_d1lo", "32", fit[12]); // GELU''(m) − d1 in x_min's piece
quit;
