/* The identity of a row's code (code_id.h). */
#define _GNU_SOURCE
#include "code_id.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#include "exec_impl.h"
#include "plugin.h"
#include "sha256.h"

typedef struct {
    char hex[2 * 64 + 1];
    int found;
} build_id;

/* The main program's NT_GNU_BUILD_ID note (dl_iterate_phdr lists the main program first). */
static int first_object(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    build_id *b = ctx;
    for (int i = 0; i < info->dlpi_phnum && !b->found; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE) continue;
        const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
        const unsigned char *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
            size_t name = (n->n_namesz + 3) & ~(size_t)3, desc = (n->n_descsz + 3) & ~(size_t)3;
            const unsigned char *d = p + sizeof *n + name;
            if (d + desc > end) break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
                memcmp(p + sizeof *n, "GNU", 4) == 0 && n->n_descsz > 0 && n->n_descsz <= 64) {
                for (size_t k = 0; k < n->n_descsz; k++)
                    snprintf(b->hex + 2 * k, 3, "%02x", d[k]);
                b->found = 1;
                break;
            }
            p = d + desc;
        }
    }
    return 1; /* the main program only */
}

/* The built-in rows' identity, once: the build-id note, else the executable's SHA-256. */
static const char *builtin_id(void)
{
    static char id[160];
    if (id[0]) return id;
    build_id b = {.found = 0};
    dl_iterate_phdr(first_object, &b);
    if (b.found) {
        snprintf(id, sizeof id, "build-id:%s", b.hex);
        return id;
    }
    char hex[SHA256_HEX];
    if (sha256_file("/proc/self/exe", hex) != 0) return NULL;
    snprintf(id, sizeof id, "exe-sha256:%s", hex);
    return id;
}

int impl_code_id(const gelu_impl *impl, char *buf, size_t size)
{
    const char *h;
    if ((h = plugins_sha256(impl))) {
        snprintf(buf, size, "plugin-sha256:%s", h);
    } else if ((h = exec_impls_sha256(impl))) {
        snprintf(buf, size, "exec-sha256:%s", h);
    } else if ((h = builtin_id())) {
        snprintf(buf, size, "%s", h);
    } else {
        snprintf(buf, size, "cannot read this executable (/proc/self/exe) to identify the "
                 "built-in kernels: %s", strerror(errno));
        return -1;
    }
    return 0;
}
