/*
 * What the MindSpeed-MM engines share: their profiling settings live in a
 * tools.json or a YAML config, so a rewrite writes copies of them into the
 * session directory with the plan's settings and points the launch at the
 * copies.  The user's files are only read.
 */
#ifndef MSPROF_MMCONFIG_H
#define MSPROF_MMCONFIG_H

#include <cjson/cJSON.h>

#include "common/yamldoc.h"
#include "rewrite.h"

/* MindSpeed-MM trains this many iterations under msprof-exec unless told. */
#define MM_TRAIN_ITERS	100
/* MindSpeed-MM's steps count from 0, its default window is 10 to 11. */
#define MM_ENGINE_DEFAULTS \
	.framework = "mm", .step_start = 10, .step_end = 12, \
	.output = "./npu_profiling", .train_iters = MM_TRAIN_ITERS, \
	.base = STEPS_FROM_0, .schedule = SCHEDULE_SKIP_START, \
	.notes = mindspeed_mm_notes

void	mindspeed_mm_notes(const struct plan *, struct strv *out);

/* "profile": {"enable": true} in the tools.json TOOLS, into OUT. */
void	mm_tools_existing(const char *tools, struct strv *out);
/*
 * profile.static_param.save_path of the tools.json TOOLS, where its own
 * settings save the data (--existing keep); NULL when TOOLS is NULL, or
 * cannot be read, or has none.
 */
char	*mm_tools_save_path(const char *tools);
/*
 * Write a copy of the tools.json TOOLS (named by NAMED_BY) with the plan's
 * profile section into *COPY (the caller's).  0, or -1 with *why.
 */
int	mm_tools_copy(struct rewrite_ctx *, const char *tools,
	    const char *named_by, char **copy);
/* The plan's "profile" settings as MindSpeed-MM reads them. */
cJSON	*mm_profile(struct rewrite_ctx *, const char *dynamic_dir);
/* Where the copy of ORIGINAL goes: SESSION/<pid>_<name>. */
char	*mm_copy_path(struct rewrite_ctx *, const char *original);
/* The window against ITERS iterations (WHAT names where they are set). */
int	mm_window(struct rewrite_ctx *, int iters, const char *what);

/* The YAML first argument, loaded, with a root mapping.  0 or -1. */
int	mm_load_yaml(struct rewrite_ctx *, struct ydoc *, const char **cfg);
/* Set SECTION.KEY to N; 0 when SECTION is no mapping. */
int	mm_yaml_set_int(struct ydoc *, const char *section, const char *key,
	    int n);
/* SECTION.KEY as a count, or -1. */
int	mm_yaml_int(struct ydoc *, const char *section, const char *key);
/* Write the YAML copy, point the launch at it, free the document. */
int	mm_yaml_copy(struct rewrite_ctx *, struct ydoc *, const char *cfg);
/* Free the document; -1 and *why: KEY of CFG must be a mapping. */
int	mm_not_a_map(struct rewrite_ctx *, struct ydoc *, const char *cfg,
	    const char *key);
/* 0, or -1 and *why when VALUE (for FIELD of CFG) is not UTF-8. */
int	mm_yaml_text(struct rewrite_ctx *, const char *cfg, const char *field,
	    const char *value);

#endif
