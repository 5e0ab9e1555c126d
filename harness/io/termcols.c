/* termcols.c — display columns of UTF-8 text (termcols.h). */
#include "harness/io/termcols.h"

#include <string.h>

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
