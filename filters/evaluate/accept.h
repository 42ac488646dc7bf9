/* accept: whether shape_normalize (shape.h) would accept a document read
 * by yyjson, decided on the yyjson values themselves.
 *
 * This is the fast half of reading a replay: a yes is shape_normalize's
 * yes, without building the jv it checks.  A no is either its no or "not
 * sure cheaply" (a duplicate key, which jq resolves as the last value at
 * the first place; nesting past 64 levels): the caller then asks
 * shape_normalize itself, whose answer and message decide.  The rules a
 * shape names are the ones shape_normalize runs: a string's (check_text)
 * on yyjson's bytes, an object's or list's (check, a jv function) on the
 * value as shape_normalize would pass it (view_to_jv).
 */
#ifndef PC_EVALUATE_ACCEPT_H
#define PC_EVALUATE_ACCEPT_H

#include <yyjson.h>

#include "shape.h"
#include "view.h"

int accept_document(const struct shape *doc, yyjson_val *root, const struct view_defaults *d);

#endif
