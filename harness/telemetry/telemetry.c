/* telemetry.c — a row's clocks, power, energy and link (telemetry.h). */
#include "harness/telemetry/telemetry.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int enabled;
static const struct gb_nvml *nvml; /* NULL: no GPU telemetry */
static int nvml_tried;             /* loaded on the first GPU row: a CPU-only run never pays */
static struct rapl rapl;
static int have_rapl;
static char why_gpu[256], why_cpu[256];

/* NVML handles per CUDA ordinal: 0 not looked up, 1 found, -1 not found (said once). */
static gb_nvml_dev handles[DEVICE_MAX];
static int handle_state[DEVICE_MAX];

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void tel_init(int on) {
    enabled = on;
    why_cpu[0] = '\0';
    if (!nvml_tried)
        why_gpu[0] = '\0';
    if (!on) {
        snprintf(why_gpu, sizeof why_gpu, "telemetry off (--no-telemetry)");
        snprintf(why_cpu, sizeof why_cpu, "telemetry off (--no-telemetry)");
        return;
    }
    have_rapl = rapl_open(&rapl, why_cpu, sizeof why_cpu) == 0;
}

/* NVML, loaded once (nvmlInit can take a while on a many-GPU node); why not, said once. */
static const struct gb_nvml *nvml_once(void) {
    if (!nvml_tried && enabled) {
        nvml_tried = 1;
        nvml = gb_nvml_load(why_gpu, sizeof why_gpu);
        if (!nvml)
            fprintf(stderr, "gpubench: note: no GPU telemetry (clocks, power): %s\n", why_gpu);
    }
    return nvml;
}

const char *tel_why(int gpu) {
    if (gpu)
        nvml_once();
    return gpu ? why_gpu : why_cpu;
}

/* The NVML handle of `dev`, looked up once; NULL when NVML cannot find it (said on stderr once,
 * as the row's columns are then empty without other explanation). */
static gb_nvml_dev handle_of(const struct device *dev) {
    int i = dev->ordinal;
    if (!nvml_once() || i < 0 || i >= DEVICE_MAX)
        return NULL;
    if (!handle_state[i]) {
        char why[256];
        handle_state[i] = gb_nvml_device(nvml, dev->pci_bus_id, &handles[i], why, sizeof why)
                              ? -1
                              : 1;
        if (handle_state[i] < 0)
            fprintf(stderr, "gpubench: note: %s: no telemetry: %s\n", dev->id, why);
    }
    return handle_state[i] > 0 ? handles[i] : NULL;
}

/* --- NVML reads: each leaves its figure 0 (unknown) when the call is missing or fails --------- */

static double read_clock(gb_nvml_dev d, int type, int max) {
    unsigned v = 0;
    gb_nvml_return (*f)(gb_nvml_dev, int, unsigned *) = max ? nvml->max_clock : nvml->clock;
    return f && f(d, type, &v) == GB_NVML_SUCCESS ? (double)v : 0;
}

static double read_uint(gb_nvml_return (*f)(gb_nvml_dev, unsigned *), gb_nvml_dev d) {
    unsigned v = 0;
    return f && f(d, &v) == GB_NVML_SUCCESS ? (double)v : 0;
}

static double read_temp(gb_nvml_dev d) {
    unsigned v = 0;
    return nvml->temperature && nvml->temperature(d, GB_NVML_TEMP_GPU, &v) == GB_NVML_SUCCESS
               ? (double)v
               : 0;
}

static int read_energy(gb_nvml_dev d, unsigned long long *mj) {
    return nvml->energy && nvml->energy(d, mj) == GB_NVML_SUCCESS;
}

/* ECC and persistence as 2 on, 1 off, 0 unknown. */
static void read_modes(gb_nvml_dev d, struct row_telemetry *o) {
    int cur = 0, pend = 0, mode = 0;
    if (nvml->ecc && nvml->ecc(d, &cur, &pend) == GB_NVML_SUCCESS)
        o->ecc = cur ? 2 : 1;
    if (nvml->persistence && nvml->persistence(d, &mode) == GB_NVML_SUCCESS)
        o->persistence = mode ? 2 : 1;
}

