/* prices: the PRICES table (prices.h). */
#include "prices.h"

#include <math.h>
#include <string.h>

#include "json.h"

static const char *const price_fields[] = { "input", "cached_input", "output" };

/* One row: exactly the three prices, each a finite number from 0. */
static int check_row(const char *path, const char *model, jv row, struct pc_err *e)
{
	if (jv_get_kind(row) != JV_KIND_OBJECT)
		return pc_fail(
			e,
			"%s: \"%s\" must be an object {\"input\", \"cached_input\", \"output\"} of USD per million tokens",
			path, model);
	for (size_t i = 0; i < sizeof price_fields / sizeof *price_fields; i++) {
		jv v = jv_object_get(jv_copy(row), jv_string(price_fields[i]));
		int ok = jv_get_kind(v) == JV_KIND_NUMBER && isfinite(jv_number_value(v)) &&
			 jv_number_value(v) >= 0;
		jv_free(v);
		if (!ok)
			return pc_fail(e,
				       "%s: \"%s\".%s must be a number of USD per million tokens from 0",
				       path, model, price_fields[i]);
	}
	if (jv_object_length(jv_copy(row)) != 3)
		return pc_fail(e,
			       "%s: \"%s\" holds a field other than input, cached_input and output",
			       path, model);
	return 0;
}

int prices_load(const char *path, jv *table, struct pc_err *e)
{
	int rc = 0;

	*table = jv_null();
	if (json_read_file(path, table, e) != 0)
		return -1;
	if (jv_get_kind(*table) != JV_KIND_OBJECT)
		rc = pc_fail(e, "%s: the prices must be a JSON object keyed by model name", path);
	else
		jv_object_foreach(*table, model, row) {
			if (!rc)
				rc = check_row(path, jv_string_value(model), row, e);
			jv_free(model);
			jv_free(row);
		}
	if (rc) {
		jv_free(*table);
		*table = jv_null();
	}
	return rc;
}

int prices_of(jv table, const char *model, struct price *p)
{
	jv row = jv_object_get(jv_copy(table), jv_string(model));

	if (jv_get_kind(row) != JV_KIND_OBJECT) {
		jv_free(row);
		row = jv_object_get(jv_copy(table), jv_string(PRICES_ANY));
	}
	int rc = jv_get_kind(row) == JV_KIND_OBJECT ? 0 : -1;
	if (!rc) {
		p->input = json_number_at(row, "input", 0);
		p->cached_input = json_number_at(row, "cached_input", 0);
		p->output = json_number_at(row, "output", 0);
	}
	jv_free(row);
	return rc;
}

double prices_cost(const struct price *p, double input, double cached, double output)
{
	return ((input - cached) * p->input + cached * p->cached_input + output * p->output) / 1e6;
}
