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
execute("tools/pw_precise_fit.sol");
n = 32; deg = 7; below0 = 13;
scale = round(n/10.4, SG, RN);
bounds = [||];
for i from 0 to n do bounds = bounds :. ((i - below0)/scale);

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
pp_write("pw_precise", fit, n, deg);
quit;