/* --- sharing: a neighbour on the card ------------------------------------------------------------
 *
 * Two signals, each sound on its own (row_shared in harness/core/result.h):
 *  1. The processes with a context on the card (NVML's compute and graphics lists, one entry per
 *     process): any but us and our children (a ptx_jit row times fresh child processes) can take
 *     SM time from the row. NVML gives pids as the host's PID namespace sees them. When our own
 *     pid is in the list, the others are named. When it is not but the list has entries, we run
 *     in another namespace (a container): one entry is ours, the rest neighbours we count but
 *     cannot name, and a child of ours cannot be told from a neighbour, so only the reads at the
 *     timed loop's start and end count then (no child of ours is alive: the runner waits for
 *     each). An empty list means NVML does not show us even our own context: unknown.
 *  2. The card's utilisation (nvmlDeviceGetUtilizationRates): the part of NVML's last sample
 *     period in which any kernel ran, ours included. It is evidence of a neighbour only when none
 *     of our work ran during the whole period, so it is read before a row's first work and only
 *     when our last work on the card ended TEL_UTIL_WINDOW_S ago or more (in a run: the first
 *     row on each card, and rows after a pause; in a run of --runs N after the first, the
 *     previous run's process counts as ours: tel_gpu_work_ended). Read after the warm-up it would see the warm-up;
 *     during the timed loop, the row itself. It sees a neighbour without a context we can list
 *     (another VM's time slice of a vGPU); it cannot see one that starts after it is read, which
 *     the process list, read every TEL_PROCS_EVERY samples while timed, does. */

static double last_work_s[DEVICE_MAX]; /* when our last work on the card ended; 0 never */
static int idle_read[DEVICE_MAX], idle_pct[DEVICE_MAX]; /* the reading for the next row */

void tel_gpu_row_start(const struct device *dev) {
    int i = dev->ordinal;
    if (!enabled || dev->kind == DEV_CPU || i < 0 || i >= DEVICE_MAX)
        return;
    idle_read[i] = 0;
    gb_nvml_dev d = handle_of(dev);
    struct gb_nvml_util u;
    if (!d || !nvml->utilization ||
        (last_work_s[i] > 0 && now_s() - last_work_s[i] < TEL_UTIL_WINDOW_S))
        return;
    if (nvml->utilization(d, &u) == GB_NVML_SUCCESS) {
        idle_read[i] = 1;
        idle_pct[i] = (int)u.gpu;
    }
}

void tel_gpu_row_done(const struct device *dev) {
    int i = dev->ordinal;
    if (dev->kind != DEV_CPU && i >= 0 && i < DEVICE_MAX)
        last_work_s[i] = now_s();
}

void tel_gpu_work_ended(double mono_s) {
    for (int i = 0; i < DEVICE_MAX; i++)
        if (mono_s > last_work_s[i])
            last_work_s[i] = mono_s;
}

/* A child of this process (its parent in /proc/PID/stat is us): a row's own fresh process. */
static int our_child(unsigned pid) {
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%u/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* after "pid (comm": comm may hold spaces */
    char state;
    long ppid;
    return p && sscanf(p + 1, " %c %ld", &state, &ppid) == 2 && ppid == (long)getpid();
}

/* One read of the card's processes into the row's sharing figures; `edge`: at the timed loop's
 * start or end, when no child of ours is alive. */
static void read_processes(struct tel_row *t, int edge) {
    unsigned pids[32];
    int named;
    int n = gb_nvml_processes(nvml, t->nd, pids, 32, &named);
    if (n <= 0)
        return; /* unreadable, or blind to our own context */
    unsigned self = (unsigned)getpid();
    int own = 0;
    for (int i = 0; named && i < n; i++)
        own |= pids[i] == self;
    struct row_telemetry *o = &t->out;
    if (!own) { /* another PID namespace (or more processes than NVML named) */
        if (edge) {
            o->shared_known = 1;
            t->unnamed |= n > 1;
            o->shared_procs = n - 1 > o->shared_procs ? n - 1 : o->shared_procs;
        }
        return;
    }
    o->shared_known = 1;
    int others = 0;
    for (int i = 0; i < n; i++) {
        if (pids[i] == self || our_child(pids[i]))
            continue;
        others++;
        int seen = 0, k = o->shared_procs < 4 ? o->shared_procs : 4;
        for (int j = 0; j < k; j++)
            seen |= o->shared_pid[j] == pids[i];
        if (!seen && o->shared_procs < 4)
            o->shared_pid[o->shared_procs++] = pids[i]; /* a new neighbour */
    }
    if (others > o->shared_procs) /* beyond the 4 kept: the most seen at one read */
        o->shared_procs = others;
}

