/* sandbox — run an argv with kernel-enforced limits (cordon run).
 *
 * sandbox_run() forks a child that sets itself up, in this order, and then
 * execs the command:
 *   1. new session (setsid), parent-death signal SIGKILL with the
 *      parent-race check (getppid() against the pid recorded before fork);
 *   2. backend "namespaces": clone with user, mount, PID, IPC, UTS and
 *      (network none/proxy) network namespaces; uid/gid maps to the
 *      caller's ids; a private mount tree: "/" bind-mounted read-only (all
 *      submounts too, MS_REC), writable roots bind-mounted read-write
 *      (workspace, --write, caches), a tmpfs /tmp, a fresh /proc, a
 *      minimal /dev (null zero full random urandom tty, pts, shm: its
 *      own tmpfs; the tmpfs mounts share --memory through size=),
 *      credential locations masked (an empty read-only tmpfs over
 *      directories, /dev/null over files), --deny-read paths masked the
 *      same way (globs expanded at launch), "run later" paths re-bound
 *      read-only inside writable roots (.git/hooks and .git/config of the
 *      workspace and of nested repositories and submodules, following
 *      "gitdir:" files; .cordon .claude .codex .vscode .idea; shell rc
 *      files; a missing one is protected from being created by mounting
 *      an empty read-only directory or /dev/null at its place), the
 *      deny_write paths and glob matches re-bound read-only the same
 *      way, then pivot_root; loopback brought up in a new network
 *      namespace;
 *      backend "landlock": no namespaces (Docker, Ubuntu's AppArmor
 *      restriction): the steps that need them are reported in
 *      notEnforced;
 *   3. rlimits (RLIMIT_AS from memory_mb, RLIMIT_CPU, RLIMIT_NPROC from
 *      pids, RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_CORE 0), a cgroup v2 leaf
 *      with memory.max and pids.max when a writable hierarchy exists;
 *   4. the filtered environment (envfilter.h);
 *   5. no_new_privs, Landlock (landlock.h; with the $HOME no-create and
 *      read layers of child.c), then the seccomp filter
 *      (syscallfilter.h) last;
 *   6. execvp, with stdio only as cordon made it: the caller's files and
 *      devices relayed through pipes, a directory refused, a terminal
 *      passed with its mode locked.
 * After the command, on the host, the sweep (sweep.c) moves aside what
 * git or another program would run later and the run made.
 * Every step that fails names the path and the step ("mount /home/u/.ssh
 * (credential mask): Permission denied"), never a bare errno, and is sent
 * to the parent over a CLOEXEC pipe; the parent exits 125 with it.
 *
 * The parent waits with a timeout (timeout_s): on expiry it kills the
 * child (PID 1 of the namespace: every descendant dies with it; for the
 * landlock backend the process group) and reports timedOut, status 124.
 */
#ifndef CORDON_SANDBOX_H
#define CORDON_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "strlist.h"
#include "cordon.h"

enum sandbox_mode {
	SANDBOX_MODE_OFF = 0,    /* no sandbox: exec directly, enforcement none */
	SANDBOX_MODE_AUTO = 1,   /* best available; warns when degraded */
	SANDBOX_MODE_STRICT = 2, /* refuses (125) unless enforcement is full */
};

enum sandbox_backend {
	SANDBOX_BACKEND_BEST = 0,       /* namespaces when the probe says so */
	SANDBOX_BACKEND_NAMESPACES = 1, /* namespaces + Landlock + seccomp */
	SANDBOX_BACKEND_LANDLOCK = 2,   /* Landlock + seccomp + rlimits only */
};

struct sandbox_report;
struct proxy_decision;

enum sandbox_network {
	SANDBOX_NET_NONE = 0,  /* new network namespace, loopback only */
	SANDBOX_NET_HOST = 1,
	/* the egress proxy (proxy.h), served by the calling process:
	 * namespaces backend: a network namespace with only loopback, where
	 * 127.0.0.1:SANDBOX_PROXY_PORT is a listening socket made inside it and
	 * handed out; landlock backend: the proxy on the host's loopback
	 * and Landlock TCP connect to its port only. HTTP_PROXY,
	 * HTTPS_PROXY, ALL_PROXY (and lower case) point at it; NO_PROXY is
	 * emptied. */
	SANDBOX_NET_PROXY = 2,
};

