/* spec.c — parsing of `--assume` and `--assume-build` SPECs. See spec.h. */
#include "harness/doctor/spec.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "harness/gpuinfo/cuda_facts.h"

enum { SPEC_VAL = 256 };

/* Take the next key=value pair from *p. Keys are [a-z_]; a value runs to the next comma outside
 * double quotes, and surrounding quotes are removed. Returns 1 with key/val filled, 0 at the end,
 * -1 on a malformed pair (err names it). */
static int next_pair(const char **p, char *key, size_t keylen, char *val, char *err,
                     size_t errlen) {
    const char *s = *p;
    size_t k = 0, v = 0;
    int quoted = 0;
    while (*s == ',' || *s == ' ')
        s++;
    if (!*s)
        return 0;
    while (*s && *s != '=' && *s != ',') {
        if (k + 1 < keylen)
            key[k++] = (char)tolower((unsigned char)*s);
        s++;
    }
    key[k] = '\0';
    if (*s != '=' || k == 0) {
        snprintf(err, errlen, "expected key=value, got '%.*s'", (int)strcspn(*p, ","), *p);
        return -1;
    }
    s++;
    while (*s && (quoted || *s != ',')) {
        if (*s == '"')
            quoted = !quoted;
        else if (v + 1 < SPEC_VAL)
            val[v++] = *s;
        s++;
    }
    val[v] = '\0';
    if (quoted) {
        snprintf(err, errlen, "unterminated quote in value of %s", key);
        return -1;
    }
    *p = s;
    return 1;
}

int doctor_parse_mem(const char *s, size_t *bytes) {
    static const struct {
        const char *unit;
        double mult;
    } units[] = {
        {"b", 1},
        {"k", 1024.0},
        {"m", 1048576.0},
        {"g", 1073741824.0},
        {"t", 1099511627776.0},
        {"kib", 1024.0},
        {"mib", 1048576.0},
        {"gib", 1073741824.0},
        {"tib", 1099511627776.0},
        {"kb", 1e3},
        {"mb", 1e6},
        {"gb", 1e9},
        {"tb", 1e12},
    };
    char *end;
    double x;
    if (!s || !(isdigit((unsigned char)*s) || *s == '.'))
        return -1;
    x = strtod(s, &end);
    if (!(x > 0) || !isfinite(x))
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcasecmp(end, units[i].unit) == 0) {
            double b = x * units[i].mult;
            if (b >= 1.8e19)
                return -1;
            *bytes = (size_t)b;
            return 0;
        }
    }
    return -1;
}

static int parse_cc(const char *s, int *major, int *minor) {
    char *end;
    long ma, mi;
    if (!isdigit((unsigned char)*s))
        return -1;
    ma = strtol(s, &end, 10);
    if (*end != '.' || !isdigit((unsigned char)end[1]))
        return -1;
    mi = strtol(end + 1, &end, 10);
    if (*end || ma < 1 || ma > 99 || mi > 9)
        return -1;
    *major = (int)ma;
    *minor = (int)mi;
    return 0;
}

