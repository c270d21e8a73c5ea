/* The report's scans of the frameworks' paths (reports/framework_paths_scan.h), on exec children
 * standing in for a framework row and its path (tests/exec_child serving erf_naive under the
 * names torch_gelu and torch_gelu@size1; the frameworks' environment made absent, so that the
 * 16-bit scans are left out, said so): the binary32 scan on the paths' sample, its file read
 * back, the section drawn from it, and the answer's framework_paths, with a wrong output (its
 * sign flipped) planted in each path: size1's at x = 2^-100, size17's at x = 1, both of the
 * sample (both paths' figures differ, size17's the most: the worst path), and the outputs of
 * each path compared with its row's at every input of the sample, on two scan threads (each
 * path differs at its one input). In bfloat16 the row and size1 stand in natively (exec_child
 * --format bfloat16, size1's output at 1.0 one ULP off): their scan over every encoding, the
 * outputs compared at each; binary16, not stood in for and no framework installed, is left
 * out, said so. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec_impl.h"
#include "pick.h"
#include "report_fixture.h"
#include "framework_paths_scan.h"
#include "framework_sample.h"

#ifndef GELUCHECK_EXEC_CHILD
#error "GELUCHECK_EXEC_CHILD: the path of tests/exec_child"
#endif

static const gelu_impl *child_in(const char *name, const char *args, gelu_format_id format)
{
    char spec[1024], err[600], note[600];
    snprintf(spec, sizeof spec, "%s='%s' erf_naive --name %s %s", name, GELUCHECK_EXEC_CHILD, name, args);
    cr_assert_eq(exec_impls_add(spec, GELU_FAMILY_FRAMEWORK, "a stand-in", 60, err, sizeof err, note,
                                sizeof note), 0, "%s", err);
    const gelu_impl *m = gelu_impl_find_in(name, format);
    cr_assert_not_null(m, "%s in %s", name, gelu_format_of(format)->name);
    return m;
}

static const gelu_impl *child(const char *name, const char *args)
{
    char spec[1024], err[600], note[600];
    snprintf(spec, sizeof spec, "%s='%s' erf_naive --name %s %s", name, GELUCHECK_EXEC_CHILD, name, args);
    cr_assert_eq(exec_impls_add(spec, GELU_FAMILY_FRAMEWORK, "a stand-in", 60, err, sizeof err, note,
                                sizeof note), 0, "%s", err);
    const gelu_impl *m = gelu_impl_find(name);
    cr_assert_not_null(m);
    return m;
}

Test(framework_paths_scan, a_path_on_the_sample_its_section_and_the_answer)
{
    char dir[] = "/tmp/gelucheck_paths_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char nothing[sizeof dir + 16];
    snprintf(nothing, sizeof nothing, "%s/none", dir);
    setenv("XDG_CACHE_HOME", nothing, 1); /* no frameworks' environment */
    /* 2^-100, the first input of its binade: in the sample (each binade's ends are) */
    uint32_t *sample;
    uint64_t nsample;
    cr_assert_eq(framework_sample_build(&sample, &nsample), 0);
    bool in = false;
    for (uint64_t i = 0; i < nsample; i++) in |= sample[i] == 0x0d800000u;
    free(sample);
    cr_assert(in, "2^-100 is in the paths' sample");
    const char *wrong = "--wrong-at 0x0d800000";
    const gelu_impl *row = child("torch_gelu", "");
    const gelu_impl *path = child("torch_gelu@size1", wrong);
    const gelu_impl *path17 = child("torch_gelu@size17", "--wrong-at 0x3f800000");
    child_in("torch_gelu", "--format bfloat16", GELU_FORMAT_BFLOAT16);
    child_in("torch_gelu@size1", "--format bfloat16 --wrong-at 0x3f80", GELU_FORMAT_BFLOAT16);
    /* a 16-bit dtype's own size (to 65), no binary32 path of that name: scanned in bfloat16 */
    child_in("torch_gelu@size65", "--format bfloat16", GELU_FORMAT_BFLOAT16);
    cr_assert(framework_is_path(path));
    cr_assert(!framework_is_path(row));
    const gelu_impl *list[] = {row, path, gelu_impl_find("erfc_f64"), path17};
    const gelu_impl *paths[4];
    size_t n = 4;
    cr_assert_eq(framework_paths_split(list, &n, paths), 2);
    cr_assert_eq(n, 2);
    cr_assert_eq(paths[0], path);
    cr_assert_eq(paths[1], path17);
    cr_assert_eq(list[1], gelu_impl_find("erfc_f64"), "the rest in order");

    char out_dir[sizeof dir + 16];
    snprintf(out_dir, sizeof out_dir, "%s/report", dir);
    report_stage st;
    cr_assert_eq(report_stage_open(&st, out_dir), 0);
    static framework_paths_out out;
    char err[1400] = "";
    cr_assert_eq(framework_paths_scan(paths, 2, 2, &st, &out, err, sizeof err), 0, "%s", err);
    cr_assert_eq(out.n, 2, "binary32's scan and bfloat16's: %zu", out.n);
    cr_expect_not_null(strstr(out.note, "binary16: left out"), "%s", out.note);
    cr_expect_null(strstr(out.note, "bfloat16"), "%s", out.note);
    const framework_paths_section *b = &out.s[1];
    cr_assert_eq(b->format, GELU_FORMAT_BFLOAT16);
    cr_assert_not_null(b->results);
    cr_assert_eq(b->results->n, 3, "the row, size1 and size65 (size17 not in bfloat16): %zu",
                 b->results->n);
    cr_expect_str_eq(b->results->rows[1].name, "torch_gelu@size1");
    cr_expect_str_eq(b->results->rows[2].name, "torch_gelu@size65");
    cr_expect_eq(b->results->rows[1].inputs, 65536);
    cr_expect_str_eq(b->covered, "all 65536 bfloat16 encodings, forward and derivative");
    cr_assert_eq(b->diffs.n, 2);
    cr_expect_eq(b->diffs.inputs, 65536);
    cr_expect_eq(b->diffs.d[0].differ[0], 1, "size1 differs at 1.0: %ld", b->diffs.d[0].differ[0]);
    cr_expect_eq(b->diffs.d[0].differ[1], 0, "%ld", b->diffs.d[0].differ[1]);
    cr_expect_str_eq(b->diffs.d[1].path, "torch_gelu@size65");
    cr_expect_eq(b->diffs.d[1].differ[0], 0, "size65 as its row: %ld", b->diffs.d[1].differ[0]);
    const results_set *s = out.s[0].results;
    cr_assert_not_null(s);
    cr_assert_eq(s->n, 3);
    cr_expect_str_eq(s->rows[0].name, "torch_gelu");
    cr_expect_str_eq(s->rows[1].name, "torch_gelu@size1");
    cr_expect_str_eq(s->rows[2].name, "torch_gelu@size17");
    cr_expect_eq(s->rows[1].inputs, 1049349, "the paths' sample: %llu", (unsigned long long)s->rows[1].inputs);
    cr_expect_str_eq(s->rows[1].exact[0].max_ulp_x, "0x1p-100", "size1's sign flipped at 2^-100");
    cr_expect_lt(s->rows[1].exact[0].max_ulp, s->rows[2].exact[0].max_ulp);
    cr_expect_gt(s->rows[2].exact[0].max_ulp, 1e6, "size17's sign flipped at 1");
    cr_expect_str_eq(s->rows[2].exact[0].max_ulp_x, "0x1p+0");
    cr_expect(!framework_paths_broken(&out), "the stand-ins' claims (erf_naive's) hold");
    const framework_diffs *d = &out.s[0].diffs;
    cr_assert_eq(d->n, 2);
    cr_expect_eq(d->d[0].differ[0], 1, "size1 differs at its planted input: %ld", d->d[0].differ[0]);
    cr_expect_eq(d->d[0].differ[1], 0);
    cr_expect_eq(d->d[1].differ[0], 1, "size17 differs at 1: %ld", d->d[1].differ[0]);
    cr_expect_eq(d->d[1].differ[1], 0);
    cr_expect_eq(d->inputs, 1049349, "every input of the sample compared");
    cr_expect_not_null(strstr(out.s[0].covered, "1049349 distinct binary32 inputs: 2057 in each of the 510"),
                       "%s", out.s[0].covered);
    char csv[2200];
    cr_expect_eq(access(report_stage_path(&st, FRAMEWORK_PATHS_FILE, csv, sizeof csv), R_OK), 0);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    framework_section_html(f, NULL, &out);
    fclose(f);
    cr_expect_not_null(strstr(buf, "<h3>binary32</h3>\n<p>Rows and paths over 1049349 distinct"), "%s", buf);
    cr_expect_not_null(strstr(buf, "<td class=\"broken\">1 <small>of 1049349</small></td><td>0 <small>of 1049349</small></td>"),
                       "%s", buf);
    cr_expect_not_null(strstr(buf, "<h3>bfloat16</h3>\n<p>Rows and paths over all 65536 bfloat16 encodings"), "%s", buf);
    cr_expect_not_null(strstr(buf, "<h3>PyTorch (bfloat16)</h3>"), "%s", buf);
    free(buf);

    static answer a;
    framework_paths_answer(&out, &a);
    cr_assert(a.framework_paths_known);
    cr_assert_eq(a.nframework_paths, 1);
    cr_expect_str_eq(a.framework_paths[0].row, "torch_gelu");
    cr_expect_eq(a.framework_paths[0].paths, 2);
    cr_expect_eq(a.framework_paths[0].differ, 2);
    cr_expect_str_eq(a.framework_paths[0].differing, "size1, size17");
    cr_expect_str_eq(a.framework_paths[0].worst_path, "size17");
    /* pick on a report's files: the paths' file merged into accuracy.csv's rows, their row's
     * only, judged by the worst (size17's sign flip at 1) */
    static results_set m;
    memset(&m, 0, sizeof m);
    gelu_row(&m, "torch_gelu", 0.6, 0.6);
    gelu_row(&m, "erfc_f64", 0.5, 0.5);
    cr_assert_eq(framework_paths_merge(&m, csv, err, sizeof err), 0, "%s", err);
    cr_assert_eq(m.n, 4, "the two paths appended: %zu", m.n);
    cr_expect_str_eq(m.rows[2].name, "torch_gelu@size1");
    cr_expect_str_eq(m.rows[3].name, "torch_gelu@size17");
    static pick_candidate k[RESULTS_MAX_ROWS];
    size_t nk;
    pick_constraints c = pick_no_constraints("l2");
    c.max_ulp = 1;
    pick_rank(&m, PICK_GENERIC, &c, k, &nk);
    cr_assert_eq(nk, 2);
    const pick_candidate *torch = strcmp(k[0].row->name, "torch_gelu") == 0 ? &k[0] : &k[1];
    cr_expect_str_eq(torch->worst_path, "size17");
    cr_expect_geq(torch->failed, 1, "%d: %s", torch->failed, torch->why);
    cr_expect_not_null(strstr(torch->why, "path size17: max ULP vs exact GELU"), "%s", torch->why);
    memset(&m, 0, sizeof m);
    gelu_row(&m, "erfc_f64", 0.5, 0.5);
    cr_assert_eq(framework_paths_merge(&m, csv, err, sizeof err), 0);
    cr_expect_eq(m.n, 1, "no row of theirs: no path appended");
    cr_assert_eq(framework_paths_merge(&m, "/nonexistent/accuracy_paths.csv", err, sizeof err), 0);
    cr_expect_eq(m.n, 1);
    framework_paths_out_free(&out);
    report_stage_abort(&st);
    rmdir(nothing);
    rmdir(dir);
}

