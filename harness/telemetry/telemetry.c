/* telemetry.c — a row's clocks, power, energy and link (telemetry.h). */
#include "harness/telemetry/telemetry.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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
    while (!__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE)) {
        nanosleep(&period, NULL);
        if (!__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE))
            sample(t);
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

static void gpu_begin(struct tel_row *t, gb_nvml_dev d) {
    t->gpu = 1;
    t->nd = d;
    t->out.sm_mhz_start = read_clock(d, GB_NVML_CLOCK_SM, 0);
    t->out.mem_mhz_start = read_clock(d, GB_NVML_CLOCK_MEM, 0);
    t->have_e0 = read_energy(d, &t->e0_mj);
    t->t0_s = now_s();
    sample(t);
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
        gpu_begin(t, d);
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
    if (host_transfer && n + 2 < len) {
        size_t at = n ? n + 2 : 0;
        size_t k = link_note(t, gbps, out + at, len - at);
        if (k && n)
            memcpy(out + n, "; ", 2);
    }
}
