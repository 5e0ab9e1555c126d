/* test_peak_memo.c — the CPU memory peak remembered per machine (harness/run/peak_memo.h), in a
 * cache folder of its own (XDG_CACHE_HOME): the peak is the best of the machine's last
 * PEAK_MEMO_KEEP measurements, this run's among them; a value no later run came near ages out
 * after PEAK_MEMO_KEEP runs; each machine has one line, and the file at most PEAK_MEMO_MACHINES
 * of them; a line it cannot parse is dropped, not fatal; with no usable folder the run's own
 * measurement stands, and the reason is given. No timing: the values are the test's. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/run/peak_memo.h"
#include "tests/testhelp.h"

static char dir[] = "/tmp/gpubench-peakmemo-XXXXXX";

static double memo(const char *key, double gbps, int *n) {
    char why[256];
    return peak_memo(key, gbps, n, why, sizeof why);
}

/* How many lines the file has, and how many of them start with `key` and a tab. */
static int lines(const char *key, int *mine) {
    char path[256], line[8192];
    snprintf(path, sizeof path, "%s/gpubench/mem-peak", dir);
    FILE *f = fopen(path, "r");
    int n = 0;
    *mine = 0;
    while (f && fgets(line, sizeof line, f)) {
        n++;
        *mine += !strncmp(line, key, strlen(key)) && line[strlen(key)] == '\t';
    }
    if (f)
        fclose(f);
    return n;
}

int main(void) {
    if (!mkdtemp(dir))
        return 1;
    setenv("XDG_CACHE_HOME", dir, 1);
    int n, mine;
    /* the first run's own figure; then the best so far, whatever the later ones measure */
    CHECK_MSG(memo("cpu=A;cores=2", 40, &n) == 40 && n == 1, "first: n %d", n);
    CHECK_MSG(memo("cpu=A;cores=2", 20, &n) == 40 && n == 2, "a loaded run keeps 40: n %d", n);
    CHECK_MSG(memo("cpu=A;cores=2", 45, &n) == 45 && n == 3, "a better one raises it: n %d", n);
    /* another machine is its own line, and does not see A's figures */
    CHECK_MSG(memo("cpu=B;cores=8", 10, &n) == 10 && n == 1, "machine B: n %d", n);
    CHECK_MSG(lines("cpu=A;cores=2", &mine) == 2 && mine == 1, "one line a machine");
    /* 45 not reached by the next PEAK_MEMO_KEEP runs: it ages out, the best of those stands */
    double got = 0;
    for (int i = 0; i < PEAK_MEMO_KEEP; i++)
        got = memo("cpu=A;cores=2", 30 + i, &n);
    CHECK_MSG(got == 30 + PEAK_MEMO_KEEP - 1 && n == PEAK_MEMO_KEEP,
              "45 aged out: got %g over %d values", got, n);
    /* a damaged line is dropped, the file still serves */
    char path[256];
    snprintf(path, sizeof path, "%s/gpubench/mem-peak", dir);
    FILE *f = fopen(path, "a");
    if (f) {
        fputs("no tab on this line\ncpu=A;cores=2x\tnot numbers\n", f);
        fclose(f);
    }
    CHECK_MSG(memo("cpu=B;cores=8", 12, &n) == 12 && n == 2, "B after damage: n %d", n);
    CHECK_MSG(lines("cpu=B;cores=8", &mine) == 3 && mine == 1,
              "the untabbed line dropped, the other kept: %d lines", lines("x", &mine));
    /* the file is bounded: many machines leave the newest PEAK_MEMO_MACHINES lines */
    for (int i = 0; i < PEAK_MEMO_MACHINES + 5; i++) {
        char key[32];
        snprintf(key, sizeof key, "cpu=M%d", i);
        memo(key, 1 + i, &n);
    }
    int total = lines("cpu=M0", &mine);
    CHECK_MSG(total == PEAK_MEMO_MACHINES && mine == 0, "%d lines, the oldest kept: %d", total,
              mine);
    CHECK_MSG(lines("cpu=M36", &mine) && mine == 1, "the newest kept");
    /* no usable folder: the run's own figure, and why */
    char why[256];
    setenv("XDG_CACHE_HOME", "/proc/none/such", 1);
    CHECK_MSG(peak_memo("cpu=A;cores=2", 7, &n, why, sizeof why) == 7 && n == 0 && why[0],
              "unusable folder: n %d, why '%s'", n, why);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return TEST_END();
}
