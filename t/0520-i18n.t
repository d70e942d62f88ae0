#!/usr/bin/env bash
# Messages in Simplified Chinese through gettext (po/zh_CN.po, compiled into
# build/share/locale): the catalogue is complete and current with the
# sources; under zh_CN.UTF-8 the usage errors, --help, the table, the
# prompts and the report are Chinese while options, values, paths,
# variables and commands stay as typed; under LANG=C nothing changes.
. "$(dirname "$0")/lib.sh"
pyq_start

PO=$TOP/po/zh_CN.po
POT=$TOP/po/msprof-exec.pot

# --- The catalogue against the sources (needs no locale) -------------------

# check NAME HINT CMD...: passes when CMD succeeds, else shows its stderr.
check() {
	local name=$1 hint=$2
	shift 2
	if "$@" > /dev/null 2> "$T/.cerr"; then pass "$name"
	else fail "$name"; diag "$(<"$T/.cerr")" ${hint:+"$hint"}; fi
}
check "msgfmt --check po/zh_CN.po (formats, header)" "" \
    msgfmt --check -o /dev/null "$PO"
stats=$(msgfmt --statistics -o /dev/null "$PO" 2>&1)
like "$stats" '^[0-9]+ translated messages?\.$' \
    "po/zh_CN.po: every message translated, none fuzzy"

# The template as 'make pot' would write it now, from the current sources.
check "xgettext extracts the messages of launcher/*.c" "" \
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" \
    --no-print-directory pot POT_FILE="$T/fresh.pot"
check "every message of the sources has a translation in po/zh_CN.po" \
    "translate it: make po-update, then edit po/zh_CN.po" \
    msgcmp "$PO" "$T/fresh.pot"
same_msgids() { msgcmp --use-untranslated --use-fuzzy "$1" "$2" &&
    msgcmp --use-untranslated --use-fuzzy "$2" "$1"; }
check "po/msprof-exec.pot is current with the sources" "run: make pot" \
    same_msgids "$POT" "$T/fresh.pot"
check "po/zh_CN.po has no message the sources dropped" "run: make po-update" \
    msgcmp --use-untranslated --use-fuzzy "$POT" "$PO"
ok "$([ -s "$B/share/locale/zh_CN/LC_MESSAGES/msprof-exec.mo" ]; echo $?)" \
    "the build has share/locale/zh_CN/LC_MESSAGES/msprof-exec.mo"

# --- A zh_CN.UTF-8 locale of our own (Debian ships only C.UTF-8) -----------
# (compiled once and kept in the build directory: zh_locale, t/lib.sh)

if ! zh_locale; then
	skip "no zh_CN.UTF-8 locale: localedef -i zh_CN -f UTF-8 failed (package locales)"
	done_testing
fi

ZH=zh_CN.UTF-8
# in_locale LOCALE CMD...: run CMD in LOCALE; sets $out, $err and $rc.
in_locale() {
	local loc=$1
	shift
	env -u LANGUAGE LOCPATH="$ZH_LOCPATH" LANG="$loc" LC_ALL="$loc" "$@" \
	    > "$T/.out" 2> "$T/.err"
	rc=$?
	out=$(<"$T/.out")
	err=$(<"$T/.err")
}
# ascii_only TEXT NAME: no byte outside ASCII (nothing translated).
ascii_only() {
	if printf '%s' "$1" | LC_ALL=C grep -q $'[\x80-\xff]'; then
		fail "$2"; diag "non-ASCII text in:" "$1"
	else pass "$2"; fi
}
unset ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH
export PATH="$RBIN:$PATH"

# --- Usage errors ----------------------------------------------------------

in_locale $ZH "$MSPROF" --skip-checks --level level9 true
is "$rc" 64 "zh: a bad value is a usage error (64)"
is "$err" "msprof-exec: --level 'level9'：不支持该值；可选值：level_none, level0, level1, level2" \
    "zh: the message is Chinese, the option, the value and the choices as typed"
in_locale C "$MSPROF" --skip-checks --level level9 true
is "$err" "msprof-exec: --level 'level9': not accepted; use one of level_none, level0, level1, level2" \
    "C: the same message in English"

in_locale $ZH "$MSPROF" --bogus true
is "$err" "msprof-exec: 未知选项 '--bogus'；请参阅 'msprof-exec --help'" \
    "zh: an unknown option, named as typed, with the command to read"

