#include "text.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jv.h>
#include <utf8proc.h>

#include "decimal.h"
#include "err.h"

/* ASCII text folds to its lower case, in either fold (NFC changes no
 * ASCII character): no utf8proc call, which is most of a fold's cost. */
static char *ascii_casefold(const char *s, size_t len, size_t *outlen)
{
	char *out;

	for (size_t i = 0; i < len; i++)
		if (s[i] & 0x80)
			return NULL;
	out = pc_xmalloc(len + 1);
	for (size_t i = 0; i < len; i++)
		out[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] + ('a' - 'A') : s[i]);
	out[len] = '\0';
	*outlen = len;
	return out;
}

char *text_casefold(const char *s, size_t len, enum text_fold how, size_t *outlen)
{
	char *ascii = ascii_casefold(s, len, outlen);

	if (ascii)
		return ascii;
	/* folding each character, then composing the whole, is NFC(casefold):
	 * canonical decomposition works character by character */
	utf8proc_option_t options = how == TEXT_FOLD_NFC
					    ? UTF8PROC_CASEFOLD | UTF8PROC_COMPOSE | UTF8PROC_STABLE
					    : UTF8PROC_CASEFOLD;
	utf8proc_uint8_t *out = NULL;
	utf8proc_ssize_t n = utf8proc_map((const utf8proc_uint8_t *)s, (utf8proc_ssize_t)len,
					  &out, options);

	if (n < 0) { /* invalid UTF-8 cannot come from jv; keep bytes as they are */
		char *copy = pc_xmalloc(len + 1);
		memcpy(copy, s, len);
		copy[len] = '\0';
		*outlen = len;
		return copy;
	}
	*outlen = (size_t)n;
	return (char *)out;
}

static int contains(const char *h, size_t hlen, const char *n, size_t nlen)
{
	if (nlen == 0)
		return 1;
	for (size_t i = 0; i + nlen <= hlen; i++)
		if (h[i] == n[0] && !memcmp(h + i, n, nlen))
			return 1;
	return 0;
}

int text_contains_folded(enum text_fold how, const char *haystack, size_t hlen,
			 const char *needle, size_t nlen)
{
	size_t fh, fn;
	char *h = text_casefold(haystack, hlen, how, &fh);
	char *n = text_casefold(needle, nlen, how, &fn);
	int found = contains(h, fh, n, fn);

	free(h);
	free(n);
	return found;
}

/* Python: whitespace = bidi class WS, B or S, or general category Zs; in
 * ASCII, tab to carriage return, the four separators 0x1c to 0x1f and the
 * space, told without a lookup. */
static int is_py_space(utf8proc_int32_t c)
{
	if (c < 0x80)
		return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
	const utf8proc_property_t *p = utf8proc_get_property(c);

	return p->category == UTF8PROC_CATEGORY_ZS ||
	       p->bidi_class == UTF8PROC_BIDI_CLASS_WS ||
	       p->bidi_class == UTF8PROC_BIDI_CLASS_B ||
	       p->bidi_class == UTF8PROC_BIDI_CLASS_S;
}

/* The length of the character at p (1 for an invalid byte, which is no
 * space) and whether Python's str.isspace() holds for it. */
static size_t py_char(const utf8proc_uint8_t *p, const utf8proc_uint8_t *end, int *space)
{
	utf8proc_int32_t c;
	utf8proc_ssize_t n;

	if (*p < 0x80) {
		*space = is_py_space(*p);
		return 1;
	}
	n = utf8proc_iterate(p, end - p, &c);
	*space = n > 0 && is_py_space(c);
	return n > 0 ? (size_t)n : 1;
}

size_t text_strip(const char **s, size_t len)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)*s, *end = p + len;
	const utf8proc_uint8_t *first = NULL, *last = NULL;
	int space;

	while (p < end) {
		size_t n = py_char(p, end, &space);
		if (!space) {
			if (!first)
				first = p;
			last = p + n;
		}
		p += n;
	}
	if (!first)
		return 0;
	*s = (const char *)first;
	return (size_t)(last - first);
}

int text_is_blank(const char *s, size_t len)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s, *end = p + len;
	int space = 1;

	while (space && p < end)
		p += py_char(p, end, &space);
	return space;
}

