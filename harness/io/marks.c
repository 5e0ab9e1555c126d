/* marks.c — the facts that change what a row's figure means, one place for every printer
 * (marks.h). */
#include "harness/io/marks.h"

#include <stdio.h>
#include <string.h>

const struct mark_kind mark_kinds[MARK_KINDS] = {
    {MARK_EMULATED, "emulated",
     "a simulated device (gpubench-sim): CPU-emulation times, not the card's"},
    {MARK_CACHED, "cached",
     "the working set was served by the last-level cache: a cache rate, not memory's"},
    {MARK_BELOW_RES, "below-res",
     "the median is below the timer's resolution: a count of ticks, not a time"},
    {MARK_SHARED_CPU, "shared-cpu",
     "the row's threads waited for a core (another process had the CPU): a slower time than "
     "the machine gives alone"},
};

unsigned marks_of(const struct result *r) {
    unsigned m = 0;
    if (r->dev && device_is_simulated(r->dev->name))
        m |= MARK_EMULATED;
    if (r->cached)
        m |= MARK_CACHED;
    if (r->below_timer_res)
        m |= MARK_BELOW_RES;
    if (r->cpu_wait_pct > MARK_SHARED_CPU_PCT)
        m |= MARK_SHARED_CPU;
    return m;
}

unsigned marks_of_fields(const char *words, const char *device_name, const char *note) {
    if (words)
        return marks_parse(words);
    unsigned m = device_is_simulated(device_name) ? MARK_EMULATED : 0;
    if (note && strstr(note, "cache bandwidth, not memory")) /* runner.c's cache_note */
        m |= MARK_CACHED;
    return m;
}

char *marks_words(unsigned m, const char *sep, char *out, size_t len) {
    size_t n = 0;
    if (len)
        out[0] = '\0';
    for (int i = 0; i < MARK_KINDS; i++)
        if ((m & mark_kinds[i].bit) && n < len)
            n += (size_t)snprintf(out + n, len - n, "%s%s", n ? sep : "", mark_kinds[i].word);
    return out;
}

unsigned marks_parse(const char *words) {
    unsigned m = 0;
    while (words && *words) {
        size_t w = strcspn(words, "+,; ");
        for (int i = 0; i < MARK_KINDS; i++)
            if (w == strlen(mark_kinds[i].word) && !strncmp(words, mark_kinds[i].word, w))
                m |= mark_kinds[i].bit;
        words += w;
        words += strspn(words, "+,; ");
    }
    return m;
}
