/* cordon run — run ARGV in the sandbox and report how much was enforced.
 *
 * Exit status: the command's; 124 when the time-out killed it; 125 when
 * cordon failed before the command started (a usage or configuration error
 * included, as env(1) and timeout(1) do: 2 could be the command's own);
 * 126 when the command could not be executed or --argv-only blocked it;
 * 127 when it was not found.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agentpresets.h"
#include "audit.h"
#include "cli.h"
#include "config.h"
#include "cordon.h"
#include "hooksbx.h"
#include "runopts.h"
#include "sandbox.h"
#include "thread.h"

#include "banned.h"

#define RUN_EXIT_SETUP CLI_RUNOPTS_EXIT_SETUP

void cli_run_usage(FILE *out)
{
	fputs("usage: cordon run [OPTIONS] -- ARGV...\n"
	      "       cordon run --probe\n"
	      "\n"
	      "Run ARGV with kernel-enforced limits: the host read-only "
	      "except\n"
	      "the writable roots, credentials masked, a private /tmp and "
	      "/proc,\n"
	      "no network, a filtered environment, Landlock and seccomp.\n"
	      "It never asks itself: ARGV runs as given, --command-b64 as a "
	      "door judged it.\n"
	      "The console stays out of reach inside; with approvals.broker "
	      "on, a door\n"
	      "inside (cordon hook, mcp, check) asks it through this run's "
	      "relay\n"
	      "(CORDON_BROKER_FD): the card says which run, grants last for "
	      "its session.\n"
	      "\n"
	      "options:\n"
	      "  --workspace DIR       the writable workspace (default: the "
	      "current\n"
	      "                        directory)\n"
	      "  --write PATH          another writable root (repeatable)\n"
	      "  --deny-read PATH|GLOB hide a path, or every match of a glob "
	      "such as\n"
	      "                        '**/*.pem' (repeatable; relative to the "
	      "workspace)\n"
	      "  --no-read-home        hide $HOME except the workspace, "
	      "toolchains and\n"
	      "                        shell rc files\n"
	      "  --cache-writes        make package caches (~/.cache, ~/.npm, "
	      "~/.cargo/registry\n"
	      "                        …) writable\n"
	      "  --network MODE        none (default: loopback only), host, "
	      "or proxy (only\n"
	      "                        the egress proxy, through "
	      "HTTP_PROXY, HTTPS_PROXY\n"
	      "                        and ALL_PROXY)\n"
	      "  --allow-host HOST     a host the proxy lets through: host, "
	      "*.domain,\n"
	      "                        host:port, an IP literal "
	      "(repeatable; implies\n"
	      "                        --network proxy; with "
	      "network.allowedDomains)\n"
	      "  --deny-host HOST      a host the proxy refuses, over any "
	      "allow (repeatable;\n"
	      "                        with network.deniedDomains)\n"
	      "  --control-port P      the proxy's control endpoint on the "
	      "host's\n"
	      "                        127.0.0.1:P, outside the sandbox: "
	      "POST /allow\n"
	      "                        (body: one host entry) adds a host "
	      "for this run,\n"
	      "                        GET /status lists the lists (implies "
	      "--network\n"
	      "                        proxy; needs --control-token-env)\n"
	      "  --control-token-env VAR\n"
	      "                        the bearer token is in $VAR (at least "
	      "16 bytes);\n"
	      "                        VAR is removed from the command's "
	      "environment\n"
	      "  --inject-host H       credential injection (implies "
	      "--network proxy):\n"
	      "                        plain HTTP to http://H/ leaves as "
	      "HTTPS to H with\n"
	      "                        the certificate checked, client "
	      "credentials dropped\n"
	      "                        and the secret added; CONNECT to H "
	      "is refused\n"
	      "  --inject-secret-env VAR\n"
	      "                        the secret is in $VAR (required); VAR "
	      "is removed\n"
	      "                        from the command's environment\n"
	      "  --inject-header NAME  its header (default Authorization)\n"
	      "  --inject-format F     its value, %s for the secret (default "
	      "'Bearer %s')\n"
	      "  --inject-cacert FILE  also trust the CAs in FILE (PEM)\n"
	      "  --inject-port P       the HTTPS port of H (default 443)\n"
	      "  --inject-allow-loopback\n"
	      "                        DANGEROUS, tests only: H may resolve "
	      "to loopback\n"
	      "  --memory MB           memory cap (default 4096; 0: none)\n"
	      "  --cpu SEC             CPU time cap\n"
	      "  --pids N              process cap (default 1024)\n"
	      "  --timeout SEC         kill the whole tree after SEC seconds "
	      "(status 124)\n"
	      "  --mode MODE           off, auto (default: best available, "
	      "warns when\n"
	      "                        degraded) or strict (refuse unless "
	      "fully enforced)\n"
	      "  --backend NAME        namespaces or landlock (default: the "
	      "best that\n"
	      "                        works here)\n"
	      "  --no-unix-sockets     forbid new unix sockets\n"
	      "  --no-pty              pass the caller's terminal through "
	      "(its mode\n"
	      "                        locked) instead of a pty cordon "
	      "relays\n"
	      "  --report FILE|-       write the run report (JSON) to FILE, or "
	      "stdout\n"
	      "  --argv-only           no shell: ARGV[0] must be in "
	      "--allow-cmd,\n"
	      "                        stdin is /dev/null, 30 s time-out, "
	      "1 MiB "
	      "of output\n"
	      "  --allow-cmd LIST      commands allowed with --argv-only "
	      "(comma-separated,\n"
	      "                        repeatable)\n"
	      "  --output-cap BYTES    keep at most BYTES of output (0: no "
	      "cap)\n"
	      "  --config FILE         a configuration file, applied after the "
	      "user and\n"
	      "                        project files\n"
	      "  --srt-settings FILE   srt's settings (filesystem.denyRead, "
	      "allowWrite,\n"
	      "                        denyWrite; network.allowedDomains …) "
	      "as one more\n"
	      "                        configuration layer (cordon config "
	      "import --from srt)\n"
	      "  --audit-log FILE      where the run and the proxy's decisions "
	      "are recorded\n"
	      "                        (default: audit.path, or "
	      "$XDG_STATE_HOME/cordon/\n"
	      "                        audit.jsonl; - for none)\n"
	      "  --probe               try each backend now and say which "
	      "works "
	      "and why\n"
	      "  --json                with --probe: one JSON object\n"
	      "  --agent NAME          claude, gemini or codex: the agent's "
	      "state directory\n"
	      "                        writable, its API hosts through the "
	      "proxy, its own\n"
	      "                        settings passed (never a key: see "
	      "--pass-env)\n"
	      "  --pass-env NAME       hand variable NAME to the command "
	      "past the filters\n"
	      "                        (repeatable; named on stderr and in "
	      "the report)\n"
	      "  --command-b64 B64     run 'bash -c' on the command B64 holds "
	      "(standard\n"
	      "                        base64; what 'cordon hook' writes), "
	      "instead of ARGV\n"
	      "  --command-sha256 HEX  that command's SHA-256: it runs only "
	      "when it\n"
	      "                        matches (required with "
	      "--command-b64)\n"
	      "  --audit-sync DEV:INO  fdatasync the --audit-log file DEV:INO "
	      "(or, rotated,\n"
	      "                        FILE.1) before the command starts; "
	      "it does not\n"
	      "                        run when that fails (what 'cordon "
	      "hook' writes:\n"
	      "                        its record is durable before the "
	      "command runs)\n"
	      "  --help                this text\n"
	      "\n"
	      "Exit status: the command's; 124 time-out; 125 cordon failed "
	      "before the\n"
	      "command started; 126 not executable or blocked; 127 not "
	      "found.\n",
	      out);
}