/* --- the sampling thread ---------------------------------------------------------------------- */

/* One read of power and reasons into the row's accumulators: the power integral is a
 * trapezoid between consecutive samples, its span the time they cover. */
static void sample(struct tel_row *t) {
    double now = now_s();
    unsigned mw = 0;
    unsigned long long bits = 0;
    if (nvml->reasons && nvml->reasons(t->nd, &bits) == GB_NVML_SUCCESS) {
        t->reasons |= bits;
        t->reasons_read = 1;
    }
    if (nvml->power && nvml->power(t->nd, &mw) == GB_NVML_SUCCESS && mw > 0) {
        double w = mw / 1e3;
        if (t->n_power++ > 0) {
            t->w_seconds += 0.5 * (w + t->last_w) * (now - t->last_t_s);
            t->w_span_s += now - t->last_t_s;
        }
        t->last_w = w;
        t->last_t_s = now;
        if (w > t->out.power_peak_w)
            t->out.power_peak_w = w;
    }
    double mhz = read_clock(t->nd, GB_NVML_CLOCK_SM, 0);
    pthread_mutex_lock(&t->latest_lock);
    t->latest_mhz = mhz;
    if (mw > 0)
        t->latest_w = mw / 1e3;
    pthread_mutex_unlock(&t->latest_lock);
}

static void *sampler(void *arg) {
    struct tel_row *t = arg;
    struct timespec period = {0, TEL_PERIOD_MS * 1000000L};
    for (unsigned k = 1; !__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE); k++) {
        nanosleep(&period, NULL);
        if (__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE))
            break;
        sample(t);
        if (k % TEL_PROCS_EVERY == 0)
            read_processes(t, 0);
    }
    return NULL;
}

/* --- the CPU's sampling thread ----------------------------------------------------------------- */

/* One thread for the run (a thread per row would cost a create and a join each): it sleeps on
 * cpu_wake while no CPU row is timed, and reads the counters of cpu_row every rapl.period_s
 * while one is. cpu_row and its racc are guarded by cpu_lock. */
static pthread_mutex_t cpu_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cpu_wake; /* on CLOCK_MONOTONIC */
static int cpu_thread;          /* 0 not tried, 1 running, -1 could not be started */
static struct tel_row *cpu_row; /* the CPU row being timed, or NULL */

/* One read of the CPU package counters into the row's energy (rapl_acc). A failed read makes the
 * row's energy unknown rather than short. Called with cpu_lock held. */
static void sample_rapl(struct tel_row *t) {
    struct rapl_snap s;
    if (rapl_read(&rapl, &s) != 0) {
        t->r_failed = 1;
        return;
    }
    rapl_acc_add(&rapl, &t->racc, &s, now_s());
}

static void *cpu_sampler(void *arg) {
    (void)arg;
    if (pthread_mutex_lock(&cpu_lock) != 0)
        return NULL;
    for (;;) {
        if (!cpu_row) {
            pthread_cond_wait(&cpu_wake, &cpu_lock);
            continue;
        }
        double at = cpu_row->r_next_s;
        struct timespec ts = {(time_t)at, (long)((at - (double)(time_t)at) * 1e9)};
        int rc = pthread_cond_timedwait(&cpu_wake, &cpu_lock, &ts);
        if (rc != 0 && rc != ETIMEDOUT)
            continue;
        double now = now_s();
        if (cpu_row && now >= cpu_row->r_next_s) {
            sample_rapl(cpu_row);
            cpu_row->r_next_s += rapl.period_s;
            if (cpu_row->r_next_s < now) /* late (a loaded machine): no burst to catch up */
                cpu_row->r_next_s = now + rapl.period_s;
        }
    }
    return NULL;
}

/* Start the CPU sampler once; 1 when it runs. Without it a row's energy is known only when the
 * row is shorter than a wrap (rapl_acc_joules). */
