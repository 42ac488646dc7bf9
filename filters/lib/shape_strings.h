/* shape_strings: the string rules that the shapes of more than one
 * document share: an id, a sha256 and a date-time.
 *
 * Each has a shape's check_text signature (shape.h): 0, or -1 with the
 * reason in why.  Each reads s as a C string, as it always has; n is the
 * signature's and goes unread.
 */
#ifndef PC_SHAPE_STRINGS_H
#define PC_SHAPE_STRINGS_H

#include <stddef.h>

int shape_check_id(const char *s, size_t n, char *why, size_t whylen); /* ^[a-z0-9][a-z0-9_-]*$ */
int shape_check_hex64(const char *s, size_t n, char *why, size_t whylen);
int shape_check_datetime(const char *s, size_t n, char *why, size_t whylen); /* RFC 3339 */

#endif
