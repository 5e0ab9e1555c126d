/* test_runner.c — the timing loop on a fake workload: a good implementation is timed and ok; one
 * that leaves its output unwritten is `wrong` (outputs are poisoned first); one whose prepare runs
 * out of memory is `oom`; one whose run fails is `error` with its note; the run goes on after each,
 * and the exit code says a row failed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/core/inputs.h"
#include "harness/run/outputs.h"
#include "harness/run/runner.h"
#include "harness/core/verify.h"
#include "harness/run/backend.h"
#include "tests/testhelp.h"

static const char *const keys[] = {"n", NULL};
static const char *const shapes[] = {"n=64", NULL};

static double fake_flops(const struct shape *s) { return (double)s->v[0]; }
static double fake_bytes(const struct shape *s) { return 8.0 * (double)s->v[0]; }

static int fake_make(struct problem *p, char *err, size_t errlen) {
    (void)err, (void)errlen;
    p->nin = p->nout = 1;
    if (buf_alloc(&p->in[0], "x", (size_t)p->shape.v[0]) ||
        buf_alloc(&p->out[0], "y", (size_t)p->shape.v[0]))
        return -1;
    fill_uniform(p->in[0].data, p->in[0].n, p->seed, 1, -1, 1);
    return 0;
}

/* y = 2x */
static enum status fake_verify(const struct problem *p, struct verify_report *r) {
    double ref[64];
    for (size_t i = 0; i < p->out[0].n; i++)
        ref[i] = 2.0 * p->in[0].data[i];
    verify_close(r, "y", p->out[0].data, ref, NULL, p->out[0].n, 1e-6, 1e-6);
    return verify_status(r);
}

static enum status good_run(struct impl_ctx *ctx) {
    for (size_t i = 0; i < ctx->p->out[0].n; i++)
        ctx->p->out[0].data[i] = 2.0f * ctx->p->in[0].data[i];
    return ST_OK;
}

static enum status lazy_run(struct impl_ctx *ctx) { /* forgets the last element */
    for (size_t i = 0; i + 1 < ctx->p->out[0].n; i++)
        ctx->p->out[0].data[i] = 2.0f * ctx->p->in[0].data[i];
    return ST_OK;
}

static int released;
static enum status oom_prepare(struct impl_ctx *ctx) {
    snprintf(ctx->note, sizeof ctx->note, "fake: 1 TiB does not fit");
    return ST_OOM;
}
static void count_release(struct impl_ctx *ctx) {
    (void)ctx;
    released++;
}
static enum status error_run(struct impl_ctx *ctx) {
    snprintf(ctx->note, sizeof ctx->note, "fakeLaunch: fakeErrorLaunchFailure");
    return ST_ERROR;
}

static const struct impl good = {.name = "good", .kind = DEV_CPU, .run = good_run};
static const struct impl lazy = {.name = "lazy", .kind = DEV_CPU, .run = lazy_run};
static const struct impl oom = {
    .name = "oom", .kind = DEV_CPU, .prepare = oom_prepare, .run = good_run,
    .release = count_release};
static const struct impl broken = {.name = "broken", .kind = DEV_CPU, .run = error_run};
static const struct impl *const impls[] = {&good, &lazy, &oom, &broken, &good};

static void fake_free(struct problem *p) { problem_free_bufs(p); }

static const struct workload fake = {
    .name = "fake", .summary = "y = 2x", .keys = keys, .default_shapes = shapes,
    .quick_shapes = shapes, .sweep_shapes = shapes, .flops = fake_flops, .bytes = fake_bytes,
    .host_bytes = fake_bytes, .make_problem = fake_make, .verify = fake_verify,
    .free_problem = fake_free};

/* The hooks of runner_run: finished rows to the outputs, as the supervisor writes them; the
 * stages of each row recorded, with their deadlines. */
struct seen {
    struct run_outputs *outs;
    const struct run_info *ri;
    char stages[5][64]; /* per row: the stages' first letters, in order */
    double timing_deadline, floor_deadline;
};

static const char stage_letter[] = "IPVWTR"; /* inputs, prepare, verified, warm-up, timing, release */

