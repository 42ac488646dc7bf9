#include "frame.h"

#include <stdio.h>

void frame_one_number(struct json_out *o, const char *key, double x)
{
	int members = 0;

	json_out_bytes(o, "{", 1);
	frame_number(o, key, x, &members);
	json_out_bytes(o, "}", 1);
}

void frame_one_value(struct json_out *o, const char *key, struct view v)
{
	int members = 0;

	json_out_bytes(o, "{", 1);
	view_write_member(o, key, v, &members);
	json_out_bytes(o, "}", 1);
}

void frame_ratio(struct json_out *o, const struct frame_ratio *r)
{
	int members = 0;

	frame_expected(o);
	frame_one_number(o, r->name, r->required);
	frame_actual(o);
	json_out_bytes(o, "{", 1);
	frame_number(o, r->name, r->ratio, &members);
	frame_number(o, r->part, r->part_n, &members);
	frame_number(o, r->whole, r->whole_n, &members);
	json_out_bytes(o, "}", 1);
}

struct frame_list frame_list_open(struct json_out *o, const char *key, int *members)
{
	json_out_key(o, key, members);
	json_out_bytes(o, "[", 1);
	return (struct frame_list){ o, key, members, 0 };
}

int frame_list_item(struct frame_list *list)
{
	if (list->count++ >= DIAGNOSIS_LIST_MAX)
		return 0;
	if (list->count > 1)
		json_out_bytes(list->o, ",", 1);
	return 1;
}

void frame_list_close(struct frame_list *list)
{
	json_out_bytes(list->o, "]", 1);
	if (list->count <= DIAGNOSIS_LIST_MAX)
		return;
	char key[64];
	snprintf(key, sizeof key, "%s_more", list->key);
	json_out_key(list->o, key, list->members);
	json_out_number(list->o, list->count - DIAGNOSIS_LIST_MAX);
}