/* `cordon run`'s own options, beside runopts.c's: the command a hook
 * judged, carried as base64 (hooksbx.h). */
enum {
	OPT_COMMAND_B64 = CLI_RUNOPTS_HELP + 100, /* past agentpresets.c's */
	OPT_COMMAND_SHA256,
	OPT_AUDIT_SYNC,
};

struct run_command {
	const char *b64, *sha256;
	const char *audit_sync; /* --audit-sync DEV:INO */
};

/* cli_preset_longopts (runopts.c's and the presets') and the options
 * above, malloc'd; NULL when out of memory. */
static struct option *run_longopts(void)
{
	static const struct option own[] = {
		{ "command-b64", required_argument, NULL, OPT_COMMAND_B64 },
		{ "command-sha256", required_argument, NULL,
		  OPT_COMMAND_SHA256 },
		{ "audit-sync", required_argument, NULL, OPT_AUDIT_SYNC },
		{ NULL, 0, NULL, 0 },
	};
	const struct option *base = cli_preset_longopts();
	size_t n = 0;
	struct option *t;

	while (base[n].name)
		n++;
	t = calloc(n + sizeof(own) / sizeof(own[0]), sizeof(*t));
	if (!t)
		return NULL;
	memcpy(t, base, n * sizeof(*t));
	memcpy(t + n, own, sizeof(own));
	return t;
}