/* A path's broken contract in any of the scans is what the report's exit status counts. */
Test(framework_paths_scan, a_broken_path_is_found_in_any_format)
{
    static results_set b32, b16;
    static framework_paths_out out;
    b32.n = 2;
    snprintf(b32.rows[0].contract, sizeof b32.rows[0].contract, "pass");
    snprintf(b32.rows[1].contract, sizeof b32.rows[1].contract, "pass");
    b16.n = 1;
    snprintf(b16.rows[0].contract, sizeof b16.rows[0].contract, "pass");
    out.n = 2;
    out.s[0].results = &b32;
    out.s[1].results = &b16;
    cr_assert(!framework_paths_broken(&out));
    snprintf(b16.rows[0].contract, sizeof b16.rows[0].contract, "fail"); /* planted */
    cr_assert(framework_paths_broken(&out), "the 16-bit scan's broken path");
    snprintf(b16.rows[0].contract, sizeof b16.rows[0].contract, "pass");
    snprintf(b32.rows[1].contract, sizeof b32.rows[1].contract, "fail");
    cr_assert(framework_paths_broken(&out), "binary32's broken path");
    out.s[0].results = NULL; /* a scan that read nothing back */
    cr_assert(!framework_paths_broken(&out));
}

/* The exec children of this process whose command line holds `word` (/proc's children lists). */
static int children_with(const char *word)
{
    char path[128], cmd[4096];
    int n = 0;
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)getpid(), (int)getpid());
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "no %s", path);
    int pid;
    while (fscanf(f, "%d", &pid) == 1) {
        snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
        FILE *c = fopen(path, "r");
        size_t len = c ? fread(cmd, 1, sizeof cmd - 1, c) : 0;
        if (c) fclose(c);
        for (size_t i = 0; i < len; i++) cmd[i] = cmd[i] ? cmd[i] : ' ';
        cmd[len] = '\0';
        n += strstr(cmd, word) != NULL;
    }
    fclose(f);
    return n;
}