static int cpu_sampler_once(void) {
    if (cpu_thread)
        return cpu_thread > 0;
    cpu_thread = -1;
    pthread_condattr_t a;
    if (pthread_condattr_init(&a) != 0)
        return 0;
    int ok = pthread_condattr_setclock(&a, CLOCK_MONOTONIC) == 0 &&
             pthread_cond_init(&cpu_wake, &a) == 0;
    pthread_condattr_destroy(&a);
    if (!ok)
        return 0;
    pthread_t th;
    if (pthread_create(&th, NULL, cpu_sampler, NULL) != 0 || pthread_detach(th) != 0) {
        fprintf(stderr, "gpubench: note: no CPU energy sampler thread: a CPU row's energy is "
                        "known only when it is shorter than a counter wrap\n");
        return 0;
    }
    cpu_thread = 1;
    return 1;
}

static void cpu_begin(struct tel_row *t) {
    struct rapl_snap s0;
    int sampler = cpu_sampler_once();
    if (pthread_mutex_lock(&cpu_lock) != 0)
        return;
    if (rapl_read(&rapl, &s0) == 0) {
        t->t0_s = now_s();
        rapl_acc_start(&rapl, &t->racc, &s0, t->t0_s);
        t->r_next_s = t->t0_s + rapl.period_s;
        t->active = 1;
        if (sampler) {
            cpu_row = t;
            pthread_cond_signal(&cpu_wake);
        }
    }
    pthread_mutex_unlock(&cpu_lock);
}

static void cpu_end(struct tel_row *t) {
    if (pthread_mutex_lock(&cpu_lock) != 0)
        return;
    if (cpu_row == t)
        cpu_row = NULL;
    sample_rapl(t); /* the last stretch */
    pthread_mutex_unlock(&cpu_lock);
    double j = rapl_acc_joules(&rapl, &t->racc), span_s = t->racc.last_s - t->t0_s;
    if (!t->r_failed && j >= 0 && span_s > 0)
        t->out.power_avg_w = j / span_s;
}

/* --- a row ------------------------------------------------------------------------------------ */

static void gpu_begin(struct tel_row *t, gb_nvml_dev d, int dev_ordinal) {
    t->gpu = 1;
    t->nd = d;
    t->out.sm_mhz_start = read_clock(d, GB_NVML_CLOCK_SM, 0);
    t->out.mem_mhz_start = read_clock(d, GB_NVML_CLOCK_MEM, 0);
    t->have_e0 = read_energy(d, &t->e0_mj);
    t->t0_s = now_s();
    sample(t);
    read_processes(t, 1);
    int i = dev_ordinal;
    if (i >= 0 && i < DEVICE_MAX && idle_read[i]) { /* read before this row's first work */
        t->out.shared_busy_read = 1;
        t->out.shared_busy_pct = idle_pct[i];
        t->out.shared_known = 1;
        idle_read[i] = 0;
    }
    __atomic_store_n(&t->stop, 0, __ATOMIC_RELEASE);
    /* No thread, no power average and reasons: the row is still timed, without them. */
    t->thread_started = pthread_create(&t->thread, NULL, sampler, t) == 0;
    t->active = 1;
}

void tel_row_begin(struct tel_row *t, const struct device *dev) {
    memset(t, 0, sizeof *t);
    pthread_mutex_init(&t->latest_lock, NULL);
    if (!enabled)
        return;
    if (dev->kind == DEV_CPU) {
        if (have_rapl)
            cpu_begin(t);
        return;
    }
    gb_nvml_dev d = handle_of(dev);
    if (d)
        gpu_begin(t, d, dev->ordinal);
}

struct tel_latest tel_row_latest(struct tel_row *t) {
    struct tel_latest l = {0, 0};
    if (t->active && t->gpu) {
        pthread_mutex_lock(&t->latest_lock);
        l.sm_mhz = t->latest_mhz;
        l.power_w = t->latest_w;
        pthread_mutex_unlock(&t->latest_lock);
    }
    return l;
}

/* Average power: the energy counter where the card has one (exact), else the sampled power's
 * time average (NVML's power reading is itself an average over up to a second on old boards),
 * else the single sample there is. */
