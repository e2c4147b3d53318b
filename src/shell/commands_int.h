/* commands_int — what the files of the command handlers share: the
 * helpers of commands.c and the handlers of runners.c, filecmds.c and
 * families.c, which commands.c's handler table dispatches to. Private to
 * src/shell/.
 */
#ifndef CORDON_COMMANDS_INT_H
#define CORDON_COMMANDS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classify_int.h"
#include "wrappers.h"

/* A handler: judges argv[0..argc) with its redirections, fills *ci. */
typedef void handler_fn(struct cx *x, struct wv *argv, size_t argc,
			const struct sh_redir *redirs, struct cinfo *ci);

/* commands.c */
/* inline for the reason classify_word_is is (classify_int.h) */
static inline bool commands_is_opt(const struct wv *w)
{
	return w->n > 1 && w->s[0] == '-' && classify_word_static(w);
}

static inline bool commands_is_dashdash(const struct wv *w)
{
	return w->n == 2 && w->s[0] == '-' && w->s[1] == '-' &&
	       classify_word_static(w);
}

/* "--name" or "--name=value": returns the value (or NULL) via *val. */
static inline bool commands_long_opt(const struct wv *w, const char *name,
				     const char **val, size_t *vn)
{
	size_t n = strlen(name);

	if (w->n < n || memcmp(w->s, name, n) != 0)
		return false;
	if (w->n == n) {
		if (val)
			*val = NULL;
		return true;
	}
	if (w->s[n] != '=')
		return false;
	if (val) {
		*val = w->s + n + 1;
		*vn = w->n - n - 1;
	}
	return true;
}

/* Is the command name (name, n) exactly lit? */
static inline bool commands_name_is(const char *name, size_t n,
				    const char *lit)
{
	size_t k = strlen(lit);
	return n == k && memcmp(name, lit, k) == 0;
}
bool commands_long_abbrev(const struct wv *w, const char *opt, size_t min);
bool commands_cluster_has(const struct wv *w, char c);
uint64_t commands_class_labels(enum path_class pc);
bool commands_core_system(const char *abs);
bool commands_is_history_file(const char *abs);
const char *commands_join(struct cx *x, struct wv *argv, size_t from,
			  size_t argc, size_t *n, bool *dynamic);
void commands_payload_word(struct cx *x, const struct wv *w, uint64_t labels,
			   const char *why);
void commands_note_download(struct cx *x, const struct wv *w);
void commands_download_to(struct cx *x, const struct wv *w);
void commands_check_downloaded(struct cx *x, const struct wv *w);
void commands_check_downloaded_as(struct cx *x, const struct wv *w, int lang);
const char *commands_heredoc_text(struct cx *x, const struct sh_redir *r,
				  size_t *n);
void commands_judge_redirs(struct cx *x, const struct sh_redir *redirs,
			   struct cinfo *ci, bool shell);
void commands_feed_stdin(struct cx *x, const struct sh_redir *redirs,
			 struct cinfo *ci);
handler_fn *commands_find_handler(const char *name, size_t n);
/* Row i of the handlers table (i < commands_handler_count()), for the name
 * index (names.h): its name, with the length in *len and the handler in
 * *fn. */
size_t commands_handler_count(void);
const char *commands_handler_row(size_t i, size_t *len, handler_fn **fn);
/* The lists the name index flags (names.h): commands_known()'s shell
 * builtins and common commands, filecmds.c's commands that read their
 * operands as files, and those that never do. */
const char *const *commands_builtins(size_t *n);
const char *const *filecmds_readers(size_t *n);
const char *const *filecmds_never_readers(size_t *n);
/* The command of row i of the options that run a command (exec_opts). */
size_t commands_exec_opt_count(void);
const char *commands_exec_opt_cmd(size_t i);

/* runners.c */
const struct wrapper *runners_find_wrapper(struct wv *argv, size_t argc,
					   const char *name, size_t n);
void runners_wrapper(struct cx *x, const struct wrapper *wr, struct wv *argv,
		     size_t argc, const struct sh_redir *redirs,
		     struct cinfo *ci);
void runners_env(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci);
void runners_command(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci);
void runners_bind_positional(struct cx *x, struct wv *argv, size_t from,
			     size_t argc);
void runners_shell(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci);
/* The shell builtins whose options hold a command line or text that is
 * expanded (mapfile -C, complete -C/-W, compgen, bind -x), load code
 * (enable -f) or rename a command (hash -p). */
void runners_builtin_eval(struct cx *x, struct wv *argv, size_t argc,
			  const struct sh_redir *redirs, struct cinfo *ci);
