// Generates impls/gelu_tail_coeffs.h: the coefficients of the binary32 negative-tail kernel
// impls/gelu_tail.h. Run by tools/gen_coeffs.sh (meson compile -C build coeffs).
//
// For u ≥ 3 and t = u²:
//     GELU(−u) = −exp(−t/2 + C + ℓ(t)),        ℓ = log(u·Φ(−u)·e^{t/2}) − C,
//     f'(−u)   = −u·exp(−t/2 + C + ℓ_d(t)),    ℓ_d = log(1/√(2π) − Φ(−u)·e^{t/2}/u) − C,
// C = log(1/√(2π)) rounded to a multiple of 2^-17 (so that the kernel adds it exactly). Both ℓ
// are functions of ε = 1/t of Stieltjes type (u·Φ(−u)·e^{u²/2} = ∫₀^∞ e^{−s−ε·s²/2} ds/√(2π)),
// analytic but for a cut on ε ≤ 0: polynomials in ε or u converge slowly on [1/225, 1/9], rational
// functions fast (tried: degree 5 in u on [4, 8] errs by 2^-17, degree 8 in 1/u on [3, 15] by
// 2^-25, the 3/3 rational below by 2^-28).
// Each ℓ is P(ε)/Q(ε) of degree 3/3, Q(0) = 1: the denominator from a linearised
// interpolation at 7 Chebyshev nodes (f·Q − P = 0 there, solved below), rounded to binary32,
// then the numerator by fpminimax against that denominator (absolute error). p0 ≠ 0 absorbs
// log(1/√(2π)) − C (~2^-20). The kernel evaluates it in t as
//     ℓ = (p0·t³ + p1·t² + p2·t + p3) / (t³ + q1·t² + q2·t + q3)
// (one division; the terms of each sum share one sign on [9, 225] but for the derivative's
// q3 ≈ −2.9, negligible against t³ ≥ 729: no cancellation).
// exp: e^r = 1 + r + r²·E(r) on r ∈ [−0.46, 0.37] (ln2/2, plus |ℓ| ≤ 0.11 on the negative side,
// plus slack), E of degree 5, absolute error.
prec = 300!;
verbosity = 0!;
display = hexadecimal!;
execute("tools/coeffs_common.sol");

logc = log(1/sqrt(2*pi));
C = nearestint(logc * 2^17) / 2^17;
// R(ε) = u·Φ(−u)·e^{u²/2} with u = 1/√ε
R = (1/sqrt(x)) * erfc(1/sqrt(2*x))/2 * exp(1/(2*x));
lf = log(R) - C;
ld = log(1/sqrt(2*pi) - R * x) - C;
I = [1/225.5; 1/8.99];

// Solve the n×n system A·s = b (A flat, row-major) by Gaussian elimination with partial pivoting.
procedure solve(A, b, n) {
  var i, j, k, p, m, tmp, s;
  for k from 0 to n - 1 do {
    p = k;
    for i from k + 1 to n - 1 do if abs(A[i*n + k]) > abs(A[p*n + k]) then p = i;
    if p != k then {
      for j from 0 to n - 1 do { tmp = A[k*n + j]; A[k*n + j] = A[p*n + j]; A[p*n + j] = tmp; };
      tmp = b[k]; b[k] = b[p]; b[p] = tmp;
    };
    for i from k + 1 to n - 1 do {
      m = round(A[i*n + k] / A[k*n + k], 200, RN);
      for j from k to n - 1 do A[i*n + j] = A[i*n + j] - m * A[k*n + j];
      b[i] = b[i] - m * b[k];
    };
  };
  s = b;
  for i from n - 1 to 0 by -1 do {
    tmp = b[i];
    for j from i + 1 to n - 1 do tmp = tmp - A[i*n + j] * s[j];
    s[i] = tmp / A[i*n + i];
  };
  return s;
};

// ℓ ≈ P/Q, P = p0 + p1 ε + p2 ε² + p3 ε³, Q = 1 + q1 ε + q2 ε² + q3 ε³: returns [|p0..p3, q1..q3|]
// (binary32) and the max error.
procedure fit(f) {
  var A, b, i, j, e, fe, s, n, Qs, P, num, err;
  n = 7;
  A = [||]; b = [||];
  for i from 0 to n - 1 do {
    e = round(mid(I) + (sup(I) - inf(I))/2 * cos(pi * (i + 1/2) / n), 200, RN);
    fe = round(f(e), 200, RN);
    for j from 0 to 3 do A = A :. round(e^j, 200, RN);     // p_j
    for j from 1 to 3 do A = A :. round(-fe * e^j, 200, RN); // q_j
    b = b :. fe;
  };
  s = solve(A, b, n);
  Qs = 1 + round(s[4], SG, RN) * x + round(s[5], SG, RN) * x^2 + round(s[6], SG, RN) * x^3;
  P = fpminimax(f * Qs, [|0, 1, 2, 3|], [|SG...|], I, absolute);
  err = dirtyinfnorm(f - P / Qs, I);
  return [| coeff(P, 0), coeff(P, 1), coeff(P, 2), coeff(P, 3),
            coeff(Qs, 1), coeff(Qs, 2), coeff(Qs, 3), err |];
};

FW = fit(lf);
DR = fit(ld);
J = [-0.46; 0.37];
EP = fpminimax(expm1(x) - x, [|2, 3, 4, 5, 6, 7|], [|SG...|], J, absolute);
eerr = dirtyinfnorm((1 + x + EP) / exp(x) - 1, J);

c_generated_by("tools/gelu_tail_coeffs.sol");
display = decimal!;
write("/* C = log(1/sqrt(2pi)) to a multiple of 2^-17; forward l = (p0 t^3 + p1 t^2 + p2 t + p3) / (t^3 + q1 t^2 + q2 t + q3)\n");
write("   on t = u^2 in [9, 225.5], max abs error 2^", round(log2(FW[7]), 12, RN), "; derivative's, 2^", round(log2(DR[7]), 12, RN), ".\n");
write("   exp(r) = 1 + r + r^2 E(r), r in [-0.46, 0.37], E = e2 + e3 r + ... + e7 r^5, relative error 2^", round(log2(eerr), 12, RN), " */\n");
display = hexadecimal!;
c_table("float", "f", "gelu_tail_c", "1", [| round(C, SG, RN) |]);
c_table("float", "f", "gelu_tail_fwd_num", "4", [| FW[0], FW[1], FW[2], FW[3] |]);
c_table("float", "f", "gelu_tail_fwd_den", "3", [| FW[4], FW[5], FW[6] |]);
c_table("float", "f", "gelu_tail_der_num", "4", [| DR[0], DR[1], DR[2], DR[3] |]);
c_table("float", "f", "gelu_tail_der_den", "3", [| DR[4], DR[5], DR[6] |]);
l = [||];
for d from 2 to 7 do l = l :. coeff(EP, d);
c_table("float", "f", "gelu_tail_exp_e", "6", l);
quit;
