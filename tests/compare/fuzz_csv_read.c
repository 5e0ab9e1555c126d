/* fuzz_csv_read.c — libFuzzer target for the strict CSV reader and what `gpubench compare` does
 * with whatever it accepts. Every input is read as a run CSV and as a samples CSV from memory; an
 * accepted run CSV is also written to a file and compared (slowdown against its first device, and
 * regression against itself read under a second name). Built with clang
 * -fsanitize=fuzzer,address,undefined (tests/compare/CMakeLists.txt); no crash, hang, leak or
 * sanitizer report is allowed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/compare/compare.h"
#include "harness/io/csv_read.h"

static char path_a[64], path_b[64];
static FILE *devnull;

static void write_file(const char *path, const uint8_t *data, size_t size) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(data, 1, size, f);
    fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!devnull) {
        const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
        snprintf(path_a, sizeof path_a, "%.40s/fuzz-a-%d.csv", tmp, (int)getpid());
        snprintf(path_b, sizeof path_b, "%.40s/fuzz-b-%d.csv", tmp, (int)getpid());
        devnull = fopen("/dev/null", "w");
    }
    char err[CSV_ERR_LEN];
    struct csv_table t;
    if (csv_read_buffer("fuzz.csv", (const char *)data, size, CSV_SAMPLES, &t, err, sizeof err) ==
        0)
        csv_free(&t);
    if (csv_read_buffer("fuzz.csv", (const char *)data, size, CSV_RUN, &t, err, sizeof err) != 0)
        return 0;
    char device[64] = "cpu";
    if (t.nrows > 0)
        snprintf(device, sizeof device, "%s", t.run[0].device);
    csv_free(&t);
    write_file(path_a, data, size);
    write_file(path_b, data, size);
    char *slow[] = {"compare", path_a, "--baseline", device, "--format", "json", NULL};
    compare_run(6, slow, devnull, devnull);
    char *reg[] = {"compare", path_a, path_b, "--bootstrap", "100", NULL};
    compare_run(5, reg, devnull, devnull);
    return 0;
}
