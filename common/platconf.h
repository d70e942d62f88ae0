/*
 * CANN's description of a chip: the toolkit's
 * platform_config/Ascend<chip>.ini, the file its compilers read for the
 * chip they build for.  Of it msprof-exec reads what the chip's peak is
 * made of: the AI cores ([SoCInfo] ai_core_cnt) and the cube's clock in
 * MHz ([AICoreSpec] cube_freq), the same two figures a run's raw data
 * gives as ai_core_num and aic_frequency (info.json.N).
 */
#ifndef MSPROF_PLATCONF_H
#define MSPROF_PLATCONF_H

struct platconf {
	int	 cores;		/* ai_core_cnt */
	int	 mhz;		/* cube_freq */
	char	*path;		/* the ini read */
};

/*
 * The value of KEY in [SECTION] of the ini TEXT, blanks around it
 * trimmed (a copy), or NULL.  Lines starting with # or ; are comments.
 */
char	*ini_value(const char *text, const char *section, const char *key);

/*
 * The file name of CHIP's description, as npu-smi names the chip ("910B3",
 * or "Ascend910B3"): "Ascend910B3.ini" (the caller's).
 */
char	*platconf_name(const char *chip);

/*
 * Read CHIP's description from the CANN toolkit of this environment
 * ($ASCEND_HOME_PATH, else $ASCEND_TOOLKIT_HOME): in its
 * <arch>-linux/data/platform_config or compiler/data/platform_config.
 * 0 and *P filled (platconf_free), or -1 and *WHY.
 */
int	platconf_read(const char *chip, struct platconf *p, char **why);
void	platconf_free(struct platconf *);

#endif
