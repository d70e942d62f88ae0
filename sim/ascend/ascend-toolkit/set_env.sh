# CANN toolkit environment (msprof-exec simulation of /usr/local/Ascend/ascend-toolkit/set_env.sh).
# Source it from sh or bash; sourcing it again changes nothing.  bash finds this
# file's directory itself; dash needs MSPROF_SIM_ROOT (exported by sim/activate).
_msim_tk=
if [ -n "${BASH_SOURCE:-}" ]; then
    _msim_tk=$(cd -- "$(dirname -- "${BASH_SOURCE}")" && pwd -P)
elif [ -n "${ZSH_VERSION:-}" ]; then
    eval '_msim_tk=$(cd -- "$(dirname -- "${(%):-%x}")" && pwd -P)'
elif [ -n "${MSPROF_SIM_ROOT:-}" ]; then
    _msim_tk=$MSPROF_SIM_ROOT/ascend/ascend-toolkit
fi
if [ -z "$_msim_tk" ] || [ ! -d "$_msim_tk/latest" ]; then
    echo "set_env.sh: cannot locate the toolkit directory (source sim/activate first, or use bash)" >&2
    unset _msim_tk
    return 1 2>/dev/null || exit 1
fi

_msim_prepend() {
    eval "_msim_cur=\${$1:-}"
    case ":$_msim_cur:" in
        *":$2:"*) ;;
        *) eval "$1=\"\$2\${_msim_cur:+:\$_msim_cur}\""; eval "export $1" ;;
    esac
}

ASCEND_TOOLKIT_HOME=$_msim_tk/latest
export ASCEND_TOOLKIT_HOME
_msim_arch=$(uname -m)
# prepended in reverse so the final order matches CANN's set_env.sh
_msim_prepend LD_LIBRARY_PATH "$ASCEND_TOOLKIT_HOME/tools/aml/lib64/plugin"
_msim_prepend LD_LIBRARY_PATH "$ASCEND_TOOLKIT_HOME/tools/aml/lib64"
_msim_prepend LD_LIBRARY_PATH "$ASCEND_TOOLKIT_HOME/opp/built-in/op_impl/ai_core/tbe/op_tiling/lib/linux/$_msim_arch"
_msim_prepend LD_LIBRARY_PATH "$ASCEND_TOOLKIT_HOME/lib64/plugin/nnengine"
_msim_prepend LD_LIBRARY_PATH "$ASCEND_TOOLKIT_HOME/lib64/plugin/opskernel"
_msim_prepend LD_LIBRARY_PATH "$ASCEND_TOOLKIT_HOME/lib64"
_msim_prepend PYTHONPATH "$ASCEND_TOOLKIT_HOME/opp/built-in/op_impl/ai_core/tbe"
_msim_prepend PYTHONPATH "$ASCEND_TOOLKIT_HOME/python/site-packages"
_msim_prepend PATH "$ASCEND_TOOLKIT_HOME/tools/ccec_compiler/bin"
_msim_prepend PATH "$ASCEND_TOOLKIT_HOME/compiler/ccec_compiler/bin"
_msim_prepend PATH "$ASCEND_TOOLKIT_HOME/bin"
ASCEND_AICPU_PATH=$ASCEND_TOOLKIT_HOME
ASCEND_OPP_PATH=$ASCEND_TOOLKIT_HOME/opp
TOOLCHAIN_HOME=$ASCEND_TOOLKIT_HOME/toolkit
ASCEND_HOME_PATH=$ASCEND_TOOLKIT_HOME
export ASCEND_AICPU_PATH ASCEND_OPP_PATH TOOLCHAIN_HOME ASCEND_HOME_PATH
unset _msim_tk _msim_arch _msim_cur
unset -f _msim_prepend
