# CANN environment, newer layout (msprof-exec simulation of /usr/local/Ascend/cann/set_env.sh).
# Same variables as ../ascend-toolkit/set_env.sh, which it sources.
if [ -n "${BASH_SOURCE:-}" ]; then
    . "$(cd -- "$(dirname -- "${BASH_SOURCE}")/.." && pwd -P)/ascend-toolkit/set_env.sh"
elif [ -n "${MSPROF_SIM_ROOT:-}" ]; then
    . "$MSPROF_SIM_ROOT/ascend/ascend-toolkit/set_env.sh"
else
    echo "set_env.sh: cannot locate the toolkit directory (source sim/activate first, or use bash)" >&2
    return 1 2>/dev/null || exit 1
fi
