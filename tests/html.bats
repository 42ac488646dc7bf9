#!/usr/bin/env bats
# pc-report --format html: one self-contained page (README, man/pc-report.1).
#
# The page is rendered in headless Chromium (Debian's chromium) by
# tests/bin/render-html, which prints the screenshot's size and pixels, the
# page's console lines and the requests it made.  The render tests skip only
# when chromium is not installed; the checks of the page's text never skip.
# Screenshots worth a look are kept in build/test-output/html/. The MariaDB
# test starts its own server (tests/mariadb_helper.bash) and skips only when
# mariadbd is not installed.
#
# The evaluations are test_helper's verdict_evaluations: accepted.jsonl,
# failed.jsonl (scope_started_empty false), inconclusive.jsonl.

load test_helper
load mariadb_helper

setup_file() {
	verdict_evaluations "$BATS_FILE_TMPDIR"
}

teardown() {
	mariadb_stop # a MariaDB test's server, if one was started
}

setup() {
	pc_setup
	E="$BATS_FILE_TMPDIR"
	OUT="$REPO/build/test-output/html"
}

# page IN [ARGS...]: pc-report --format html of IN into $T/page.html.
page() {
	local in="$1"
	shift
	run --separate-stderr pc-report --format html "$@" <"$in"
	save_stdout "$T/page.html"
}

# render PAGE PNG [WIDTHxHEIGHT [SELECTOR]]: tests/bin/render-html's
# findings about PAGE in $R (JSON); the window is 1280x1024 unless given;
# with SELECTOR, where the elements it matches lie (.geometry).
render() {
	command -v chromium >/dev/null || skip "chromium is not installed (pipelines/install-deps installs it)"
	R=$("$REPO/tests/bin/render-html" "$1" "$2" "${3:-1280x1024}" "${@:4}") || fail "render-html failed: $R"
}

# field JQ: one value of $R.
field() {
	jq -r "$1" <<<"$R"
}

# assert_clean: the last render wrote nothing to the console and asked for nothing.
assert_clean() {
	[[ $(field '.console | length') -eq 0 ]] || fail "console: $(field '.console[]')"
	[[ $(field '.requests | length') -eq 0 ]] || fail "requests: $(field '.requests[]')"
}

# ---- the page ----

@test "the page renders in headless Chromium: a screenshot of the right size, not blank, no console line, no request" {
	cat "$E"/{accepted,failed,inconclusive}.jsonl >"$T/in.jsonl"
	page "$T/in.jsonl"
	assert_status 2
	mkdir -p "$OUT"
	render "$T/page.html" "$OUT/summary.png"
	echo "# screenshot: ${OUT#"$REPO"/}/summary.png" >&3
	[[ $(field .width) -eq 1280 && $(field .height) -eq 1024 ]] || fail "size: $R"
	# text, table borders and the coloured cells: far more than a blank page's nothing
	[[ $(field .non_white) -gt 50000 && $(field .colours) -gt 100 ]] || fail "blank? $R"
	assert_clean
}

