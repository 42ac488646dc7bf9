/* rewards: a replay's Harbor rewards (harbor.rewards), in the order both
 * PowerContext 1.4.1's evaluator and its report.md list them, and each as
 * Python prints it.
 *
 * The scores write them as numbers (harbor_reward_<name>); the case's own
 * attribute harbor_rewards (docs.h) keeps each as the replay wrote it, which
 * a number read back cannot tell: Python prints an int reward 1 and a float
 * 1.0 apart, and pc-report's report.md shows them as 1.4.1's does.
 */
#ifndef PC_EVALUATE_REWARDS_H
#define PC_EVALUATE_REWARDS_H

#include <stddef.h>

#include "facts.h"
#include "json_out.h"
#include "view.h"

struct reward {
	const char *name; /* the whole key, n bytes */
	size_t n;
	struct view value;
};

/* The members of rewards sorted by name (bytes, then length: jq's key order
 * and Python's sorted() alike); *n of them, the caller's to free. */
struct reward *rewards_sorted(struct view rewards, size_t *n);

/* The reward as Python's float() makes it of the replay's value: an int
 * -0 is 0, so 0.0, not -0.0; text is the replay's. */
double rewards_float(const struct reward *r, const struct view_text *text);

/* {name: Python's str() of the reward, ...} of f's rewards, names sorted. */
void rewards_write_shown(struct json_out *o, const struct facts *f);

#endif
