/* Cross builds as implementations (see exec_cross.h). */
#include "exec_cross.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "exec_impl.h"
#include "input_file.h"

/* The machines a cross build can be for: the ELF e_machine of its child, the emulator that runs
 * it (qemu-user, with the cross libc's root), and the CPU each ISA of its rows needs (the rows'
 * ISA names, exec_vf --list); an ISA not listed runs on `cpu_default`. */
typedef struct {
    const char *isa, *cpu;
} cross_cpu;
typedef struct {
    const char *name;
    uint16_t elf_machine;
    const char *emulator, *cpu_default;
    cross_cpu cpus[4];
} cross_machine;

static const cross_machine machines[] = {
    {"aarch64", 183, "qemu-aarch64 -L /usr/aarch64-linux-gnu", "-cpu max,sve-max-vq=2",
     {{"sve128", "-cpu max,sve-max-vq=1"}, {"sve256", "-cpu max,sve-max-vq=2"},
      {"sve512", "-cpu max,sve-max-vq=4"}}},
    {"riscv64", 243, "qemu-riscv64 -L /usr/riscv64-linux-gnu", "-cpu rv64,v=true,vext_spec=v1.0,vlen=128",
     {{"rvv128", "-cpu rv64,v=true,vext_spec=v1.0,vlen=128"}, {"rvv256", "-cpu rv64,v=true,vext_spec=v1.0,vlen=256"}}},
};
enum { MACHINES = sizeof machines / sizeof machines[0] };

typedef struct {
    char name[64], isa[32], family[32];
    char as[80]; /* its name here: name, or name_MACHINE where a built-in row has name */
    int build;
    bool started;
} cross_row;

typedef struct {
    char dir[1024], child[1100];
    const cross_machine *m;
} cross_build;

static cross_build builds[EXEC_CROSS_DIRS_MAX];
static size_t nbuilds;
static cross_row rows[EXEC_CROSS_ROWS_MAX];
static size_t nrows;

static const char *cpu_for(const cross_machine *m, const char *isa)
{
    for (size_t k = 0; k < sizeof m->cpus / sizeof m->cpus[0] && m->cpus[k].isa; k++)
        if (strcmp(m->cpus[k].isa, isa) == 0) return m->cpus[k].cpu;
    return m->cpu_default;
}

/* The machine of the ELF executable at path (its e_machine, little-endian ELF64); NULL with err. */
static const cross_machine *machine_of(const char *path, char *err, size_t errsize)
{
    unsigned char h[20];
    FILE *f = input_open(path);
    if (!f) return snprintf(err, errsize, "'%s': %s", path, input_strerror(errno)), NULL;
    size_t got = fread(h, 1, sizeof h, f);
    fclose(f);
    if (got != sizeof h || memcmp(h, "\177ELF", 4) != 0 || h[4] != 2 || h[5] != 1)
        return snprintf(err, errsize, "'%s' is not a little-endian 64-bit ELF executable", path), NULL;
    uint16_t em = (uint16_t)(h[18] | h[19] << 8);
    for (size_t k = 0; k < MACHINES; k++)
        if (machines[k].elf_machine == em) return &machines[k];
    snprintf(err, errsize, "'%s' is for ELF machine %u, none of the cross machines (aarch64, riscv64)",
             path, em);
    return NULL;
}