static void gpu_power(struct tel_row *t, double t1_s) {
    unsigned long long e1 = 0;
    if (t->have_e0 && read_energy(t->nd, &e1) && e1 > t->e0_mj && t1_s > t->t0_s)
        t->out.power_avg_w = (double)(e1 - t->e0_mj) / 1e3 / (t1_s - t->t0_s);
    else if (t->w_span_s > 0)
        t->out.power_avg_w = t->w_seconds / t->w_span_s;
    else if (t->n_power > 0)
        t->out.power_avg_w = t->last_w;
    if (t->out.power_avg_w > t->out.power_peak_w && t->out.power_peak_w > 0)
        t->out.power_peak_w = t->out.power_avg_w; /* a counter average above the sampled peak */
}

static void gpu_end(struct tel_row *t) {
    __atomic_store_n(&t->stop, 1, __ATOMIC_RELEASE);
    if (t->thread_started)
        pthread_join(t->thread, NULL);
    double t1 = now_s();
    sample(t); /* the last stretch, and a reading even for rows shorter than one period */
    read_processes(t, 1);
    t->out.shared_pids_named = t->out.shared_procs > 0 && !t->unnamed;
    gpu_power(t, t1);
    gb_nvml_dev d = t->nd;
    t->out.sm_mhz_end = read_clock(d, GB_NVML_CLOCK_SM, 0);
    t->out.mem_mhz_end = read_clock(d, GB_NVML_CLOCK_MEM, 0);
    t->out.sm_mhz_max = read_clock(d, GB_NVML_CLOCK_SM, 1);
    t->out.mem_mhz_max = read_clock(d, GB_NVML_CLOCK_MEM, 1);
    t->out.temp_c = read_temp(d);
    /* The link is read while the card is busy: an idle link trains down to save power. */
    t->out.pcie_gen = read_uint(nvml->pcie_gen, d);
    t->out.pcie_width = read_uint(nvml->pcie_width, d);
    t->out.pcie_gen_max = read_uint(nvml->pcie_gen_max, d);
    t->out.pcie_width_max = read_uint(nvml->pcie_width_max, d);
    read_modes(d, &t->out);
    t->out.throttle_known = t->reasons_read;
    t->out.throttle = t->reasons;
    if (t->reasons_read)
        tel_reason_words(t->reasons, 0, t->out.throttle_words, sizeof t->out.throttle_words);
}

void tel_row_end(struct tel_row *t, struct row_telemetry *out) {
    memset(out, 0, sizeof *out);
    if (!t->active) {
        pthread_mutex_destroy(&t->latest_lock);
        return;
    }
    if (t->gpu) {
        gpu_end(t);
    } else {
        cpu_end(t);
    }
    *out = t->out;
    t->active = 0;
    pthread_mutex_destroy(&t->latest_lock);
}

double tel_energy(const struct row_telemetry *t, double median_ms) {
    return t->power_avg_w > 0 && median_ms > 0 ? t->power_avg_w * median_ms / 1e3 : 0;
}

/* --- words and notes -------------------------------------------------------------------------- */

static const struct {
    unsigned long long bit;
    const char *word;
} reason_names[] = {
    {GB_NVML_REASON_IDLE, "idle"},
    {GB_NVML_REASON_APP_CLOCKS, "app_clocks"},
    {GB_NVML_REASON_SW_POWER_CAP, "sw_power_cap"},
    {GB_NVML_REASON_HW_SLOWDOWN, "hw_slowdown"},
    {GB_NVML_REASON_SYNC_BOOST, "sync_boost"},
    {GB_NVML_REASON_SW_THERMAL, "sw_thermal"},
    {GB_NVML_REASON_HW_THERMAL, "hw_thermal"},
    {GB_NVML_REASON_HW_POWER_BRAKE, "hw_power_brake"},
    {GB_NVML_REASON_DISPLAY_CLOCKS, "display_clocks"},
};

unsigned long long tel_throttling_bits(unsigned long long bits) {
    return bits & ~(GB_NVML_REASON_IDLE | GB_NVML_REASON_APP_CLOCKS |
                    GB_NVML_REASON_DISPLAY_CLOCKS);
}

void tel_reason_words(unsigned long long bits, int throttling_only, char *out, size_t len) {
    size_t n = 0;
    if (throttling_only)
        bits = tel_throttling_bits(bits);
    out[0] = '\0';
    for (size_t i = 0; i < sizeof reason_names / sizeof reason_names[0]; i++)
        if ((bits & reason_names[i].bit) && n < len)
            n += (size_t)snprintf(out + n, len - n, "%s%s", n ? "+" : "", reason_names[i].word);
    unsigned long long known = 0x1ffULL;
    if ((bits & ~known) && n < len)
        n += (size_t)snprintf(out + n, len - n, "%sother_0x%llx", n ? "+" : "", bits & ~known);
    if (!n)
        snprintf(out, len, "none");
}

