/* harbor_layout: the names of Harbor's job and trial files.
 *
 * The local runner writes this layout as Harbor does, the Harbor runner reads
 * what Harbor wrote, pc-normalize reads the trial's result and the agent's
 * files, and pc-evaluate names the agent's files among a replay's evidence:
 * every one of them spells a name here, so a Harbor release that moves a
 * file is one edit.
 */
#ifndef PC_HARBOR_LAYOUT_H
#define PC_HARBOR_LAYOUT_H

/* A job's and a trial's result document. */
#define HARBOR_RESULT_FILE "result.json"
/* A trial's configuration. */
#define HARBOR_CONFIG_FILE "config.json"
/* The ACP runner's files in a step's agent/ directory. */
#define HARBOR_ACP_SUMMARY_FILE "acp-summary.json"
#define HARBOR_ACP_EVENTS_FILE  "acp-events.jsonl"
#define HARBOR_TRAJECTORY_FILE  "trajectory.json"
/* The ACP agent's stderr, in the same directory. */
#define HARBOR_ACP_STDERR_FILE "acp.txt"
/* In a step's agent/ directory from before the agent starts until its
 * session succeeds: PowerContext 1.4.1's verifiers score 0 while it is
 * there, so a failed session can never pass its step. */
#define STEP_FAILURE_MARKER_FILE "powercontext-step-failed"
/* The verifier's reward files, the JSON one first. */
#define HARBOR_REWARD_JSON_FILE "reward.json"
#define HARBOR_REWARD_TXT_FILE  "reward.txt"
/* Where a step's or a trial's result document holds its rewards. */
#define HARBOR_REWARDS_PATH "verifier_result.rewards"

#endif
