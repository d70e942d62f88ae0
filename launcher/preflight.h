/*
 * Before the run: an NPU is there (npu-smi), the CANN environment is
 * loaded (or its set_env.sh is found and loaded here), and the job's
 * Python can import torch and torch_npu and see the NPU.
 */
#ifndef MSPROF_PREFLIGHT_H
#define MSPROF_PREFLIGHT_H

/*
 * Run the checks; PYTHON is the job's interpreter (NULL: python3).
 * CANN_ENV is --cann-env.  On success the environment of msprof-exec has
 * the CANN variables.  Returns 0, or an exit status (66, 69) after saying
 * what is wrong and how to fix it.
 */
int	preflight(const char *python, const char *cann_env, int quiet);

/*
 * The Python that will run a launcher at PATH: PATH itself, or the
 * interpreter of its #! line; NULL when unknown (python3 then).
 */
const char *job_python(const char *path);

/* Load a set_env.sh into our environment; -1 with *why on failure. */
int	cann_load(const char *set_env, char **why);

#endif
