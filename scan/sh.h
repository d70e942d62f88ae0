/*
 * The shell language as the static scan reads it: a POSIX sh (with the
 * bash forms training scripts use) that follows variables, expands words
 * and reads the scripts a script runs, but never starts a program.  What
 * would need a program to run (command substitution, an unknown
 * expansion) stays unknown and is kept as written.  It knows nothing
 * about what the commands it finds mean: each simple command is handed,
 * expanded, to a hook.
 *
 * Every loop advances through the text, recursion is bounded and every
 * value is bounded in size, so any input is safe to read.
 */
#ifndef MSPROF_SH_H
#define MSPROF_SH_H

#include <stddef.h>
#include <stdint.h>

#include "common/util.h"

#define SH_MAX_DEPTH	16		/* nested ${...} and $((...)) */
#define SH_MAX_VARS	(1 << 16)	/* variable names tracked */
#define SH_MAX_VALUE	(64 * 1024)	/* bytes of one variable's value */
#define SH_MAX_COMMAND	(256 * 1024)	/* bytes of one command's words */
#define SH_MAX_HEREDOCS	8		/* here-documents pending on a line */
#define SH_MAX_NESTING	8		/* scripts running scripts */
#define SH_MAX_SCRIPTS	32		/* scripts read by one scan */
#define SH_MAX_SCRIPT	(4 << 20)	/* bytes of a script followed */

/*
 * Whitespace inside a construct that could not be evaluated is stored as
 * SH_HARD_SPACE: "$(head -n1 $HOSTFILE)" then stays one word when the
 * value holding it is split again; sh_shown() turns it back into spaces.
 */
#define SH_HARD_SPACE	'\001'

/* A growing string, always NUL-terminated once anything was added. */
struct buf {
	char	*s;
	size_t	 len, cap;
};

void	 buf_add(struct buf *, const char *, size_t);
/* A copy of S for the user: hard spaces become spaces again. */
char	*sh_shown(const char *);

/* Variables. */

struct sh_var {
	char		*name;
	struct buf	 value;		/* as shown; may hold SH_HARD_SPACE */
	uint32_t	 hash;
	int		 set;		/* 0: unset (the name stays indexed) */
	int		 known;
	int		 exported;
};

/*
 * The variables, in the order their names first appeared, with a hash
 * index over the names.  Past SH_MAX_VARS names, new names are not
 * stored and every name not stored reads as unknown from then on (full).
 */
struct sh_vars {
	struct sh_var	*v;
	size_t		 n, cap;
	uint32_t	*index;		/* 1 + a position in v; 0: empty */
	size_t		 icap;		/* a power of two */
	int		 full;
};

/* NAME (N bytes) if it is set; NULL otherwise. */
struct sh_var	*sh_lookup(struct sh_vars *, const char *name, size_t n);
/* Set NAME (N bytes) to VALUE (LEN bytes); NULL when the table is full. */
struct sh_var	*sh_set(struct sh_vars *, const char *name, size_t n,
		    const char *value, size_t len, int known);
/* Append VALUE to a set variable, bounded by SH_MAX_VALUE. */
void		 sh_append(struct sh_var *, const char *value, size_t len,
		    int known);
void		 sh_unset(struct sh_vars *, const char *name);
/* Mark NAME exported (creating it empty and unset-looking if need be). */
void		 sh_export(struct sh_vars *, const char *name, size_t n);
/* Import ENVP (NAME=value strings, exported); NULL is empty. */
void		 sh_vars_import(struct sh_vars *, char *const envp[]);
/* Copy the exported variables of FROM into an empty TO. */
void		 sh_vars_inherit(struct sh_vars *to, const struct sh_vars *);
void		 sh_vars_free(struct sh_vars *);

/* Words. */

int	sh_is_name_start(char);
int	sh_is_name_char(char);
/* The length of "NAME=" or "NAME+=" at the start of W (N bytes), or 0. */
size_t	sh_assign_len(const char *w, size_t n);
int	sh_is_assign(const char *);
int	sh_all_digits(const char *);

/*
 * The end of a construct whose opening ("$(", "${" or '"') ends just
 * before P; OPEN is '(', '{' or '"'.  Returns the byte after its closing
 * bracket or quote, or E with *CLOSED 0 when it is not closed.
 */
const char	*sh_construct_end(const char *p, const char *e, char open,
		    int *closed);
/* In "$((...))" from P (after "$(("), the first ')' of "))", or NULL. */
const char	*sh_arith_end(const char *p, const char *e);

/* The lexer: the text as simple commands of raw words. */
struct sh_lexer {
	const char	*p, *end;
	struct strv	 heredocs;	/* "-DELIM" (<<-) or "+DELIM" (<<) */
	const char	*counted;	/* lines are counted up to here */
	int		 line;		/* the line of counted */
	int		 andor;		/* the command read last came after
					   && or ||: it may not run */
	int		 next_andor;	/* the separator read last was one */
};

void	sh_lexer_init(struct sh_lexer *, const char *text, size_t len);
/*
 * Read the next simple command into W (empty for a blank line) and the
 * line it starts on into *LINE.  Returns 0 at the end of the text.
 */
int	sh_next_command(struct sh_lexer *, struct strv *w, int *line);
void	sh_lexer_free(struct sh_lexer *);

/* The interpreter. */

struct sh;

/*
 * A simple command that is not an assignment or a builtin that sets
 * variables, its words expanded: argv from the command word on (after
 * exec, env, nohup, time and prefix assignments).
 */
struct sh_cmd {
	char *const	*argv;		/* NULL-terminated */
	size_t		 argc;
	const char	*file;		/* the script it is in */
	int		 line;		/* there */
	struct strv	 env;		/* NAME=value given to it alone */
	struct strv	 unknown;	/* names in env of unknown value */
	struct strv	 unenv;		/* names env -u removes */
	int		 clearenv;	/* env -i */
};

