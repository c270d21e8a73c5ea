// Generates impls/pw_tanh_coeffs.h, the tables of impls/pw_tanh.h: the tanh form of GELU,
// f(x) = x/2·(1 + tanh(a·(x + b·x³))), a = √(2/π), b = 0.044715 (PyTorch approximate='tanh',
// the constants as reals), and f' on 32 equal pieces of [−4.23, 6.18], fitted as
// tools/pw_precise_coeffs.sol fits GELU's (the same span, degree and form: c0 + c0lo + c1·t
// exact, the rest relative to f); below, impls/pw_tanh.h's exp tail, whose constants are
// written here too. Run by tools/gen_coeffs.sh (meson compile -C build coeffs).
//  * the tail's 2a·(u + b·u³) = u·(A1 + A3·u²) and its derivative's u·(A1 + 3A3·u²) need
//    A1 = 2a, A3 = 2ab and 3A3 to 2^-48: each as two floats, hi + lo;
//  * e^-r = 1 − r + r²·Q(r) on |r| ≤ 0.35 (r = w − k·ln2 of the tail), Q of degree 5, fitted
//    relative to e^-r − 1 + r.
prec = 300!;
verbosity = 0!;
execute("tools/coeffs_common.sol");
execute("tools/pw_pieces.sol");
execute("tools/pw_precise_fit.sol");
n = 32; deg = 7; below0 = 13;
scale = round(n/10.4, SG, RN);
bounds = [||];
for i from 0 to n do bounds = bounds :. ((i - below0)/scale);

ta = sqrt(2/pi); tb = 44715/1000000;
ft = x/2*(1 + tanh(ta*(x + tb*x^3)));
ftd = diff(ft);
ftdd = diff(ftd);
txmin = dirtyfindzeros(ftd, [-1; -1/2])[0]; // the tanh form's minimum
fit = pp_fit(ft, ftd, ftdd, bounds, deg, txmin);

// the tail's constants
A1 = 2*ta; A3 = 2*ta*tb; A33 = 3*A3;
A1h = round(A1, SG, RN); A3h = round(A3, SG, RN); A33h = round(A33, SG, RN);
I = [-0.35; 0.35];
Q = fpminimax(exp(-x) - 1 + x, [|2,...,7|], [|SG...|], I, relative);
eQ = dirtyinfnorm((exp(-x) - 1 + x - Q)/(exp(-x) - 1 + x), I);

c_generated_by("tools/pw_tanh_coeffs.sol");
if fit[7] > 2^-26 then write("#error pw_tanh: a fit failed (relative error 2^", log2(fit[7]), ")\n");
if fit[11] != 0 then write("#error pw_tanh: ", fit[11], " pieces break Fast2Sum's |c1 t| <= |c0|\n");
display = decimal!;
write("/* f(x) = x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) on 32 pieces of [", round(bounds[0], 12, RN), ", ",
      round(bounds[n], 12, RN), "], degree ", deg,
      " in t = x - m; max relative error of the polynomials 2^", round(log2(fit[7]), 12, RN),
      " (abs error at the pieces' ends ", round(fit[8], 12, RN), "); the derivative's, relative 2^",
      round(log2(fit[9]), 12, RN), " (in the piece of x_min, 2^", round(log2(fit[10]), 12, RN),
      ", away from the zero); f's minimum at ", round(txmin, 24, RN), "; the tail's e^-r: relative 2^",
      round(log2(eQ), 12, RN), " */\n");
display = hexadecimal!;
write("static const float pw_tanh_scale = ", scale, "f; /* pieces per unit of x */\n");
display = decimal!;
write("static const float pw_tanh_offset = ", below0, ".0f; /* piece of x: floor(x·scale + offset) */\n");
display = hexadecimal!;
write("static const float pw_tanh_bottom = ", round(bounds[0], SG, RU), "f; /* the first piece's start, rounded up */\n");
write("static const float pw_tanh_top = ", round(bounds[n], SG, RD), "f; /* the last piece's end, rounded down */\n");
write("static const float pw_tanh_a1[2] = {", A1h, "f, ", round(A1 - A1h, SG, RN), "f}; /* 2a, hi + lo */\n");
write("static const float pw_tanh_a3[2] = {", A3h, "f, ", round(A3 - A3h, SG, RN), "f}; /* 2ab */\n");
write("static const float pw_tanh_a33[2] = {", A33h, "f, ", round(A33 - A33h, SG, RN), "f}; /* 6ab */\n");
c_table("float", "f", "pw_tanh_exp_q", "6", [|coeff(Q, 2), coeff(Q, 3), coeff(Q, 4), coeff(Q, 5), coeff(Q, 6), coeff(Q, 7)|]);
pp_write("pw_tanh", fit, n, deg);
quit;
