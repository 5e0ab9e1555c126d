/* shared.c — which compared runs were timed on a shared GPU (shared.h). */
#include "harness/compare/shared.h"

#include <string.h>

struct cmp_shared cmp_shared_of(const struct cmp_input *in, int file, const char *run_id,
                                const char *device) {
    struct cmp_shared s = {0, 0};
    const struct csv_table *t = &in->runs[file];
    int c = csv_col_index(t, "shared_gpu");
    if (c < 0)
        return s;
    for (size_t i = 0; i < t->nrows; i++) {
        const struct run_row *r = &t->run[i];
        if (strcmp(r->run_id, run_id) != 0 || (device && strcmp(r->device, device) != 0))
            continue;
        s.yes += strcmp(r->raw[c], "yes") == 0;
        s.known += strcmp(r->raw[c], "yes") == 0 || strcmp(r->raw[c], "no") == 0;
    }
    return s;
}

int cmp_shared_line(const struct cmp_input *in, int file, const char *run_id, const char *device,
                    const char *li, const char *what, FILE *out) {
    struct cmp_shared s = cmp_shared_of(in, file, run_id, device);
    if (!s.yes)
        return 0;
    fprintf(out,
            "%sshared GPU: %s run %s of %s: %d of %d GPU row%s timed while another process held "
            "the card or it was busy without gpubench (their notes say which)\n",
            li, what, run_id, in->runs[file].name, s.yes, s.known,
            s.known == 1 ? "" : "s");
    return 1;
}

void cmp_shared_refusal(int nruns, int md, FILE *out) {
    const char *b = md ? "**" : "";
    fprintf(out,
            "\n%sSHARED GPU (--strict): no verdict: %d run%s above %s timed on a shared card; "
            "run %s again on a card of its own%s\n",
            b, nruns, nruns == 1 ? "" : "s", nruns == 1 ? "was" : "were",
            nruns == 1 ? "it" : "them", b);
}
