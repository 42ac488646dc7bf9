/* text: Unicode rules the evaluator shares with Python.
 *
 * Case-insensitive matching is Unicode full case folding (Python's
 * str.casefold), "blank" is Python's str.isspace over every code point, and
 * reasons quote values the way Python's repr() does, so an evaluation written
 * here reads the same as one written by the reference harness.
 */
#ifndef PC_TEXT_H
#define PC_TEXT_H

#include <stdarg.h>
#include <stddef.h>

#include <jv.h>

/* Strings are (pointer, length): JSON strings may hold NUL characters, and
 * Python compares them like any other character. */

/* How two strings are made comparable: Python's s.casefold(), or
 * unicodedata.normalize("NFC", s.casefold()), which PowerContext 1.4.1
 * applies to context fragments so composed and decomposed text match. */
enum text_fold {
	TEXT_FOLD,
	TEXT_FOLD_NFC
};

/* Malloc'd fold of UTF-8 s; *outlen receives its length. */
char *text_casefold(const char *s, size_t len, enum text_fold how, size_t *outlen);

/* Whether folded(haystack) contains folded(needle). */
int text_contains_folded(enum text_fold how, const char *haystack, size_t hlen,
			 const char *needle, size_t nlen);

/* Whether s is empty or only Unicode whitespace. */
int text_is_blank(const char *s, size_t len);

/* Python's str.strip() of s[0..len): the new start in *s, the new length
 * returned (invalid UTF-8 counts as text). */
size_t text_strip(const char **s, size_t len);

/* Growable string buffer. */
struct sbuf {
	char *s;
	size_t len, cap;
};

void sbuf_add(struct sbuf *b, const char *s);
void sbuf_addn(struct sbuf *b, const char *s, size_t n);
void sbuf_addf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sbuf_vaddf(struct sbuf *b, const char *fmt, va_list ap);
/* printf's "%lld" and "%.<decimals>f" (decimals 0 to 6), without printf's
 * cost where they are written once per case. */
void sbuf_add_int(struct sbuf *b, long long i);
void sbuf_add_fixed(struct sbuf *b, double x, int decimals);
char *sbuf_take(struct sbuf *b); /* returns the string, resets b */

/* What follows the item that is_last / is_next_last says of in a list of
 * choices: nothing after the last, last_sep before it, sep otherwise
 * ("a, b or c"; "a|b|c"). */
const char *text_list_separator(int is_last, int is_next_last, const char *sep,
				const char *last_sep);

/* Malloc'd printf. */
char *text_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Error strings are capped at this many bytes in records and replays. */
#define TEXT_ERROR_CAP 65536

/* Malloc'd copy of s: s itself when it fits in max bytes, else its first
 * max bytes or fewer (cut on a UTF-8 character boundary) followed by a note
 * of the size it had. */
char *text_cap(const char *s, size_t max);

/* Python repr() of a str (s, len) or of None (s == NULL). */
void text_py_repr(struct sbuf *b, const char *s, size_t len);

/* Python repr() of a float: shortest round trip, ".0" on integral values. */
void text_py_float(struct sbuf *b, double x);

#endif