#define SANDBOX_PROXY_PORT 3128 /* inside the sandbox's network namespace */
#define SANDBOX_MAX_HOSTS 1024 /* allow_hosts, deny_hosts */

/* The slots of sandbox_opts.pass_fds and pass_sockets: one per relay. */
enum { SANDBOX_PASS_AUDIT, SANDBOX_PASS_BROKER, SANDBOX_PASS_MAX };

struct sandbox_opts {
	const char *workspace;        /* writable root; NULL: cwd */
	const char *const *write;     /* extra writable roots */
	size_t nwrite;
	const char *const *deny_read; /* paths or globs */
	size_t ndeny_read;
	bool no_read_home;
	bool cache_writes;            /* ~/.cache ~/.npm ~/.cargo/registry … */
	enum sandbox_network network;
	unsigned long memory_mb;      /* 0: no cap; default 4096 */
	unsigned long cpu_s;          /* 0: no cap */
	unsigned long pids;           /* 0: default 1024 */
	unsigned long timeout_s;      /* 0: none */
	enum sandbox_mode mode;
	enum sandbox_backend backend;
	bool no_unix_sockets;
	/* Added for the terminal relay: the caller's terminal passes
	 * through (its mode locked) instead of a pty cordon makes. */
	bool no_pty;
	/* the environment */
	const struct strlist *env_allow; /* NULL: no allow-list */
	const struct strlist *env_deny;  /* applied after, always */
	char *const *extra_env;       /* from the C API host: not filtered */
	/* argv-only (cordon_shell_run, --argv-only): */
	bool argv_only;
	const char *const *allow_cmds;
	size_t nallow_cmds;
	size_t output_cap;            /* bytes of stdout+stderr kept; 0: none */
	int stdin_null;
	/* Added by the sandbox module: when capture_out is set, stdout and
	 * stderr (interleaved, at most output_cap bytes when set, 64 MiB in
	 * any case) land in a malloc'd NUL-terminated buffer the caller
	 * frees, instead of the caller's fds. */
	char **capture_out;
	size_t *capture_len;
	/* Added by the sandbox module: called in the parent with the
	 * backend, enforcement and notEnforced filled, just before the
	 * command starts (the CLI warns there when degraded). */
	void (*on_start)(const struct sandbox_report *rep, void *arg);
	void *on_start_arg;
	/* Called once the run's end is confirmed (no process of it is left
	 * to run or write) and rep is final (status, sweep, placeholders,
	 * durationMs), before the sandbox's own last process is reaped and
	 * the cgroup leaf let go: what the caller does with the report (the
	 * CLI writes the audit record and --report there) overlaps the
	 * namespaces' teardown. Not called when sandbox_run returns an
	 * error, nor for an argv-only refusal. */
	void (*on_end)(struct sandbox_report *rep, void *arg);
	void *on_end_arg;
	/* Added for network proxy: the proxy's lists (hostlist.h entries;
	 * an empty allow list denies everything). */
	const char *const *allow_hosts;
	size_t nallow_hosts;
	const char *const *deny_hosts;
	size_t ndeny_hosts;
	/* extra denied address ranges for the proxy (CIDR; the config's
	 * network.deniedResolvedAddresses) */
	const char *const *deny_ranges;
	size_t ndeny_ranges;
	/* Added for the proxy's control endpoint (proxy.h): "ADDR:PORT" on
	 * the host's loopback, outside the sandbox, and its bearer token;
	 * NULL: none. The caller keeps the token's variable out of the
	 * command's environment (env_deny). */
	const char *control_listen;
	const char *control_token;
	/* Added for credential injection: proxy.h proxy_options.inject_*
	 * (inject_host NULL: none). The caller keeps the secret's variable
	 * out of the command's environment (env_deny). */
	const char *inject_host;
	const char *inject_secret;
	const char *inject_header;
	const char *inject_format;
	const char *inject_cacert;
	unsigned inject_port;
	bool inject_allow_loopback; /* DANGEROUS, tests only */
	/* Added for the audit log: each of the proxy's decisions (proxy.h
	 * proxy_decision_fn; called in the parent, on the proxy's thread). */
	void (*proxy_decision)(void *ctx, const struct proxy_decision *d);
	void *proxy_decision_ctx;
	/* Added for deny_write (srt's filesystem.denyWrite, the config's
	 * safety.sandbox.deny_write): paths or globs (relative: to the
	 * workspace; "~/": $HOME; a name without '/' matches at any depth,
	 * as --deny-read) made read-only inside the writable roots.
	 * Namespaces: re-bound read-only like the "run later" paths (globs
	 * expanded at launch; a missing path protected from creation; the
	 * directories between its writable root and it pinned); a symlink
	 * is refused. Landlock and mode off: reported in notEnforced. */
	const char *const *deny_write;
	size_t ndeny_write;
	/* Added for the relays of the doors inside (the audit relay,
	 * src/audit/relay.h, in slot SANDBOX_PASS_AUDIT; the broker relay,
	 * src/policy/broker.h, in SANDBOX_PASS_BROKER): descriptors above 2
	 * the command inherits under their own numbers (CLOEXEC cleared in
	 * the child only; the caller names them in extra_env); 0: none.
	 * The only descriptors past stdio the command gets. */
	int pass_fds[SANDBOX_PASS_MAX];
	/* The relays' socket paths: left unmasked (the host sockets mask
	 * skips them) and reachable under --no-unix-sockets; NULL: none. */
	const char *pass_sockets[SANDBOX_PASS_MAX];
	/* Added for the hook's audit record (cli/run.c --audit-sync): called
	 * in the parent after the clone, while the child sets up, and
	 * before the child may exec (before it is sent its seccomp program;
	 * in mode off, before the clone). Nonzero: the command does not run
	 * (status 125, the text it put in err the report's error). NULL:
	 * none. */
	int (*before_exec)(void *ctx, char *err, size_t cap);
	void *before_exec_ctx;
	/* Added for the MCP gateway: a pidfd (above 2; 0: none) of the
	 * process the run belongs to. When that process ends, the run is
	 * given owner_grace_ms to end (the caller arranges that the
	 * command is asked to, as the gateway's parent-death SIGTERM does),
	 * then ended as a time-out ends it: its tree killed, the sweep
	 * after it, and rep->error saying the owner went. */
	int owner_pidfd;
	unsigned long owner_grace_ms;
};

