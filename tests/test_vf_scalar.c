/* The plain builds' one-lane operations (impls/vf_scalar.h) against libm where they replace a
 * libm call: vf_scale (a·2^k, one rounding, computed in double) equals ldexpf at every k the
 * kernels can pass (|k| < 2^8) for 2^16 floats spread over every encoding (normal, subnormal,
 * zero, inf, NaN: every 65,536th encoding, plus each binade's neighbours of 1, the largest and the
 * smallest subnormal), so the plain builds keep their bits. */
#include <criterion/criterion.h>
#include <math.h>

#include "vf_scalar.h"

static void check(float a)
{
    for (int k = -255; k <= 255; k++) {
        float want = ldexpf(a, k), got = vf_scale(a, (float)k);
        uint32_t wb, gb;
        memcpy(&wb, &want, 4);
        memcpy(&gb, &got, 4);
        if (isnan(want) ? !isnan(got) : wb != gb)
            cr_assert_fail("vf_scale(%a, %d) = %a, ldexpf %a", (double)a, k, (double)got, (double)want);
    }
}

Test(vf_scalar, scale_is_ldexpf)
{
    for (uint64_t b = 0; b < (UINT64_C(1) << 32); b += 65536 + 7) {
        uint32_t u = (uint32_t)b;
        float a;
        memcpy(&a, &u, 4);
        check(a);
    }
    static const float edges[] = {1.0f, 0x1.fffffep-1f, 0x1.000002p+0f, 0x1.fffffep+127f,
                                  0x1p-149f, 0x1.fffffcp-127f, 0x1p-126f, 3.0f, 0x1.800002p+0f};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        check(edges[i]);
        check(-edges[i]);
    }
    cr_expect(vf_scale(3.0f, NAN) == 3.0f, "a NaN k leaves a as it is");
}

/* vf_differ_mask marks a lane whose two values are not equal, NaN included (a rounding test
 * whose bounds are NaN has failed), and leaves equal values, ±0 together, unmarked. */
Test(vf_scalar, differ_mask_marks_nan_and_unequal)
{
    cr_expect(!vf_differ_mask(1.5f, 1.5f), "equal values: not marked");
    cr_expect(!vf_differ_mask(0.0f, -0.0f), "+0 and -0 are equal: not marked");
    cr_expect(vf_differ_mask(1.5f, 0x1.800002p+0f), "one ulp apart: marked");
    cr_expect(vf_differ_mask(NAN, 1.0f), "NaN in a: marked");
    cr_expect(vf_differ_mask(1.0f, NAN), "NaN in b: marked");
    cr_expect(vf_differ_mask(NAN, NAN), "NaN in both: marked");
}
