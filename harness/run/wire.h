/* wire.h — the messages between a run's supervisor and its worker (docs/ARCHITECTURE.md,
 * "Processes of a run"): framing over a pipe, and the structs a row needs (struct device,
 * struct result with its samples) as bytes. Both ends are the same binary, so a struct travels
 * as its bytes, with its pointers replaced by what they point to (a device by its index, a
 * workload and an implementation by name, static texts as text). */
#ifndef GPUBENCH_WIRE_H
#define GPUBENCH_WIRE_H

#include <stddef.h>

#include "harness/core/result.h"

enum wire_type {
    WIRE_HELLO = 'H',   /* worker: devices, plan rows by key, widths, why no GPU */
    WIRE_RUN = 'G',     /* supervisor: which of the worker's plan rows to run */
    WIRE_BEGIN = 'B',   /* worker: a row's identity, before it is measured */
    WIRE_STAGE = 'S',   /* worker: a stage of the row begins, with its deadline */
    WIRE_ROW = 'R',     /* worker: the finished row */
    WIRE_CRASH = 'C',   /* worker, from its fatal-signal handler: the signal and the call */
    WIRE_RESTART = 'X', /* worker: a device's context broke; it ends for a fresh one */
    WIRE_END = 'E',     /* worker: every row done */
};

/* A message being built. On an allocation failure `err` is set and sending it fails. */
struct wire_msg {
    char *p;
    size_t len, cap;
    int err;
};

void wire_begin(struct wire_msg *m);
void wire_free(struct wire_msg *m);
void wire_put(struct wire_msg *m, const void *p, size_t n);
void wire_put_int(struct wire_msg *m, int v);
void wire_put_double(struct wire_msg *m, double v);
void wire_put_str(struct wire_msg *m, const char *s); /* NULL travels as NULL */
void wire_put_device(struct wire_msg *m, const struct device *d);
/* r with its device as index dev_index into the devices of the worker's HELLO; its samples and
 * traces (r->st.n each) when with_samples. */
void wire_put_result(struct wire_msg *m, const struct result *r, int dev_index, int with_samples);

/* Write one message of `type` (a blocking write of all of it, retried on EINTR). Returns 0, or
 * -1 (the pipe is gone, or the message could not be built). Async-signal-safe when m->p is
 * already built (the crash handler's message). */
int wire_send(int fd, int type, const struct wire_msg *m);

/* The reading end: bytes read so far, cut into messages. */
struct wire_reader {
    char *buf;
    size_t len, cap, used;
};

/* Read what fd has (one read). Returns the bytes read, 0 at end of file, -1 on an error
 * (errno; EINTR and EAGAIN are the caller's to retry). */
long wire_fill(struct wire_reader *r, int fd);
/* The next whole message, if one has arrived: 1 with its type and a cursor over its payload
 * (valid until the next wire_fill), else 0. */
struct wire_cur {
    const char *p;
    size_t left;
    int err; /* a read past the end: the message is malformed */
};
int wire_next(struct wire_reader *r, int *type, struct wire_cur *c);
void wire_reader_free(struct wire_reader *r);

int wire_get_int(struct wire_cur *c);
double wire_get_double(struct wire_cur *c);
/* A string of the message, interned: it lives as long as the process (a device's texts and a
 * row's no_peak are kept by the sink across rows). NULL where NULL was sent. */
const char *wire_get_str(struct wire_cur *c);
/* A string copied into buf (truncated to len). */
void wire_get_strbuf(struct wire_cur *c, char *buf, size_t len);
void wire_get_device(struct wire_cur *c, struct device *d);
/* A result into r, its device index into *dev_index (the caller points r->dev at it), its
 * samples and traces (if sent) into arrays owned by the reader's caller: *samples and *traces
 * are grown with realloc and reused (NULL at first). Returns 0, or -1 on a malformed message or
 * an unknown workload or implementation. */
int wire_get_result(struct wire_cur *c, struct result *r, int *dev_index, double **samples,
                    float **traces, size_t *cap);

#endif
