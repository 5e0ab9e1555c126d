/* termcols.c — display columns of UTF-8 text (termcols.h). */
#include "harness/io/termcols.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int term_cols(const char *s) {
    int n = 0;
    for (; s && *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) /* not a continuation byte: a code point starts */
            n++;
    return n;
}

int term_field(const char *s, int cols) {
    return cols + (s ? (int)strlen(s) : 0) - term_cols(s);
}

static void pad(FILE *out, int n) {
    for (int i = 0; i < n; i++)
        fputc(' ', out);
}

void term_cell(FILE *out, const char *s, int cols, int right) {
    s = s ? s : "";
    if (right)
        pad(out, cols - term_cols(s));
    fputs(s, out);
    if (!right)
        pad(out, cols - term_cols(s));
}

int term_width(FILE *out) {
    const char *env = getenv("COLUMNS");
    char *end;
    long n = env ? strtol(env, &end, 10) : 0;
    if (env && *env && !*end && n > 0 && n < 100000)
        return (int)n;
    struct winsize ws;
    if (out && isatty(fileno(out)) && ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col;
    return 0;
}

size_t term_wrap(const char *s, int cols, const char **next) {
    size_t cut = 0, brk = 0; /* bytes that fit; bytes up to the last space that fits */
    int n = 0;
    if (cols < 1)
        cols = 1;
    while (s[cut] && n <= cols) {
        if (s[cut] == ' ')
            brk = cut;
        if (n == cols)
            break;
        size_t k = 1; /* one code point: its lead byte and continuation bytes */
        while (((unsigned char)s[cut + k] & 0xC0) == 0x80)
            k++;
        cut += k;
        n++;
    }
    size_t len = !s[cut] ? cut : brk ? brk : cut;
    const char *rest = s + len;
    while (*rest == ' ')
        rest++;
    while (len && s[len - 1] == ' ')
        len--;
    *next = rest;
    return len;
}

void term_wrapped(FILE *out, const char *s, int width, int used, int indent) {
    if (width <= 0) {
        fprintf(out, "%s\n", s);
        return;
    }
    int room = width - used;
    do {
        const char *next;
        size_t len = term_wrap(s, room > 8 ? room : 8, &next);
        fprintf(out, "%.*s\n", (int)len, s);
        s = next;
        if (*s)
            fprintf(out, "%*s", indent, "");
        room = width - indent;
    } while (*s);
}

/* The column continuation lines of `line` (NUL-terminated, no newline) start at (term_fit): left
 * of that where its longest word would not fit after it. */
static int hanging_indent(const char *line, int width) {
    int lead = (int)strspn(line, " "), at = lead + 4, col = 0, word = 0, longest = 0;
    for (const char *p = line; *p; p++)
        if (*p == ' ')
            word = 0;
        else if (((unsigned char)*p & 0xC0) != 0x80 && ++word > longest)
            longest = word;
    for (const char *p = line; *p && col <= 2 * width / 3; col++) {
        if (p > line + lead && p[0] == ' ' && p[1] == ' ') {
            size_t gap = strspn(p, " ");
            col += (int)gap - 1;
            p += gap;
            if (*p && col + 1 <= 2 * width / 3)
                at = col + 1;
            continue;
        }
        p++;
        while (((unsigned char)*p & 0xC0) == 0x80)
            p++;
    }
    if (at + longest > width)
        at = lead + 4 + longest <= width ? lead + 4 : width - longest;
    return at > 0 ? at : 0;
}

void term_fit(FILE *out, const char *text, size_t len, int width) {
    /* line by line also at width 0: one fwrite past the stream's buffer would go straight to
     * write(2), and a failure there (a full disk) would leave no buffered data for the final
     * fflush to fail on with its errno (harness/io/stdout_check.c names the reason) */
    char line[4096];
    for (size_t i = 0; i < len;) {
        size_t n = 0;
        while (i + n < len && text[i + n] != '\n')
            n++;
        snprintf(line, sizeof line, "%.*s", (int)n, text + i);
        if (width <= 0) {
            fprintf(out, "%s%s", line, i + n < len ? "\n" : "");
            i += n + 1;
            continue;
        }
        if (n && strspn(line, "-") == n && (int)n > width) /* a table's rule: cut to the width */
            line[width] = '\0';
        if (term_cols(line) <= width)
            fprintf(out, "%s\n", line);
        else
            term_wrapped(out, line, width, 0, hanging_indent(line, width));
        i += n + 1;
    }
}