@test "render-html's checks can fail: a script error, a console warning and a request are all caught" {
	command -v chromium >/dev/null || skip "chromium is not installed (pipelines/install-deps installs it)"
	cat >"$T/bad.html" <<-'EOF'
		<!DOCTYPE html><html><head><link rel="icon" href="data:,"></head>
		<body><p>x</p><img src="http://127.0.0.1:9/x.png" alt="">
		<script>console.warn("careful"); no_such_function();</script></body></html>
	EOF
	render "$T/bad.html" "$T/bad.png"
	[[ $(field '.console | map(select(test("careful"))) | length') -eq 1 ]] || fail "$R"
	[[ $(field '.console | map(select(test("ReferenceError"))) | length') -eq 1 ]] || fail "$R"
	[[ $(field '.requests') == '[
  "http://127.0.0.1:9/x.png"
]' ]] || fail "$R"
}

@test "the page is self-contained: no URL but its own anchors and a data: icon, no script" {
	cat "$E"/{accepted,failed,inconclusive}.jsonl >"$T/in.jsonl"
	page "$T/in.jsonl"
	run grep -nE 'http|//|url\(|@import|<script|src=' "$T/page.html"
	assert_failure
	run grep -oE '(href|src)="[^"]*"' "$T/page.html"
	assert_line 'href="data:,"'
	refute_line --regexp '^href="[^#d]'
	head -1 "$T/page.html" | grep -qx '<!DOCTYPE html>'
	grep -q '<meta charset="utf-8">' "$T/page.html"
}

@test "the summary is the counts line every format prints" {
	cat "$E"/{accepted,failed,inconclusive}.jsonl >"$T/in.jsonl"
	page "$T/in.jsonl"
	assert_status 2
	run --separate-stderr pc-report --format text <"$T/in.jsonl"
	grep -F "<p class=\"counts\">${lines[-1]}.</p>" "$T/page.html"
	grep -F '<p class="counts">3 workloads: 1 accepted, 1 failed, 1 inconclusive.</p>' "$T/page.html"
}

@test "under the title, the PowerContext under test and when the runs finished, as the documents say: a second render is the same page" {
	cat "$E"/{accepted,failed,inconclusive}.jsonl >"$T/in.jsonl"
	page "$T/in.jsonl"
	assert_status 2
	# the fixtures' commit and finish, not this machine's clock
	grep -F '<p class="under-test">PowerContext under test: <code>0123456789abcdef0123456789abcdef01234567</code>. Finished 2026-06-30 12:00:05 UTC.</p>' "$T/page.html"
	cp "$T/page.html" "$T/first.html"
	page "$T/in.jsonl"
	cmp "$T/first.html" "$T/page.html"
	# runs of two PowerContexts a day apart: both named, and said to differ
	jq -c '.cases[0].attributes.commit = "1.4.0" | .cases[0].attributes.finished_at = "2026-07-01T08:00:00.5Z"' \
		"$E/failed.jsonl" >"$T/mixed.jsonl"
	cat "$E/accepted.jsonl" >>"$T/mixed.jsonl"
	page "$T/mixed.jsonl"
	grep -F '<p class="under-test">PowerContext under test: 2 different ones, the documents do not agree: <code>1.4.0</code>, <code>0123456789abcdef0123456789abcdef01234567</code>. Finished 2026-06-30 12:00:05 to 2026-07-01 08:00:00 UTC.</p>' "$T/page.html"
	# documents that name neither: the page says so; a hostile commit is text
	jq -c '.cases[0].attributes |= del(.commit, .finished_at)' "$E/accepted.jsonl" >"$T/bare.jsonl"
	jq -c '.cases[0].attributes.commit = "<b>x</b>"' "$E/failed.jsonl" >>"$T/bare.jsonl"
	page "$T/bare.jsonl"
	grep -F '<p class="under-test">PowerContext under test: <code>&lt;b&gt;x&lt;/b&gt;</code>. Finished 2026-06-30 12:00:05 UTC (1 without a time).</p>' "$T/page.html"
	head -1 "$T/bare.jsonl" >"$T/none.jsonl"
	page "$T/none.jsonl"
	grep -F '<p class="under-test">PowerContext under test: not named by the documents. No document says when it ran.</p>' "$T/page.html"
}

# last_column_inside: in the last render (with a selector), every element
# lies inside the window's width, and the page is no wider than the window.
last_column_inside() {
	[[ $(field '.geometry.elements | length') -gt 0 ]] || fail "no element measured: $R"
	[[ $(field '.geometry as $g | [$g.elements[] | select(.left < 0 or .right > $g.viewport.width)] | length') -eq 0 &&
		$(field '.geometry.scroll_width <= .geometry.viewport.width') == true ]] ||
		fail "past the window's width: $(field '.geometry | {viewport, scroll_width, elements: [.elements[] | {right, text}]}')"
}

@test "at 1,200 px the matrix fits the window: every cell of its last column, an outcome workload's pass included, lies inside it" {
	# the release's real replays, the outcome workload last: its assertion is the last column
	local f
	for f in project-database-decision scripted-release-window failure-policy-timeout; do
		pc-evaluate <"$FIXTURES/replays/real/$f.json"
	done >"$T/in.jsonl"
	page "$T/in.jsonl"
	assert_success
	mkdir -p "$OUT"
	render "$T/page.html" "$OUT/matrix-1200.png" 1200x800 'table.matrix tr > :last-child'
	echo "# screenshot: ${OUT#"$REPO"/}/matrix-1200.png" >&3
	assert_clean
	[[ $(field '[.geometry.elements[].text] | join("|")') == "execution_outcome|—|—|✓ pass" ]] ||
		fail "last column: $(field '[.geometry.elements[].text]')"
	[[ $(field .geometry.viewport.width) -eq 1200 ]] || fail "$R"
	last_column_inside
}

# matrix PAGE: the matrix read back as "name verdict cell..." lines, the
# header first ("Workload Verdict assertion...").
matrix() {
	python3 -c '
import sys
from html.parser import HTMLParser
class M(HTMLParser):
    rows, row, cell, on = [], None, None, False
    def handle_starttag(self, tag, attrs):
        if tag == "table" and ("class", "matrix") in attrs: self.on = True
        if self.on and tag == "tr": self.row = []
        if self.on and tag in ("td", "th"): self.cell = ""
    def handle_endtag(self, tag):
        if tag == "table": self.on = False
        if self.on and tag in ("td", "th"): self.row.append(self.cell.strip().replace(" ", "_")); self.cell = None
        if self.on and tag == "tr": self.rows.append(" ".join(self.row))
    def handle_data(self, data):
        if self.cell is not None: self.cell += data
m = M(); m.feed(open(sys.argv[1], encoding="utf-8").read())
print("\n".join(m.rows))' "$1"
}

@test "the matrix: a row per workload with its verdict, a column per assertion in first-seen order" {
	cat "$E"/{accepted,failed,inconclusive}.jsonl >"$T/in.jsonl"
	page "$T/in.jsonl"
	run matrix "$T/page.html"
	assert_success
	# the columns: the union of the assertion names, first seen first
	assert_line --index 0 "Workload Verdict $(jq -rs '[.[].cases[].assertions | keys_unsorted[]] | reduce .[] as $n ([]; if index([$n]) then . else . + [$n] end) | join(" ")' "$T/in.jsonl")"
	[[ ${#lines[@]} -eq 4 ]] || fail "$output"
	assert_line --index 1 --regexp '^project-database-decision ✓_accepted( ✓_pass){11}$'
	assert_line --index 2 --regexp '^wl-failed ✗_failed( ✓_pass)+ ✗_FAIL( ✓_pass)*$'
	assert_line --index 3 --regexp '^wl-incon \?_inconclusive ✗_FAIL( ✓_pass)+$'
	# the FAIL cell is in scope_started_empty's column
	local col
	col=$(sed -n 1p <<<"$output" | tr ' ' '\n' | grep -nx scope_started_empty | cut -d: -f1)
	[[ $(sed -n 3p <<<"$output" | cut -d' ' -f"$col") == ✗_FAIL ]] || fail "$output"
}

@test "a FAIL cell carries its reason in a title and links to the reason in the workload's section" {
	page "$E/failed.jsonl"
	assert_status 2
	local reason
	reason=$(jq -r '.cases[0].assertions.scope_started_empty.reason' "$E/failed.jsonl")
	[[ -n $reason ]]
	grep -F "<td class=\"fail\" title=\"$reason\"><a href=\"#c0-a" "$T/page.html"
	local target
	target=$(grep -oE 'href="#c0-a[0-9]+"' "$T/page.html" | sed -E 's/href="#(.*)"/\1/')
	grep -E "<li id=\"$target\">✗ <code>scope_started_empty</code>: " "$T/page.html" | grep -F "$reason"
}

@test "an assertion a workload does not have is shown as not evaluated" {
	jq -c '.cases[0].assertions |= del(.memory_grounded)' "$E/accepted.jsonl" >"$T/in.jsonl"
	cat "$E/failed.jsonl" >>"$T/in.jsonl"
	page "$T/in.jsonl"
	assert_status 2
	run matrix "$T/page.html"
	# the column comes from the second workload, after the first's
	assert_line --index 0 --regexp ' memory_grounded$'
	assert_line --index 1 --regexp ' —$'
	grep -F '<td class="none" title="not evaluated">—</td>' "$T/page.html"
}

@test "a hostile name and reason are escaped, and the page still runs nothing and fetches nothing" {
	jq -c '.cases[0].name = "<script>alert(1)</script>" |
		.cases[0].assertions.scope_started_empty.reason = "<img src=x onerror=\"console.error(1)\"> & \u0001"' \
		"$E/failed.jsonl" >"$T/in.jsonl"
	page "$T/in.jsonl"
	assert_status 2
	run grep -cE '<script|<img' "$T/page.html"
	assert_output 0
	grep -F '&lt;script&gt;alert(1)&lt;/script&gt;' "$T/page.html"
	grep -F '&lt;img src=x onerror=&quot;console.error(1)&quot;&gt; &amp; ?' "$T/page.html"
	render "$T/page.html" "$T/page.png"
	assert_clean
}

@test "secrets are redacted from the page" {
	jq -c '.cases[0].assertions.collection_completed.reason = "token sk-report-secret leaked"' \
		"$E/inconclusive.jsonl" >"$T/in.jsonl"
	BUB_API_KEY=sk-report-secret page "$T/in.jsonl"
	assert_status 3
	run ! grep -F sk-report-secret "$T/page.html"
	grep -F 'token [REDACTED] leaked' "$T/page.html"
}

# ---- plots ----

@test "without a ledger the page says that plots need one, and draws none" {
	page "$E/accepted.jsonl"
	assert_success
	grep -F 'Plots of the scores over the comparable runs need a ledger: <code>pc-report --ledger URL --format html</code>.' "$T/page.html"
	run grep -c '<svg' "$T/page.html"
	assert_output 0
}

# svg_plots PAGE: "score points mark" per SVG plot of PAGE, in order.
svg_plots() {
	python3 -c '
import sys, re
page = open(sys.argv[1], encoding="utf-8").read()
for fig in re.findall(r"<figure>.*?</figure>", page, re.S):
    name = re.search(r"<figcaption><code>(.*?)</code>", fig).group(1)
    points = re.findall(r"<g class=\"pt (\w+)\">", fig)
    mark = re.search(r"<text class=\"mark\"[^>]*>(\w+)</text>", fig).group(1)
    print(name, ",".join(points), mark)' "$1"
}

# two_runs URL NAME: two runs of a workload recorded in the ledger at URL,
# accepted then failed, and the html page of the second: one plot per score
# with two points and the regression mark; its screenshot is kept as
# build/test-output/html/NAME.png.
two_runs() {
	local url="$1" name="$2" scores
	replay '.run_id = "project-database-decision-run1" |
		.environment.finished_at = "2026-06-30T12:00:00Z"' -c >"$T/run1.json"
	replay '.run_id = "project-database-decision-run2" |
		.environment.finished_at = "2026-07-01T12:00:00Z" |
		.memory_before.entries = [entry("old"; [])]' -c >"$T/run2.json"
	pc-evaluate <"$T/run1.json" >"$T/eval1.jsonl"
	run pc-evaluate <"$T/run2.json"
	assert_failure 2
	save_stdout "$T/eval2.jsonl"
	run --separate-stderr pc-report --ledger "$url" --format json <"$T/eval1.jsonl"
	assert_success
	# html with a ledger implies --trend
	page "$T/eval2.jsonl" --ledger "$url"
	assert_status 2
	run svg_plots "$T/page.html"
	assert_success
	scores=$(jq -r '.cases[0].scores | keys_unsorted[] | "\(.) accepted,failed regression"' "$T/eval2.jsonl")
	[[ -n $scores ]]
	assert_output "$scores"
	grep -F '<td class="verdict"><span class="failed">✗ failed</span> <small>(regression)</small></td>' "$T/page.html"
	grep -F '<li><code>project-database-decision-run1</code>: accepted, 2026-06-30T12:00:00Z</li>' "$T/page.html"
	# the plots are inline SVG that names no namespace URL either
	run grep -cE 'http|//|url\(' "$T/page.html"
	assert_output 0
	mkdir -p "$OUT"
	render "$T/page.html" "$OUT/$name.png" 1280x1400
	echo "# screenshot: ${OUT#"$REPO"/}/$name.png" >&3
	[[ $(field .non_white) -gt 50000 ]] || fail "$R"
	assert_clean
}

@test "two runs in a SQLite ledger, accepted then failed: a plot per score with two points and the regression mark" {
	two_runs "sqlite:$T/ledger.db" trend
}

@test "the same two runs in a MariaDB ledger give the same plots" {
	mariadb_start "$T/mariadb"
	need_mariadb
	mariadb_sql "CREATE DATABASE h; CREATE USER 'pc'@'127.0.0.1' IDENTIFIED BY 's3cret-pw'; GRANT ALL ON h.* TO 'pc'@'127.0.0.1'"
	two_runs "mysql://pc:s3cret-pw@127.0.0.1:$MARIADB_PORT/h" trend-mariadb
	run ! grep -F s3cret-pw "$T/page.html"
}

# plot_of PAGE SCORE: that score's SVG plot in PAGE.
plot_of() {
	python3 -c '
import sys, re
page = open(sys.argv[1], encoding="utf-8").read()
for fig in re.findall(r"<figure>.*?</figure>", page, re.S):
    if re.search(r"<figcaption><code>" + re.escape(sys.argv[2]) + "</code>", fig):
        print(fig)' "$1" "$2"
}

@test "three runs, accepted, failed, accepted: flaky; a score outside [0, 1] plots its range; marks need no colour" {
	local i
	for i in 1 2 3; do
		# run 2 failed; the reward is 1, 5, 3; a hostile score name in every run
		replay '.run_id = "project-database-decision-run\($i)" |
			.environment.finished_at = "2026-07-0\($i)T12:00:00Z" |
			if $i == "2" then .memory_before.entries = [entry("old"; [])] else . end' \
			--arg i "$i" -c >"$T/run$i.json"
		pc-evaluate <"$T/run$i.json" >"$T/eval$i.jsonl" || [[ $? -eq 2 ]]
		jq -c --argjson r "$((i == 2 ? 5 : i))" '.cases[0].scores.harbor_reward_reward.value = $r |
			.cases[0].scores["<i>odd</i>"] = {value: 0.5, reason: null}' \
			"$T/eval$i.jsonl" >"$T/in$i.jsonl"
		run --separate-stderr pc-report --ledger "sqlite:$T/ledger.db" --format html <"$T/in$i.jsonl"
	done
	assert_success
	save_stdout "$T/page.html"
	grep -F '<td class="verdict"><span class="accepted">✓ accepted</span> <small>(flaky)</small></td>' "$T/page.html"
	run plot_of "$T/page.html" harbor_reward_reward
	# the y axis from 1 to 5, three points, the highest (smallest y) in the middle
	assert_line --regexp '<text [^>]*text-anchor="end">1</text>'
	assert_line --regexp '<text [^>]*text-anchor="end">5</text>'
	refute_line --regexp '<text [^>]*text-anchor="end">0</text>'
	[[ $(grep -c '<g class="pt ' <<<"$output") -eq 3 ]] || fail "$output"
	local ys
	ys=$(grep -oE '<g class="pt [a-z]+">.*cy="[0-9.]+"|<path d="M[0-9.]+ [0-9.]+' <<<"$output" |
		grep -oE '(cy="|M[0-9.]+ )[0-9.]+' | grep -oE '[0-9.]+$' | tr '\n' ' ')
	read -r y1 y2 y3 <<<"$ys"
	awk -v a="$y1" -v b="$y2" -v c="$y3" 'BEGIN { exit !(b + 4 < c && c < a) }' || fail "y: $ys"
	# the hostile score name is text, in the scores table and the plot's caption
	run grep -c '<i>' "$T/page.html"
	assert_output 0
	[[ $(grep -c '<code>&lt;i&gt;odd&lt;/i&gt;</code>' "$T/page.html") -eq 1 ]]
	NO_COLOR=1 run --separate-stderr pc-report --ledger "sqlite:$T/ledger.db" --format html <"$T/in3.jsonl"
	save_stdout "$T/plain.html"
	render "$T/plain.html" "$T/plain.png" 1280x1600
	[[ $(field .chromatic) -eq 0 ]] || fail "$R"
	assert_clean
}

# ---- colour ----

# colour_values PAGE: the colours the page names (CSS colour values).
colour_values() {
	grep -oE '#[0-9a-fA-F]{3,8}\b|rgba?\(|hsla?\(|color:[a-z]+' "$1" | grep -vx 'color:inherit' || true
}

@test "NO_COLOR gives a page without a colour, readable by its words and symbols; an empty NO_COLOR does not count" {
	cat "$E"/{accepted,failed,inconclusive}.jsonl >"$T/in.jsonl"
	NO_COLOR=1 page "$T/in.jsonl"
	assert_status 2
	cp "$T/page.html" "$T/plain.html"
	[[ -z $(colour_values "$T/plain.html") ]] || fail "colours: $(colour_values "$T/plain.html")"
	run matrix "$T/plain.html"
	assert_line --index 2 --regexp '^wl-failed ✗_failed .*✗_FAIL'
	NO_COLOR= page "$T/in.jsonl"
	[[ -n $(colour_values "$T/page.html") ]] || fail "an empty NO_COLOR turned colour off"
	# what a reader sees: not one coloured pixel without colour, some with it
	mkdir -p "$OUT"
	render "$T/plain.html" "$OUT/no-color.png"
	echo "# screenshot: ${OUT#"$REPO"/}/no-color.png" >&3
	[[ $(field .chromatic) -eq 0 && $(field .non_white) -gt 50000 ]] || fail "$R"
	assert_clean
	render "$T/page.html" "$T/colour.png"
	[[ $(field .chromatic) -gt 1000 ]] || fail "$R"
}

# ---- the paired comparison's page ----

@test "pc-report --paired --format html: a plot of each arm's rate and interval per workload, the pairs and the sign test; clean in Chromium, colourless under NO_COLOR" {
	paired_trials 6 passed failed
	cat "$T"/run/w/trial-*/*/observation.json | pc-evaluate --paired >"$T/paired.json"
	run --separate-stderr pc-report --paired --format html <"$T/paired.json"
	assert_status 0
	save_stdout "$T/paired.html"
	# a section per workload and the total, each with its plot: OFF's rate at
	# 0%, ON's at 100%, each with its whisker
	[[ $(grep -c '<section>' "$T/paired.html") == 2 && $(grep -c '<svg role="img"' "$T/paired.html") == 2 ]] ||
		fail "sections: $(grep -c '<section>' "$T/paired.html")"
	grep -q '<g class="off"><text x="4" y="32">OFF</text>' "$T/paired.html"
	grep -q '<circle class="pt" cx="60.0" cy="28" r="4"/>' "$T/paired.html" || fail "OFF's point is not at 0%"
	grep -q '<circle class="pt" cx="440.0" cy="58" r="4"/>' "$T/paired.html" || fail "ON's point is not at 100%"
	grep -qF '<p class="delta">Scored pairs: 6; ON minus OFF: +1.00 [+1.00, +1.00]; ON better in 6, OFF better in 0, tied in 0</p>' "$T/paired.html"
	grep -qF '<p class="sign">What the pairs show: 6 pairs, 6 discordant (ON better); ON better at 0.05 (exact sign test p = 0.03125).</p>' "$T/paired.html"
	# the whole sample reads its workloads, of which there is one
	grep -qF '<p class="sign">What the pairs show: 6 pairs, 6 discordant (ON better); by workload: 1 workload, 1 discordant (ON better); too few to show anything: the exact sign test needs at least 6 discordant workloads one way at 0.05.</p>' "$T/paired.html"
	run grep -nE 'http|//|url\(|@import|<script|src=' "$T/paired.html"
	assert_failure
	mkdir -p "$OUT"
	render "$T/paired.html" "$OUT/paired.png"
	echo "# screenshot: ${OUT#"$REPO"/}/paired.png" >&3
	[[ $(field .non_white) -gt 10000 && $(field .chromatic) -gt 0 ]] || fail "blank or colourless? $R"
	assert_clean
	grep -qF 'Host <code>bub</code> 0.5.1, model <code>openai:pc-e2e-scripted/x@0123456789ab</code>.' "$T/paired.html"
	NO_COLOR=1 run --separate-stderr pc-report --paired --format html <"$T/paired.json"
	save_stdout "$T/paired-plain.html"
	render "$T/paired-plain.html" "$T/paired-plain.png"
	[[ $(field .chromatic) -eq 0 ]] || fail "colour under NO_COLOR: $R"
}

@test "pc-report --paired --format html names the PowerContext under test and when the arms ran from the observations after the report, and fits 1,200 px" {
	paired_trials 2 passed failed
	cat "$T"/run/w/trial-*/*/observation.json | pc-evaluate --paired >"$T/paired.json"
	# the report alone names neither: the page says where they come from
	run --separate-stderr pc-report --paired --format html <"$T/paired.json"
	assert_status 0
	grep -qF '<p class="under-test">The paired report names neither the PowerContext under test nor when the arms ran: give pc-report the arm observations after it.</p>' <<<"$output"
	cat "$T/paired.json" "$T"/run/w/trial-*/*/observation.json >"$T/in.jsonl"
	run --separate-stderr pc-report --paired --format html <"$T/in.jsonl"
	assert_status 0
	save_stdout "$T/paired.html"
	grep -qF '<p class="under-test">PowerContext under test: <code>1.4.1</code>. Arms ran 2026-12-02 10:00:00 to 10:01:00 UTC.</p>' "$T/paired.html"
	# the same page again: nothing of it comes from the clock
	run --separate-stderr pc-report --paired --format html <"$T/in.jsonl"
	cmp "$T/paired.html" <(printf '%s\n' "$output")
	# arms of another PowerContext are named beside it
	jq -c '.environment.commit = "0123abc-dirty"' "$T/run/w/trial-2/on/observation.json" >>"$T/in.jsonl"
	run --separate-stderr pc-report --paired --format html <"$T/in.jsonl"
	assert_output --partial 'PowerContext under test: 2 different ones, the documents do not agree: <code>1.4.1</code>, <code>0123abc-dirty</code>.'
	# only observations may follow the report, and they are checked as such
	cat "$T/paired.json" "$T/paired.json" >"$T/two.jsonl"
	run --separate-stderr pc-report --paired --format html <"$T/two.jsonl"
	assert_status 1
	assert_stderr_contains "stdin:2: expected a powercontext.e2e-paired-arm/v3 document"
	mkdir -p "$OUT"
	render "$T/paired.html" "$OUT/paired-1200.png" 1200x900 'table tr > :last-child'
	echo "# screenshot: ${OUT#"$REPO"/}/paired-1200.png" >&3
	assert_clean
	last_column_inside
}

@test "a failed workload explains itself: EXPECTED → ACTUAL with the context excerpt under its reason, clean in Chromium" {
	jq -c '.task.evaluation.probes[0].expected_context += ["00:15 <UTC> & co"]' \
		"$FIXTURES/replays/real/scripted-release-window.json" >"$T/replay.json"
	run --separate-stderr pc-evaluate <"$T/replay.json"
	assert_status 2
	save_stdout "$T/eval.jsonl"
	page "$T/eval.jsonl"
	assert_status 2
	local why
	why=$(sed -n '/<pre class="why">/,/<\/pre>/p' "$T/page.html")
	[[ $why == *'EXPECTED coverage 1'* && $why == *'ACTUAL   coverage 0.5, supported 1, positive 2'* ]] ||
		fail "no EXPECTED → ACTUAL block: $why"
	[[ $why == *'probe release-window · missing 1 of 2 fragments'* ]] || fail "$why"
	# the fragment's markup is text, escaped
	[[ $why == *'EXPECTED [&quot;00:15 &lt;UTC&gt; &amp; co&quot;]'* ]] || fail "$why"
	[[ $why =~ ACTUAL\ \ \ prepared\ context\ \(ready,\ [0-9]+\ bytes\):\ \&quot\;….*22:00\ and\ 23:30\ UTC ]] ||
		fail "no context excerpt: $why"
	mkdir -p "$OUT"
	render "$T/page.html" "$OUT/why.png"
	assert_clean
	[[ $(field .non_white) -gt 20000 ]] || fail "blank? $R"
}
