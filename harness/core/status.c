/* status.c — the names of row statuses, as the CSV writes them. */
#include "harness/core/workload.h"

const char *status_name(enum status st) {
    switch (st) {
    case ST_OK: return "ok";
    case ST_WRONG: return "wrong";
    case ST_UNSUPPORTED: return "unsupported";
    case ST_OOM: return "oom";
    case ST_ERROR: return "error";
    case ST_TIMEOUT: return "timeout";
    }
    return "error";
}