typedef void	sh_hook(struct sh *, const struct sh_cmd *, void *);

/* What the shells of one scan share. */
struct sh_run {
	sh_hook		*hook;
	void		*arg;
	int		 scripts;	/* read so far */
	int		 crlf;		/* a script read has CRLF line ends */
	char		*crlf_file;	/* the first one (the caller frees) */
};

#define SH_MAX_BLOCKS	64		/* blocks whose kind is kept */

/*
 * A block the reader is in: an if (its condition's value when it could
 * decide it, and the part being read), a case, a loop or a { group }.
 */
struct sh_block {
	char		 kind;		/* 'i' if, 'c' case, 'l' loop, '{' */
	char		 part;		/* if: 'c' condition, 't' then, 'e'
					   else, 'x' past the branch taken */
	signed char	 value;		/* if: 1, 0, -1 not decided */
};

struct sh {
	struct sh_vars	 vars;
	struct sh_run	*run;
	char		*arg0;		/* $0 */
	const char	*file;		/* being read (a sourced file) */
	char		*cwd;		/* "" is the launch directory; NULL:
					   unknown after a cd */
	int		 depth;		/* scripts running scripts */
	/*
	 * The command being read may not run: it is inside a block (if,
	 * case, a loop, a function or a { group }, BLOCKS deep) or after
	 * && or || (COND, also for the text a conditional command runs).
	 */
	int		 blocks;
	int		 cond;
	struct sh_block	 block[SH_MAX_BLOCKS];	/* the first BLOCKS */
	/*
	 * A cd ran where the script may not run it (a branch not decided,
	 * a loop, after && or ||): the directory read from is a guess.
	 */
	int		 cwd_unsure;
	int		 allexport;	/* set -a */
};

/* Expansion: the words (or the one value) an expansion produces. */
struct sh_fb {
	struct strv	*fields;	/* NULL: one value, never split */
	struct buf	 cur;
	int		 have;		/* the word exists, even empty */
	int		 unknown;	/* part of it could not be evaluated */
	size_t		 room;		/* bytes it may still take */
};

/*
 * Expand the word S..E into F: quotes removed, parameters, arithmetic and
 * escapes applied; DQ when it starts inside double quotes.
 */
void	sh_expand(struct sh *, const char *s, const char *e, int dq,
	    int depth, struct sh_fb *);
/* End the current word (a no-op for a single value). */
void	sh_fb_end(struct sh_fb *);
/* Text that could not be evaluated: kept as written, as one word. */
void	sh_put_unknown(struct sh_fb *, const char *s, const char *e);
/*
 * The output of the command substitution S..E (inside "$(...)") appended
 * to OUT, when it is one the reader evaluates (dirname, pwd...); 0
 * otherwise, with OUT in any state.
 */
int	sh_subst(struct sh *, const char *s, const char *e, int depth,
	    struct buf *out);
/* Evaluate S as integer arithmetic; 0 when it is not plain arithmetic. */
int	sh_arith(struct sh *, const char *s, long long *);
/* A decimal integer, blanks around it allowed; 0 if S is not one. */
int	sh_parse_int(const char *s, long long *);

/*
 * A shell for the script ARG0 ($0, and BASH_SOURCE), starting with the
 * environment ENVP (NULL: empty) and sharing RUN with the shells it
 * starts.
 */
void	sh_init(struct sh *, struct sh_run *, const char *arg0,
	    char *const envp[]);
void	sh_free(struct sh *);
/* Set a variable as an assignment does (exported under set -a). */
struct sh_var	*sh_setvar(struct sh *, const char *name, size_t n,
		    const char *value, size_t len, int known);
/* Run TEXT (modified: CRLF line ends become LF) read from FILE. */
void	sh_run_text(struct sh *, const char *file, char *text);
/*
 * Is TEXT a script a shell reads: no "#!" line, or one that names sh,
 * bash, dash, ksh, mksh or ash (directly or through env)?
 */
int	sh_is_shell_script(const char *text);
/* Read the script C runs, if it runs one (bash X, source X, ./X). */
void	sh_follow(struct sh *, const struct sh_cmd *c);
/*
 * Blocks (shcond.c): KIND ('i', 'c', 'l', '{') opens one, close ends the
 * innermost; then, elif, else move within an if (sh_branch), whose
 * condition, the command W after if or elif (NEGATE: after '!'), is
 * decided when it is a test of known words (sh_condition).
 */
void	sh_block_open(struct sh *, char kind);
void	sh_block_close(struct sh *);
void	sh_branch(struct sh *, const char *word);
void	sh_condition(struct sh *, char *const w[], size_t n, int negate);
/* A command after && or || in an if's condition: the value is not known. */
void	sh_condition_list(struct sh *);
/*
 * The words W of "for NAME in W": a loop over none that is known
 * ("for p in $*" in a script given no arguments) runs nothing.
 */
void	sh_loop_words(struct sh *, char *const w[], size_t n);
/* Is the command being read in a branch the script does not take? */
int	sh_dead(const struct sh *);
/* May the script not run the command being read (not decided)? */
int	sh_unsure(const struct sh *);
/* Is PATH (relative to the directory of the scan) a directory? */
int	sh_is_dir(const char *path);
/* cd (or pushd) with the words W. */
void	sh_cd(struct sh *, char *const w[], size_t n);
/*
 * The environment CMD runs with, as NAME=value strings for the user
 * (unknown parts as written), in the order the names appeared.
 */
void	sh_environ(struct sh *, const struct sh_cmd *, struct strv *);

#endif
