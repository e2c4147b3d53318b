/* codesinks.c — the calls the code scanner knows.
 *
 * sink_tab lists, per language and module, the calls that run shell
 * commands, delete, write, evaluate code, open sockets or decode; mod_tab
 * maps the names a module goes by to one canonical name.
 */
#include "codescan_int.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "banned.h"

/* ---- the tables ---------------------------------------------------------- */

/* clang-format off */
static const struct sink sink_tab[] = {
	/* python */
	{ L_PY, "os",
	  "system|popen|popen2|popen3|popen4|startfile",
	  K_EXEC, S_CMD1, 0 },
	{ L_PY, "os", "execl|execle|execlp|execlpe", K_EXEC, S_EXECL, 0 },
	{ L_PY, "os",
	  "execv|execve|execvp|execvpe|posix_spawn|posix_spawnp",
	  K_EXEC, S_EXECV, 0 },
	{ L_PY, "os", "spawnl|spawnle|spawnlp|spawnlpe", K_EXEC, S_SPAWNL, 0 },
	{ L_PY, "os", "spawnv|spawnve|spawnvp|spawnvpe", K_EXEC, S_SPAWNV, 0 },
	{ L_PY, "os", "remove|unlink", K_DEL, D_RM, 0 },
	{ L_PY, "os", "rmdir|removedirs", K_DEL, D_RMDIR, 0 },
	{ L_PY, "os", "kill|killpg", K_KILL, 0, 0 },
	{ L_PY, "os", "fork|forkpty", K_FORK, 0, 0 },
	{ L_PY, "os", "dup2", K_DUP2, 0, 0 },
	{ L_PY, "os", "environ|environb", K_ENV_REF, 0, 0 },
	{ L_PY, "os", "rename|replace|truncate", K_WRITE, 0, 0 },
	{ L_PY, "subprocess",
	  "run|call|check_call|check_output|Popen|getoutput|getstatusoutput",
	  K_EXEC, S_CMD1, 0 },
	{ L_PY, "commands",
	  "getoutput|getstatusoutput|getstatus",
	  K_EXEC, S_CMD1, 0 },
	{ L_PY, "pty", "spawn", K_EXEC, S_CMD1, H_PTY },
	{ L_PY, "pty", "fork", K_FORK, 0, 0 },
	{ L_PY, "shutil", "rmtree", K_DEL, D_RMRF, 0 },
	{ L_PY, "shutil", "move|copy|copyfile|copy2|copytree", K_WRITE, 0, 0 },
	{ L_PY, "socket", "create_connection|create_server", K_SOCK_CONN, 0,
	  0 },
	{ L_PY, "signal", "pthread_kill", K_KILL, 0, 0 },
	{ L_PY, "base64",
	  "b64decode|decodebytes|decodestring|standard_b64decode|"
	  "urlsafe_b64decode|b32decode|b16decode|a85decode|b85decode",
	  K_DECODE, 0, 0 },
	{ L_PY, "codecs", "decode", K_DECODE, 0, 0 },
	{ L_PY, "binascii",
	  "unhexlify|a2b_base64|a2b_hex|a2b_uu|a2b_qp",
	  K_DECODE, 0, 0 },
	{ L_PY, "zlib", "decompress", K_DECODE, 0, 0 },
	{ L_PY, "marshal", "loads", K_DECODE, 0, 0 },
	{ L_PY, "pickle", "loads", K_EVAL, E_ALWAYS, 0 },
	{ L_PY, "", "eval|exec|compile", K_EVAL, E_CODE, 0 },
	{ L_PY, "", "execfile", K_EVAL, E_ALWAYS, 0 },
	{ L_PY, "", "open", K_OPEN, 0, 0 },
	{ L_PY, "", "chr", K_CHR, 0, 0 },
	{ L_PY, "", "getattr", K_GETATTR, 0, 0 },
	{ L_PY, "*", "fromhex", K_DECODE, 0, 0 },
	{ L_PY, "*", "decode", K_DECODE_ARG, 0, 0 },
	{ L_PY, "*", "unlink", K_PATHDEL, D_RM, 0 },
	{ L_PY, "*", "rmdir", K_PATHDEL, D_RMDIR, 0 },
	{ L_PY, "*", "write_text|write_bytes", K_WRITE, 0, 0 },
	{ L_PY, "*", "fileno", K_FDHINT, 0, 0 },
	/* a socket's other end: a connection made, or one accepted by a
	 * listener (a bind shell) */
	{ L_PY | L_JS | L_PL | L_RB | L_LUA, "*",
	  "connect|connect_ex|accept|listen",
	  K_CONNECT, 0, 0 },
	/* node */
	{ L_JS, "child_process", "exec|execSync", K_EXEC, S_CMD1, 0 },
	{ L_JS, "child_process",
	  "spawn|spawnSync|execFile|execFileSync",
	  K_EXEC, S_PROG_LIST, 0 },
	{ L_JS, "child_process", "fork", K_FORK, S_NOCMD, 0 },
	{ L_JS, "*|", "execSync", K_EXEC, S_CMD1, 0 },
	{ L_JS, "*|", "execFileSync|spawnSync", K_EXEC, S_PROG_LIST, 0 },
	{ L_JS, "cluster", "fork", K_FORK, 0, 0 },
	{ L_JS, "Bun", "spawn|spawnSync", K_EXEC, S_OBJCMD, 0 },
	{ L_JS, "Deno", "run", K_EXEC, S_OBJCMD, 0 },
	{ L_JS, "Deno", "Command", K_EXEC, S_PROG_OBJARGS, 0 },
	{ L_JS, "Deno", "remove|removeSync", K_DEL, D_NODE_RM, 0 },
	{ L_JS, "Deno",
	  "writeFile|writeFileSync|writeTextFile|writeTextFileSync|truncate|"
	  "truncateSync|rename|renameSync|copyFile|copyFileSync|symlink|"
	  "symlinkSync",
	  K_WRITE, 0, 0 },
	{ L_JS, "Deno", "kill", K_KILL, 0, 0 },
	{ L_JS, "Deno", "connect|connectTls|listen|listenTls|startTls",
	  K_SOCK_CONN, 0, 0 },
	{ L_JS, "Bun", "connect|listen|serve", K_SOCK_CONN, 0, 0 },
	{ L_JS, "execa|", "execa|execaSync|", K_EXEC, S_PROG_LIST, 0 },
	{ L_JS, "execa|", "execaCommand|execaCommandSync", K_EXEC, S_CMD1, 0 },
	{ L_JS, "shelljs", "exec", K_EXEC, S_CMD1, 0 },
	{ L_JS, "fs", "rm|rmSync", K_DEL, D_NODE_RM, 0 },
	{ L_JS, "fs", "rmdir|rmdirSync", K_DEL, D_NODE_RMDIR, 0 },
	{ L_JS, "fs", "unlink|unlinkSync", K_DEL, D_RM, 0 },
	{ L_JS, "fs",
	  "remove|removeSync|emptyDir|emptyDirSync",
	  K_DEL, D_RMRF, 0 },
	{ L_JS, "fs",
	  "writeFile|writeFileSync|appendFile|appendFileSync|"
	  "createWriteStream|copyFile|copyFileSync|rename|renameSync|cp|"
	  "cpSync|truncate|truncateSync|outputFile|outputFileSync|writeJson|"
	  "writeJsonSync|move|moveSync|symlink|symlinkSync",
	  K_WRITE, 0, 0 },
	{ L_JS, "", "rimraf|rimrafSync", K_DEL, D_RMRF, 0 },
	{ L_JS, "rimraf", "rimrafSync|sync|", K_DEL, D_RMRF, 0 },
	{ L_JS, "vm",
	  "runInNewContext|runInThisContext|runInContext|compileFunction|"
	  "Script",
	  K_EVAL, E_CODE, 0 },
	{ L_JS, "", "eval", K_EVAL, E_CODE, 0 },
	{ L_JS, "", "Function", K_EVAL, E_FUNC, 0 },
	{ L_JS, "", "setTimeout|setInterval", K_EVAL, E_TIMER, 0 },
	{ L_JS, "", "fetch|XMLHttpRequest|WebSocket|EventSource", K_NET, 0, 0 },
	{ L_JS, "", "atob|unescape", K_DECODE, 0, 0 },
	{ L_JS, "String", "fromCharCode|fromCodePoint", K_DECODE, 0, 0 },
	{ L_JS, "Buffer", "from", K_DECODE_ARG, 0, 0 },
	{ L_JS, "|*", "require", K_REQUIRE, 0, 0 },
	{ L_JS, "", "import", K_REQUIRE, 0, 0 },
	{ L_JS, "process", "kill", K_KILL, 0, 0 },
	{ L_JS, "process", "env", K_ENV_REF, 0, 0 },
	{ L_JS, "process", "binding|dlopen", K_EXEC, S_DYN, 0 },
	{ L_JS, "socket", "connect|createConnection|createServer", K_SOCK_CONN,
	  0, 0 },
	{ L_JS, "socket", "Socket", K_SOCK_MOD, 0, 0 },
	{ L_JS, "*", "pipe", K_FDHINT, 0, 0 },
	/* perl */
	{ L_PL, "", "system|exec", K_EXEC, S_ARGV, 0 },
	{ L_PL, "", "readpipe", K_EXEC, S_CMD1, 0 },
	{ L_PL, "", "open2", K_EXEC, S_SKIP2, 0 },
	{ L_PL, "", "open3", K_EXEC, S_SKIP3, 0 },
	{ L_PL, "", "open", K_PERLOPEN, 0, 0 },
	{ L_PL, "", "unlink", K_DEL, D_RM, 0 },
	{ L_PL, "", "rename", K_WRITE, 0, 0 },
	{ L_PL, "", "rmdir", K_DEL, D_RMDIR, 0 },
	{ L_PL, "|File::Path", "rmtree|remove_tree", K_DEL, D_RMRF, 0 },
	{ L_PL, "", "eval", K_EVAL, E_PERL, 0 },
	{ L_PL, "", "kill", K_KILL, 0, 0 },
	{ L_PL, "", "fork", K_FORK, 0, 0 },
	{ L_PL, "", "socket", K_SOCK_MOD, 0, 0 },
	{ L_PL, "", "connect", K_CONNECT, 0, 0 },
	{ L_PL, "", "decode_base64|decode_base64url", K_DECODE, 0, 0 },
	{ L_PL, "", "chr", K_CHR, 0, 0 },
	{ L_PL, "", "pack|unpack", K_DECODE_ARG, 0, 0 },
	{ L_PL, "|POSIX", "dup2", K_DUP2, 0, 0 },
	{ L_PL, "socket", "new", K_SOCK_CONN, 0, 0 },
	/* ruby */
	{ L_RB, "|Process", "system|exec|spawn", K_EXEC, S_ARGV, 0 },
	{ L_RB, "", "open", K_RUBYOPEN, 0, 0 },
	{ L_RB, "|*",
	  "eval|instance_eval|class_eval|module_eval",
	  K_EVAL, E_CODE, 0 },
	{ L_RB, "|Process", "fork", K_FORK, 0, 0 },
	{ L_RB, "|*", "send|public_send|__send__", K_SEND, SEND_CALL, 0 },
	{ L_RB, "|*", "method", K_SEND, SEND_REF, 0 },
	{ L_RB, "", "require", K_REQUIRE, 0, 0 },
	{ L_RB, "Open3",
	  "popen3|popen2|popen2e|capture2|capture2e|capture3|pipeline|"
	  "pipeline_r|pipeline_w|pipeline_rw|pipeline_start",
	  K_EXEC, S_ARGV, 0 },
	{ L_RB, "IO", "popen", K_EXEC, S_CMD1, 0 },
	{ L_RB, "IO", "write|binwrite", K_WRITE, 0, 0 },
	{ L_RB, "Process", "kill", K_KILL, 0, 0 },
	{ L_RB, "PTY", "spawn", K_EXEC, S_ARGV, H_PTY },
	{ L_RB, "FileUtils",
	  "rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree",
	  K_DEL, D_RMRF, 0 },
	{ L_RB, "FileUtils",
	  "rm|rm_f|remove|remove_file|safe_unlink",
	  K_DEL, D_RM, 0 },
	{ L_RB, "FileUtils", "rmdir", K_DEL, D_RMDIR, 0 },
	{ L_RB, "FileUtils",
	  "cp|mv|cp_r|copy|move|install|ln_s|ln_sf|touch",
	  K_WRITE, 0, 0 },
	{ L_RB, "File", "delete|unlink", K_DEL, D_RM, 0 },
	{ L_RB, "File", "write|binwrite", K_WRITE, 0, 0 },
	{ L_RB, "File", "open|new", K_OPEN, 0, 0 },
	{ L_RB, "Dir", "rmdir|delete|unlink", K_DEL, D_RMDIR, 0 },
	{ L_RB, "Base64",
	  "decode64|strict_decode64|urlsafe_decode64",
	  K_DECODE, 0, 0 },
	{ L_RB, "*", "unpack|unpack1|pack", K_DECODE_ARG, 0, 0 },
	{ L_RB, "*", "chr", K_CHR, 0, 0 },
	{ L_RB, "URI", "open", K_NET, 0, 0 },
	{ L_RB, "", "ENV", K_ENV_REF, 0, 0 },
	{ L_RB, "socket", "new|open|tcp", K_SOCK_CONN, 0, 0 },
	/* php: names are case-insensitive */
	{ L_PHP, "",
	  "system|exec|shell_exec|passthru|popen|proc_open|expect_popen",
	  K_EXEC, S_CMD1, 0 },
	{ L_PHP, "", "pcntl_exec", K_EXEC, S_PROG_LIST, 0 },
	{ L_PHP, "", "unlink", K_DEL, D_RM, 0 },
	{ L_PHP, "", "rmdir", K_DEL, D_RMDIR, 0 },
	{ L_PHP, "", "eval", K_EVAL, E_CODE, 0 },
	{ L_PHP, "", "assert", K_EVAL, E_ASSERT, 0 },
	{ L_PHP, "", "create_function", K_EVAL, E_ALWAYS, 0 },
	{ L_PHP, "", "preg_replace", K_PREG, 0, 0 },
	{ L_PHP, "", "posix_kill", K_KILL, 0, 0 },
	{ L_PHP, "", "pcntl_fork", K_FORK, 0, 0 },
	{ L_PHP, "",
	  "fsockopen|pfsockopen|stream_socket_client|stream_socket_server|"
	  "stream_socket_accept",
	  K_SOCK_CONN, 0, 0 },
	{ L_PHP, "", "socket_create", K_SOCK_MOD, 0, 0 },
	{ L_PHP, "", "socket_connect|socket_accept|socket_listen", K_CONNECT,
	  0, 0 },
	{ L_PHP, "",
	  "curl_init|curl_exec|curl_multi_exec|ftp_connect|ssh2_connect|"
	  "dns_get_record",
	  K_NET, 0, 0 },
	{ L_PHP, "",
	  "file_get_contents|fopen|file|readfile|copy|get_headers|"
	  "simplexml_load_file",
	  K_URLFILE, 0, 0 },
	{ L_PHP, "",
	  "file_put_contents|fwrite|fputs|rename|move_uploaded_file",
	  K_WRITE, 0, 0 },
	{ L_PHP, "",
	  "base64_decode|hex2bin|str_rot13|gzinflate|gzuncompress|gzdecode|"
	  "convert_uudecode|strrev",
	  K_DECODE, 0, 0 },
	{ L_PHP, "", "chr", K_CHR, 0, 0 },
	{ L_PHP, "", "pack", K_DECODE_ARG, 0, 0 },
	{ L_PHP, "", "getenv|phpinfo", K_ENV_CALL, 0, 0 },
	{ L_PHP, "",
	  "call_user_func|call_user_func_array|forward_static_call",
	  K_SEND, SEND_CALL, 0 },
	{ L_PHP, "",
	  "array_map|array_walk|array_filter|usort|uasort|"
	  "register_shutdown_function|register_tick_function|iterator_apply",
	  K_SEND, SEND_REF, 0 },
	/* awk */
	{ L_AWK, "", "system", K_EXEC, S_CMD1, 0 },
	{ L_AWK, "", "ENVIRON", K_ENV_REF, 0, 0 },
	/* lua */
	{ L_LUA, "os", "execute", K_EXEC, S_CMD1, 0 },
	{ L_LUA, "io", "popen", K_EXEC, S_CMD1, 0 },
	{ L_LUA, "os", "remove", K_DEL, D_RM, 0 },
	{ L_LUA, "os", "rename", K_WRITE, 0, 0 },
	{ L_LUA, "io", "open", K_OPEN, 0, 0 },
	{ L_LUA, "io", "output", K_WRITE, 0, 0 },
	{ L_LUA, "", "load|loadstring", K_EVAL, E_CODE, 0 },
	{ L_LUA, "", "dofile|loadfile", K_EVAL, E_ALWAYS, 0 },
	{ L_LUA, "", "require", K_REQUIRE, 0, 0 },
	{ L_LUA, "string", "char", K_DECODE, 0, 0 },
	{ L_LUA, "socket", "connect", K_SOCK_CONN, 0, 0 },
};
/* clang-format on */