struct sandbox_report {
	const char *backend;       /* "namespaces", "landlock", "none" */
	const char *enforcement;   /* "full", "partial", "none" */
	char not_enforced[16][96]; /* what was asked and not applied */
	size_t nnot_enforced;
	/* What holds as asked but is weaker than it sounds (RLIMIT_AS is per
	 * process; root still reads what root can read): reported as
	 * "caveats", without making enforcement partial. */
	char caveats[16][128];
	size_t ncaveats;
	int exit_code;             /* -1 when killed by a signal */
	int signal;                /* 0 when none */
	bool timed_out;
	unsigned long duration_ms;
	int status;                /* what cordon run exits with */
	char error[512];           /* when status is 125: why */
	bool output_truncated;     /* the output cap was reached */
	/* What holds for a unix socket bound after the launch: checked at
	 * each connect, or only the masks made at the start. "" in mode
	 * off. */
	char late_sockets[64];
	/* What the sweep after the run moved aside (sweep.c): git
	 * directories, modules, worktrees, hooks and configs that execute,
	 * new during the run. */
	char quarantined[8][192];
	size_t nquarantined;
	size_t quarantined_more; /* and this many more */
};

/* Runs argv. Returns CORDON_OK with rep filled (the command ran, or was
 * refused with status 125/126/127 and rep->error), or an error before
 * anything was started. */
enum cordon_err sandbox_run(const struct sandbox_opts *o, char *const argv[],
			struct sandbox_report *rep, struct cordon_diag *diag);

/* The report as the JSON object of DESIGN.md. malloc'd. */
char *sandbox_report_json(const struct sandbox_report *rep);

/* Probes each backend by really running a maximal wrap of a no-op; the
 * verdict is cached per kernel release and binary version (in
 * $XDG_CACHE_HOME/cordon/probe.json) unless fresh is set. why gets one line
 * per backend. Returns the best backend that works, or -1 for none. */
int sandbox_probe(bool fresh, char *why, size_t whycap);

/* For a caller that only needs to know that some backend works, and does
 * not start one itself (a hook rewriting a command into `cordon run`,
 * which probes again when it starts): a cached verdict naming a backend is
 * believed as it stands, with no check in a child; none cached, or a
 * cached "none works", is sandbox_probe(false, ...). */
int sandbox_probe_any(char *why, size_t whycap);

#endif
