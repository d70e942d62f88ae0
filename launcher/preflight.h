/*
 * Before the run: an NPU is there (npu-smi), the CANN environment is
 * loaded (or its set_env.sh is found and loaded here), and the job's
 * Python can import torch and torch_npu and see the NPU.
 */
#ifndef MSPROF_PREFLIGHT_H
#define MSPROF_PREFLIGHT_H

struct plan;

/*
 * Run the checks; PYTHON is the job's interpreter (NULL: python3).
 * CANN_ENV is --cann-env; SCRIPT (or NULL) the script the command runs:
 * what it sets up for itself (a set_env.sh it sources, a conda or virtual
 * environment it activates) is left to the job.  On success the
 * environment of msprof-exec has the CANN variables, and PLAN what
 * npu-smi shows of the node's NPUs: their memory (device_mb, 0 when it
 * shows none) and their chip, with its AI cores and clock from CANN's
 * platform_config (chip*, for the MFU).  Returns 0, or an exit status
 * (66, 69) after saying what is wrong, how to fix it, and that
 * --skip-checks skips the checks.
 */
int	preflight(const char *python, const char *cann_env, const char *script,
	    int quiet, struct plan *plan);

/*
 * The CANN environment alone: already loaded, or CANN_ENV (--cann-env; NULL:
 * a set_env.sh found in the usual places) loaded into ours.  0, or an exit
 * status (66, 69) after saying what is wrong.
 */
int	preflight_cann(const char *cann_env);

/*
 * The NPUs npu-smi info lists, into PLAN (npus_listed; 0 when it does not
 * run), as preflight records them too.
 */
int	preflight_npus(struct plan *plan);
/*
 * Warn when a launch runs NPUS processes a node and PLAN's npu-smi
 * listed fewer NPUs.  A warning only: what the node lets the job see is
 * the job's to know.
 */
void	preflight_npus_warn(const struct plan *plan, int npus);

/* Load a set_env.sh into our environment; -1 with *why on failure. */
int	cann_load(const char *set_env, char **why);

#endif
