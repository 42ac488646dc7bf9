/* evidence: what a replay takes from the files under its trial directory
 * (docs/DESIGN.md §2.4): the capture logs' records, the native ACP
 * artifacts' digests and the instructions the steps resolved.  Files are
 * taken in Python's sorted path order, under every step's directory or,
 * for a merged batch's member, under its own steps' only.  A file that
 * cannot be read, or a line that is no capture record, adds an error to
 * the replay's errors.
 */
#ifndef PC_NORMALIZE_EVIDENCE_H
#define PC_NORMALIZE_EVIDENCE_H

#include <jv.h>

/* trial: the trial directory; steps (borrowed): the member's own steps,
 * or anything else for every file under trial; errors (owned by the
 * caller): each file's or line's error appended. */

/* Every line of every powercontext-capture.jsonl, each checked as a
 * capture record, paths sorted, lines in order. */
jv evidence_capture_records(const char *trial, jv steps, jv *errors);

/* {name, sha256, bytes} of every acp-summary.json, acp-events.jsonl and
 * trajectory.json. */
jv evidence_native_artifacts(const char *trial, jv steps, jv *errors);

/* {step, artifact, content, sha256}: one per acp-summary.json with a
 * non-blank instruction. */
jv evidence_resolved_instructions(const char *trial, jv steps);

#endif
