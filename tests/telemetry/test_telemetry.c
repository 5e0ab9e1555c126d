/* test_telemetry.c — the telemetry of harness/telemetry against scripted sources, without a GPU.
 *
 *   test_telemetry nvml SCENARIO [old|after]  NVML through the fake libnvidia-ml.so.1
 *                                        (fake_nvml.c), found through LD_LIBRARY_PATH as a
 *                                        driver's would be; "old": the build of the fake without
 *                                        newer functions; "after": a later run of --runs N
 *   test_telemetry rapl                  the powercap path on a fake tree this test builds
 *   test_telemetry words                 reason words, PCIe rates, the column names
 *   test_telemetry cost                  what telemetry costs a CPU row (µs; must be < 1% of
 *                                        a 0.05 s row)
 *
 * Each NVML scenario measures one "row" of 150 ms and checks every telemetry column of the CSV
 * row and the note, as the run writes them; the sharing scenarios (shared, busy, namespace, child)
 * check the shared_gpu column and the note, and that a row right after another does not take the
 * card's utilisation, its own work included, for a neighbour's.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/io/csv_write.h"
#include "harness/io/tel_cols.h"
#include "harness/telemetry/rapl.h"
#include "harness/telemetry/telemetry.h"
#include "tests/testhelp.h"

static const struct workload fake_w = {.name = "fake_workload"};
static const struct impl fake_im = {.name = "fake_impl"};

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* A timed row of 10 repetitions, median 2 ms, 100 GFLOP/s, measured on `dev` for 150 ms. */
static void measure(const struct device *dev, struct result *r) {
    struct tel_row t;
    memset(r, 0, sizeof *r);
    r->dev = dev;
    r->w = &fake_w;
    r->im = &fake_im;
    tel_gpu_row_start(dev);
    tel_row_begin(&t, dev);
    sleep_ms(150);
    tel_row_end(&t, &r->tel);
    tel_gpu_row_done(dev);
    r->st.n = 10;
    r->st.median = 2.0;
    r->gflops = 100;
    r->gbps = 8;
    r->tel.energy_j = tel_energy(&r->tel, r->st.median);
}

/* The telemetry cells of r's CSV row, as the file holds them: tail[i] is column i of TEL_HEADER
 * (the row's last column but one: cpu_wait_pct follows). */
static void csv_tail(const struct result *r, char tail[TEL_NCOLS][64]) {
    struct run_info ri = {.run_id = "r1", .utc = "t", .host = "h"};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    csv_write_result(f, &ri, r);
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
    *strrchr(buf, ',') = '\0'; /* `marks` (harness/io/marks.h), last (csv_write.c) */
    *strrchr(buf, ',') = '\0'; /* cpu_wait_pct, after the telemetry columns */
    /* the last TEL_NCOLS fields before them: none of them is ever quoted */
    char *p = buf + strlen(buf);
    for (int i = TEL_NCOLS - 1; i >= 0; i--) {
        char *c = p;
        while (c > buf && c[-1] != ',')
            c--;
        snprintf(tail[i], sizeof tail[i], "%.*s", (int)(p - c), c);
        p = c > buf ? c - 1 : c;
    }
    free(buf);
}

static int col(const char *name) {
    struct tel_cell c[TEL_NCOLS];
    struct result r;
    memset(&r, 0, sizeof r);
    tel_cells(&r, c);
    for (int i = 0; i < TEL_NCOLS; i++)
        if (strcmp(c[i].name, name) == 0)
            return i;
    return -1;
}

#define CELL(name) tail[col(name)]
#define CELL_IS(name, want) CHECK_MSG(strcmp(CELL(name), want) == 0, "%s = '%s', want '%s'", \
                                      name, CELL(name), want)

/* Power between lo and hi watts (the fake draws a constant power; timing makes it approximate). */
static void check_power(char tail[TEL_NCOLS][64], double w) {
    double avg = atof(CELL("power_avg_w")), peak = atof(CELL("power_peak_w"));
    CHECK_MSG(fabs(avg - w) < 0.05 * w, "power_avg_w %g, want %g", avg, w);
    CHECK_MSG(fabs(peak - w) < 0.05 * w, "power_peak_w %g, want %g", peak, w);
    double j = atof(CELL("energy_per_rep_j"));
    CHECK_MSG(fabs(j - w * 2e-3) < 0.05 * w * 2e-3, "energy_per_rep_j %g, want %g", j, w * 2e-3);
    double gpj = atof(CELL("gflops_per_j"));
    CHECK_MSG(fabs(gpj - 100 / w) < 0.05 * 100 / w, "gflops_per_j %g, want %g", gpj, 100 / w);
}

