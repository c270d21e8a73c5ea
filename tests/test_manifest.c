/* The run manifest: what it collects about this build, that it reads back what it writes, and
 * that the reader refuses an unknown schema (naming both versions), a missing key, a key of the
 * wrong type and malformed JSON, at the byte where it goes wrong. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "manifest.h"

static const char good[] =
    "{\"schema\": 1,\n"
    " \"gelucheck\": {\"version\": \"0.1.0\", \"commit\": \"abc123\"},\n"
    " \"build\": {\"compiler\": \"gcc 12.2.0\", \"flags\": \"-O2\"},\n"
    " \"cpu\": {\"model\": \"Some \\\"CPU\\\" \\u00e9\", \"features\": \"avx2,fma\"},\n"
    " \"libraries\": {\"glibc\": \"2.36\", \"mpfr\": \"4.2.0\", \"gmp\": \"6.2.1\",\n"
    "   \"gsl\": \"2.7.1\", \"sleef\": \"absent\", \"dnnl\": \"3.0.0\"},\n"
    " \"run\": {\"command\": \"gelucheck pick\", \"created\": \"2026-11-30T22:40:00Z\"},\n"
    " \"later\": {\"list\": [1, 2.5e3, true, null, {\"x\": \"y\"}]}}\n";

static int parse(const char *text, run_manifest *m, char *err)
{
    return manifest_parse(text, strlen(text), m, err, 256);
}

Test(manifest, reads_every_field_of_a_hand_written_file)
{
    run_manifest m;
    char err[256];
    cr_assert_eq(parse(good, &m, err), MANIFEST_OK, "%s", err);
    cr_expect_eq(m.schema, 1);
    cr_expect_str_eq(m.version, "0.1.0");
    cr_expect_str_eq(m.commit, "abc123");
    cr_expect_str_eq(m.cpu_model, "Some \"CPU\" \xc3\xa9");
    cr_expect_str_eq(m.sleef, "absent");
    cr_expect_str_eq(m.dnnl, "3.0.0");
    cr_expect_str_eq(m.command, "gelucheck pick");
    cr_expect_str_eq(m.created, "2026-11-30T22:40:00Z");
    cr_expect_eq(manifest_field_count(), 17);
    cr_expect_str_eq(manifest_field_name(7), "libraries.mpfr");
    cr_expect_str_eq(manifest_field_value(&m, 7), "4.2.0");
    cr_expect_null(manifest_field_name(17));
    /* the keys added later are optional: "" and empty maps when absent */
    cr_expect_str_eq(m.reproduce, "");
    cr_expect_eq(m.plugins.n + m.environment.n + m.exec.n + m.sources.n, 0);
}

Test(manifest, collects_this_build_and_reads_back_what_it_writes)
{
    run_manifest m, back;
    manifest_collect(&m, "gelucheck accuracy --csv \"a b\"\t\x01 \xff");
    cr_expect_eq(m.schema, MANIFEST_SCHEMA);
    cr_expect_str_eq(m.version, "0.1.0"); /* meson.build's project version */
    cr_expect_neq(strlen(m.commit), 0);
    cr_expect_str_neq(m.mpfr, "");
    cr_expect_eq(strncmp(m.mpfr, "4.", 2), 0, "MPFR %s", m.mpfr); /* Debian 12: 4.2.0 */
    cr_expect_eq(strncmp(m.gsl, "2.", 2), 0, "GSL %s", m.gsl);    /* Debian 12: 2.7.1 */
    cr_expect_eq(strlen(m.created), 20);

    char path[] = "/tmp/gelucheck-manifest-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(manifest_write_file(path, &m), 0);
    char err[256];
    cr_assert_eq(manifest_read(path, &back, err, sizeof err), MANIFEST_OK, "%s", err);
    unlink(path);
    for (size_t i = 0; i < manifest_field_count(); i++) {
        if (strcmp(manifest_field_name(i), "run.command") == 0 ||
            strcmp(manifest_field_name(i), "run.reproduce") == 0) /* hold the same command */
            continue;
        cr_expect_str_eq(manifest_field_value(&back, i), manifest_field_value(&m, i), "%s",
                         manifest_field_name(i));
    }
    /* quotes and control characters escaped; the invalid byte 0xff written as '?' */
    cr_expect_str_eq(back.command, "gelucheck accuracy --csv \"a b\"\t\x01 ?");
}

