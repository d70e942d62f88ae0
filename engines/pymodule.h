/*
 * Where Python finds a module, without running it: the entry's folder
 * (the working directory for -m), PYTHONPATH, the working directory, then
 * the installed packages of the job's Python, found by where that Python
 * lives (its site-packages and dist-packages, the user's ~/.local).
 */
#ifndef MSPROF_PYMODULE_H
#define MSPROF_PYMODULE_H

#include <stddef.h>

#include "common/util.h"

/* Where modules are looked for, in order (Python's sys.path). */
struct pypath {
	struct strv	 dirs;
	size_t		 site;		/* the first of installed packages */
};

/*
 * FIRST, PYTHONPATH, the working folder, the installed packages of the
 * Python that runs PROGRAM (the python, or a launcher such as torchrun
 * by its "#!" line; found on PATH when it has no '/'; NULL: none).
 */
void	 pypath_init(struct pypath *, const char *first, const char *program);
void	 pypath_free(struct pypath *);

/*
 * The file of MODULE imported from the file FROM with LEVEL leading dots:
 * relative to FROM's package, else the first of PP's folders that holds
 * it (a/b.py or a/b/__init__.py for a.b); NULL when none does.  *SITE is
 * set to whether it is of an installed package when found in PP; a
 * relative import leaves it (it is of FROM's kind).
 */
char	*pymodule_file(const struct pypath *pp, const char *from, int level,
	    const char *module, int *site);

/*
 * The Python that runs PROGRAM (found on PATH when it has no '/'): the
 * program itself when its name is a Python's (python3, python3.11), else
 * the interpreter its "#!" line names (torchrun's, deepspeed's; through
 * env); a copy, or NULL when that is no Python.  The one rule for which
 * Python runs a job: its modules are looked for there, and the checks
 * before the run import torch_npu with it.
 */
char	*pymodule_python(const char *program);

/* The folder of PATH ("." for a bare name). */
char	*py_folder(const char *path);

/*
 * The file of module MODULE (python -m MODULE) as Python started in the
 * current directory finds it (the current directory, PYTHONPATH, the
 * site-packages of PROGRAM's Python as pypath_init() finds them): a.b is
 * a/b.py, or a/b/__main__.py for a package.  NULL when none is found;
 * the caller frees it.
 */
char	*entry_module_file(const char *module, const char *program);

/*
 * The file exec(3p) with a PATH search runs for PROGRAM (a console
 * script), or NULL; the caller frees it.
 */
char	*entry_program_file(const char *program);

#endif