static void check_scenario(const char *sc, int old, const struct result *r, const char *note) {
    char tail[TEL_NCOLS][64];
    csv_tail(r, tail);
    int thr = strcmp(sc, "throttle") == 0;
    CELL_IS("sm_clock_start_mhz", thr ? "1500" : "1530");
    CELL_IS("sm_clock_end_mhz", thr ? "1100" : "1530");
    CELL_IS("sm_clock_max_mhz", "1530");
    CELL_IS("mem_clock_start_mhz", "877");
    CELL_IS("mem_clock_end_mhz", "877");
    CELL_IS("mem_clock_max_mhz", "877");
    CELL_IS("temp_c", thr ? "92" : "65");
    CELL_IS("throttle_reasons", thr ? "sw_power_cap+hw_thermal" : "none");
    int slot = strcmp(sc, "pcie2x8") == 0;
    CELL_IS("pcie_gen", slot ? "2" : "3");
    CELL_IS("pcie_width", slot ? "8" : "16");
    CELL_IS("pcie_gen_max", "3");
    CELL_IS("pcie_width_max", "16");
    CELL_IS("persistence", "on");
    int sh = strcmp(sc, "shared") == 0, busy = strcmp(sc, "busy") == 0,
        ns = strcmp(sc, "namespace") == 0;
    CELL_IS("shared_gpu", sh || busy || ns ? "yes" : "no");
    const char *want = sh     ? "shared GPU: 2 other processes (pids 4242, 4343) held a context "
                                "while timed"
                       : ns   ? "shared GPU: 1 other process held a context while timed"
                       : busy ? "shared GPU: the card was 37% busy before the row while gpubench "
                                "ran nothing on it"
                              : NULL;
    CHECK_MSG(want ? strstr(note, want) != NULL : strstr(note, "shared") == NULL,
              "note '%s', want '%s'", note, want ? want : "(no sharing)");
    if (strcmp(sc, "nopower") == 0) { /* no sensor: empty, never 0 */
        const char *empty[] = {"power_avg_w", "power_peak_w", "energy_per_rep_j", "gflops_per_j",
                               "gb_per_j", "ecc"};
        for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++)
            CELL_IS(empty[i], "");
    } else {
        check_power(tail, thr ? 149 : 250);
        CELL_IS("ecc", "on");
    }
    (void)old; /* the old driver gives the same columns: average from sampled power */
    CHECK_MSG((strstr(note, "throttled while timed (sw_power_cap+hw_thermal)") != NULL) == thr,
              "note '%s'", note);
    CHECK_MSG((strstr(note, "PCIe 2.0 x8 link: 4 GB/s each way; this copy reached 200%") != NULL &&
               strstr(note, "the card can do PCIe 3.0 x16, 15.8 GB/s")) == slot,
              "note '%s'", note);
}

/* `after`: this process is a run of --runs N after the first, whose previous run's work was on
 * the card until now (tel_gpu_work_ended; set 30 s ahead, so that no stall of a loaded machine
 * lets a whole NVML sample period pass): the busy card's utilisation is not read at all. */
