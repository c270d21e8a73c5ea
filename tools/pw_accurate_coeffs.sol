// Generates impls/pw_accurate_coeffs.h, the accurate tier's pieces (impls/pw_accurate.h): GELU
// on 32 equal pieces of [−3.3, 5.5] (the tail below −3 is impls/gelu_tail.h's), degree DEG,
// minimax relative to GELU, built by tools/pw_pieces.sol. The pieces end exactly where the
// kernel's index changes: x·scale + offset crosses an integer (scale and offset are binary32).
// Run by tools/gen_coeffs.sh (meson compile -C build coeffs).
prec = 300!;
verbosity = 0!;
execute("tools/coeffs_common.sol");
execute("tools/pw_pieces.sol");
n = 32; deg = 6; lo = -3.3; hi = 5.5; below0 = 12;
scale = round(n/(hi - lo), SG, RN);
bounds = [||];
for i from 0 to n do bounds = bounds :. ((i - below0)/scale);
fit = pw_fit(pw_gelu, pw_gelu_d, bounds, deg, pw_xmin, relative, 1/2, 1/2);

c_generated_by("tools/pw_accurate_coeffs.sol");
display = decimal!;
write("/* GELU on 32 pieces of [-3.3, 5.5], degree 6 in t = x - m; max relative error of the polynomials ",
      round(fit[3], 12, RN), " (abs error at the pieces' ends ", round(fit[4], 12, RN),
      "), abs error of the derivative's ", round(fit[5], 12, RN), " */\n");
display = hexadecimal!;
write("static const float pw_accurate_scale = ", scale, "f; /* pieces per unit of x */\n");
display = decimal!;
write("static const float pw_accurate_offset = ", below0, ".0f; /* piece of x: floor(x·scale + offset) */\n");
write("static const float pw_accurate_top = ", round(bounds[n], SG, RU), "f; /* the last piece's end */\n");
pw_write("pw_accurate", fit, deg);
quit;