int doctor_spec_device(const char *spec, struct dv_device *d, char *err, size_t errlen) {
    const char *p = spec ? spec : "";
    char key[32], val[SPEC_VAL];
    int rc, have_cc = 0;

    memset(d, 0, sizeof *d);
    d->driver_cuda = -1;
    while ((rc = next_pair(&p, key, sizeof key, val, err, errlen)) == 1) {
        if (strcmp(key, "cc") == 0) {
            if (parse_cc(val, &d->cc_major, &d->cc_minor) != 0) {
                snprintf(err, errlen, "bad value for cc: '%s' (expected MAJOR.MINOR, e.g. 3.5)",
                         val);
                return -1;
            }
            if (d->cc_major == 4) {
                snprintf(err, errlen,
                         "bad value for cc: '%s' (no NVIDIA GPU has compute "
                         "capability 4.x: Kepler is 3.x, Maxwell 5.x)",
                         val);
                return -1;
            }
            have_cc = 1;
        } else if (strcmp(key, "name") == 0) {
            snprintf(d->name, sizeof d->name, "%s", val);
        } else if (strcmp(key, "mem") == 0) {
            if (doctor_parse_mem(val, &d->mem) != 0) {
                char *end;
                double x = strtod(val, &end);
                if (end != val && !*end && x > 0) /* a bare number: bytes or GiB? say, not guess */
                    snprintf(err, errlen,
                             "bad value for mem: '%s' has no unit (write e.g. %sGiB, %sGB or %sB "
                             "for bytes)",
                             val, val, val, val);
                else
                    snprintf(err, errlen,
                             "bad value for mem: '%s' (expected a size with a "
                             "unit, e.g. 12GiB)",
                             val);
                return -1;
            }
        } else if (strcmp(key, "driver") == 0) {
            if (strcmp(val, "none") == 0) {
                d->driver_cuda = 0;
            } else if (cuda_facts_driver_valid(val) && strlen(val) < sizeof d->driver) {
                snprintf(d->driver, sizeof d->driver, "%s", val);
            } else {
                snprintf(err, errlen,
                         "bad value for driver: '%s' (expected a Linux driver version such as "
                         "470.82, or none)",
                         val);
                return -1;
            }
        } else {
            snprintf(err, errlen, "unknown key '%s' (known: cc, name, mem, driver)", key);
            return -1;
        }
    }
    if (rc < 0)
        return -1;
    if (!have_cc) {
        snprintf(err, errlen, "missing key cc (e.g. cc=3.5)");
        return -1;
    }
    return 0;
}

int doctor_parse_libver(const char *s, int *major, int *minor) {
    char *end;
    long ma, mi = 0;
    if (!s || !isdigit((unsigned char)*s))
        return -1;
    ma = strtol(s, &end, 10);
    if (*end == '.') {
        if (!isdigit((unsigned char)end[1]))
            return -1;
        mi = strtol(end + 1, &end, 10);
        if (*end == '.') {
            if (!isdigit((unsigned char)end[1]))
                return -1;
            strtol(end + 1, &end, 10);
        }
    }
    if (*end || ma < 1 || ma > 999 || mi > 999)
        return -1;
    *major = (int)ma;
    *minor = (int)mi;
    return 0;
}

static int parse_yesno(const char *s, int *out) {
    if (strcmp(s, "yes") == 0 || strcmp(s, "1") == 0 || strcmp(s, "on") == 0)
        *out = 1;
    else if (strcmp(s, "no") == 0 || strcmp(s, "0") == 0 || strcmp(s, "off") == 0)
        *out = 0;
    else
        return -1;
    return 0;
}

int doctor_spec_build(const char *spec, struct dv_build *b, char *err, size_t errlen) {
    const char *p = spec ? spec : "";
    char key[32], val[SPEC_VAL];
    int rc;

    while ((rc = next_pair(&p, key, sizeof key, val, err, errlen)) == 1) {
        if (strcmp(key, "cuda") == 0) {
            if (strcmp(val, "none") == 0) {
                b->cuda = 0;
            } else if (dv_parse_cuda_version(val, &b->cuda) != 0) {
                snprintf(err, errlen, "bad value for cuda: '%s' (expected e.g. 11.8, or none)",
                         val);
                return -1;
            }
        } else if (strcmp(key, "archs") == 0) {
            char aerr[256];
            if (dv_parse_archs(val, b, aerr, sizeof aerr) != 0) {
                snprintf(err, errlen, "bad value for archs: %s", aerr);
                return -1;
            }
        } else if (strcmp(key, "cublas") == 0) {
            if (parse_yesno(val, &b->cublas) != 0) {
                snprintf(err, errlen, "bad value for cublas: '%s' (expected yes or no)", val);
                return -1;
            }
        } else if (strcmp(key, "cudnn") == 0) {
            if (strcmp(val, "none") == 0) {
                b->cudnn_major = b->cudnn_minor = 0;
            } else if (doctor_parse_libver(val, &b->cudnn_major, &b->cudnn_minor) != 0) {
                snprintf(err, errlen, "bad value for cudnn: '%s' (expected e.g. 8.9, or none)",
                         val);
                return -1;
            }
        } else {
            snprintf(err, errlen, "unknown key '%s' (known: cuda, archs, cublas, cudnn)", key);
            return -1;
        }
    }
    return rc < 0 ? -1 : 0;
}