static int test_nvml(const char *sc, int old, int after) {
    struct device gpu = {.id = "cuda:0", .kind = DEV_CUDA, .ordinal = 0,
                         .pci_bus_id = "0000:01:00.0"};
    struct device other = {.id = "cuda:1", .kind = DEV_CUDA, .ordinal = 1,
                           .pci_bus_id = "0000:02:00.0"};
    char why[256] = "";
    const struct gb_nvml *n = gb_nvml_load(why, sizeof why);
    tel_init(1);
    if (strcmp(sc, "noinit") == 0) {
        CHECK(n == NULL);
        CHECK_MSG(strstr(tel_why(1), "nvmlInit: Driver Not Loaded") != NULL, "%s", tel_why(1));
    } else {
        CHECK_MSG(n != NULL, "%s", why);
        char missing[512];
        gb_nvml_missing(n, missing, sizeof missing);
        CHECK_MSG(strcmp(missing, old ? "nvmlDeviceGetTotalEnergyConsumption" : "") == 0,
                  "missing '%s'", missing);
        CHECK(n->reasons != NULL && n->init != NULL && n->handle_by_pci != NULL);
    }
    struct result r;
    measure(&other, &r); /* a GPU NVML does not know: nothing, and no crash */
    char tail[TEL_NCOLS][64];
    csv_tail(&r, tail);
    for (int i = 0; i < TEL_NCOLS; i++)
        CHECK_MSG(tail[i][0] == '\0', "column %d of an unknown GPU: '%s'", i, tail[i]);
    if (after) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        tel_gpu_work_ended((double)ts.tv_sec + 30.0);
        measure(&gpu, &r);
        csv_tail(&r, tail);
        CELL_IS("shared_gpu", "no");
        return TEST_END();
    }
    pid_t child = -1;
    if (strcmp(sc, "child") == 0) { /* a process of ours on the card, alive while timed */
        child = fork();
        if (child == 0) {
            sleep_ms(5000);
            _exit(0);
        }
        char pid[32];
        snprintf(pid, sizeof pid, "%ld", (long)child);
        setenv("FAKE_NVML_CHILD_PID", pid, 1);
    }
    measure(&gpu, &r);
    if (child > 0) {
        kill(child, SIGKILL);
        waitpid(child, NULL, 0);
        unsetenv("FAKE_NVML_CHILD_PID"); /* gone from the card with it */
    }
    if (n) {
        char note[512];
        tel_note(&r.tel, 1, r.gbps, note, sizeof note);
        check_scenario(sc, old, &r, note);
        /* a row right after: our own work was on the card within NVML's sample period, so its
         * utilisation is not read; the busy card's process list shows no neighbour */
        measure(&gpu, &r);
        csv_tail(&r, tail);
        int sharing = strcmp(sc, "shared") == 0 || strcmp(sc, "namespace") == 0;
        CELL_IS("shared_gpu", sharing ? "yes" : "no");
    }
    return TEST_END();
}

/* --- RAPL on a fake powercap tree ------------------------------------------------------------ */

static void put(const char *root, const char *zone, const char *file, const char *text) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, zone);
    mkdir(path, 0755);
    snprintf(path, sizeof path, "%s/%s/%s", root, zone, file);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%s\n", text);
        fclose(f);
    }
}

static void zone(const char *root, const char *z, const char *name, const char *uj) {
    put(root, z, "name", name);
    put(root, z, "max_energy_range_uj", "262143328850");
    put(root, z, "energy_uj", uj);
}

