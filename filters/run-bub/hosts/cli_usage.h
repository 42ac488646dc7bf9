/* cli_usage: what Harbor reads of a command-line host's session files
 * after a step (docs/DESIGN.md §5.5): their JSON lines, and the step's
 * agent_result token and cost figures made of them.
 */
#ifndef PC_RUN_BUB_CLI_USAGE_H
#define PC_RUN_BUB_CLI_USAGE_H

#include <jv.h>

/* Each JSON object line (borrowed) of the file at path to fn; other lines
 * are skipped, as Harbor skips them.  A missing file has none. */
void cli_file_lines(const char *path, void (*fn)(void *ctx, jv line), void *ctx);
/* The same for every *.jsonl file in dir and its sub-directories down to
 * depth levels below it, in name order. */
void cli_each_line(const char *dir, int depth, void (*fn)(void *ctx, jv line), void *ctx);

/* A token count (consumed) as Harbor's `x or 0` keeps it: a whole number,
 * 0 for anything else. */
jv cli_count(jv v);

/* The step's figures (each consumed; an invalid one is null):
 * {n_input_tokens, n_cache_tokens, n_output_tokens, cost_usd}. */
jv cli_figures(jv input, jv cache, jv output, jv cost);

#endif