/* The options of `cordon run` (runopts.c), --command-b64/-sha256 and
 * --help. */
static int parse_options(int argc, char **argv, struct cli_runopts *r,
			 struct cli_preset *p, struct run_command *rc_cmd)
{
	struct option *longopts = run_longopts();
	int c, rc = 0;

	if (!longopts) {
		fputs("cordon run: out of memory\n", stderr);
		return RUN_EXIT_SETUP;
	}
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		if (cli_preset_owns(c)) {
			rc = cli_preset_option(p, r, c, optarg);
			if (rc)
				break;
			continue;
		}
		if (c == OPT_COMMAND_B64 || c == OPT_COMMAND_SHA256) {
			if (c == OPT_COMMAND_B64)
				rc_cmd->b64 = optarg;
			else
				rc_cmd->sha256 = optarg;
			continue;
		}
		if (c == OPT_AUDIT_SYNC) {
			rc_cmd->audit_sync = optarg;
			continue;
		}
		if (cli_runopts_owns(c)) {
			rc = cli_runopts_option(r, c, optarg);
			if (rc)
				break;
			continue;
		}
		if (c == 'h' || c == CLI_RUNOPTS_HELP) {
			cli_run_usage(stdout);
			rc = -1;
			break;
		}
		if (optopt && optopt < 256)
			rc = cli_runopts_usage_error(r, "unknown option '-%c'",
						     optopt);
		else
			rc = cli_runopts_usage_error(
				r, "unknown or incomplete option '%s'",
				argv[optind - 1]);
		break;
	}
	free(longopts);
	return rc;
}

/* --audit-log FILE is opened before the run; a symlink at its place (left
 * by an earlier run whose command could write there) would have cordon
 * append outside with the caller's rights: refused. */
static int audit_log_safe(const char *path)
{
	struct stat st;

	if (!path || strcmp(path, "-") == 0 || lstat(path, &st) != 0)
		return 0;
	if (S_ISLNK(st.st_mode) || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "cordon run: --audit-log %s: %s: refused\n",
			path,
			S_ISLNK(st.st_mode) ? "a symlink" :
					      "not a regular file");
		return RUN_EXIT_SETUP;
	}
	return 0;
}

/* --audit-sync: the file a hook's record went to, synced on a thread of
 * its own from the start of the run (the disk's wait overlaps loading the
 * configuration, the plan and the child's set-up) and waited for before
 * the command may exec (sandbox_opts.before_exec). The thread runs across
 * the child's clone, so it only makes system calls (audit_sync_job_run);
 * the message is made after the join. */
struct run_sync {
	struct audit_sync_job *job;
	pthread_t th;
	bool started, joined;
};

static void *sync_thread(void *arg)
{
	struct run_sync *s = arg;

	audit_sync_job_run(s->job);
	return NULL;
}

/* Starts the sync; without a thread it is taken here and now. */
static void sync_start(struct run_sync *s)
{
	/* No signal for this thread: the run's parent reads them from a
	 * signalfd (thread.h). */
	s->started = thread_nosig(&s->th, false, sync_thread, s) == 0;
	if (!s->started)
		(void)sync_thread(s);
}

static void sync_join(struct run_sync *s)
{
	if (s->started && !s->joined)
		pthread_join(s->th, NULL);
	s->joined = true;
}

