/* frame: the frame every diagnosis (diagnosis.h) is written in,
 * {"expected": …, "actual": …[, "evidence": {…}]}, its small objects, and
 * its lists of at most DIAGNOSIS_LIST_MAX items with the count of the rest.
 */
#ifndef PC_EVALUATE_FRAME_H
#define PC_EVALUATE_FRAME_H

#include "json_out.h"
#include "view.h"

#define DIAGNOSIS_LIST_MAX 12

/* These open the frame and write its parts in turn: frame_expected, the
 * expected value, frame_actual, the actual one, then frame_evidence, which
 * opens the evidence (1) when the assertion does not hold, else closes the
 * frame (0); frame_close closes the evidence and the frame.  Inline, as
 * json_out's writers are: every replay writes some sixty of them. */
static inline void frame_expected(struct json_out *o)
{
	json_out_bytes(o, "{\"expected\":", 12);
}

static inline void frame_actual(struct json_out *o)
{
	json_out_bytes(o, ",\"actual\":", 10);
}

static inline int frame_evidence(struct json_out *o, int held)
{
	if (held) {
		json_out_bytes(o, "}", 1);
		return 0;
	}
	json_out_bytes(o, ",\"evidence\":{", 13);
	return 1;
}

static inline void frame_close(struct json_out *o)
{
	json_out_bytes(o, "}}", 2);
}

/* A member key: the number x. */
static inline void frame_number(struct json_out *o, const char *key, double x, int *members)
{
	json_out_key(o, key, members);
	json_out_number(o, x);
}
/* A ratio's expected and actual parts, {"<name>": required} and
 * {"<name>": ratio, "<part>": part, "<whole>": whole}: the ratio is part
 * over whole. */
struct frame_ratio {
	const char *name;
	double required, ratio;
	const char *part;
	double part_n;
	const char *whole;
	double whole_n;
};
void frame_ratio(struct json_out *o, const struct frame_ratio *r);

/* {"<key>": x} and {"<key>": v} */
void frame_one_number(struct json_out *o, const char *key, double x);
void frame_one_value(struct json_out *o, const char *key, struct view v);

/* A member key: its first DIAGNOSIS_LIST_MAX items, and when there were
 * more, a member "<key>_more": their count.  Each item is offered
 * (frame_list_item says whether to write it: then after a comma) and
 * counted. */
struct frame_list {
	struct json_out *o; /* borrowed */
	const char *key;
	int *members; /* of the object the list is in; borrowed */
	int count;
};
struct frame_list frame_list_open(struct json_out *o, const char *key, int *members);
int frame_list_item(struct frame_list *list);
void frame_list_close(struct frame_list *list);

#endif
