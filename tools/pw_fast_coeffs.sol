// Generates impls/pw_fast_coeffs.h, the fast tier's pieces (impls/pw_fast.h): GELU on 32 equal
// pieces of [−5.3, 5.3], degree 5, absolute minimax fits (the tier's budget is 4e-7 absolute),
// built by tools/pw_pieces.sol. The pieces around 0 use c1 = 1/2 + 2^-24 (x > 0) and
// 1/2 − 2^-25 (x < 0): for an odd subnormal x, x/2 is a tie that exact GELU = x/2 + x²/√(2π)
// breaks upward, and x·c1 rounds that way too.
// Run by tools/gen_coeffs.sh (meson compile -C build coeffs).
prec = 300!;
verbosity = 0!;
execute("tools/coeffs_common.sol");
execute("tools/pw_pieces.sol");
n = 32; deg = 5; L = 5.3;
w = 2*L/n;
bounds = [||];
for i from 0 to n do bounds = bounds :. (-L + i*w);
fit = pw_fit(pw_gelu, pw_gelu_d, bounds, deg, pw_xmin, absolute, 1/2 + 2^-24, 1/2 - 2^-25);

c_generated_by("tools/pw_fast_coeffs.sol");
display = decimal!;
write("/* GELU on 32 pieces of [-5.3, 5.3], degree 5 in t = x - m; max abs error of the polynomials ",
      round(fit[3], 12, RN), " (at the pieces' ends ", round(fit[4], 12, RN),
      "), of the derivative's ", round(fit[5], 12, RN), " */\n");
display = hexadecimal!;
write("static const float pw_fast_scale = ", round(n/(2*L), SG, RN), "f; /* pieces per unit of x */\n");
display = decimal!;
write("static const float pw_fast_offset = ", n/2, ".0f; /* piece of x: floor(x·scale + offset) */\n");
pw_write("pw_fast", fit, deg);
quit;
