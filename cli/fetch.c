/* cordon fetch — an SSRF-safe HTTP(S) GET (src/net/fetch.h).
 *
 * Prints the body to stdout, or with --json one object: status, finalUrl,
 * contentType, body (text when it is valid UTF-8 without NUL, else base64,
 * as bodyEncoding says), truncated, redirects. Exit status: 0 for a 2xx
 * answer; 1 for a refused or failed fetch (nothing on stdout, the reason on
 * stderr) and for an answer with another status (printed, the status named
 * on stderr); 2 for usage errors.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "cordon.h"
#include "fetch.h"
#include "netaddr.h"
#include "text.h"

#include "banned.h"

void cli_fetch_usage(FILE *out)
{
	fputs("usage: cordon fetch [OPTIONS] URL\n"
	      "\n"
	      "Fetch an http or https URL with the resolved-address guard:\n"
	      "loopback, private, link-local, cloud-metadata and this host's\n"
	      "own addresses are refused, in every spelling, on every "
	      "redirect.\n"
	      "\n"
	      "options:\n"
	      "  --max-redirects N   follow at most N redirects (default 5)\n"
	      "  --max-bytes N       cut the body after N bytes (default "
	      "10485760)\n"
	      "  --timeout S         total time limit in seconds (default "
	      "30)\n"
	      "  --cacert FILE       also trust the CA certificates in FILE\n"
	      "  --resolve HOST:ADDR use ADDR for HOST instead of DNS "
	      "(repeatable);\n"
	      "                      ADDR is still judged by the guard\n"
	      "  --deny-range CIDR   also refuse addresses in CIDR "
	      "(repeatable)\n"
	      "  --json              print a JSON object instead of the body\n"
	      "  --config FILE       a configuration file (for audit.*)\n"
	      "  --audit-log FILE    where the fetch is recorded (default: "
	      "audit.path,\n"
	      "                      or $XDG_STATE_HOME/cordon/audit.jsonl; "
	      "- for none)\n"
	      "  --allow-address-class loopback\n"
	      "                      DANGEROUS, for tests only: let loopback\n"
	      "                      addresses (127.0.0.0/8, ::1) through the\n"
	      "                      guard, so a local test server can be\n"
	      "                      reached. Never with untrusted URLs.\n"
	      "\n"
	      "Exit status: 0 on a 2xx answer, 1 when the fetch was refused,\n"
	      "failed or answered another status, 2 on usage errors.\n",
	      out);
}

static int print_json(const struct fetch_result *r)
{
	cJSON *obj = cJSON_CreateObject();
	char *b64 = NULL, *text;
	bool utf8 = r->body_len == 0 ||
		    text_utf8_valid((const char *)r->body, r->body_len, false);
	int ok = obj != NULL;

	if (ok && !utf8) {
		b64 = text_b64_encode(r->body, r->body_len);
		ok = b64 != NULL;
	}
	ok = ok && cJSON_AddNumberToObject(obj, "status", r->status);
	ok = ok && cJSON_AddStringToObject(obj, "finalUrl",
					   r->final_url ? r->final_url : "");
	if (ok && r->content_type)
		ok = cJSON_AddStringToObject(obj, "contentType",
					     r->content_type) != NULL;
	else if (ok)
		ok = cJSON_AddNullToObject(obj, "contentType") != NULL;
	ok = ok && cJSON_AddStringToObject(obj, "bodyEncoding",
					   utf8 ? "utf-8" : "base64");
	ok = ok && cJSON_AddStringToObject(
			   obj, "body",
			   utf8 ? (r->body ? (const char *)r->body : "") : b64);
	ok = ok && cJSON_AddBoolToObject(obj, "truncated", r->truncated);
	ok = ok && cJSON_AddNumberToObject(obj, "redirects", r->redirects);
	text = ok ? cJSON_PrintUnformatted(obj) : NULL;
	cJSON_Delete(obj);
	free(b64);
	if (!text) {
		fputs("cordon fetch: out of memory\n", stderr);
		return -1;
	}
	puts(text);
	free(text);
	return 0;
}

static int parse_count(const char *s, unsigned long long max,
		       unsigned long long *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = v;
	return 0;
}

static int push(const char ***list, size_t *n, const char *s)
{
	const char **nl;

	if (*n >= FETCH_MAX_RESOLVE * 64)
		return -1;
	nl = realloc(*list, (*n + 1) * sizeof(**list));
	if (!nl)
		return -1;
	nl[(*n)++] = s;
	*list = nl;
	return 0;
}

/* Records the fetch (event "fetch": url, status, refused, error, bytes);
 * 0, or -1 after saying why on stderr: a fetch that cannot be recorded
 * is not handed over. */