/* Size paths as cuts of their row's child (exec_impls_add_cut, docs/protocol.md "Cuts"): the
 * stand-in row (exec_child --cuts) flips the last bit of each tensor's last output, so size1
 * differs from the batch path at every input whose output is not NaN and size5 at about a fifth
 * of them (position 4 of each 5 in each request), compared in the scan; neither has a process
 * of its own, and the scan's children are stopped when it is done. A row without 'cuts yes'
 * has no cut. */
Test(framework_paths_scan, size_paths_as_cuts_of_their_row)
{
    char dir[] = "/tmp/gelucheck_cuts_XXXXXX", nothing[64], out_dir[64], err[1400] = "";
    cr_assert_not_null(mkdtemp(dir));
    snprintf(nothing, sizeof nothing, "%s/none", dir);
    setenv("XDG_CACHE_HOME", nothing, 1); /* no frameworks' environment */
    const gelu_impl *row = child("torch_gelu", "--cuts");
    const gelu_impl *plain = child("tf_gelu", "");
    cr_assert_eq(exec_impls_add_cut(plain, 1, "tf_gelu@size1", NULL, err, sizeof err), -1);
    cr_expect_not_null(strstr(err, "tf_gelu@size1: no cut of 1 elements (its handshake has no "
                                   "'cuts yes')"), "%s", err);
    cr_assert_eq(exec_impls_add_cut(row, 0, "torch_gelu@size0", NULL, err, sizeof err), -1);
    cr_assert_eq(exec_impls_add_cut(row, 1, "torch_gelu@size1", NULL, err, sizeof err), 0, "%s", err);
    cr_assert_eq(exec_impls_add_cut(row, 5, "torch_gelu@size5", "five", err, sizeof err), 0, "%s", err);
    cr_assert_eq(exec_impls_add_cut(row, 5, "torch_gelu@size5", NULL, err, sizeof err), -1, "a name taken");
    const gelu_impl *p1 = gelu_impl_find("torch_gelu@size1"), *p5 = gelu_impl_find("torch_gelu@size5");
    cr_assert(p1 && p5);
    cr_expect_str_eq(p5->known_as, "five");
    cr_expect_not_null(strstr(p5->origin, "; in tensors of 5 elements"), "%s", p5->origin);
    cr_expect_eq(p5->contract.max_ulp, row->contract.max_ulp);
    cr_expect_eq(children_with("--cuts"), 1, "the row's one child, none for its cuts");
    snprintf(out_dir, sizeof out_dir, "%s/report", dir);
    report_stage st;
    cr_assert_eq(report_stage_open(&st, out_dir), 0);
    static framework_paths_out out;
    const gelu_impl *paths[] = {p1, p5};
    cr_assert_eq(framework_paths_scan(paths, 2, 2, &st, &out, err, sizeof err), 0, "%s", err);
    cr_expect_eq(children_with("--cuts"), 0, "the scan's children stopped when it was done");
    const framework_diffs *d = &out.s[0].diffs;
    cr_assert_eq(d->n, 2);
    double all = (double)d->inputs;
    cr_expect_gt(d->d[0].differ[0], 0.99 * all, "size1: %ld of %.0f", d->d[0].differ[0], all);
    cr_expect_gt(d->d[0].differ[1], 0.99 * all, "size1: %ld of %.0f", d->d[0].differ[1], all);
    for (int dir5 = 0; dir5 < 2; dir5++)
        cr_expect(d->d[1].differ[dir5] > 0.19 * all && d->d[1].differ[dir5] < 0.201 * all,
                  "size5: %ld of %.0f", d->d[1].differ[dir5], all);
    framework_paths_out_free(&out);
    report_stage_abort(&st);
    rmdir(nothing);
    rmdir(dir);
}
