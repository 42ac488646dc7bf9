/* accept: whether shape_normalize (shape.h) would accept a document read
 * by yyjson, decided on the yyjson values themselves.
 *
 * This is the fast half of reading a replay: a yes is shape_normalize's
 * yes, without building the jv it checks.  A no is either its no or "not
 * sure cheaply" (a duplicate key, which jq resolves as the last value at
 * the first place; nesting past 64 levels): the caller then asks
 * shape_normalize itself, whose answer and message decide.  The rules a
 * shape names are the ones shape_normalize runs: a string's (check_text)
 * on yyjson's bytes, an object's or list's (check) read through a view
 * as shape_normalize would pass it (struct rule_reader).
 *
 * Checking matches every member of a declared object to its field, so it
 * is also what indexes the document for its views (view.h).
 */
#ifndef PC_EVALUATE_ACCEPT_H
#define PC_EVALUATE_ACCEPT_H

#include <yyjson.h>

#include "typed.h"
#include "view.h"

/* Whether shape_normalize would accept text as a document of type doc;
 * x is reset for text and, on a yes, indexes every declared object of it
 * (on a no, what it holds is not to be used). */
int accept_document(const struct typed_doc *doc, yyjson_doc *text, struct view_index *x);

#endif
