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

/* The width to fit a table printed on `out` to, in display columns: COLUMNS when it is set to a
 * number (the user's or the shell's word), else the terminal's width when `out` is a terminal
 * (TIOCGWINSZ); 0 — unknown: print the wide form — for files and pipes. */
int term_width(FILE *out);

/* One line of s that fits `cols` display columns, broken after the last space that fits (a word
 * longer than the line is cut at `cols`): returns its length in bytes (trailing spaces left
 * out), and *next points at the rest of s, past the spaces of the break ("" at the end). */
size_t term_wrap(const char *s, int cols, const char **next);

/* Write s wrapped to `width` display columns: the first line goes after `used` columns already
 * written on it, every further line starts with `indent` spaces. Ends with a newline. A width of
 * 0 (unknown: a file, a pipe) writes s on one line. */
void term_wrapped(FILE *out, const char *s, int width, int used, int indent);

/* Write `len` bytes of text (lines ending in '\n'), each line wider than `width` wrapped under
 * its own value: the continuation lines start at the column of the line's last field that
 * follows two or more spaces within the first two thirds of the width ("  key      value" → under
 * value), else 4 past the line's indentation; a rule of '-' is cut to the width. A width of 0
 * writes the text as it is. For the reports (doctor, list, compare's regression check) that are
 * printed whole, then fitted. */
void term_fit(FILE *out, const char *text, size_t len, int width);

#endif
