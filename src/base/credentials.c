/* credentials — the one table of what a sandboxed command never reads
 * in the home directory (credentials.h): plan.c masks every row on the
 * namespaces backend and leaves it out of the Landlock read layer
 * (child.c), seatbelt.c denies it in the macOS profile. One row a
 * location, each in the place its program keeps it (on Linux and on
 * macOS: a row of the other system's does not exist here and costs one
 * lstat). The rule for a file that is also a build's configuration:
 * masked when the program's own login command writes the secret there
 * (npm login: .npmrc; yarn npm login: .yarnrc.yml; docker login, cargo
 * login, terraform login …); left readable when it is configuration the
 * user writes by hand and a build reads (~/.gitconfig, Maven's
 * settings.xml, gradle.properties, NuGet.Config, pip.conf, .terraformrc:
 * README's `cordon run` says so, and --deny-read hides them).
 */
#include <stdio.h>

#include "atomic.h"
#include "credentials.h"
#include "text.h"

#include "banned.h"

#define ROW(b, d, p)                                                           \
	{                                                                      \
		CREDENTIALS_##b, (d) + TEXT_FITS(p, CREDENTIALS_PATH_MAX), p   \
	}
#define D(b, p) ROW(b, true, p)
#define F(b, p) ROW(b, false, p)

