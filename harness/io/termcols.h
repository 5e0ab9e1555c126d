/* termcols.h — display columns of UTF-8 text, for the aligned tables gpubench prints on a
 * terminal (`run`, `compare`, `doctor`, `list`). printf's "%-10s" pads to 10 bytes, and "–", "×",
 * "µ", "≥" or "³" take two or three bytes for one column, so a cell holding one comes out short;
 * these count columns instead: one per code point (no East Asian wide characters in our text).
 */
#ifndef GPUBENCH_TERMCOLS_H
#define GPUBENCH_TERMCOLS_H

#include <stdio.h>

/* The columns s takes on a terminal: its UTF-8 code points (0 for NULL). */
int term_cols(const char *s);

/* The printf field width, in bytes, that makes s fill `cols` display columns:
 * printf("%-*s", term_field(s, 10), s) pads s to 10 columns whatever its bytes. */
int term_field(const char *s, int cols);

/* Write s (NULL: nothing) padded with spaces to `cols` display columns, on the left when
 * `right` (a right-aligned cell), else on the right. */
void term_cell(FILE *out, const char *s, int cols, int right);

#endif