/* clang-format off */
static const struct modname mod_tab[] = {
	{ L_PY, "os|posix|nt", "os" },
	{ L_PY, "subprocess", "subprocess" },
	{ L_PY, "commands", "commands" },
	{ L_PY, "pty", "pty" },
	{ L_PY, "shutil", "shutil" },
	{ L_PY, "socket", "socket" },
	{ L_PY, "base64", "base64" },
	{ L_PY, "codecs", "codecs" },
	{ L_PY, "binascii", "binascii" },
	{ L_PY, "zlib", "zlib" },
	{ L_PY, "marshal", "marshal" },
	{ L_PY, "signal", "signal" },
	{ L_PY, "pickle|cPickle|_pickle|dill", "pickle" },
	{ L_PY, "builtins|__builtins__|__builtin__", "" },
	{ L_PY,
	  "urllib|urllib2|urllib3|requests|httpx|aiohttp|http|ftplib|smtplib|"
	  "telnetlib|paramiko|pycurl|websocket|websockets|xmlrpc|poplib|"
	  "imaplib|nntplib|asyncssh|fabric|httplib|httplib2",
	  "netlib" },
	{ L_JS, "child_process", "child_process" },
	{ L_JS,
	  "fs|fsp|fse|fsPromises|fsExtra|promises|fs/promises|fs-extra|"
	  "graceful-fs",
	  "fs" },
	{ L_JS, "net|tls", "socket" },
	{ L_JS,
	  "http|https|http2|dgram|axios|got|undici|node-fetch|request|"
	  "superagent|ws|needle",
	  "netlib" },
	{ L_JS, "vm", "vm" },
	{ L_JS, "process", "process" },
	{ L_JS, "Bun", "Bun" },
	{ L_JS, "Deno", "Deno" },
	{ L_JS, "Buffer", "Buffer" },
	{ L_JS, "String", "String" },
	{ L_JS, "cluster", "cluster" },
	{ L_JS, "globalThis|global|window|self", "" },
	{ L_JS, "execa", "execa" },
	{ L_JS, "shelljs|shell", "shelljs" },
	{ L_JS, "rimraf", "rimraf" },
	{ L_PL, "CORE|CORE::GLOBAL|IPC::Open2|IPC::Open3|File::Path", "" },
	{ L_PL, "POSIX", "POSIX" },
	{ L_PL, "IO::Socket|Socket", "socket" },
	{ L_PL,
	  "LWP|HTTP::Tiny|HTTP::Request|Net|WWW|Mojo::UserAgent|"
	  "IO::Socket::SSL",
	  "netlib" },
	{ L_RB, "Kernel", "" },
	{ L_RB, "Open3|open3", "Open3" },
	{ L_RB, "IO", "IO" },
	{ L_RB, "Process", "Process" },
	{ L_RB, "FileUtils|fileutils", "FileUtils" },
	{ L_RB, "File", "File" },
	{ L_RB, "Dir", "Dir" },
	{ L_RB, "PTY|pty", "PTY" },
	{ L_RB, "Base64|base64", "Base64" },
	{ L_RB, "URI", "URI" },
	{ L_RB, "TCPSocket|UDPSocket|Socket|TCPServer|socket", "socket" },
	{ L_RB,
	  "Net|open-uri|net/http|net/https|HTTParty|httparty|Faraday|faraday|"
	  "RestClient|rest-client|Excon|HTTPClient",
	  "netlib" },
	{ L_LUA, "os", "os" },
	{ L_LUA, "io", "io" },
	{ L_LUA, "string", "string" },
	{ L_LUA, "socket", "socket" },
	{ L_LUA, "http|ssl|curl|luasocket", "netlib" },
};
/* clang-format on */