static int record_fetch(struct cordon_audit *audit, const char *url,
			enum cordon_err err, const struct fetch_result *r)
{
	struct cordon_diag diag = { 0 };
	cJSON *o = cJSON_CreateObject();
	char *js = NULL;
	bool ok = o && cJSON_AddStringToObject(o, "url", url) &&
		  cJSON_AddNumberToObject(o, "status", r->status) &&
		  cJSON_AddBoolToObject(o, "refused", r->refused) &&
		  cJSON_AddNumberToObject(o, "bytes", (double)r->body_len) &&
		  (err == CORDON_OK ||
		   cJSON_AddStringToObject(o, "error", r->error));

	if (ok)
		js = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (!js) {
		fputs("cordon fetch: out of memory\n", stderr);
		return -1;
	}
	if (cordon_audit_event(audit, "fetch", js, &diag) != CORDON_OK) {
		fprintf(stderr, "cordon fetch: %s\n", diag.message);
		free(js);
		return -1;
	}
	free(js);
	return 0;
}

int cli_fetch(int argc, char **argv)
{
	enum {
		OPT_MAX_REDIRECTS = 256,
		OPT_MAX_BYTES,
		OPT_TIMEOUT,
		OPT_CACERT,
		OPT_RESOLVE,
		OPT_DENY_RANGE,
		OPT_JSON,
		OPT_ALLOW_CLASS,
		OPT_CONFIG,
		OPT_AUDIT_LOG,
	};
	static const struct option longopts[] = {
		{ "max-redirects", required_argument, NULL, OPT_MAX_REDIRECTS },
		{ "max-bytes", required_argument, NULL, OPT_MAX_BYTES },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "cacert", required_argument, NULL, OPT_CACERT },
		{ "resolve", required_argument, NULL, OPT_RESOLVE },
		{ "deny-range", required_argument, NULL, OPT_DENY_RANGE },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "allow-address-class", required_argument, NULL,
		  OPT_ALLOW_CLASS },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "audit-log", required_argument, NULL, OPT_AUDIT_LOG },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fetch_options o;
	struct fetch_result r;
	const char **resolve = NULL, **ranges = NULL;
	size_t nresolve = 0, nranges = 0;
	unsigned long long v;
	bool json = false;
	const char *config = NULL, *audit_log = NULL;
	struct cordon_config *cfg = NULL;
	struct cordon_audit *audit = NULL;
	int c, rc = CLI_EXIT_USAGE;
	enum cordon_err err;

	fetch_options_default(&o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_MAX_REDIRECTS:
			if (parse_count(optarg, FETCH_MAX_REDIRECTS, &v)) {
				fprintf(stderr,
					"cordon fetch: --max-redirects needs "
					"a number from 0 to %u\n",
					(unsigned)FETCH_MAX_REDIRECTS);
				goto out;
			}
			o.max_redirects = (unsigned)v;
			break;
		case OPT_MAX_BYTES:
			if (parse_count(optarg, SIZE_MAX / 2, &v) || v == 0) {
				fputs("cordon fetch: --max-bytes needs a "
				      "positive number\n",
				      stderr);
				goto out;
			}
			o.max_body = (size_t)v;
			break;
		case OPT_TIMEOUT: {
			char *end;
			double s;

			errno = 0;
			s = strtod(optarg, &end);
			if (errno || *end || end == optarg || !isfinite(s) ||
			    s <= 0 || s > 86400) {
				fputs("cordon fetch: --timeout needs seconds "
				      "above 0 and at most 86400\n",
				      stderr);
				goto out;
			}
			o.timeout_ms = (unsigned)(s * 1000.0);
			if (o.timeout_ms == 0)
				o.timeout_ms = 1;
			if (o.connect_timeout_ms > o.timeout_ms)
				o.connect_timeout_ms = o.timeout_ms;
			break;
		}
		case OPT_CACERT:
			o.ca_file = optarg;
			break;
		case OPT_RESOLVE:
			if (push(&resolve, &nresolve, optarg))
				goto nomem;
			break;
		case OPT_DENY_RANGE:
			if (push(&ranges, &nranges, optarg))
				goto nomem;
			break;
		case OPT_JSON:
			json = true;
			break;
		case OPT_CONFIG:
			config = optarg;
			break;
		case OPT_AUDIT_LOG:
			audit_log = optarg;
			break;
		case OPT_ALLOW_CLASS:
			if (strcmp(optarg, "loopback") != 0) {
				fprintf(stderr,
					"cordon fetch: --allow-address-class "
					"takes only \"loopback\" (tests), not "
					"'%s'\n",
					optarg);
				goto out;
			}
			o.allow_classes |= 1u << NETADDR_CLASS_LOOPBACK;
			break;
		case 'h':
			cli_fetch_usage(stdout);
			rc = CLI_EXIT_OK;
			goto out;
		case ':':
		default:
			cli_getopt_error("fetch", c, argv);
			goto usage;
		}
	}
	if (optind + 1 != argc) {
		fputs(optind == argc ? "cordon fetch: no URL\n" :
				       "cordon fetch: more than one URL\n",
		      stderr);
		goto usage;
	}
	o.resolve = resolve;
	o.nresolve = nresolve;
	o.deny_ranges = ranges;
	o.ndeny_ranges = nranges;
	/* A server closing early must not kill us with SIGPIPE (OpenSSL
	 * writes with write(2)). */
	signal(SIGPIPE, SIG_IGN);
	rc = cli_load_config(&cfg, config, NULL);
	if (rc)
		goto out;
	rc = cli_open_audit(cfg, audit_log, &audit);
	if (rc)
		goto out;
	err = fetch_fetch(argv[optind], &o, &r);
	if (record_fetch(audit, argv[optind], err, &r) != 0) {
		fetch_result_free(&r);
		rc = CLI_EXIT_FAILURE;
		goto out;
	}
	if (err != CORDON_OK) {
		fprintf(stderr, "cordon fetch: %s: %s\n",
			r.refused ? "refused" : "failed", r.error);
		rc = (err == CORDON_E_INVAL && !r.refused) ? CLI_EXIT_USAGE :
							     CLI_EXIT_FAILURE;
		fetch_result_free(&r);
		goto out;
	}
	if (json) {
		if (print_json(&r)) {
			fetch_result_free(&r);
			rc = CLI_EXIT_FAILURE;
			goto out;
		}
	} else if (r.body_len &&
		   fwrite(r.body, 1, r.body_len, stdout) != r.body_len) {
		fputs("cordon fetch: cannot write the body\n", stderr);
		fetch_result_free(&r);
		rc = CLI_EXIT_FAILURE;
		goto out;
	}
	if (r.truncated)
		fprintf(stderr,
			"cordon fetch: body truncated at %zu bytes "
			"(--max-bytes)\n",
			r.body_len);
	if (r.status >= 200 && r.status <= 299) {
		rc = CLI_EXIT_OK;
	} else {
		fprintf(stderr, "cordon fetch: %s answered status %d\n",
			r.final_url ? r.final_url : "the server", r.status);
		rc = CLI_EXIT_FAILURE;
	}
	fetch_result_free(&r);
	if (fflush(stdout) != 0 && rc == CLI_EXIT_OK)
		rc = CLI_EXIT_FAILURE;
	goto out;
nomem:
	fputs("cordon fetch: out of memory\n", stderr);
	rc = CLI_EXIT_FAILURE;
	goto out;
usage:
	cli_fetch_usage(stderr);
	rc = CLI_EXIT_USAGE;
out:
	if (cordon_audit_close(audit) != CORDON_OK && rc == CLI_EXIT_OK)
		rc = CLI_EXIT_FAILURE;
	cordon_config_free(cfg);
	free(resolve);
	free(ranges);
	return rc;
}