Test(manifest, refuses_another_schema_naming_both_versions)
{
    char text[sizeof good + 8], err[256];
    snprintf(text, sizeof text, "%s", good);
    text[11] = '2'; /* "schema": 2 */
    run_manifest m;
    cr_assert_eq(parse(text, &m, err), MANIFEST_ESCHEMA, "%s", err);
    cr_expect_eq(m.schema, 2);
    cr_expect_str_eq(err, "manifest schema 2, this gelucheck reads schema 1");
    /* even a schema 2 file that lacks schema 1's keys is reported by its schema */
    cr_expect_eq(parse("{\"schema\": 2}", &m, err), MANIFEST_ESCHEMA);
    cr_expect_eq(parse("{\"schema\": 99999999999999999999}", &m, err), MANIFEST_EFORMAT);
    cr_expect_str_eq(err, "\"schema\" is not an integer at byte 31");
}

Test(manifest, refuses_missing_keys_wrong_types_and_malformed_text)
{
    static const struct {
        const char *text, *err;
    } bad[] = {
        {"", "not a JSON object at byte 0"},
        {"[]", "not a JSON object at byte 0"},
        {"{\"schema\": 1}", "no \"gelucheck.version\" key"},
        {"{\"gelucheck\": {}}", "no \"schema\" key"},
        {"{\"schema\": \"1\"}", "\"schema\" is not an integer at byte 11"},
        {"{\"schema\": 1.0}", "\"schema\" is not an integer at byte 14"},
        {"{\"schema\": 1, \"schema\": 1}", "duplicate key at byte 25"},
        {"{\"schema\": 1, \"gelucheck\": {\"version\": 1}}", "a number where a string is expected at byte 40"},
        {"{\"schema\": 1, \"gelucheck\": {\"version\": {}}}", "an object where a known key needs a value at byte 39"},
        {"{\"schema\": 1,}", "expected a string at byte 13"},
        {"{\"schema\": 1} x", "text after the object at byte 14"},
        {"{\"schema\": 01}", "bad number at byte 13"},
        {"{\"a\": \"\\x\"}", "bad escape in a string at byte 9"},
        {"{\"a\": \"\\u12\"}", "bad \\u escape at byte 11"},
        {"{\"a\": \"\\ud800\"}", "\\u0000 or a surrogate in a string at byte 13"},
        {"{\"a\": \"\n\"}", "control character in a string at byte 8"},
        {"{\"a\": \"abc", "unterminated string at byte 10"},
        {"{\"a\": tru}", "expected a value at byte 6"},
        {"{\"a\" 1}", "expected ':' at byte 5"},
        {"{\"a\": [[[[[[[[[[1]]]]]]]]]]}", "arrays nested too deep at byte 14"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        run_manifest m;
        char err[256];
        cr_expect_eq(parse(bad[i].text, &m, err), MANIFEST_EFORMAT, "case %zu", i);
        cr_expect_str_eq(err, bad[i].err, "case %zu: '%s'", i, bad[i].text);
    }
}

Test(manifest, names_the_file_it_cannot_read)
{
    run_manifest m;
    char err[512];
    cr_expect_eq(manifest_read("/nonexistent/manifest.json", &m, err, sizeof err), MANIFEST_EIO);
    cr_expect_str_eq(err, "/nonexistent/manifest.json: cannot read: No such file or directory");
    cr_expect_eq(manifest_read("/tmp", &m, err, sizeof err), MANIFEST_EIO);
    cr_expect_str_eq(err, "/tmp: cannot read: Is a directory");
}

/* The provenance keys: the argv quoted for sh, the variables, plugins, exec children and
 * sources read back as written; what to pass for a plugin's or an exec child's row. */
Test(manifest, provenance_keys_round_trip_and_name_what_to_pass)
{
    char *argv[] = {"build/cli/gelucheck", "accuracy", "--exec", "me=python3 c.py", "it's", ""};
    char line[256];
    cr_expect_str_eq(manifest_command(line, sizeof line, 6, argv),
                     "build/cli/gelucheck accuracy --exec 'me=python3 c.py' 'it'\\''s' ''");
    static const char text[] =
        "{\"schema\": 1,\n"
        " \"gelucheck\": {\"version\": \"0.1.0\", \"commit\": \"abc123\"},\n"
        " \"build\": {\"compiler\": \"gcc\", \"flags\": \"-O2\"},\n"
        " \"cpu\": {\"model\": \"m\", \"features\": \"avx2\"},\n"
        " \"libraries\": {\"glibc\": \"2.36\", \"mpfr\": \"4.2.0\", \"gmp\": \"6.2.1\",\n"
        "   \"gsl\": \"2.7.1\", \"sleef\": \"absent\", \"dnnl\": \"3.0.0\"},\n"
        " \"run\": {\"command\": \"g accuracy\", \"created\": \"2026-11-30T22:40:00Z\",\n"
        "   \"directory\": \"/w\", \"fpenv\": \"ieee\", \"reproduce\": \"cd /w && X=1 g accuracy\",\n"
        "   \"environment\": {\"DNNL_MAX_CPU_ISA\": \"AVX2\", \"OMP_NUM_THREADS\": \"1\"}},\n"
        " \"plugins\": {\"my dir/v1.so\": \"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\"},\n"
        " \"exec\": {\"kid\": \"python3 kid.py\"},\n"
        " \"sources\": {\"mine\": \"plugin 'my dir/v1.so'\", \"kid\": \"exec child 'python3 kid.py'\"}}\n";
    static run_manifest m, back;
    char err[256];
    cr_assert_eq(parse(text, &m, err), MANIFEST_OK, "%s", err);
    cr_expect_str_eq(m.directory, "/w");
    cr_expect_str_eq(manifest_map_get(&m.environment, "DNNL_MAX_CPU_ISA"), "AVX2");
    cr_expect_eq(m.environment.n, 2);
    cr_expect_str_eq(manifest_map_get(&m.exec, "kid"), "python3 kid.py");
    char pass[512], what[512];
    cr_assert_eq(manifest_reload_hint(&m, "mine", pass, sizeof pass, what, sizeof what), 0);
    cr_expect_str_eq(pass, "--plugin 'my dir/v1.so'");
    cr_expect_str_eq(what, "plugin 'my dir/v1.so', SHA-256 "
                           "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
    cr_assert_eq(manifest_reload_hint(&m, "kid", pass, sizeof pass, what, sizeof what), 0);
    cr_expect_str_eq(pass, "--exec 'kid=python3 kid.py'");
    cr_expect_eq(manifest_reload_hint(&m, "erfc_f64", pass, sizeof pass, what, sizeof what), -1,
                 "a built-in row: nothing to pass");

    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    cr_assert_eq(manifest_write(f, &m), 0);
    fclose(f);
    cr_assert_eq(manifest_parse(out, len, &back, err, sizeof err), MANIFEST_OK, "%s\n%s", err, out);
    cr_expect_str_eq(back.reproduce, m.reproduce);
    cr_expect_str_eq(manifest_map_get(&back.plugins, "my dir/v1.so"),
                     "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
    cr_expect_str_eq(manifest_map_get(&back.sources, "kid"), "exec child 'python3 kid.py'");
    cr_expect_eq(back.environment.n, 2);
    free(out);
    cr_expect_eq(parse("{\"schema\": 1, \"plugins\": {\"a\": \"x\", \"a\": \"y\"}}", &m, err),
                 MANIFEST_EFORMAT);
    cr_expect_str_eq(err, "duplicate key at byte 41");
}