void sbuf_addn(struct sbuf *b, const char *s, size_t n)
{
	/* at least 256 bytes at first: a reason or a name fits in one */
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->cap = b->cap < 256 ? 256 : b->cap;
		b->s = pc_xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sbuf_add(struct sbuf *b, const char *s)
{
	sbuf_addn(b, s, strlen(s));
}

/* Formatted into the buffer's room, which is made larger and the text
 * formatted again only when it does not fit. */
void sbuf_vaddf(struct sbuf *b, const char *fmt, va_list ap)
{
	va_list again;
	size_t room;
	int n;

	if (b->cap - b->len < 128) {
		b->cap = b->len * 2 + 128;
		b->s = pc_xrealloc(b->s, b->cap);
	}
	room = b->cap - b->len;
	va_copy(again, ap);
	n = vsnprintf(b->s + b->len, room, fmt, ap);
	if (n >= 0 && (size_t)n >= room) {
		b->cap = b->len + (size_t)n + 1;
		b->s = pc_xrealloc(b->s, b->cap);
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	b->len += n > 0 ? (size_t)n : 0;
	b->s[b->len] = '\0';
}

void sbuf_add_int(struct sbuf *b, long long i)
{
	char digits[DECIMAL_MAX], *end = digits + sizeof digits;
	const char *d = decimal_write(end, decimal_magnitude(i), i < 0);

	sbuf_addn(b, d, (size_t)(end - d));
}

/* printf's "%.<decimals>f" (decimals 0 to 6): x scaled and rounded to an
 * integer, which is the exact decimal's rounding unless the scaled value
 * lies within a hair of a half (then printf, which rounds the exact
 * binary value, decides). */
void sbuf_add_fixed(struct sbuf *b, double x, int decimals)
{
	static const double scale[] = { 1, 10, 100, 1e3, 1e4, 1e5, 1e6 };
	double y = fabs(x) * scale[decimals], whole = floor(y);

	if (!(y < 1e12) || fabs(y - whole - 0.5) < 1e-6) {
		sbuf_addf(b, "%.*f", decimals, x);
		return;
	}
	long long r = (long long)(y - whole < 0.5 ? whole : whole + 1);
	long long unit = (long long)scale[decimals];
	if (signbit(x))
		sbuf_add(b, "-");
	sbuf_add_int(b, r / unit);
	if (decimals == 0)
		return;
	char frac[8];
	long long rest = r % unit;
	frac[0] = '.';
	for (int i = decimals; i > 0; i--, rest /= 10)
		frac[i] = (char)('0' + rest % 10);
	sbuf_addn(b, frac, (size_t)decimals + 1);
}

void sbuf_addf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(b, fmt, ap);
	va_end(ap);
}

char *text_fmt(const char *fmt, ...)
{
	struct sbuf b = { 0 };
	va_list ap;

	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	return sbuf_take(&b);
}

const char *text_list_separator(int is_last, int is_next_last, const char *sep,
				const char *last_sep)
{
	return is_last ? "" : is_next_last ? last_sep
					   : sep;
}

char *sbuf_take(struct sbuf *b)
{
	char *s = b->s ? b->s : pc_xstrdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

/* Python's str.isprintable per code point: not C*, Z* other than space. */
static int is_py_printable(utf8proc_int32_t c)
{
	if (c == ' ')
		return 1;
	switch (utf8proc_get_property(c)->category) {
	case UTF8PROC_CATEGORY_CC:
	case UTF8PROC_CATEGORY_CF:
	case UTF8PROC_CATEGORY_CS:
	case UTF8PROC_CATEGORY_CO:
	case UTF8PROC_CATEGORY_CN:
	case UTF8PROC_CATEGORY_ZL:
	case UTF8PROC_CATEGORY_ZP:
	case UTF8PROC_CATEGORY_ZS:
		return 0;
	default:
		return 1;
	}
}

/* Python's \\xXX, \\uXXXX or \\UXXXXXXXX of c: the letter, then c in that
 * many lowercase hex digits. */
static void add_escape(struct sbuf *b, char letter, unsigned c, int digits)
{
	char text[10] = { '\\', letter };

	for (int i = digits - 1; i >= 0; i--, c >>= 4)
		text[2 + i] = "0123456789abcdef"[c & 15];
	sbuf_addn(b, text, (size_t)digits + 2);
}

void text_py_repr(struct sbuf *b, const char *s, size_t len)
{
	const utf8proc_uint8_t *p = (const utf8proc_uint8_t *)s, *end = p + len;
	char quote;

	if (!s) {
		sbuf_add(b, "None");
		return;
	}
	quote = memchr(s, '\'', len) && !memchr(s, '"', len) ? '"' : '\'';
	sbuf_addn(b, &quote, 1);
	while (p < end) {
		/* a run of printable ASCII other than the quote and backslash is
		 * itself, in one piece */
		const utf8proc_uint8_t *run = p;
		while (p < end && *p >= 0x20 && *p < 0x7f && *p != (utf8proc_uint8_t)quote &&
		       *p != '\\')
			p++;
		if (p > run)
			sbuf_addn(b, (const char *)run, (size_t)(p - run));
		if (p == end)
			break;
		utf8proc_int32_t c;
		utf8proc_ssize_t n = utf8proc_iterate(p, end - p, &c);

		if (n <= 0) {
			add_escape(b, 'x', *p++, 2);
			continue;
		}
		if (c == quote || c == '\\') {
			char escaped[2] = { '\\', (char)c };
			sbuf_addn(b, escaped, 2);
		} else if (c == '\n')
			sbuf_add(b, "\\n");
		else if (c == '\r')
			sbuf_add(b, "\\r");
		else if (c == '\t')
			sbuf_add(b, "\\t");
		else if (is_py_printable(c))
			sbuf_addn(b, (const char *)p, (size_t)n);
		else if (c < 0x100)
			add_escape(b, 'x', (unsigned)c, 2);
		else if (c < 0x10000)
			add_escape(b, 'u', (unsigned)c, 4);
		else
			add_escape(b, 'U', (unsigned)c, 8);
		p += n;
	}
	sbuf_addn(b, &quote, 1);
}

void text_py_float(struct sbuf *b, double x)
{
	if (isnan(x)) {
		sbuf_add(b, "nan");
		return;
	}
	if (isinf(x)) {
		sbuf_add(b, x < 0 ? "-inf" : "inf");
		return;
	}
	/* jq prints the shortest round-trip form, as Python's repr does */
	jv s = jv_dump_string(jv_number(x), 0);
	const char *t = jv_string_value(s);

	sbuf_add(b, t);
	if (!strpbrk(t, ".eE"))
		sbuf_add(b, ".0");
	jv_free(s);
}

char *text_cap(const char *s, size_t max)
{
	size_t len = strlen(s), cut = max;

	if (len <= max)
		return pc_xstrdup(s);
	while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
		cut--;
	return text_fmt("%.*s [pc-e2e: truncated to %zu of its %zu bytes]", (int)cut, s, cut, len);
}