/* The table, for the scan loop's walk over every known module. */
const struct modname *const codesinks_mod_tab = mod_tab;
const size_t codesinks_nmod = sizeof(mod_tab) / sizeof(mod_tab[0]);

/* p[0..n) is one of the '|'-separated names in list (an empty name too).
 * One pass over list: this runs for every identifier against every row. */
int codesinks_name_in(const char *list, const char *p, size_t n, int ci)
{
	const char *a = list;

	for (;;) {
		size_t i = 0;
		while (i < n && a[i] && a[i] != '|' &&
		       (ci ? lower((unsigned char)a[i]) ==
					lower((unsigned char)p[i]) :
			     a[i] == p[i]))
			i++;
		if (i == n && (a[i] == '|' || a[i] == 0))
			return 1;
		a += i;
		while (*a && *a != '|')
			a++;
		if (!*a)
			return 0;
		a++;
	}
}

static const char *mod_exact(enum code_lang L, const char *p, size_t n)
{
	for (size_t i = 0; i < sizeof(mod_tab) / sizeof(mod_tab[0]); i++)
		if ((mod_tab[i].langs & (1u << L)) &&
		    codesinks_name_in(mod_tab[i].names, p, n, 0))
			return mod_tab[i].canon;
	return NULL;
}

/* The canonical module for a receiver or module name: perl and ruby names
 * are tried whole and then without their last ::parts, python and lua
 * dotted names whole and then by their first part, node specifiers without
 * a node: prefix. */
