#!/usr/bin/env bash
# msprof-exec trigger changes the config file of a running job only: a
# directory without profiler_config.json is refused (66), the dynamic
# profiling directory below it is named, and nothing is written there.
. "$(dirname "$0")/lib.sh"

mkdir -p npu_profiling/dynamic_profile empty
echo '{"prof_dir": "./npu_profiling", "start_step": 0, "active": 1}' \
    > npu_profiling/dynamic_profile/profiler_config.json
"$MSPROF" trigger --now npu_profiling > out 2> err
is "$?" 66 "trigger on the parent of the dynamic directory: 66"
like "$(<err)" "npu_profiling holds no profiler_config.json" "says what is missing"
like "$(<err)" "msprof-exec trigger npu_profiling/dynamic_profile" \
    "names the dynamic profiling directory below it"
unlike "$(<out)" "starts collecting" "does not claim the job will collect"
ok "$([ ! -e npu_profiling/profiler_config.json ]; echo $?)" "writes no stray config file"
"$MSPROF" trigger --now . > out 2> err
is "$?" 66 "trigger two levels above: 66"
like "$(<err)" "trigger ./npu_profiling/dynamic_profile" "two levels above: the directory is named"

"$MSPROF" trigger --start 5 empty > out 2> err
is "$?" 66 "trigger on an empty directory: 66"
like "$(<err)" "dynamic profiling directory of the running job" "an empty directory: what to give instead"
is "$(ls -A empty)" "" "an empty directory gets no template"

"$MSPROF" trigger --now npu_profiling/dynamic_profile > out
is "$?" 0 "the dynamic profiling directory itself: accepted"
like "$(<out)" "starts collecting at its next step" "and the job is told"
done_testing
