/* The exec protocol's handshake values parsed (see exec_handshake.h). */
#include "exec_handshake.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The command as it may appear in a message: printable ASCII, at most 200 characters. */
void exec_printable(const char *s, char *out, size_t size)
{
    size_t k = 0;
    for (; *s && k + 5 < size && k < 200; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch >= 0x20 && ch < 0x7f) out[k++] = (char)ch;
        else k += (size_t)snprintf(out + k, size - k, "\\x%02x", ch);
    }
    if (*s && k + 4 < size) k += (size_t)snprintf(out + k, size - k, "...");
    out[k] = '\0';
}

int exec_parse_bool(const char *v, bool *out)
{
    if (strcmp(v, "yes") == 0) *out = true;
    else if (strcmp(v, "no") == 0) *out = false;
    else return -1;
    return 0;
}

static int parse_bound(const char *v, double *out)
{
    char *end;
    if (strcmp(v, "inf") == 0) {
        *out = INFINITY;
        return 0;
    }
    errno = 0;
    double d = strtod(v, &end);
    if (*v == '\0' || *end != '\0' || errno == ERANGE || isnan(d) || d < 0) return -1;
    *out = d;
    return 0;
}

/* contract max_ulp=2 monotone=yes ... into *k; −1 with the bad word in why. */
int exec_parse_contract(char *words, gelu_contract *k, char *why, size_t size)
{
    static const char *const names[] = {"max_ulp", "max_abs", "grad_max_ulp", "grad_max_abs",
                                        "monotone", "specials"};
    unsigned seen = 0;
    for (char *save, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        size_t i = 0;
        if (eq) {
            *eq = '\0';
            while (i < 6 && strcmp(w, names[i]) != 0) i++;
        }
        if (!eq || i == 6 || (seen & (1u << i))) {
            snprintf(why, size, "contract: '%.64s' is not one of max_ulp=, max_abs=, grad_max_ulp=, "
                                "grad_max_abs=, monotone=, specials= (each at most once)", w);
            return -1;
        }
        seen |= 1u << i;
        const char *v = eq + 1;
        int bad = i == 0   ? parse_bound(v, &k->max_ulp)
                  : i == 1 ? parse_bound(v, &k->max_abs)
                  : i == 2 ? parse_bound(v, &k->grad_max_ulp)
                  : i == 3 ? parse_bound(v, &k->grad_max_abs)
                  : i == 4 ? exec_parse_bool(v, &k->monotone)
                           : exec_parse_bool(v, &k->specials);
        if (bad) {
            snprintf(why, size, "contract: %s='%.64s' is not %s", names[i], v,
                     i < 4 ? "a bound >= 0 or inf" : "yes or no");
            return -1;
        }
    }
    return 0;
}

/* fpenv ieee ftz+daz ...: the environments, each once, into h (fpenvs, fpenv_first); −1 with
 * the bad word in why. */
int exec_parse_fpenvs(char *words, exec_handshake *h, char *why, size_t size)
{
    h->fpenvs = 0;
    for (char *save, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        gelu_fpenv e;
        if (!gelu_fpenv_parse(w, &e) || (h->fpenvs & (1u << e))) {
            char shown[80];
            exec_printable(w, shown, sizeof shown);
            snprintf(why, size, "fpenv: '%s' is not one of ieee, ftz, daz, ftz+daz (each at most "
                     "once)", shown);
            return -1;
        }
        if (!h->fpenvs) h->fpenv_first = e;
        h->fpenv_line = true;
        h->fpenvs |= 1u << e;
    }
    if (!h->fpenvs) {
        snprintf(why, size, "fpenv: no environment named (ieee, ftz, daz, ftz+daz)");
        return -1;
    }
    return 0;
}

bool exec_fpenv_runs_in(const exec_handshake *h, gelu_fpenv asked, gelu_fpenv *runs_in, char *why,
                        size_t size)
{
    if (h->fpenvs & (1u << asked)) {
        *runs_in = asked;
        return true;
    }
    if (asked == GELU_FPENV_IEEE) { /* a fixed environment: it says where it runs */
        *runs_in = h->fpenv_first;
        return true;
    }
    char list[64] = "";
    for (int e = 0; e < GELU_FPENV_COUNT; e++)
        if (h->fpenvs & (1u << e))
            snprintf(list + strlen(list), sizeof list - strlen(list), " %s", gelu_fpenv_name((gelu_fpenv)e));
    if (why && !h->fpenv_line)
        snprintf(why, size, "its handshake has no 'fpenv' line (IEEE's only)");
    else if (why)
        snprintf(why, size, "its handshake lists 'fpenv%s'", list);
    return false;
}

/* A dispatched_isa value: 1 to 31 of a-z 0-9 _ (what accuracy.csv's column may hold). */
bool exec_isa_word_ok(const char *v)
{
    size_t n = strlen(v);
    if (n == 0 || n > 31) return false;
    for (; *v; v++)
        if (!((*v >= 'a' && *v <= 'z') || (*v >= '0' && *v <= '9') || *v == '_')) return false;
    return true;
}