double tel_pcie_gbps(double gen, double width) {
    static const double lane[] = {0, 0.25, 0.5, 0.985, 1.969, 3.938, 7.563};
    int g = (int)gen;
    if (g < 1 || g > 6 || !(width > 0))
        return 0;
    return lane[g] * width;
}

/* "PCIe 2.0 x8 (4 GB/s each way; this copy reached 82% of it)" */
static size_t link_note(const struct row_telemetry *t, double gbps, char *out, size_t len) {
    static const char *const ver[] = {"", "1.0", "2.0", "3.0", "4.0", "5.0", "6.0"};
    double link = tel_pcie_gbps(t->pcie_gen, t->pcie_width);
    if (!(link > 0) || !(gbps > 0))
        return 0;
    int n = snprintf(out, len, "PCIe %s x%.0f link: %.3g GB/s each way; this copy reached %.0f%%",
                     ver[(int)t->pcie_gen], t->pcie_width, link, 100.0 * gbps / link);
    double best = tel_pcie_gbps(t->pcie_gen_max, t->pcie_width_max);
    if (best > link * 1.01 && n > 0 && (size_t)n < len)
        n += snprintf(out + n, len - (size_t)n, " (the card can do PCIe %s x%.0f, %.3g GB/s)",
                      ver[(int)t->pcie_gen_max], t->pcie_width_max, best);
    return n > 0 ? (size_t)n : 0;
}

/* Append printf text to out[*n, len): a text too long for the room is cut, never overrun. */
static void add(char *out, size_t len, size_t *n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add(char *out, size_t len, size_t *n, const char *fmt, ...) {
    if (*n + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(out + *n, len - *n, fmt, ap);
    va_end(ap);
    if (k > 0)
        *n = *n + (size_t)k < len ? *n + (size_t)k : len - 1;
}

/* "shared GPU: 2 other processes (pids 1234, 5678) held a context while timed; the card was 37%
 * busy before the row while gpubench ran nothing on it" */
static size_t shared_note(const struct row_telemetry *t, char *out, size_t len) {
    size_t n = 0;
    out[0] = '\0';
    if (row_shared(t) != 1)
        return 0;
    add(out, len, &n, "shared GPU: ");
    if (t->shared_procs > 0) {
        int shown = t->shared_procs < 4 ? t->shared_procs : 4;
        add(out, len, &n, "%d other process%s", t->shared_procs,
            t->shared_procs == 1 ? "" : "es");
        for (int i = 0; t->shared_pids_named && i < shown; i++)
            add(out, len, &n, "%s%u", i ? ", " : shown == 1 ? " (pid " : " (pids ",
                t->shared_pid[i]);
        if (t->shared_pids_named)
            add(out, len, &n, "%s)", t->shared_procs > shown ? ", …" : "");
        add(out, len, &n, " held a context while timed");
    }
    if (t->shared_busy_read && t->shared_busy_pct > 0)
        add(out, len, &n, "%sthe card was %d%% busy before the row while gpubench ran nothing on it",
            t->shared_procs > 0 ? "; " : "", t->shared_busy_pct);
    return n;
}

void tel_note(const struct row_telemetry *t, int host_transfer, double gbps, char *out,
              size_t len) {
    size_t n = 0;
    out[0] = '\0';
    if (t->throttle_known && tel_throttling_bits(t->throttle)) {
        char words[160];
        tel_reason_words(t->throttle, 1, words, sizeof words);
        int k = snprintf(out, len, "throttled while timed (%s)", words);
        n = k > 0 ? (size_t)k : 0;
    }
    if (n + 2 < len) {
        size_t at = n ? n + 2 : 0;
        size_t k = shared_note(t, out + at, len - at);
        if (k && n)
            memcpy(out + n, "; ", 2);
        if (k)
            n = at + k;
    }
    if (host_transfer && n + 2 < len) {
        size_t at = n ? n + 2 : 0;
        size_t k = link_note(t, gbps, out + at, len - at);
        if (k && n)
            memcpy(out + n, "; ", 2);
    }
}