/* A word of s: [a-z0-9_] only, 1 to size−1 of them. */
static bool is_word(const char *s, size_t size)
{
    size_t n = strlen(s);
    if (n == 0 || n >= size) return false;
    for (const char *c = s; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_')) return false;
    return true;
}

int exec_cross_open(const char *dir, double timeout_s, char *err, size_t errsize)
{
    if (nbuilds == EXEC_CROSS_DIRS_MAX)
        return snprintf(err, errsize, "--cross: at most %d build directories", EXEC_CROSS_DIRS_MAX), -1;
    cross_build *b = &builds[nbuilds];
    if (strlen(dir) >= sizeof b->dir || strpbrk(dir, "'\n"))
        return snprintf(err, errsize, "--cross '%s': a directory name without quotes or newlines, "
                        "shorter than %zu", dir, sizeof b->dir), -1;
    snprintf(b->dir, sizeof b->dir, "%s", dir);
    snprintf(b->child, sizeof b->child, "%s/cross/exec_vf", dir);
    char why[1200];
    if (!(b->m = machine_of(b->child, why, sizeof why)))
        return snprintf(err, errsize, "--cross '%s': no cross build's exec child there (%s; "
                        "docs/aarch64.md builds one)", dir, why), -1;
    char cmd[2400];
    /* bounded: a child that never answers is named, not waited for (coreutils' timeout) */
    snprintf(cmd, sizeof cmd, "timeout -k 5 %.3f %s %s '%s' --list 2>/dev/null", timeout_s,
             b->m->emulator, b->m->cpu_default, b->child);
    fflush(NULL);
    FILE *p = popen(cmd, "r");
    if (!p) return snprintf(err, errsize, "--cross '%s': cannot run %s", dir, cmd), -1;
    char line[256];
    size_t first = nrows, bad = 0;
    while (fgets(line, sizeof line, p)) {
        cross_row r = {.build = (int)nbuilds};
        char extra;
        line[strcspn(line, "\n")] = '\0';
        if (sscanf(line, "%63s %31s %31s %c", r.name, r.isa, r.family, &extra) != 3 ||
            !is_word(r.name, sizeof r.name) || !is_word(r.isa, sizeof r.isa) ||
            gelu_family_from_key(r.family) == GELU_FAMILY_COUNT) {
            bad++;
            continue;
        }
        snprintf(r.as, sizeof r.as, "%s", r.name);
        if (gelu_impl_find(r.name)) snprintf(r.as, sizeof r.as, "%s_%s", r.name, b->m->name);
        if (nrows < EXEC_CROSS_ROWS_MAX) rows[nrows++] = r;
    }
    int st = pclose(p);
    if (st != 0 || bad || nrows == first) {
        nrows = first;
        bool timed_out = WIFEXITED(st) && (WEXITSTATUS(st) == 124 || WEXITSTATUS(st) == 137);
        return snprintf(err, errsize, "--cross '%s': `%s` %s", dir, cmd,
                        timed_out ? "gave no listing within its time"
                        : st != 0 ? "failed (is qemu-user installed? tools/setup.sh)"
                        : bad     ? "listed a line that is not 'NAME ISA FAMILY'"
                                  : "listed no row"), -1;
    }
    nbuilds++;
    return 0;
}

static cross_row *find(const char *name)
{
    for (size_t i = 0; i < nrows; i++)
        if (strcmp(rows[i].as, name) == 0) return &rows[i];
    return NULL;
}

bool exec_cross_lists(const char *name) { return find(name) != NULL; }

int exec_cross_add(const char *name, double timeout_s, char *err, size_t errsize)
{
    cross_row *r = find(name);
    if (!r) return snprintf(err, errsize, "'%s' is no row of a --cross build", name), -1;
    const cross_build *b = &builds[r->build];
    char spec[2600], note[600];
    snprintf(spec, sizeof spec, "%s=%s %s '%s' %s --name %s", r->as, b->m->emulator,
             cpu_for(b->m, r->isa), b->child, r->name, r->as);
    int rc = exec_impls_add(spec, gelu_family_from_key(r->family), NULL, timeout_s, err, errsize,
                            note, sizeof note);
    if (rc == 0) r->started = true;
    return rc;
}

void exec_cross_print(FILE *f)
{
    for (size_t k = 0; k < nbuilds; k++) {
        const cross_build *b = &builds[k];
        fprintf(f, "\ncross build %s (%s, under %s; rows start when an --impl names them):\n",
                b->dir, b->m->name, b->m->emulator);
        for (size_t i = 0; i < nrows; i++)
            if (rows[i].build == (int)k)
                fprintf(f, "  %-28s %-8s %-13s %s%s\n", rows[i].as, rows[i].isa, rows[i].family,
                        cpu_for(b->m, rows[i].isa), rows[i].started ? " (started)" : "");
    }
}
