#include "rewards.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "literal.h"
#include "text.h"

static int reward_order(const void *a, const void *b)
{
	const struct reward *x = a, *y = b;
	int r = memcmp(x->name, y->name, x->n < y->n ? x->n : y->n);

	return r ? r : (x->n > y->n) - (x->n < y->n);
}

struct reward *rewards_sorted(struct view rewards, size_t *n)
{
	struct view_members m = view_members(rewards);
	struct reward *sorted = pc_xmalloc((m.n + 1) * sizeof *sorted);

	*n = 0;
	while (view_next_member(&m, &sorted[*n].name, &sorted[*n].n, &sorted[*n].value))
		(*n)++;
	qsort(sorted, *n, sizeof *sorted, reward_order);
	return sorted;
}

/* How the text wrote the reward (literal.h): *lit its text, NULL for a
 * real.  The view knows how the text wrote most numbers; the rest are looked
 * up in the text (the reward's name matched whole, as a C string). */
static void literal_of(const struct reward *r, const struct view_text *text,
		       char digits[static DECIMAL_MAX], const char **lit, size_t *len)
{
	const char *object;
	size_t object_len;

	*lit = NULL;
	*len = 0;
	if (text->as_written && view_num_literal(r->value, digits, lit, len))
		return;
	if (!(literal_at(text->text, text->len, "harbor.rewards", &object, &object_len) &&
	      literal_member(object, object_len, r->name, lit, len)))
		*lit = NULL;
}

double rewards_float(const struct reward *r, const struct view_text *text)
{
	char digits[DECIMAL_MAX];
	const char *lit;
	size_t len;
	double x = view_num_or(r->value, 0);

	if (x != 0)
		return x;
	literal_of(r, text, digits, &lit, &len);
	return literal_is_int(lit, len) ? 0.0 : x;
}

void rewards_write_shown(struct json_out *o, const struct facts *f)
{
	size_t n;
	struct reward *sorted = rewards_sorted(f->rewards, &n);
	struct sbuf shown = { 0 };
	char digits[DECIMAL_MAX];
	const char *lit;
	size_t len;
	int members = 0;

	json_out_bytes(o, "{", 1);
	for (size_t i = 0; i < n; i++) {
		shown.len = 0;
		literal_of(&sorted[i], &f->text, digits, &lit, &len);
		literal_add_repr(&shown, view_num_or(sorted[i].value, 0), lit, len);
		json_out_member(o, sorted[i].name, sorted[i].n, &members);
		json_out_string(o, shown.s, shown.len);
	}
	json_out_bytes(o, "}", 1);
	free(shown.s);
	free(sorted);
}
