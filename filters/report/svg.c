/* svg: the plots' frame and elements (svg.h). */
#include "svg.h"
#include "markup.h"

int svg_right(const struct svg_frame *f)
{
	return f->width - f->right;
}

int svg_bottom(const struct svg_frame *f)
{
	return f->height - f->bottom;
}

struct svg_coord svg_whole(int v)
{
	return (struct svg_coord){ v, 1 };
}

struct svg_coord svg_tenths(double v)
{
	return (struct svg_coord){ v, 0 };
}

static void add_coord(struct sbuf *b, struct svg_coord c)
{
	if (c.whole)
		sbuf_addf(b, "%d", (int)c.v);
	else
		sbuf_addf(b, "%.1f", c.v);
}

/* " name=\"value\"" */
static void add_attribute(struct sbuf *b, const char *name, struct svg_coord c)
{
	sbuf_addf(b, " %s=\"", name);
	add_coord(b, c);
	sbuf_add(b, "\"");
}

/* " class=\"cls\"", nothing for NULL. */
static void add_class(struct sbuf *b, const char *cls)
{
	if (cls)
		sbuf_addf(b, " class=\"%s\"", cls);
}

void svg_add_line(struct sbuf *b, const char *cls, struct svg_coord x1, struct svg_coord y1,
		  struct svg_coord x2, struct svg_coord y2)
{
	sbuf_add(b, "<line");
	add_class(b, cls);
	add_attribute(b, "x1", x1);
	add_attribute(b, "y1", y1);
	add_attribute(b, "x2", x2);
	add_attribute(b, "y2", y2);
	sbuf_add(b, "/>");
}

void svg_add_text(struct sbuf *b, const char *cls, struct svg_coord x, struct svg_coord y,
		  const char *anchor, const char *text)
{
	sbuf_add(b, "<text");
	add_class(b, cls);
	add_attribute(b, "x", x);
	add_attribute(b, "y", y);
	if (anchor)
		sbuf_addf(b, " text-anchor=\"%s\"", anchor);
	sbuf_add(b, ">");
	markup_add_text(b, text);
	sbuf_add(b, "</text>");
}

void svg_add_circle(struct sbuf *b, const char *cls, struct svg_coord cx, struct svg_coord cy,
		    int r)
{
	sbuf_add(b, "<circle");
	add_class(b, cls);
	add_attribute(b, "cx", cx);
	add_attribute(b, "cy", cy);
	sbuf_addf(b, " r=\"%d\"/>", r);
}

void svg_add_path(struct sbuf *b, struct svg_coord x, struct svg_coord y, const char *moves)
{
	sbuf_add(b, "<path d=\"M");
	add_coord(b, x);
	sbuf_add(b, " ");
	add_coord(b, y);
	sbuf_addf(b, "%s\"/>", moves);
}

void svg_add_rect(struct sbuf *b, struct svg_coord x, struct svg_coord y, int width, int height)
{
	sbuf_add(b, "<rect");
	add_attribute(b, "x", x);
	add_attribute(b, "y", y);
	sbuf_addf(b, " width=\"%d\" height=\"%d\"/>", width, height);
}

void svg_add_point(struct sbuf *b, struct svg_coord x, struct svg_coord y)
{
	add_coord(b, x);
	sbuf_add(b, ",");
	add_coord(b, y);
	sbuf_add(b, " ");
}

void svg_polyline(struct sbuf *b, const char *cls, const char *points)
{
	sbuf_add(b, "<polyline");
	add_class(b, cls);
	sbuf_addf(b, " points=\"%s\"/>", points);
}
