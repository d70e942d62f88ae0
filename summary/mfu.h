/*
 * The model FLOPs utilisation (mfu.c) as the floors above read it: the
 * model's FLOPs a step and where its shape came from, the chip's peak and
 * its source, the profiled step time and world size, the training's own
 * figure from its log; and what follows from them.
 */
#ifndef MSPROF_SUMMARY_MFU_H
#define MSPROF_SUMMARY_MFU_H

#include <stddef.h>

/* fp16 and bf16: a 16 x 16 x 16 cube, a multiply and an add each. */
#define CUBE_OPS	(16.0 * 16 * 16 * 2)
/* Apart by more than this, the log's figure and ours disagree. */
#define LOG_AGREE	0.01

/*
 * The model in the terms of Megatron's arguments (--num-layers ...);
 * experts NAN for a dense model.
 */
struct shape {
	double	 layers, hidden, ffn, heads, groups, kv, seq, batch, vocab;
	double	 experts, topk, moe_ffn, shared, freq, mtp;
	int	 swiglu;
	const char *vocab_from;	/* an argument, the log or config.json */
};

/* The state of kind_mfu. */
struct mfu {
	/* The model. */
	struct shape	 m;
	double		 flops;		/* per step; NAN unknown */
	char		*flops_why;
	/* The chip. */
	double		 cores, mhz, peak;	/* peak: FLOP/s a device */
	/* peak_path: the info.json, or the ini of npu-smi's chip CHIP */
	char		*peak_path, *peak_why, *chip;
	/* The run. */
	double		 step_us;	/* mean over the ranks' mean steps */
	size_t		 nranks;	/* ranks with steps */
	int		 world;
	const char	*world_from;
	/* The training's own figure (Megatron's log line). */
	double		 log_tflops;
	long		 log_first, log_last;
	size_t		 log_n;
};

/* Achieved FLOP/s a device; NaN when a part is not known. */
double	 mfu_achieved(const struct mfu *);
/* Why the MFU is not known, or NULL (it is mfu_achieved / peak). */
const char *mfu_why(const struct mfu *);
/*
 * How far the log's figure is from the achieved one, relative to it (0.1:
 * 10 % above); NaN when either is not known.
 */
double	 mfu_log_difference(const struct mfu *);

#endif