const char *codesinks_mod_lookup(enum code_lang L, const char *p, size_t n)
{
	const char *c;

	if (L == CODE_NODE && n > 5 && !memcmp(p, "node:", 5)) {
		p += 5;
		n -= 5;
	}
	c = mod_exact(L, p, n);
	if (c)
		return c;
	if (L == CODE_PERL || L == CODE_RUBY) {
		while (n > 2) {
			size_t k = n;
			while (k > 1 && !(p[k - 1] == ':' && p[k - 2] == ':'))
				k--;
			if (k <= 2)
				break;
			n = k - 2;
			c = mod_exact(L, p, n);
			if (c)
				return c;
		}
	}
	if (L == CODE_PYTHON || L == CODE_LUA) {
		const char *dot = memchr(p, '.', n);
		if (dot)
			return mod_exact(L, p, (size_t)(dot - p));
	}
	return NULL;
}

/* The row for name called on the canonical module mod ("" builtin, "*"
 * unknown receiver). A row's mod may list several with '|'. */
const struct sink *codesinks_find(enum code_lang L, const char *mod,
				  const char *p, size_t n)
{
	int ci = L == CODE_PHP;
	size_t mn = strlen(mod);

	for (size_t i = 0; i < sizeof(sink_tab) / sizeof(sink_tab[0]); i++) {
		const struct sink *k = &sink_tab[i];
		if (!(k->langs & (1u << L)))
			continue;
		if (!codesinks_name_in(k->mod, mod, mn, 0))
			continue;
		if (codesinks_name_in(k->names, p, n, ci))
			return k;
	}
	return NULL;
}