static int sync_hook_record(void *ctx, char *err, size_t cap)
{
	struct run_sync *s = ctx;
	struct cordon_diag diag = { 0 };

	sync_join(s);
	if (audit_sync_job_result(s->job, &diag) == CORDON_OK)
		return 0;
	snprintf(err, cap, "%s", diag.message);
	return -1;
}

/* The run's before_exec (sandbox_opts): once the child is cloned, the
 * relays' threads start (their creation overlaps the child's set-up
 * instead of coming before the clone), then the hook's record is synced
 * (--audit-sync). A failure keeps the command from running. */
struct run_exec {
	struct run_sync *sync; /* NULL without --audit-sync */
	struct cli_audit_relay *relay;
	struct cli_broker_relay *brelay;
};

static int run_before_exec(void *ctx, char *err, size_t cap)
{
	struct run_exec *x = ctx;

	if (cli_audit_relay_run(x->relay) != 0 ||
	    cli_broker_relay_run(x->brelay) != 0) {
		snprintf(err, cap, "a relay for the doors inside: no thread");
		return -1;
	}
	return x->sync ? sync_hook_record(x->sync, err, cap) : 0;
}

/* What the run's end needs: the relays to stop, where the report and the
 * record go, and the exit status so far. */
struct run_end {
	struct cli_runopts *r;
	struct cli_preset *preset;
	struct cordon_audit *audit;
	char **argv;
	struct cli_audit_relay *relay;
	struct cli_broker_relay *brelay;
	char *report;
	int rc;
	bool done;
};

/* The relays stopped (no process of the run is left to send them
 * anything), the messages, --report and the audit record: from the
 * sandbox's on_end, while its namespaces are taken down, or after
 * sandbox_run when it did not call it. */
static void run_finish(struct sandbox_report *rep, void *arg)
{
	struct run_end *e = arg;
	struct cordon_diag diag;

	e->done = true;
	cli_broker_relay_stop(e->brelay, &e->r->sbx);
	cli_audit_relay_stop(e->relay, &e->r->sbx);
	e->brelay = NULL;
	e->relay = NULL;
	if (rep->error[0]) {
		if (strncmp(rep->error, "blocked:", 8) == 0)
			fprintf(stderr, "%s\n", rep->error);
		else
			fprintf(stderr, "cordon run: %s\n", rep->error);
	}
	for (size_t i = 0; i < rep->nquarantined; i++)
		fprintf(stderr, "cordon run: quarantined: %s\n",
			rep->quarantined[i]);
	e->rc = rep->status;
	e->report = cli_preset_report(e->preset, sandbox_report_json(rep));
	if (cli_preset_write_report(e->preset, e->r, rep, e->report) != 0 &&
	    e->rc == 0)
		e->rc = CLI_EXIT_FAILURE;
	if (!e->report ||
	    cordon_audit_run(e->audit, NULL, (const char *const *)e->argv,
			     e->report, &diag) != CORDON_OK) {
		/* The message names the audit log already. */
		fprintf(stderr, "cordon run: %s\n",
			e->report ? diag.message : "audit log: out of memory");
		if (e->rc == 0)
			e->rc = CLI_EXIT_FAILURE;
	}
}