const struct credentials_row credentials_table[] = {
	/* keys, password stores, keyrings */
	D(HOME, ".ssh"),
	D(HOME, ".gnupg"),
	D(HOME, ".password-store"),
	D(DATA, "keyrings"),
	D(CONFIG, "op"),
	D(HOME, ".op"),
	D(CONFIG, "Bitwarden CLI"),
	D(CONFIG, "Bitwarden"),
	D(HOME, "Library/Application Support/Bitwarden CLI"),
	D(HOME, "Library/Keychains"),
	/* cloud CLIs */
	D(HOME, ".aws"),
	D(HOME, ".azure"),
	D(CONFIG, "gcloud"),
	D(HOME, ".oci"),
	D(CONFIG, "doctl"),
	D(HOME, "Library/Application Support/doctl"),
	D(CONFIG, "linode-cli"),
	D(CONFIG, "hcloud"),
	D(HOME, ".fly"),
	D(CONFIG, "netlify"),
	D(HOME, ".netlify"),
	D(DATA, "com.vercel.cli"),
	D(HOME, "Library/Application Support/com.vercel.cli"),
	D(HOME, ".vercel"),
	D(CONFIG, ".wrangler"),
	D(HOME, ".wrangler"),
	F(HOME, ".terraform.d/credentials.tfrc.json"),
	F(HOME, ".pulumi/credentials.json"),
	F(HOME, ".vault-token"),
	D(HOME, ".kube"),
	F(CONFIG, "helm/registry/config.json"),
	D(HOME, ".docker"),
	F(CONFIG, "containers/auth.json"),
	D(CONFIG, "rclone"),
	F(HOME, ".s3cfg"),
	F(HOME, ".boto"),
	/* forges, package registries, databases */
	F(HOME, ".netrc"),
	F(HOME, ".git-credentials"),
	F(CONFIG, "git/credentials"),
	D(CONFIG, "gh"),
	F(CONFIG, "hub"),
	D(CONFIG, "glab-cli"),
	D(HOME, "Library/Application Support/glab-cli"),
	F(HOME, ".npmrc"),
	F(HOME, ".yarnrc.yml"),
	D(CONFIG, "configstore"),
	F(HOME, ".pypirc"),
	F(CONFIG, "pypoetry/auth.toml"),
	F(HOME, "Library/Application Support/pypoetry/auth.toml"),
	F(HOME, ".cargo/credentials"),
	F(HOME, ".cargo/credentials.toml"),
	F(HOME, ".gem/credentials"),
	F(DATA, "gem/credentials"),
	F(CONFIG, "composer/auth.json"),
	F(HOME, ".composer/auth.json"),
	F(HOME, ".m2/settings-security.xml"),
	F(HOME, ".pgpass"),
	F(HOME, ".my.cnf"),
	/* the agents' own logins */
	F(HOME, ".claude/.credentials.json"),
	F(HOME, ".claude.json"),
	F(HOME, ".codex/auth.json"),
	F(HOME, ".gemini/oauth_creds.json"),
	F(HOME, ".gemini/mcp-oauth-tokens.json"),
	F(HOME, ".gemini/gemini-credentials.json"),
	D(CONFIG, "github-copilot"),
	/* histories: shells, REPLs and database clients, pagers, editors,
	 * recently used files */
	F(HOME, ".bash_history"),
	F(HOME, ".zsh_history"),
	F(HOME, ".zhistory"),
	F(HOME, ".histfile"),
	F(HOME, ".sh_history"),
	F(HOME, ".history"),
	D(HOME, ".bash_sessions"),
	D(HOME, ".zsh_sessions"),
	F(DATA, "fish/fish_history"),
	D(DATA, "atuin"),
	F(HOME, ".python_history"),
	F(HOME, ".ipython/profile_default/history.sqlite"),
	F(HOME, ".node_repl_history"),
	F(HOME, ".irb_history"),
	F(HOME, ".psql_history"),
	F(HOME, ".mysql_history"),
	F(HOME, ".sqlite_history"),
	F(HOME, ".rediscli_history"),
	F(HOME, ".dbshell"),
	D(HOME, ".mongodb/mongosh"),
	F(HOME, ".lesshst"),
	F(STATE, "lesshst"),
	F(HOME, ".viminfo"),
	D(STATE, "nvim/shada"),
	D(DATA, "nvim/shada"),
	F(DATA, "recently-used.xbel"),
	/* browser and mail profiles: cookies, saved logins */
	D(HOME, ".mozilla"),
	D(HOME, ".thunderbird"),
	D(HOME, ".librewolf"),
	D(HOME, ".waterfox"),
	D(CONFIG, "chromium"),
	D(CONFIG, "google-chrome"),
	D(CONFIG, "google-chrome-beta"),
	D(CONFIG, "google-chrome-unstable"),
	D(CONFIG, "BraveSoftware"),
	D(CONFIG, "microsoft-edge"),
	D(CONFIG, "microsoft-edge-beta"),
	D(CONFIG, "microsoft-edge-dev"),
	D(CONFIG, "vivaldi"),
	D(CONFIG, "vivaldi-snapshot"),
	D(CONFIG, "opera"),
	D(CONFIG, "opera-beta"),
	D(CONFIG, "opera-developer"),
	D(DATA, "qutebrowser"),
	D(DATA, "epiphany"),
	D(HOME, "snap/firefox"),
	D(HOME, "snap/chromium"),
	D(HOME, "snap/brave"),
	D(HOME, "snap/opera"),
	D(HOME, "snap/thunderbird"),
	D(HOME, ".var/app/org.mozilla.firefox"),
	D(HOME, ".var/app/org.mozilla.Thunderbird"),
	D(HOME, ".var/app/io.gitlab.librewolf-community"),
	D(HOME, ".var/app/org.chromium.Chromium"),
	D(HOME, ".var/app/com.google.Chrome"),
	D(HOME, ".var/app/com.brave.Browser"),
	D(HOME, ".var/app/com.microsoft.Edge"),
	D(HOME, ".var/app/com.vivaldi.Vivaldi"),
	D(HOME, ".var/app/com.opera.Opera"),
	D(HOME, "Library/Application Support/Firefox"),
	D(HOME, "Library/Application Support/Google/Chrome"),
	D(HOME, "Library/Application Support/Chromium"),
	D(HOME, "Library/Application Support/BraveSoftware"),
	D(HOME, "Library/Application Support/Microsoft Edge"),
	D(HOME, "Library/Application Support/Vivaldi"),
	D(HOME, "Library/Application Support/com.operasoftware.Opera"),
	D(HOME, "Library/Safari"),
	D(HOME, "Library/Cookies"),
};

const size_t credentials_count =
	sizeof(credentials_table) / sizeof(credentials_table[0]);

/* The XDG base directory of each base but the home's. */
static const enum atomic_xdg kinds[CREDENTIALS_NBASE] = {
	[CREDENTIALS_CONFIG] = ATOMIC_XDG_CONFIG,
	[CREDENTIALS_DATA] = ATOMIC_XDG_DATA,
	[CREDENTIALS_STATE] = ATOMIC_XDG_STATE,
};

const char *credentials_base_default(enum credentials_base base)
{
	return base == CREDENTIALS_HOME ? NULL :
					  atomic_xdg_default(kinds[base]);
}

int credentials_base_dir(enum credentials_base base, const char *home, bool xdg,
			 char *buf, size_t cap)
{
	int n;

	if (base == CREDENTIALS_HOME) {
		if (xdg || !home)
			return -1;
		n = snprintf(buf, cap, "%s", home);
	} else if (xdg) {
		/* the variable only: with no home there is no default */
		return atomic_xdg_dir(kinds[base], NULL, buf, cap);
	} else {
		if (!home)
			return -1;
		n = snprintf(buf, cap, "%s/%s", home,
			     credentials_base_default(base));
	}
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}