in_locale $ZH "$MSPROF" --skip-checks
is "$rc" 64 "zh: no command is a usage error (64)"
is "$(printf '%s\n' "$err" | head -n 1)" "msprof-exec: 性能采集需要一个可运行的训练脚本或命令" \
    "zh: 'profiling needs a runnable training script or command' is Chinese"
like "$err" "用法：msprof-exec \[选项\] \[--\] COMMAND \[ARG\.\.\.\]" "zh: followed by the Chinese usage"
in_locale C "$MSPROF" --skip-checks
is "$(printf '%s\n' "$err" | head -n 1)" "msprof-exec: profiling needs a runnable training script or command" \
    "C: the same message in English"

# --- --help ----------------------------------------------------------------

in_locale $ZH "$MSPROF" --help
zh_help=$out
is "$rc" 0 "zh: --help exits 0"
is "$(printf '%s\n' "$zh_help" | head -n 1)" "用法：msprof-exec [选项] [--] COMMAND [ARG...]" \
    "zh: --help is Chinese"
has_line "$zh_help" "  -n, --dry-run            只显示采集计划和改写后的命令，不运行" \
    "zh: --help describes the options in Chinese"
in_locale C "$MSPROF" --help
en_help=$out
is "$(printf '%s\n' "$en_help" | head -n 1)" "usage: msprof-exec [OPTIONS] [--] COMMAND [ARG...]" \
    "C: --help is English"
ascii_only "$en_help" "C: --help has no translated text"
# Every option name, and every value spelled in the help, stays as it is.
words() {
	printf '%s\n' "$1" | grep -oE -- '-{1,2}[a-z][a-z-]*|level[a-z0-9_]*|[A-Z][A-Za-z]+Utilization|\./[a-z_]+' |
	    sort -u | tr '\n' ' '
}
is "$(words "$zh_help")" "$(words "$en_help")" \
    "zh: --help keeps every option name, level, metric and path"

# --- Dry run ---------------------------------------------------------------

make_recorder torchrun
in_locale $ZH "$MSPROF" --skip-checks -n torchrun pretrain_gpt.py
is "$(printf '%s\n' "$out" | head -n 1)" "msprof-exec: 试运行（dry run），不启动任何程序" \
    "zh: the dry run says so in Chinese"
has_line "$out" "torchrun pretrain_gpt.py $DEFAULT_FLAGS" \
    "zh: the rewritten command is not translated"

# --- The configuration table and the prompt, on a terminal ---------------

printf 'NPUS_PER_NODE=2\ntorchrun --nproc_per_node $NPUS_PER_NODE pretrain_gpt.py --train-iters 10\n' \
    > pretrain_qwen3_8b_4K_ptd.sh
# on_tty LOCALE PROMPT-END ANSWER: msprof-exec on a pseudo-terminal in
# LOCALE, answering once the screen ends with PROMPT-END; prints the
# screen, then "status N".
on_tty() {
	env -u LANGUAGE LOCPATH="$ZH_LOCPATH" LANG="$1" LC_ALL="$1" \
	    "$PY" "$TOP/t/ptyrun.py" --prompt "$2" --answer "$3" -- \
	    "$MSPROF" --skip-checks bash pretrain_qwen3_8b_4K_ptd.sh
}
# The rows whose value does not start in column 27 (2 + 24 + 1), counting
# CJK characters as two columns; the CPU/... label is wider than 24.
misaligned() {
	printf '%s\n' "$1" | pyq -i -c '
import sys, unicodedata
def cw(c): return 2 if unicodedata.east_asian_width(c) in "WF" else 1
lines = sys.stdin.buffer.read().decode().split("\n")
head = next(i for i, l in enumerate(lines) if l.startswith("msprof-exec "))
for l in lines[head + 1:]:
    if not l.startswith("  "):
        break
    if l.startswith("  CPU/"):
        continue
    col, i = 0, 0
    while col < 27 and i < len(l):
        col, i = col + cw(l[i]), i + 1
    if col != 27 or i >= len(l) or l[i - 1] != " " or l[i] == " ":
        print(l)
'
}

