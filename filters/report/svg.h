/* svg: what pc-report's pages draw their inline SVG plots with, so that
 * the verdicts' page's score plots (html_plot.c) and the paired page's
 * success rates (paired_html.c) are drawn alike.  This module owns a
 * plot's frame (the SVG's size and the margins around its plot area) and
 * the elements both draw: lines (axes, grid lines, whiskers), marks
 * (circles, paths, squares), a polyline's points and text, escaped
 * (markup.h).  The page around a plot (its <svg>, <g> and <title>) is the
 * page's own.
 *
 * A coordinate is written as its C type says, as the pages always wrote
 * them: an int (an edge of the frame, a row: a whole pixel) bare, "44",
 * and a double (a place computed from the data) to a tenth of a pixel,
 * "44.0".  The element macros below take either.  No element ends its
 * line: the page says where a line breaks.
 */
#ifndef PC_REPORT_SVG_H
#define PC_REPORT_SVG_H

#include "text.h"

/* A plot's frame: each margin is the distance from its own side of the
 * SVG to the plot area. */
struct svg_frame {
	int width, height;
	int left, right, top, bottom;
};

/* The plot area's right and bottom edges, as coordinates. */
int svg_right(const struct svg_frame *f);
int svg_bottom(const struct svg_frame *f);

/* A coordinate and how it is written (SVG_COORD makes one). */
struct svg_coord {
	double v;
	int whole;
};
struct svg_coord svg_whole(int v);
struct svg_coord svg_tenths(double v);
#define SVG_COORD(v) _Generic((v), int             \
			      : svg_whole, default \
			      : svg_tenths)(v)

/* <line class="cls" x1 y1 x2 y2/> */
#define svg_line(b, cls, x1, y1, x2, y2) \
	svg_add_line(b, cls, SVG_COORD(x1), SVG_COORD(y1), SVG_COORD(x2), SVG_COORD(y2))
/* <text class x y text-anchor>text</text>, text escaped; cls and anchor
 * NULL leave theirs out (text-anchor's is the start). */
#define svg_text(b, cls, x, y, anchor, text) \
	svg_add_text(b, cls, SVG_COORD(x), SVG_COORD(y), anchor, text)
/* <circle class cx cy r/>, cls NULL for none. */
#define svg_circle(b, cls, cx, cy, r) svg_add_circle(b, cls, SVG_COORD(cx), SVG_COORD(cy), r)
/* <path d="M x y moves"/>: a shape drawn from (x, y) by relative moves. */
#define svg_path(b, x, y, moves) svg_add_path(b, SVG_COORD(x), SVG_COORD(y), moves)
/* <rect x y width height/> */
#define svg_rect(b, x, y, width, height) \
	svg_add_rect(b, SVG_COORD(x), SVG_COORD(y), width, height)
/* "x,y ": one point of a polyline's points (svg_polyline). */
#define svg_point(b, x, y) svg_add_point(b, SVG_COORD(x), SVG_COORD(y))

/* <polyline class="cls" points="points"/>, points written by svg_point. */
void svg_polyline(struct sbuf *b, const char *cls, const char *points);

void svg_add_line(struct sbuf *b, const char *cls, struct svg_coord x1, struct svg_coord y1,
		  struct svg_coord x2, struct svg_coord y2);
void svg_add_text(struct sbuf *b, const char *cls, struct svg_coord x, struct svg_coord y,
		  const char *anchor, const char *text);
void svg_add_circle(struct sbuf *b, const char *cls, struct svg_coord cx, struct svg_coord cy,
		    int r);
void svg_add_path(struct sbuf *b, struct svg_coord x, struct svg_coord y, const char *moves);
void svg_add_rect(struct sbuf *b, struct svg_coord x, struct svg_coord y, int width, int height);
void svg_add_point(struct sbuf *b, struct svg_coord x, struct svg_coord y);

#endif