/* cmake -E env|time|chdir …: the command it runs. */
void runners_cmake(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci);
void runners_busybox(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci);
void runners_eval(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci);
void runners_source(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci);
void runners_alias(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci);
void runners_xargs(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci);
void runners_parallel(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci);
void runners_find(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci);
void runners_watch(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci);
void runners_flock(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci);
void runners_su(struct cx *x, struct wv *argv, size_t argc,
		const struct sh_redir *redirs, struct cinfo *ci);
void runners_runuser(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci);
void runners_sg(struct cx *x, struct wv *argv, size_t argc,
		const struct sh_redir *redirs, struct cinfo *ci);
void runners_script(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci);
void runners_trap(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci);
void runners_ssh(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci);
void runners_container_exec(struct cx *x, struct wv *argv, size_t argc,
			    const struct sh_redir *redirs, struct cinfo *ci);
void runners_interp(struct cx *x, const struct wrappers_interp *ip,
		    struct wv *argv, size_t argc, const struct sh_redir *redirs,
		    struct cinfo *ci);
void runners_awk(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci);
void runners_sed(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci);
void runners_sqlclient(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci);

/* filecmds.c */
void filecmds_judge_delete(struct cx *x, const struct wv *w, bool recursive,
			   bool force, const char *verb);
bool filecmds_operand_secret(struct cx *x, const struct wv *w);
void filecmds_secrets_out(struct cx *x, struct wv *argv, size_t argc,
			  const struct sh_redir *redirs, struct cinfo *ci,
			  const char *name, size_t n);
void filecmds_secrets_pass(struct cx *x, struct wv *argv, size_t argc,
			   struct cinfo *ci);
void filecmds_rm(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci);
void filecmds_shred(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci);
void filecmds_truncate(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci);
void filecmds_dd(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci);
void filecmds_create(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci);
void filecmds_copy(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci);
void filecmds_chmod(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci);
void filecmds_tee(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci);
void filecmds_kill(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci);

/* families.c */
void families_subscripts(struct cx *x, struct wv *argv, size_t argc,
			 const struct sh_redir *redirs, struct cinfo *ci);
void families_disktool(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci);
void families_archive(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci);
void families_crontab(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci);
void families_at(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci);
void families_make(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci);
void families_ansible(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci);
void families_cd(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci);
void families_foreign_shell(struct cx *x, struct wv *argv, size_t argc,
			    const struct sh_redir *redirs, struct cinfo *ci);
void families_echo(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci);
void families_decode(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci);
void families_filter(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci);
void families_envdump(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci);
void families_history(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci);
/* ed, ex, and vi/vim/nvim in Ex mode (-e, -E, -es) read commands on
 * stdin: CI_EDIT_STDIN. */
void runners_editor(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci);
/* vagrant ssh -c, gcloud compute ssh --command, oc rsh POD CMD …: a
 * command run on another machine (runners.c's remote_runners). */
void runners_remote_opts(struct cx *x, struct wv *argv, size_t argc,
			 const struct sh_redir *redirs, struct cinfo *ci);
/* capsh -- ARGS (its shell's arguments), wsl CMD… */
void runners_capsh_wsl(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci);
/* screen CMD, screen -X stuff|exec|screen … */
void runners_screen(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci);
void runners_line_operands(struct cx *x, struct wv *argv, size_t argc,
			   const struct sh_redir *redirs, struct cinfo *ci);
void families_upload(struct cx *x, struct wv *argv, size_t argc,
		     const struct sh_redir *redirs, struct cinfo *ci);
void families_network(struct cx *x, struct wv *argv, size_t argc,
		      const struct sh_redir *redirs, struct cinfo *ci);
/* cargo --config KEY=VALUE naming a program (a runner, a linker …). */
void families_cargo(struct cx *x, struct wv *argv, size_t argc,
		    const struct sh_redir *redirs, struct cinfo *ci);
void families_git(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci);
void families_rg(struct cx *x, struct wv *argv, size_t argc,
		 const struct sh_redir *redirs, struct cinfo *ci);
void families_fifo(struct cx *x, struct wv *argv, size_t argc,
		   const struct sh_redir *redirs, struct cinfo *ci);
void families_identity(struct cx *x, struct wv *argv, size_t argc,
		       const struct sh_redir *redirs, struct cinfo *ci);
void families_cat(struct cx *x, struct wv *argv, size_t argc,
		  const struct sh_redir *redirs, struct cinfo *ci);

#endif