static void on_stage(void *ctx, int row, enum row_stage st, double deadline_s, const char *note) {
    struct seen *s = ctx;
    (void)note;
    size_t n = strlen(s->stages[row]);
    if (n + 1 < sizeof s->stages[row])
        s->stages[row][n] = stage_letter[st];
    if (st == STAGE_TIMING)
        s->timing_deadline = deadline_s;
    if (st == STAGE_VERIFIED)
        s->floor_deadline = deadline_s;
}

static void on_done(void *ctx, int row, const struct result *r) {
    struct seen *s = ctx;
    (void)row;
    run_outputs_row(s->outs, s->ri, r);
}

int main(void) {
    struct device_list devs = {0};
    char why[256];
    CHECK(cpu_backend.discover(&devs, 1, why, sizeof why) == 1);
    struct options o = {.min_time = 0.001, .max_time = 1, .min_reps = 5, .warmup = 1, .seed = 7,
                        .row_timeout = 30};
    struct plan_shape ps = {.w = &fake, .s = {.v = {64}}};
    struct plan_row rows[5];
    for (int i = 0; i < 5; i++)
        rows[i] = (struct plan_row){.shape = 0, .dev = &devs.d[0], .im = impls[i]};
    struct plan pl = {.devs = {&devs.d[0]}, .ndevs = 1, .shapes = &ps, .nshapes = 1,
                      .rows = rows, .total_rows = 5, .o = &o};
    struct run_info ri = {.run_id = "test", .utc = "2026-01-01T00:00:00Z", .host = "h"};
    char path[] = "/tmp/gpubench_test_runner_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    struct result_file csv;
    char err[256];
    CHECK(result_file_open(&csv, path, &rows_csv, &ri, err, sizeof err) == 0);
    struct sink sink;
    sink_begin(&sink, FMT_CSV, 8, 8, &ri, NULL);
    struct run_outputs outs = {{&csv, NULL}, NULL, &sink, 0};
    struct seen seen = {.outs = &outs, .ri = &ri};
    struct runner_hooks hooks = {&seen, NULL, NULL, on_stage, on_done};
    int rc = runner_run(&pl, 0, &hooks);
    CHECK_MSG(rc == 1, "exit code %d, want 1 (rows failed)", rc);
    /* every stage reported, in order: the shape's inputs once, before its first row; a row whose
     * prepare failed goes from prepare to release */
    const char *want_stages[] = {"IPVWTR", "PVR", "PR", "PVR", "PVWTR"};
    for (int i = 0; i < 5; i++)
        CHECK_MSG(strcmp(seen.stages[i], want_stages[i]) == 0, "row %d stages %s, want %s", i,
                  seen.stages[i], want_stages[i]);
    /* the floor is --row-timeout; timing adds --max-time's share and the verified run's pace */
    CHECK(seen.floor_deadline == 30);
    CHECK_MSG(seen.timing_deadline >= 30 + 2.5 * 1, "timing deadline %g", seen.timing_deadline);
    CHECK(result_file_commit(&csv, err, sizeof err) == 0);
    CHECK(released == 1); /* release runs after a failed prepare too */

    FILE *f = fopen(path, "r");
    char line[4096];
    const char *want[] = {",good,", ",lazy,", ",oom,", ",broken,", ",good,"};
    const char *status[] = {",ok,", ",wrong,", ",oom,", ",error,", ",ok,"};
    int row = -1;
    while (f && fgets(line, sizeof line, f)) {
        if (row >= 0 && row < 5) {
            CHECK_MSG(strstr(line, want[row]) && strstr(line, status[row]), "row %d: %s", row,
                      line);
            if (row == 1)
                CHECK(strstr(line, "verification failed: 1 of 64") && strstr(line, "y[63]=nan"));
            if (row == 2)
                CHECK(strstr(line, "1 TiB does not fit") != NULL);
            if (row == 3)
                CHECK(strstr(line, "fakeErrorLaunchFailure") != NULL);
        }
        row++;
    }
    CHECK_MSG(row == 5, "%d rows", row); /* the run went on after each failure */
    if (f)
        fclose(f);
    remove(path);
    close(fd);
    cpu_backend.shutdown(&devs.d[0]);
    return TEST_END();
}