screen=$(on_tty $ZH "修改某一项：" n)
has_line "$screen" "msprof-exec 将按以下配置采集性能数据：" "zh: the table is introduced in Chinese"
like "$screen" "  脚本 +pretrain_qwen3_8b_4K_ptd.sh" "zh: heading Script, the script's name as is"
like "$screen" "  每节点 NPU 数 +2" "zh: heading NPUs per node"
like "$screen" "  框架和引擎 +MindSpeed-LLM，Megatron（mcore）" "zh: heading Framework and engine"
like "$screen" "  采集方式 +static" "zh: heading Collection type, the value as is"
like "$screen" "  采集级别 +level1" "zh: heading Level, the level as is"
like "$screen" "  采集步 +第 2 至 4 步（不含第 4 步）" "zh: heading Steps, in Chinese"
like "$screen" "  采集 rank +0" "zh: heading Ranks"
like "$screen" "  CPU/内存/调用栈/shapes/数据精简 开 / 关 / 关 / 关 / 关" "zh: the collected data, on and off"
like "$screen" "  AI Core 指标 +PipeUtilization" "zh: heading AI Core metrics, the metric as is"
like "$screen" "  在线解析 +开" "zh: heading Online parse"
like "$screen" "  训练迭代数 +按脚本设置" "zh: heading Train iterations"
like "$screen" "  输出目录 +\./profiling_output" "zh: heading Output directory, the path as is"
is "$(misaligned "$screen")" "" "zh: the values line up in one column (CJK is two columns wide)"
like "$screen" "是否开始？\[y\] 开始，\[n\] 取消，\[e\] 修改某一项：" "zh: the prompt is Chinese, the keys stay y, n, e"
like "$screen" "msprof-exec: 未启动" "zh: n: 'not started' in Chinese"
like "$screen" "status 1" "zh: n: exit status 1"
ok "$([ ! -e profiling_output ]; echo $?)" "zh: n: nothing was created"

screen=$(on_tty C "an item:" n)
like "$screen" "  Script +pretrain_qwen3_8b_4K_ptd.sh" "C: the table is English"
like "$screen" "  Steps +2 to 4, excluding 4" "C: the steps in English"
like "$screen" "Start\? \[y\]es, \[n\]o, \[e\]dit an item:" "C: the prompt is English"
like "$screen" "msprof-exec: not started" "C: n: 'not started' in English"
ascii_only "$screen" "C: nothing on the terminal is translated"

# --- The report after a run ------------------------------------------------

# A launcher stand-in that writes the data of rank 0, prints $SAY on
# stderr and exits $EXIT.
cat > "$RBIN/torchrun" <<'EOF2'
#!/bin/sh
d=./profiling_output/$(uname -n)_$$_$(date +%Y%m%d%H%M%S%3N)_ascend_pt
mkdir -p $d/PROF_000001_20261202120000000_ABCDEFGH/device_0/data $d/ASCEND_PROFILER_OUTPUT
echo data > $d/PROF_000001_20261202120000000_ABCDEFGH/device_0/data/x
echo '{}' > $d/profiler_info_0.json
echo '[]' > $d/ASCEND_PROFILER_OUTPUT/trace_view.json
[ -n "${SAY:-}" ] && echo "$SAY" >&2
exit ${EXIT:-0}
EOF2
chmod +x "$RBIN/torchrun"
run_job() { reset_run; in_locale "$1" "$MSPROF" -y --skip-checks --ranks 0,1 \
    torchrun --nproc_per_node 2 pretrain_gpt.py; }

run_job $ZH
is "$rc" 0 "zh: the run succeeds"
has_line "$out" "msprof-exec: 已为 1 次训练启动采集性能数据，0 次未改动" "zh: the launches counted in Chinese"
has_line "$out" "  torchrun pretrain_gpt.py: 第 2 至 4 步（不含第 4 步），rank 0-1，level1 -> ./profiling_output" \
    "zh: the launch line: the command, level and path as they are"
has_line "$out" "$T/profiling_output 中的性能数据：" "zh: the output directory, its path as is"
like "$out" "  rank 0: $(uname -n)_[0-9]+_[0-9]{17}_ascend_pt  [0-9.]+[KMG]?B" "zh: the rank's directory"
has_line "$out" "  rank 1: 没有数据" "zh: the missing rank in Chinese"
has_line "$out" "下一步：用 MindStudio Insight 打开 $T/profiling_output" "zh: the next step in Chinese"
like "$out" "会话记录：$T/profiling_output/msprof-exec_" "zh: the session record"
has_line "$err" "msprof-exec: 可能的原因：未加载 CANN 环境（没有 ASCEND_TOOLKIT_HOME）：请 source set_env.sh，或使用 --cann-env" \
    "zh: the cause in Chinese, the variable, file and option as they are"