int cli_run(int argc, char **argv)
{
	struct cli_runopts r;
	struct cli_preset preset = { 0 };
	struct cordon_config *cfg = NULL;
	struct sandbox_report rep;
	struct cordon_diag diag;
	struct cli_proxy_audit pa = { 0 };
	struct run_command cmd = { 0 };
	struct audit_file_id fid;
	struct run_sync sync = { 0 };
	struct cli_audit_relay *relay;
	struct cli_broker_relay *brelay;
	struct run_end end;
	struct run_exec xr = { 0 };
	enum cordon_err err;
	char *report = NULL, *judged = NULL, why[256];
	char *bash_argv[4] = { "bash", "-c", NULL, NULL };
	char **run_argv;
	int rc;

	cli_runopts_init(&r, "cordon run", "cordon run --help");
	rc = parse_options(argc, argv, &r, &preset, &cmd);
	if (rc < 0) {
		rc = CLI_EXIT_OK;
		goto out;
	}
	if (rc)
		goto out;
	if (r.probe) {
		rc = preset.json ? cli_preset_probe_json() :
				   cli_runopts_probe();
		goto out;
	}
	if (cmd.b64 || cmd.sha256) {
		if (!cmd.b64 || !cmd.sha256 || optind < argc) {
			rc = cli_runopts_usage_error(
				&r, "--command-b64 and --command-sha256 go "
				    "together, without ARGV");
			goto out;
		}
		judged = hooksbx_decode(cmd.b64, cmd.sha256, why, sizeof(why));
		if (!judged) {
			fprintf(stderr, "cordon run: %s\n", why);
			rc = RUN_EXIT_SETUP;
			goto out;
		}
		bash_argv[2] = judged;
	} else if (optind >= argc) {
		rc = cli_runopts_usage_error(&r, "no command given (cordon run "
						 "[OPTIONS] -- ARGV...)");
		goto out;
	}
	if (cmd.audit_sync) {
		if (!r.audit_log || strcmp(r.audit_log, "-") == 0 ||
		    audit_file_id_parse(cmd.audit_sync, &fid) != 0) {
			rc = cli_runopts_usage_error(
				&r, "--audit-sync DEV:INO (decimal) goes with "
				    "--audit-log FILE");
			goto out;
		}
		sync.job = audit_sync_job_new(r.audit_log, &fid, &diag);
		if (!sync.job) {
			fprintf(stderr, "cordon run: %s\n", diag.message);
			rc = RUN_EXIT_SETUP;
			goto out;
		}
		xr.sync = &sync;
		sync_start(&sync);
	}
	rc = cli_preset_apply(&preset, &r);
	if (rc)
		goto out;
	run_argv = judged ? bash_argv : argv + optind;
	rc = cli_runopts_check(&r);
	if (rc)
		goto out;
	rc = cli_runopts_load_config(&r, &cfg);
	if (rc)
		goto out;
	rc = cli_runopts_apply_config(&r, cfg);
	if (rc)
		goto out;
	rc = cli_preset_env(&preset, &r, cfg);
	if (rc)
		goto out;
	/* A run that cannot be recorded does not start. */
	if (audit_log_safe(r.audit_log) ||
	    cli_open_audit(cfg, r.audit_log, &pa.audit) != 0) {
		rc = RUN_EXIT_SETUP;
		goto out;
	}
	r.sbx.proxy_decision = cli_audit_proxy_decision;
	r.sbx.proxy_decision_ctx = &pa;
	/* The doors inside cannot write the log: they send it records. */
	relay = cli_audit_relay_start(pa.audit, &r.sbx);
	if (!relay) {
		rc = RUN_EXIT_SETUP;
		goto out;
	}
	/* What they would ask reaches the console through this run. */
	if (cli_broker_relay_start(cfg, &r.sbx, run_argv, &brelay) != 0) {
		cli_audit_relay_stop(relay, &r.sbx);
		rc = RUN_EXIT_SETUP;
		goto out;
	}

	xr.relay = relay;
	xr.brelay = brelay;
	r.sbx.before_exec = run_before_exec;
	r.sbx.before_exec_ctx = &xr;
	end = (struct run_end){ .r = &r,
				.preset = &preset,
				.audit = pa.audit,
				.argv = run_argv,
				.relay = relay,
				.brelay = brelay };
	r.sbx.on_end = run_finish;
	r.sbx.on_end_arg = &end;
	err = sandbox_run(&r.sbx, run_argv, &rep, &diag);
	if (err != CORDON_OK) {
		cli_broker_relay_stop(end.brelay, &r.sbx);
		cli_audit_relay_stop(end.relay, &r.sbx);
		fprintf(stderr, "cordon run: %s\n", diag.message);
		rc = RUN_EXIT_SETUP;
		goto out;
	}
	if (!end.done)
		run_finish(&rep, &end);
	rc = end.rc;
	report = end.report;
out:
	sync_join(&sync);
	audit_sync_job_free(sync.job);
	free(report);
	free(judged);
	if (cordon_audit_close(pa.audit) != CORDON_OK && rc == 0)
		rc = CLI_EXIT_FAILURE;
	cli_runopts_free(&r);
	cli_preset_free(&preset);
	cordon_config_free(cfg);
	return rc;
}