static int test_rapl(void) {
    char root[] = "/tmp/gb_powercap_XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    zone(root, "intel-rapl:0", "package-0", "262142328850"); /* 1 J before it wraps */
    zone(root, "intel-rapl:0:0", "core", "5");               /* a subzone: not summed */
    zone(root, "intel-rapl:1", "psys", "7");                 /* the platform: not summed */
    zone(root, "intel-rapl:2", "package-1", "5000000");
    setenv("GPUBENCH_TEST_POWERCAP", root, 1);
    struct rapl r;
    char why[256];
    CHECK_MSG(rapl_open(&r, why, sizeof why) == 0 && r.n == 2, "%s, %d zones", why, r.n);
    struct rapl_snap a, b;
    CHECK(rapl_read(&r, &a) == 0);
    /* through a CPU row: the counters move by 3 J (wrapping) and 2 J while it is timed */
    struct device cpu = {.id = "cpu", .kind = DEV_CPU};
    tel_init(1);
    CHECK_MSG(tel_why(0)[0] == '\0', "%s", tel_why(0));
    struct tel_row t;
    struct row_telemetry out;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    tel_row_begin(&t, &cpu);
    put(root, "intel-rapl:0", "energy_uj", "2000000");
    put(root, "intel-rapl:2", "energy_uj", "7000000");
    sleep_ms(100);
    tel_row_end(&t, &out);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    CHECK(rapl_read(&r, &b) == 0);
    CHECK_MSG(fabs(rapl_joules(&r, &a, &b) - 5.0) < 1e-9, "%g J", rapl_joules(&r, &a, &b));
    double outer = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK_MSG(out.power_avg_w >= 5.0 / outer && out.power_avg_w <= 5.0 / 0.1, "%g W",
              out.power_avg_w);
    CHECK(out.power_peak_w == 0 && out.sm_mhz_start == 0); /* not measured on the CPU */
    CHECK(fabs(tel_energy(&out, 4.0) - out.power_avg_w * 4e-3) < 1e-12);
    /* telemetry off: nothing read */
    tel_init(0);
    tel_row_begin(&t, &cpu);
    tel_row_end(&t, &out);
    CHECK(out.power_avg_w == 0);
    /* No zone states a power limit: 1 kW is assumed, and these counters (hours at 1 kW) are
     * read every RAPL_PERIOD_MAX_S. */
    CHECK_MSG(r.period_s == RAPL_PERIOD_MAX_S, "%g s", r.period_s);
    /* A 4 J counter under a 40 W limit wraps every 0.1 s: read every 25 ms. */
    put(root, "intel-rapl:2", "max_energy_range_uj", "4000000");
    put(root, "intel-rapl:2", "constraint_0_power_limit_uw", "30000000");
    put(root, "intel-rapl:2", "constraint_1_power_limit_uw", "40000000");
    CHECK(rapl_open(&r, why, sizeof why) == 0 && r.n == 2);
    CHECK_MSG(fabs(r.period_s - 0.025) < 1e-12, "%g s", r.period_s);
    /* A row's energy read by read on that zone, at 20 W: 1 J a 50 ms read (crossing a wrap at
     * 0.2 s), then a read 0.35 s late (7 J: one wrap and 3 J), then 50 ms more. */
    struct rapl one = {.n = 1, .max_uj = {4000000}, .limit_w = {40}};
    struct rapl_acc acc;
    struct rapl_snap s = {{0}};
    rapl_acc_start(&one, &acc, &s, 10.0);
    for (int i = 1; i <= 6; i++) {
        s.uj[0] = fmod(i * 1e6, 4e6);
        rapl_acc_add(&one, &acc, &s, 10.0 + 0.05 * i);
    }
    s.uj[0] = fmod(13e6, 4e6);
    rapl_acc_add(&one, &acc, &s, 10.65);
    s.uj[0] = fmod(14e6, 4e6);
    rapl_acc_add(&one, &acc, &s, 10.70);
    CHECK_MSG(fabs(rapl_acc_joules(&one, &acc) - 14.0) < 1e-9, "%g J",
              rapl_acc_joules(&one, &acc));
    /* only a long gap: unknown, not a guess */
    rapl_acc_start(&one, &acc, &s, 20.0);
    rapl_acc_add(&one, &acc, &s, 21.0);
    CHECK(rapl_acc_joules(&one, &acc) < 0);
    /* no tree (a VM) */
    setenv("GPUBENCH_TEST_POWERCAP", "/nonexistent/powercap", 1);
    CHECK(rapl_open(&r, why, sizeof why) == -1 && strstr(why, "no CPU energy") != NULL);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
    return TEST_END();
}

/* The cost of telemetry to a CPU row: one tel_row_begin + tel_row_end (two reads of every
 * package counter) on the fake tree, averaged over 2000 rows. The target is below 1% of the
 * shortest row --quick times (--min-time 0.05 s): 500 µs; in practice it is some µs. Printed,
 * not checked: a time under load is the machine's, and tests assert no timing; the target is
 * scripts/telemetry-overhead's. */
static int test_cost(void) {
    char root[] = "/tmp/gb_powercap_XXXXXX";
    CHECK(mkdtemp(root) != NULL);
    zone(root, "intel-rapl:0", "package-0", "1000000");
    zone(root, "intel-rapl:1", "package-1", "2000000");
    setenv("GPUBENCH_TEST_POWERCAP", root, 1);
    tel_init(1);
    struct device cpu = {.id = "cpu", .kind = DEV_CPU};
    struct tel_row t;
    struct row_telemetry out;
    enum { ROWS = 2000 };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < ROWS; i++) {
        tel_row_begin(&t, &cpu);
        tel_row_end(&t, &out);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double us = ((double)(t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) * 1e-3) / ROWS;
    printf("telemetry per CPU row (2 package counters, read twice): %.2f us = %.5f%% of a "
           "0.05 s row, %.6f%% of a 0.5 s row\n", us, us / 5e2, us / 5e3);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
    return TEST_END();
}