zh_report="$out$err"

run_job C
has_line "$out" "msprof-exec: 1 training launch(es) profiled, 0 left alone" "C: the report is English"
has_line "$out" "  torchrun pretrain_gpt.py: steps 2 to 4, excluding 4, ranks 0-1, level1 -> ./profiling_output" \
    "C: the launch line in English"
has_line "$out" "  rank 1: no data" "C: the missing rank in English"
has_line "$out" "Next: open $T/profiling_output in MindStudio Insight" "C: the next step in English"
has_line "$err" "msprof-exec: possible cause: the CANN environment was not loaded (no ASCEND_TOOLKIT_HOME): source set_env.sh or give --cann-env" \
    "C: the cause in English"
ascii_only "$out$err" "C: nothing in the report is translated"
is "$(printf '%s\n' "$zh_report" | wc -l)" "$(printf '%s\n' "$out$err" | wc -l)" \
    "zh: the report has as many lines as in English"

SAY="RuntimeError: NPU out of memory. Tried to allocate 5.03 GiB" EXIT=1 run_job $ZH
is "$rc" 1 "zh: a failed training: its exit status"
has_line "$err" "训练脚本执行失败（退出码：1）。性能数据采集需要训练正常运行。" \
    "zh: the failed training in Chinese"
like "$err" "msprof-exec: 原因：NPU 内存不足（NPU out of memory）：请减小 --micro-batch-size（或 --seq-length）" \
    "zh: the diagnosis in Chinese, the log's words and the options as they are"

# The injector translates too: its reason is recorded in the journal.
reset_run
echo 'print("no training here")' > other.py
in_locale $ZH "$MSPROF" -y --skip-checks torchrun other.py
like "$out" "  torchrun other.py: 未改动（不是训练入口：.*；可用 --framework llm、mm 或 torch 强制采集）" \
    "zh: a launch left alone, with the injector's reason in Chinese"
rm -f other.py
# A missing entry is refused before anything runs, in Chinese too.
in_locale $ZH "$MSPROF" -y --skip-checks torchrun other.py
is "$rc" 66 "zh: a missing entry under a launcher: 66"
like "$err" "other.py：文件不存在" "zh: the refusal in Chinese"

# The injector binds the catalogue at its first message: the system's
# error in it is Chinese too, though its argument is computed first.
in_locale $ZH "$INJECTOR" exec "$T/no-session" /bin/true true
is "$rc" 0 "zh: without a plan the injector runs the launch unchanged"
has_line "$err" "msprof-exec-inject: 无法读取采集计划 $T/no-session/plan.json：没有那个文件或目录；不采集性能数据，直接启动" \
    "zh: the injector's first message, with the system's error, in Chinese"

# --- compare's tables: columns line up whatever the labels' language ------

# The column each table's base figure ends in (a line a table), counting
# CJK characters as two columns: one column a table when they line up.
base_columns() {
	printf '%s\n' "$1" | pyq -i -c '
import re, sys, unicodedata
def width(s): return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
tables, cur = [], None
for line in sys.stdin.read().split("\n"):
    m = re.search(r"基线 ms|base ms|[0-9]+\.[0-9]{3}", line)
    rowlike = m and (m.group(0).endswith("ms") or len(re.findall(r"[0-9]+\.[0-9]{3}", line)) >= 3)
    if not rowlike or re.search("[█▓░#]", line):
        cur = None
        continue
    if cur is None:
        cur = set()
        tables.append(cur)
    cur.add(width(line[:m.end()]))
print("\n".join(" ".join(str(c) for c in sorted(t)) for t in tables))
'
}
in_locale $ZH "$MSPROF" compare "$TOP/t/data/summary/healthy" \
    "$TOP/t/data/summary/dominant-add"
is "$rc" 0 "zh: compare of two fixtures"
like "$out" "未掩盖的通信" "zh: compare's part names are Chinese"
is "$(base_columns "$out")" "$(printf '35\n21')" \
    "zh: compare's step and operator tables line up (CJK is two columns wide)"
in_locale C "$MSPROF" compare "$TOP/t/data/summary/healthy" \
    "$TOP/t/data/summary/dominant-add"
is "$(base_columns "$out")" "$(printf '35\n21')" "C: and in English"

done_testing
