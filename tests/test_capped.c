/* Capped runs (reports/capped.h) on tests/fixtures/capped: tests/fixtures/answer's rows plus
 * dnnl_erf (within 3.8e-7, 0.15 ns) measured on oneDNN's avx512_core path, and a capped run
 * under DNNL_MAX_CPU_ISA=AVX2 where it took avx2 at 0.18 ns. The plan asks for the caps of
 * x86-64-v2 and v3; with the AVX2 run, x86-64-v3's answer to "within 4e-7" is dnnl_erf, said to
 * be measured under the cap; without it dnnl_erf cannot be judged on v3. */
#include <criterion/criterion.h>
#include <string.h>

#include "answer.h"
#include "capped.h"

static results_set *load(const char *acc, const char *bench)
{
    results_set *s = malloc(sizeof *s);
    char err[256];
    cr_assert_eq(results_load(s, acc, bench, err, sizeof err), 0, "%s", err);
    return s;
}

Test(capped, the_plan_names_each_platforms_cap_once)
{
    results_set *s = load(GELUCHECK_FIXTURES "/capped/accuracy.csv", GELUCHECK_FIXTURES "/capped/bench.csv");
    static capped_runs c;
    capped_plan(s, &c);
    cr_assert_eq(c.n, 2, "v2's and v3's; v4 and the host take avx512_core's figures");
    cr_expect_str_eq(c.runs[0].cap, "DNNL_MAX_CPU_ISA=SSE41");
    cr_expect_str_eq(c.runs[1].cap, "DNNL_MAX_CPU_ISA=AVX2");
    cr_expect_str_eq(c.runs[1].impls, "dnnl_erf");
    cr_expect_str_eq(c.runs[1].accuracy, "accuracy_cap_DNNL_MAX_CPU_ISA_AVX2.csv");
    cr_expect_str_eq(c.runs[1].bench, "bench_cap_DNNL_MAX_CPU_ISA_AVX2.csv");
    free(s);
}

static int platform_at(const answer *a, pick_platform p)
{
    for (size_t j = 0; j < a->nplatforms; j++)
        if (a->platforms[j].id == p) return (int)j;
    return -1;
}

Test(capped, a_platforms_answer_takes_its_capped_rows)
{
    results_set *s = load(GELUCHECK_FIXTURES "/capped/accuracy.csv", GELUCHECK_FIXTURES "/capped/bench.csv");
    static capped_runs c;
    capped_plan(s, &c);
    c.runs[1].results = load(GELUCHECK_FIXTURES "/capped/accuracy_cap_DNNL_MAX_CPU_ISA_AVX2.csv",
                             GELUCHECK_FIXTURES "/capped/bench_cap_DNNL_MAX_CPU_ISA_AVX2.csv");
    static answer a, without;
    char err[256];
    cr_assert_eq(answer_build_all(&a, s, &c, "l2", "cpu", "f", err, sizeof err), 0, "%s", err);
    cr_assert_eq(answer_build_all(&without, s, NULL, "l2", "cpu", "f", err, sizeof err), 0, "%s", err);
    int v3 = platform_at(&a, PICK_X86_64_V3), v2 = platform_at(&a, PICK_X86_64_V2),
        v4 = platform_at(&a, PICK_X86_64_V4);
    const answer_figures *f = &a.cells[1][v3].choice; /* within 4e-7 */
    cr_expect_str_eq(f->name, "dnnl_erf");
    cr_expect_str_eq(f->measured_under, "DNNL_MAX_CPU_ISA=AVX2");
    cr_expect_eq(f->ns, 0.18, "the capped run's speed");
    cr_expect_float_eq(f->x_relu, 0.18 / 0.06, 1e-12, "against v3's ReLU, relu_avx2");
    cr_expect_str_eq(without.cells[1][v3].choice.name, "pw_fast", "without the run: not judged");
    cr_expect_str_eq(a.cells[1][v2].choice.name, "pw_fast", "no SSE41 run measured");
    cr_expect_str_eq(a.cells[1][v4].choice.name, "pw_fast_avx512");
    const answer_figures *r4 = &a.cells[1][v4].runner_up;
    cr_expect_str_eq(r4->name, "dnnl_erf", "v4 takes the main run's avx512_core figures");
    cr_expect_str_eq(r4->measured_under, "");
    cr_expect_eq(r4->ns, 0.15);
    free(c.runs[1].results);
    free(s);
}