/* --- pure functions --------------------------------------------------------------------------- */

static int test_words(void) {
    char w[128];
    tel_reason_words(0, 0, w, sizeof w);
    CHECK(strcmp(w, "none") == 0);
    tel_reason_words(0x1 | 0x4 | 0x10 | 0x40 | 0x1000, 0, w, sizeof w);
    CHECK_MSG(strcmp(w, "idle+sw_power_cap+sync_boost+hw_thermal+other_0x1000") == 0, "%s", w);
    tel_reason_words(0x1 | 0x2 | 0x100, 1, w, sizeof w); /* idle is not throttling */
    CHECK_MSG(strcmp(w, "none") == 0, "%s", w);
    CHECK(tel_throttling_bits(0x1 | 0x8) == 0x8);
    CHECK(fabs(tel_pcie_gbps(2, 8) - 4.0) < 1e-9);
    CHECK(fabs(tel_pcie_gbps(3, 16) - 15.76) < 1e-9);
    CHECK(tel_pcie_gbps(0, 16) == 0 && tel_pcie_gbps(3, 0) == 0 && tel_pcie_gbps(9, 16) == 0);
    /* the cells name the header's columns in its order */
    struct tel_cell c[TEL_NCOLS];
    struct result r;
    memset(&r, 0, sizeof r);
    tel_cells(&r, c);
    char names[1024] = "";
    for (int i = 0; i < TEL_NCOLS; i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? "," : "",
                 c[i].name);
    CHECK_MSG(strcmp(names, TEL_HEADER) == 0, "%s", names);
    /* appended after the other extra columns, followed by cpu_wait_pct and `marks` */
    const char *h = CSV_HEADER + strlen(CSV_HEADER) - strlen(TEL_HEADER ",cpu_wait_pct,marks");
    CHECK(strcmp(h, TEL_HEADER ",cpu_wait_pct,marks") == 0 && h[-1] == ',');
    /* a row with nothing known writes empty cells, never 0 */
    char tail[TEL_NCOLS][64];
    r.dev = &(struct device){.id = "cpu", .kind = DEV_CPU};
    r.w = &fake_w;
    r.im = &fake_im;
    r.st.n = 3;
    csv_tail(&r, tail);
    for (int i = 0; i < TEL_NCOLS; i++)
        CHECK_MSG(tail[i][0] == '\0', "%s = '%s'", c[i].name, tail[i]);
    /* the samples file's trace: clock and power beside each repetition, empty when unknown */
    const double ms[3] = {1.5, 1.25, 1};
    const float mhz[3] = {1410, 1095, 0}, watts[3] = {250.5f, 200, 0};
    struct run_info ri = {.run_id = "r1"};
    r.st.n = 3;
    r.samples = ms;
    r.trace_mhz = mhz;
    r.trace_w = watts;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    csv_write_samples(f, &ri, &r);
    fclose(f);
    CHECK_MSG(strcmp(buf, "r1,cpu,fake_workload,fake_impl,,0,1.5,float32,1410,250.5\n"
                          "r1,cpu,fake_workload,fake_impl,,1,1.25,float32,1095,200\n"
                          "r1,cpu,fake_workload,fake_impl,,2,1,float32,,\n") == 0,
              "%s", buf);
    free(buf);
    return TEST_END();
}

int main(int argc, char **argv) {
    if (argc >= 3 && strcmp(argv[1], "nvml") == 0) {
        setenv("FAKE_NVML_SCENARIO", argv[2], 1);
        return test_nvml(argv[2], argc > 3 && strcmp(argv[3], "old") == 0,
                         argc > 3 && strcmp(argv[3], "after") == 0);
    }
    if (argc == 2 && strcmp(argv[1], "rapl") == 0)
        return test_rapl();
    if (argc == 2 && strcmp(argv[1], "words") == 0)
        return test_words();
    if (argc == 2 && strcmp(argv[1], "cost") == 0)
        return test_cost();
    fprintf(stderr, "usage: test_telemetry nvml SCENARIO [old|after] | rapl | words | cost\n");
    return 2;
}
