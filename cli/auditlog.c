/* Opening the audit log the way every door does: --audit-log, else the
 * configuration, else the default file under $XDG_STATE_HOME.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "atomic.h"
#include "cli.h"
#include "config.h"
#include "cordon.h"
#include "proxy.h"

#include "banned.h"

/* The default file; 0, or -1 when there is no home to put it in. */
int cli_audit_default_path(char *buf, size_t cap)
{
	return atomic_state_path(NULL, "audit.jsonl", buf, cap);
}

int cli_open_audit(const struct cordon_config *cfg, const char *flag_path,
		   struct cordon_audit **out)
{
	struct cordon_audit_opts o = { 0 };
	struct cordon_diag diag = { 0 };
	char path[PATH_MAX];
	const char *file = flag_path ? flag_path : cfg->audit_path;

	if (!file) {
		if (cli_audit_default_path(path, sizeof(path)) != 0) {
			fprintf(stderr,
				"cordon: audit.path: no default place for the "
				"audit log (HOME and XDG_STATE_HOME are unset "
				"or relative); set audit.path or --audit-log\n");
			return CLI_EXIT_USAGE;
		}
		file = path;
	}
	o.path = strcmp(file, "-") == 0 ? NULL : file;
	if (!cfg->audit_fsync || strcmp(cfg->audit_fsync, "every") == 0)
		o.fsync_policy = CORDON_AUDIT_FSYNC_EVERY;
	else if (strcmp(cfg->audit_fsync, "batch") == 0)
		o.fsync_policy = CORDON_AUDIT_FSYNC_BATCH;
	else
		o.fsync_policy = CORDON_AUDIT_FSYNC_NEVER;
	o.rotate_bytes = cfg->audit_rotate_bytes;
	o.rotate_keep = cfg->audit_rotate_keep;
	o.syslog = cfg->audit_syslog;
	o.to_stderr = cfg->audit_stderr;
	o.log_all_commands = cfg->log_all_commands;
	o.key_file = cfg->audit_key_file;
	if (cordon_audit_open(&o, out, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon: audit log: %s\n", diag.message);
		return CLI_EXIT_FAILURE;
	}
	if (cordon_audit_warning(*out))
		fprintf(stderr, "cordon: warning: %s\n",
			cordon_audit_warning(*out));
	return CLI_EXIT_OK;
}

void cli_audit_proxy_decision(void *ctx, const struct proxy_decision *d)
{
	struct cli_proxy_audit *pa = ctx;
	struct cordon_diag diag = { 0 };
	cJSON *o = cJSON_CreateObject();
	char *js = NULL;

	if (pa->verbose) {
		/* an IPv6 target in brackets, as the proxy's answers name it */
		bool v6 = strchr(d->host, ':') != NULL;

		fprintf(stderr, "cordon proxy: %s %s %s%s%s:%u%s%s: %s\n",
			d->allowed ? "allow" : "deny", d->proto, v6 ? "[" : "",
			d->host, v6 ? "]" : "", d->port,
			d->addr[0] ? " via " : "", d->addr, d->rule);
	}
	if (!pa->audit)
		return;
	if (o && cJSON_AddStringToObject(o, "proto", d->proto) &&
	    cJSON_AddStringToObject(o, "target", d->host) &&
	    cJSON_AddNumberToObject(o, "port", d->port) &&
	    cJSON_AddStringToObject(o, "verdict",
				    d->allowed ? "allow" : "deny") &&
	    cJSON_AddStringToObject(o, "kind", d->kind) &&
	    cJSON_AddStringToObject(o, "rule", d->rule) &&
	    cJSON_AddStringToObject(o, "addr", d->addr) &&
	    (!pa->session ||
	     cJSON_AddStringToObject(o, "session", pa->session)))
		js = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!js ||
	    cordon_audit_event(pa->audit, "proxy", js, &diag) != CORDON_OK) {
		if (!pa->failed)
			fprintf(stderr, "cordon: audit log: %s\n",
				js ? diag.message : "out of memory");
		pa->failed = 1;
	}
	free(js);
}
