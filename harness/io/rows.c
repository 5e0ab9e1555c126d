/* rows.c — the table of row formats and the result files written in them (rows.h). */
#include "harness/io/rows.h"

#include <string.h>

static void csv_begin(FILE *f, const struct run_info *ri) {
    (void)ri;
    fprintf(f, "%s\n", CSV_HEADER);
}

static int csv_row(FILE *f, const struct run_info *ri, const struct result *r, int written) {
    (void)written;
    csv_write_result(f, ri, r);
    return 1;
}

static void csv_end(FILE *f, int written) {
    (void)f;
    (void)written;
}

const struct row_format rows_csv = {"csv", csv_begin, csv_row, csv_end};

const struct row_format *rows_find(const char *name) {
    static const struct row_format *const all[] = {&rows_csv, &rows_json, &rows_gbench, &rows_bmf};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(all[i]->name, name) == 0)
            return all[i];
    return NULL;
}

int result_file_open(struct result_file *rf, const char *path, const struct row_format *fmt,
                     const struct run_info *ri, char *err, size_t errlen) {
    memset(rf, 0, sizeof *rf);
    rf->fmt = fmt;
    int rc = csv_open(&rf->file, path, NULL, err, errlen);
    if (rc != 0)
        return rc;
    fmt->begin(rf->file.f, ri);
    csv_flush(&rf->file);
    return 0;
}

void result_file_row(struct result_file *rf, const struct run_info *ri, const struct result *r) {
    if (!rf->file.f)
        return;
    rf->written += rf->fmt->row(rf->file.f, ri, r, rf->written);
    csv_flush(&rf->file);
}

int result_file_commit(struct result_file *rf, char *err, size_t errlen) {
    if (rf->file.f)
        rf->fmt->end(rf->file.f, rf->written);
    return csv_commit(&rf->file, err, errlen);
}

void result_file_discard(struct result_file *rf) {
    csv_discard(&rf->file);
}

void rows_bench_name(const struct result *r, char *name, size_t len) {
    int f32 = r->dtype == DT_F32;
    snprintf(name, len, "%s/%s/%s/%s%s%s", r->w->name, r->im->name, r->dev->id, r->shape,
             f32 ? "" : "/", f32 ? "" : dtype_name(r->dtype));
}
