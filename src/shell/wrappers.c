/* wrappers — the one table of commands that run other commands; see
 * wrappers.h. The rows come from the tools' own --help and man pages (the
 * util-linux, coreutils, procps, sudo, systemd, strace, bubblewrap, runit
 * and daemontools ones on a Debian system); an option missing here is read
 * as a flag, so its value would be taken for the command: add every option
 * that takes a value, with its long form.
 */
#include <ctype.h>
#include <string.h>

#include "wrappers.h"
#include "names.h"

#include "banned.h"

static const struct wrapper table[] = {
	{ .name = ".", .kind = WRAPPER_RUNNER },
	{ .name = "R", .kind = WRAPPER_RUNNER },
	{ .name = "Rscript", .kind = WRAPPER_RUNNER },
	{ .name = "alacritty",
	  .short_val = "eto",
	  .long_val = " --config-file --working-directory --title --class "
		      "--option --socket --embed --display ",
	  .chdir_long = "--working-directory",
	  .cmd_opts = " -e --command " },
	{ .name = "apropos", .kind = WRAPPER_NAMES },
	{ .name = "asdf", .sub = " exec " },
	{ .name = "ash", .kind = WRAPPER_SHELL },
	{ .name = "at", .kind = WRAPPER_RUNNER },
	{ .name = "awk", .kind = WRAPPER_RUNNER },
	{ .name = "b2sum", .kind = WRAPPER_NAMES },
	{ .name = "basename", .kind = WRAPPER_NAMES },
	{ .name = "bash", .kind = WRAPPER_SHELL },
	{ .name = "batch", .kind = WRAPPER_RUNNER },
	{ .name = "bind", .kind = WRAPPER_RUNNER },
	{ .name = "bosh", .kind = WRAPPER_SHELL },
	{ .name = "builtin" },
	{ .name = "bundle", .sub = " exec " },
	{ .name = "bunx", .kind = WRAPPER_RUNNER },
	{ .name = "busybox", .kind = WRAPPER_RUNNER, .flags = WF_MULTICALL },
	{ .name = "bwrap",
	  .long_val =
		  " --args --userns --userns2 --pidns --uid --gid --hostname "
		  "--chdir --unsetenv --lock-file --sync-fd --remount-ro "
		  "--exec-label --file-label --proc --dev --tmpfs --mqueue "
		  "--dir --seccomp --add-seccomp-fd --block-fd "
		  "--userns-block-fd --info-fd --json-status-fd --cap-add "
		  "--cap-drop --perms --size --argv0 --overlay-src "
		  "--tmp-overlay --ro-overlay ",
	  .long_val2 =
		  " --setenv --bind --bind-try --dev-bind --dev-bind-try "
		  "--ro-bind --ro-bind-try --bind-fd --ro-bind-fd --file "
		  "--bind-data --ro-bind-data --symlink --chmod --overlay " },
	{ .name = "caffeinate", .short_val = "tw" },
	{ .name = "caller", .kind = WRAPPER_NAMES },
	{ .name = "capsh", .kind = WRAPPER_RUNNER },
	{ .name = "catchsegv" },
	{ .name = "cgexec", .short_val = "g" },
	{ .name = "choom", .short_val = "np", .long_val = " --adjust --pid " },
	{ .name = "chpst", .short_val = "uUbe/nlLmdopfct" },
	{ .name = "chronic" },
	{ .name = "chroot",
	  .long_val = " --userspec --groups ",
	  .operands = 1,
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.chroot",
	  .reason = "runs inside another root directory" },
	{ .name = "chrt",
	  .short_val = "TPD",
	  .long_val = " --sched-runtime --sched-period --sched-deadline ",
	  .operands = 1 },
	{ .name = "cksum", .kind = WRAPPER_NAMES },
	{ .name = "cmd", .kind = WRAPPER_FOREIGN },
	{ .name = "cmd.exe", .kind = WRAPPER_FOREIGN },
	{ .name = "command", .flags = WF_HANDLER },
	{ .name = "compgen", .kind = WRAPPER_RUNNER },
	{ .name = "complete", .kind = WRAPPER_RUNNER },
	{ .name = "compopt", .kind = WRAPPER_NAMES },
	{ .name = "conda",
	  .sub = " run ",
	  .short_val = "np",
	  .long_val = " --name --prefix --cwd ",
	  .chdir_long = "--cwd" },
	{ .name = "coproc" },
	{ .name = "coreutils", .kind = WRAPPER_RUNNER, .flags = WF_MULTICALL },
	{ .name = "cpulimit",
	  .short_val = "lpePcs",
	  .long_val = " --limit --pid --exe --path --cpu --signal " },
	{ .name = "crontab", .kind = WRAPPER_RUNNER },
	{ .name = "csh", .kind = WRAPPER_SHELL },
	{ .name = "dash", .kind = WRAPPER_SHELL },
	{ .name = "dbus-launch", .long_val = " --autolaunch --config-file " },
	{ .name = "dbus-run-session",
	  .long_val = " --config-file --dbus-daemon " },
	{ .name = "direnv", .sub = " exec ", .operands = 1 },
	{ .name = "dirname", .kind = WRAPPER_NAMES },
	{ .name = "dirs", .kind = WRAPPER_NAMES },
	{ .name = "disown", .kind = WRAPPER_NAMES },
	{ .name = "doas",
	  .short_val = "uC",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.doas",
	  .reason = "runs as another user (doas)" },
	{ .name = "doppler",
	  .sub = " run ",
	  .short_val = "pc",
	  .long_val = " --project --config --token --name-transformer --mount "
		      "--mount-format --mount-template --fallback --scope ",
	  .payload_long = "--command" },
	{ .name = "dotenv", .short_val = "evp", .short_opt = "c" },
	{ .name = "du", .kind = WRAPPER_NAMES },
	{ .name = "dumb-init", .short_val = "r", .long_val = " --rewrite " },
	{ .name = "eatmydata" },
	{ .name = "elvish", .kind = WRAPPER_SHELL },
	{ .name = "emacs", .kind = WRAPPER_RUNNER },
	{ .name = "enable", .kind = WRAPPER_RUNNER },
	{ .name = "env",
	  .flags = WF_HANDLER | WF_ASSIGNS,
	  .short_val = "uC",
	  .long_val = " --unset --chdir ",
	  .chdir_short = 'C',
	  .chdir_long = "--chdir",
	  .payload_short = 'S',
	  .payload_long = "--split-string" },
	{ .name = "envdir", .operands = 1 },
	{ .name = "envuidgid",
	  .operands = 1,
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.runas",
	  .reason = "runs as another user" },
	{ .name = "eval", .kind = WRAPPER_RUNNER },
	{ .name = "exec", .short_val = "a" },
	{ .name = "expect", .kind = WRAPPER_RUNNER },
	{ .name = "fakechroot",
	  .short_val = "ldecb",
	  .long_val =
		  " --lib --elfloader --environment --config-dir --bindir " },
	{ .name = "fakeroot",
	  .short_val = "lfis",
	  .long_val = " --lib --faked " },
	{ .name = "faketime",
	  .short_val = "p",
	  .long_val = " --date-prog ",
	  .operands = 1 },
	{ .name = "fc", .kind = WRAPPER_NAMES },
	/* fd PATTERN -x CMD ARGS runs CMD ARGS RESULT for every result */
	{ .name = "fd",
	  .flags = WF_ITEMS,
	  .short_val = "dEteSocj",
	  .long_val = " --max-depth --min-depth --exact-depth --exclude --type "
		      "--extension --size --changed-within --changed-before "
		      "--owner --format --batch-size --ignore-file --color "
		      "--threads --max-buffer-time --max-results "
		      "--base-directory --path-separator --search-path ",
	  .cmd_opts = " -x --exec -X --exec-batch " },
	{ .name = "file", .kind = WRAPPER_NAMES },
	{ .name = "find", .kind = WRAPPER_RUNNER },
	{ .name = "finger", .kind = WRAPPER_NAMES },
	{ .name = "firejail" },
	{ .name = "fish", .kind = WRAPPER_SHELL },
	/* flatpak run --command=PROG APP ARGS */
	{ .name = "flatpak",
	  .sub = " run ",
	  .long_val = " --arch --branch --runtime --runtime-version "
		      "--filesystem --nofilesystem --env --unset-env --socket "
		      "--nosocket --device --nodevice --share --unshare "
		      "--allow --disallow --talk-name --no-talk-name "
		      "--own-name --system-talk-name --system-no-talk-name "
		      "--system-own-name --add-policy --remove-policy "
		      "--persist --app-path --usr-path --instance-id-fd "
		      "--parent-pid --cwd --sandbox-expose --sandbox-expose-ro "
		      "--sandbox-flag ",
	  .chdir_long = "--cwd",
	  .operands = 1,
	  .prog_opts = " --command " },
	/* flatpak-spawn --host CMD runs CMD outside the sandbox */
	{ .name = "flatpak-spawn",
	  .long_val = " --forward-fd --env --unset-env --directory --app-path "
		      "--usr-path --sandbox-expose --sandbox-expose-ro "
		      "--sandbox-expose-path --sandbox-expose-path-ro "
		      "--sandbox-flag ",
	  .chdir_long = "--directory" },
	{ .name = "flock",
	  .flags = WF_HANDLER,
	  .short_val = "wE",
	  .long_val = " --timeout --conflict-exit-code ",
	  .operands = 1,
	  .payload_short = 'c',
	  .payload_long = "--command" },
	{ .name = "gawk", .kind = WRAPPER_RUNNER },
	/* gdb --args PROG ARGS, and gdbserver COMM PROG ARGS */
	{ .name = "gdb", .cmd_opts = " --args -args " },
	{ .name = "gdbserver",
	  .long_val = " --wrapper --debug-file --debug-format --attach ",
	  .operands = 1 },
	{ .name = "getent", .kind = WRAPPER_NAMES },
	{ .name = "getopts", .kind = WRAPPER_NAMES },
	/* terminals: gnome-terminal -- CMD ARGS, -x CMD ARGS, -e STRING */
	{ .name = "gnome-terminal",
	  .long_val = " --tab-with-profile --window-with-profile --role "
		      "--geometry --title --working-directory --zoom "
		      "--profile --display ",
	  .chdir_long = "--working-directory",
	  .payload_short = 'e',
	  .payload_long = "--command",
	  .cmd_opts = " -- -x --execute " },
	{ .name = "goenv", .sub = " exec " },
	{ .name = "gosu",
	  .operands = 1,
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.runas",
	  .reason = "runs as another user" },
	{ .name = "groups", .kind = WRAPPER_NAMES },
	{ .name = "gsed", .kind = WRAPPER_RUNNER },
	{ .name = "gtimeout",
	  .flags = WF_CLAUDE,
	  .short_val = "ks",
	  .long_val = " --kill-after --signal ",
	  .operands = 1 },
	{ .name = "hash", .kind = WRAPPER_RUNNER },
	{ .name = "hatch", .sub = " run " },
	{ .name = "hush", .kind = WRAPPER_SHELL },
	{ .name = "ifne" },
	{ .name = "ionice",
	  .short_val = "cnpPu",
	  .long_val = " --class --classdata --pid --pgid --uid " },
	{ .name = "ip", .sub = " netns ", .operands = 2 },
	{ .name = "java", .kind = WRAPPER_RUNNER },
	{ .name = "jshell", .kind = WRAPPER_RUNNER },
	{ .name = "julia", .kind = WRAPPER_RUNNER },
	{ .name = "kitty",
	  .short_val = "cotdT",
	  .long_val = " --config --override --class --name --title "
		      "--directory --session --listen-on --start-as --watcher "
		      "--instance-group --os-window-tag --position --logo "
		      "--logo-position --logo-alpha ",
	  .chdir_short = 'd',
	  .chdir_long = "--directory" },
	{ .name = "konsole",
	  .long_val = " --profile --layout --workdir --tabs-from-file "
		      "--display ",
	  .chdir_long = "--workdir",
	  .cmd_opts = " -e " },
	{ .name = "ksh", .kind = WRAPPER_SHELL },
	{ .name = "ksh93", .kind = WRAPPER_SHELL },
	{ .name = "last", .kind = WRAPPER_NAMES },
	{ .name = "lastb", .kind = WRAPPER_NAMES },
	{ .name = "lastlog", .kind = WRAPPER_NAMES },
	{ .name = "launchctl", .sub = " asuser ", .operands = 1 },
	{ .name = "ld.so", .kind = WRAPPER_RUNNER },
	{ .name = "ldd", .kind = WRAPPER_NAMES },
	{ .name = "less", .kind = WRAPPER_RUNNER },
	{ .name = "linux32" },
	{ .name = "linux64" },
	{ .name = "lksh", .kind = WRAPPER_SHELL },
	{ .name = "lldb",
	  .short_val = "oOsSkKfpnacl",
	  .long_val = " --one-line --one-line-before-file --source "
		      "--source-before-file --one-line-on-crash --source-on-crash "
		      "--file --attach-pid --attach-name --arch --core "
		      "--script-language " },
	{ .name = "locate", .kind = WRAPPER_NAMES },
	{ .name = "loksh", .kind = WRAPPER_SHELL },
	{ .name = "ltrace",
	  .short_val = "aADeFlnopsuwxX",
	  .long_val =
		  " --align --debug --config --library --indent --output " },
	{ .name = "mamba",
	  .sub = " run ",
	  .short_val = "npr",
	  .long_val = " --name --prefix --root-prefix --cwd ",
	  .chdir_long = "--cwd" },
	{ .name = "man", .kind = WRAPPER_RUNNER },
	{ .name = "mapfile", .kind = WRAPPER_RUNNER },
	{ .name = "mawk", .kind = WRAPPER_RUNNER },
	{ .name = "md5sum", .kind = WRAPPER_NAMES },
	{ .name = "micromamba",
	  .sub = " run ",
	  .short_val = "npr",
	  .long_val = " --name --prefix --root-prefix --cwd --label ",
	  .chdir_long = "--cwd" },
	{ .name = "mise",
	  .sub = " exec x ",
	  .short_val = "jCE",
	  .long_val = " --jobs --cd --env ",
	  .chdir_short = 'C',
	  .chdir_long = "--cd" },
	{ .name = "mksh", .kind = WRAPPER_SHELL },
	{ .name = "nawk", .kind = WRAPPER_RUNNER },
	{ .name = "newgrp", .kind = WRAPPER_RUNNER },
	{ .name = "nice",
	  .flags = WF_CLAUDE | WF_DASH_NUM,
	  .short_val = "n",
	  .long_val = " --adjustment " },
	/* nix develop|shell [INSTALLABLES] -c CMD ARGS */
	{ .name = "nix",
	  .sub = " develop shell ",
	  .short_val = "fIkuj",
	  .long_val = " --profile --expr --file --include --keep --unset "
		      "--store --eval-store --log-format --inputs-from "
		      "--phase --override-flake --reference-lock-file "
		      "--output-lock-file --max-jobs ",
	  .long_val2 = " --arg --argstr --override-input --option --redirect ",
	  .cmd_opts = " -c --command " },
	{ .name = "nm", .kind = WRAPPER_NAMES },
	{ .name = "nodenv", .sub = " exec " },
	{ .name = "nohup", .flags = WF_CLAUDE },
	{ .name = "npm",
	  .sub = " exec x ",
	  .long_val = " --package --workspace ",
	  .payload_short = 'c',
	  .payload_long = "--call" },
	{ .name = "npx", .kind = WRAPPER_RUNNER },
	{ .name = "nq" },
	{ .name = "nsenter",
	  .short_val = "tSGW",
	  .short_opt = "muinpCUTrw",
	  .long_val = " --target --setuid --setgid --wdns ",
	  .chdir_short = 'w',
	  .chdir_long = "--wd",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.nsenter",
	  .reason = "runs inside another process's namespaces" },
	{ .name = "nu", .kind = WRAPPER_SHELL },
	{ .name = "numactl",
	  .short_val = "ipPCNmLoMISf",
	  .long_val =
		  " --interleave --preferred --preferred-many --physcpubind "
		  "--cpunodebind --membind --length --offset --shmmode --shmid "
		  "--shm --file --cpubind " },
	{ .name = "nvim", .kind = WRAPPER_RUNNER },
	{ .name = "objdump", .kind = WRAPPER_NAMES },
	{ .name = "oksh", .kind = WRAPPER_SHELL },
	{ .name = "op",
	  .sub = " run ",
	  .long_val = " --env-file --account --config --cache --encoding "
		      "--session " },
	{ .name = "osascript", .kind = WRAPPER_RUNNER },
	{ .name = "osh", .kind = WRAPPER_SHELL },
	{ .name = "parallel", .kind = WRAPPER_RUNNER },
	{ .name = "pdksh", .kind = WRAPPER_SHELL },
	{ .name = "pdm", .sub = " run " },
	{ .name = "perf",
	  .sub = " stat record trace ",
	  .short_val = "eorpCGtxIFcmDu",
	  .long_val = " --event --repeat --output --pid --cpu --cgroup --tid "
		      "--field-separator --interval-print --freq --count "
		      "--mmap-pages --delay --uid --call-graph --filter " },
	{ .name = "pgrep", .kind = WRAPPER_NAMES },
	{ .name = "pidof", .kind = WRAPPER_NAMES },
	{ .name = "pinky", .kind = WRAPPER_NAMES },
	{ .name = "pipenv", .sub = " run " },
	{ .name = "pipx", .kind = WRAPPER_RUNNER },
	{ .name = "pkexec",
	  .long_val = " --user ",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.pkexec",
	  .reason = "runs as another user (pkexec)" },
	{ .name = "pnpm",
	  .sub = " exec ",
	  .long_val = " --filter --workspace " },
	{ .name = "pnpx", .kind = WRAPPER_RUNNER },
	{ .name = "podman", .sub = " unshare " },
	{ .name = "poetry", .sub = " run " },
	{ .name = "popd", .kind = WRAPPER_NAMES },
	{ .name = "posh", .kind = WRAPPER_SHELL },
	{ .name = "powershell", .kind = WRAPPER_FOREIGN },
	{ .name = "powershell.exe", .kind = WRAPPER_FOREIGN },
	{ .name = "prlimit",
	  .short_val = "po",
	  .short_opt = "cdefilmnqrstuvxy",
	  .long_val = " --pid --output " },
	{ .name = "proot",
	  .short_val = "rbmqwvkiRS",
	  .long_val = " --rootfs --bind --mount --qemu --pwd --cwd --verbose "
		      "--kernel-release --change-id " },
	{ .name = "proxychains",
	  .short_val = "f",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(NETWORK),
	  .rule = "net.proxy-wrapper",
	  .reason = "runs through a network proxy" },
	{ .name = "proxychains4",
	  .short_val = "f",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(NETWORK),
	  .rule = "net.proxy-wrapper",
	  .reason = "runs through a network proxy" },
	{ .name = "pwsh", .kind = WRAPPER_FOREIGN },
	{ .name = "pwsh.exe", .kind = WRAPPER_FOREIGN },
	{ .name = "pyenv", .sub = " exec " },
	{ .name = "rbash", .kind = WRAPPER_SHELL },
	{ .name = "rbenv", .sub = " exec " },
	{ .name = "readarray", .kind = WRAPPER_RUNNER },
	{ .name = "readlink", .kind = WRAPPER_NAMES },
	{ .name = "realpath", .kind = WRAPPER_NAMES },
	{ .name = "rlwrap",
	  .short_val = "bCDefHlMoOpPqsStwz",
	  .long_val = " --break-chars --command-name --file --history-filename "
		      "--logfile --prompt-colour --substitute-prompt " },
	{ .name = "run0",
	  .short_val = "uDg",
	  .long_val = " --user --group --chdir --unit --property --description "
		      "--slice --setenv --nice --machine --background "
		      "--shell-prompt-prefix ",
	  .chdir_short = 'D',
	  .chdir_long = "--chdir",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.run0",
	  .reason = "runs as another user (run0)" },
	{ .name = "runuser", .kind = WRAPPER_RUNNER },
	{ .name = "rye", .sub = " run " },
	{ .name = "schroot",
	  .short_val = "cdsuon",
	  .long_val = " --chroot --directory --shell --user --option "
		      "--session-name ",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.schroot",
	  .reason = "runs inside another root directory" },
	{ .name = "script", .kind = WRAPPER_RUNNER },
	{ .name = "sed", .kind = WRAPPER_RUNNER },
	{ .name = "setarch", .flags = WF_OPERANDS_FIRST, .operands = 1 },
	{ .name = "setlock", .operands = 1 },
	{ .name = "setpriv",
	  .long_val = " --ambient-caps --inh-caps --bounding-set --ruid --euid "
		      "--rgid --egid --reuid --regid --groups --securebits "
		      "--pdeathsig --selinux-label --apparmor-profile "
		      "--landlock-access --landlock-rule --seccomp-filter ",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.setpriv",
	  .reason = "runs with other user ids or capabilities (setpriv)" },
	{ .name = "setsid" },
	{ .name = "setuidgid",
	  .operands = 1,
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.runas",
	  .reason = "runs as another user" },
	{ .name = "sg", .kind = WRAPPER_RUNNER },
	{ .name = "sh", .kind = WRAPPER_SHELL },
	{ .name = "sha1sum", .kind = WRAPPER_NAMES },
	{ .name = "sha256sum", .kind = WRAPPER_NAMES },
	{ .name = "sha512sum", .kind = WRAPPER_NAMES },
	{ .name = "shopt", .kind = WRAPPER_NAMES },
	{ .name = "softlimit", .short_val = "acdflmoprst" },
	{ .name = "source", .kind = WRAPPER_RUNNER },
	{ .name = "ssh", .kind = WRAPPER_RUNNER },
	{ .name = "ssh-agent", .short_val = "aEOPt" },
	{ .name = "sshpass",
	  .short_val = "pfdP",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(SECRETS),
	  .rule = "secrets.sshpass",
	  .reason = "passes a password to ssh on the command line" },
	{ .name = "start-stop-daemon",
	  .short_val = "pnugsRNPIkrdcO",
	  .long_val = " --pidfile --name --user --group --signal --retry "
		      "--nicelevel --procsched --iosched --umask --chroot "
		      "--chdir --chuid --output --notify-timeout ",
	  .chdir_short = 'd',
	  .chdir_long = "--chdir",
	  .prog_opts = " -x -a --exec --startas ",
	  .long_flags = " --start " },
	{ .name = "stat", .kind = WRAPPER_NAMES },
	{ .name = "stdbuf",
	  .flags = WF_CLAUDE,
	  .short_val = "ioe",
	  .long_val = " --input --output --error " },
	/* --quiet[=SET] and --decode-fds[=SET] take a value only after '='
	 * (strace 6.1: `strace --quiet echo` runs echo). */
	{ .name = "strace",
	  .short_val = "eEpubIPaosXOSU",
	  .long_val =
		  " --env --attach --user --detach-on --interruptible --trace "
		  "--signal --status --trace-path --columns --abbrev --verbose "
		  "--raw --read --write --kvm --decode-pids --output "
		  "--string-limit --const-print-style "
		  "--summary-syscall-overhead --summary-sort-by "
		  "--summary-columns --inject --fault " },
	{ .name = "strings", .kind = WRAPPER_NAMES },
	{ .name = "su", .kind = WRAPPER_RUNNER },
	{ .name = "su-exec",
	  .operands = 1,
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.runas",
	  .reason = "runs as another user" },
	{ .name = "sudo",
	  .flags = WF_ASSIGNS,
	  .short_val = "acugChpRrtUTD",
	  .long_val = " --user --group --close-from --host --prompt --role "
		      "--type --other-user --command-timeout --chdir --chroot ",
	  .chdir_short = 'D',
	  .chdir_long = "--chdir",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.sudo",
	  .reason = "runs as another user (sudo)" },
	{ .name = "systemd-inhibit",
	  .long_val = " --what --who --why --mode " },
	{ .name = "systemd-run",
	  .short_val = "HMupE",
	  .long_val =
		  " --host --machine --unit --property --description --slice "
		  "--setenv --uid --gid --nice --working-directory "
		  "--service-type --path-property --socket-property "
		  "--timer-property --on-active --on-boot --on-startup "
		  "--on-unit-active --on-unit-inactive --on-calendar ",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PERSISTENCE),
	  .rule = "persistence.systemd-run",
	  .reason = "runs a command as a systemd unit" },
	{ .name = "taskset", .operands = 1 },
	{ .name = "tclsh", .kind = WRAPPER_RUNNER },
	{ .name = "tcsh", .kind = WRAPPER_SHELL },
	{ .name = "terminator",
	  .short_val = "gbrlpTu",
	  .long_val = " --config --working-directory --geometry --title "
		      "--role --layout --profile --icon --classname ",
	  .chdir_long = "--working-directory",
	  .payload_short = 'e',
	  .payload_long = "--command",
	  .cmd_opts = " -x --execute " },
	{ .name = "time",
	  .flags = WF_CLAUDE,
	  .short_val = "fo",
	  .long_val = " --format --output " },
	{ .name = "timeout",
	  .flags = WF_CLAUDE,
	  .short_val = "ks",
	  .long_val = " --kill-after --signal ",
	  .operands = 1 },
	{ .name = "tini", .short_val = "pe" },
	{ .name = "tldr", .kind = WRAPPER_NAMES },
	{ .name = "torsocks",
	  .short_val = "uapP",
	  .long_val = " --user --pass --address --port ",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(NETWORK),
	  .rule = "net.proxy-wrapper",
	  .reason = "runs through a network proxy" },
	{ .name = "toybox", .kind = WRAPPER_RUNNER, .flags = WF_MULTICALL },
	{ .name = "trap", .kind = WRAPPER_RUNNER },
	{ .name = "trickle", .short_val = "duwtln" },
	{ .name = "tsp", .short_val = "LDN" },
	{ .name = "type", .kind = WRAPPER_NAMES },
	{ .name = "ulimit", .kind = WRAPPER_NAMES },
	{ .name = "unbuffer" },
	{ .name = "unshare",
	  .short_val = "SGRw",
	  .long_val = " --setuid --setgid --root --wd --map-user --map-group "
		      "--map-users --map-groups --propagation --setgroups "
		      "--monotonic --boottime ",
	  .chdir_short = 'w',
	  .chdir_long = "--wd",
	  .tier = CORDON_RISK_CAUTION,
	  .labels = CORDON_L(PRIVILEGE),
	  .rule = "privilege.unshare",
	  .reason = "runs in new namespaces, possibly as a mapped root" },
	{ .name = "uv",
	  .sub = " run ",
	  .long_val =
		  " --with --python --project --directory --package --env-file "
		  "--group --extra " },
	{ .name = "uvx", .kind = WRAPPER_RUNNER },
	{ .name = "valgrind" },
	{ .name = "vim", .kind = WRAPPER_RUNNER },
	{ .name = "watch",
	  .flags = WF_HANDLER,
	  .short_val = "nq",
	  .short_opt = "d",
	  .long_val = " --interval --equexit " },
	{ .name = "wezterm",
	  .sub = " start ",
	  .long_val = " --cwd --class --workspace --position --domain ",
	  .chdir_long = "--cwd" },
	{ .name = "whatis", .kind = WRAPPER_NAMES },
	{ .name = "whence", .kind = WRAPPER_NAMES },
	{ .name = "where", .kind = WRAPPER_NAMES },
	{ .name = "whereis", .kind = WRAPPER_NAMES },
	{ .name = "which", .kind = WRAPPER_NAMES },
	{ .name = "who", .kind = WRAPPER_NAMES },
	{ .name = "wish", .kind = WRAPPER_RUNNER },
	{ .name = "wsl", .kind = WRAPPER_RUNNER },
	{ .name = "xargs",
	  .flags = WF_HANDLER,
	  .short_val = "aEILnsPd",
	  .short_opt = "eil",
	  .long_val =
		  " --arg-file --delimiter --max-lines --max-args --max-procs "
		  "--max-chars --process-slot-var " },
	{ .name = "xfce4-terminal",
	  .short_val = "T",
	  .long_val = " --title --working-directory --geometry --display "
		      "--role --startup-id --tab --window --default-display "
		      "--default-working-directory ",
	  .chdir_long = "--working-directory",
	  .payload_short = 'e',
	  .payload_long = "--command",
	  .cmd_opts = " -x --execute " },
	{ .name = "xonsh", .kind = WRAPPER_SHELL },
	/* xterm's options are single words (-title T): only -e matters */
	{ .name = "xterm", .cmd_opts = " -e " },
	{ .name = "xvfb-run",
	  .short_val = "efnpsw",
	  .long_val = " --error-file --server-num --server-args --auth-file "
		      "--xauth-protocol --wait " },
	{ .name = "yarn", .sub = " exec " },
	{ .name = "yash", .kind = WRAPPER_SHELL },
	{ .name = "ysh", .kind = WRAPPER_SHELL },
	{ .name = "zsh", .kind = WRAPPER_SHELL },
};

#define NTABLE (sizeof(table) / sizeof(*table))

/* The interpreters whose operands can be code; names ending in '*' also
 * match with a version (python3, python3.11, perl5.36). */
static const struct wrappers_interp interps[] = {
	{ "python*", CODE_PYTHON, " -c ", " -W -X -Q ", " -m ", NULL },
	{ "pypy*", CODE_PYTHON, " -c ", " -W -X ", " -m ", NULL },
	{ "node", CODE_NODE, " -e -p --eval --print ",
	  " -r --require --import --loader --env-file ", NULL, NULL },
	{ "nodejs", CODE_NODE, " -e -p --eval --print ", " -r --require ",
	  NULL, NULL },
	{ "bun", CODE_NODE, " -e -p --eval --print ", " -r ", NULL, NULL },
	{ "deno", CODE_NODE, " eval ", " ", NULL, NULL },
	{ "perl*", CODE_PERL, " -e -E ", " -I -M -m -x ", NULL, NULL },
	{ "ruby*", CODE_RUBY, " -e ", " -r -I -C ", NULL, NULL },
	{ "php*", CODE_PHP, " -r -B -R -E ", " -c -d -z ", NULL, NULL },
	{ "lua*", CODE_LUA, " -e ", " -l ", NULL, NULL },
	{ "luajit", CODE_LUA, " -e ", " -l -b ", NULL, NULL },
	/* read by shape (codeshape.c); options from each tool's --help */
	{ "R", CODE_SHAPE, " -e ", " -f --file ", NULL, NULL },
	{ "Rscript", CODE_SHAPE, " -e ", " ", NULL, NULL },
	{ "crystal", CODE_SHAPE, " eval ", " -o -D --define ", NULL,
	  " run build i interactive " },
	{ "expect", CODE_SHAPE, " -c ", " -f ", NULL, NULL },
	{ "gccgo", CODE_SHAPE, NULL, " -o ", NULL, " " },
	{ "go", CODE_SHAPE, NULL,
	  " -o -C -p -ldflags -gcflags -asmflags -tags -mod -modfile "
	  "-exec -overlay -pkgdir -toolexec -buildmode -compiler ",
	  NULL, " run build " },
	{ "groovy", CODE_SHAPE, " -e ", " -cp -classpath --classpath -D ",
	  NULL, NULL },
	{ "jrunscript", CODE_SHAPE, " -e ", " -cp -classpath -l -J -f ",
	  NULL, NULL },
	{ "julia", CODE_SHAPE, " -e -E --eval --print ",
	  " -L --load -J --sysimage -p --procs -t --threads --project ",
	  NULL, NULL },
	{ "rustc", CODE_SHAPE, NULL,
	  " -o --out-dir -C --codegen --edition --crate-type --crate-name "
	  "-L -l --cfg --target --emit ",
	  NULL, " " },
	{ "tclsh*", CODE_SHAPE, NULL, " ", NULL, NULL },
	{ "v", CODE_SHAPE, " -e ", " -o ", NULL, " run crun " },
	{ "wish*", CODE_SHAPE, NULL, " ", NULL, NULL },
};

/* memcmp order, shorter first on a tie, without a strlen per probe: the
 * lookup runs for every command word. b may hold NUL bytes; a ends at
 * its terminator. */
static int cmp_name(const char *a, const char *b, size_t bn)
{
	for (size_t i = 0; i < bn; i++) {
		unsigned char ca = (unsigned char)a[i], cb = (unsigned char)b[i];

		if (ca == 0)
			return -1;
		if (ca != cb)
			return ca < cb ? -1 : 1;
	}
	return a[bn] ? 1 : 0;
}

/* Is the word (s, n) one of the words of list (" a b ")? */
static bool in_words(const char *list, const char *s, size_t n)
{
	if (!list || n == 0)
		return false;
	for (const char *p = strstr(list, " "); p; p = strstr(p + 1, " ")) {
		if (strncmp(p + 1, s, n) == 0 && p[1 + n] == ' ')
			return true;
	}
	return false;
}

static const struct wrapper *find_name(const char *name, size_t n)
{
	size_t lo = 0, hi = NTABLE;

	if (names_ready()) {
		const struct name_roles *r = names_find(name, n);
		return r && r->wrapper ? &table[r->wrapper - 1] : NULL;
	}

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_name(table[mid].name, name, n);

		if (c < 0)
			lo = mid + 1;
		else if (c > 0)
			hi = mid;
		else
			return &table[mid];
	}
	return NULL;
}

const struct wrapper *wrappers_find(const char *name, size_t n, const char *sub,
				    size_t subn)
{
	const struct wrapper *w = name ? find_name(name, n) : NULL;

	if (w && w->sub && !(sub && in_words(w->sub, sub, subn)))
		return NULL;
	return w;
}

const char *wrappers_subs(const char *name, size_t n)
{
	const struct wrapper *w = name ? find_name(name, n) : NULL;

	return w ? w->sub : NULL;
}

bool wrappers_is_shell(const char *name, size_t n)
{
	const struct wrapper *w = name ? find_name(name, n) : NULL;

	return w && w->kind == WRAPPER_SHELL;
}

bool wrappers_is_any_shell(const char *name, size_t n)
{
	const struct wrapper *w = name ? find_name(name, n) : NULL;

	return w && (w->kind == WRAPPER_SHELL || w->kind == WRAPPER_FOREIGN);
}

/* The first letters of the interpreters' names, so that most command
 * words are turned away with one look (test_wrappers checks it against
 * interps). */
static const char interp_firsts[] = "Rbcdegjlnprtvw";

bool wrappers_interp_firsts_cover(void)
{
	for (size_t i = 0; i < sizeof(interps) / sizeof(*interps); i++)
		if (!strchr(interp_firsts, interps[i].name[0]))
			return false;
	return true;
}

const struct wrappers_interp *wrappers_find_interp(const char *name, size_t n)
{
	/* every exact name and every stem ("python") is in the index; only
	 * a versioned name (python3.12) can match past it */
	if (names_ready()) {
		const struct name_roles *r = names_find(name, n);

		if (r)
			return r->interp ? &interps[r->interp - 1] : NULL;
		if (!n || !(isdigit((unsigned char)name[n - 1]) ||
			    name[n - 1] == '.'))
			return NULL;
	}
	return wrappers_interp_scan(name, n);
}

const struct wrappers_interp *wrappers_interps(size_t *n)
{
	*n = sizeof(interps) / sizeof(*interps);
	return interps;
}

const struct wrappers_interp *wrappers_interp_scan(const char *name, size_t n)
{
	if (!n || !name[0] ||
	    !memchr(interp_firsts, name[0], sizeof(interp_firsts) - 1))
		return NULL;
	for (size_t i = 0; i < sizeof(interps) / sizeof(*interps); i++) {
		const char *p = interps[i].name;
		size_t pl;

		if (!n || p[0] != name[0])
			continue;
		pl = strlen(p);
		if (p[pl - 1] != '*') {
			if (pl == n && memcmp(name, p, n) == 0)
				return &interps[i];
			continue;
		}
		pl--;
		if (n < pl || memcmp(name, p, pl) != 0)
			continue;
		/* python3, python3.11, perl5.36 — not pythonic-tool */
		bool ok = true;
		for (size_t k = pl; k < n; k++)
			if (!isdigit((unsigned char)name[k]) && name[k] != '.')
				ok = false;
		if (ok)
			return &interps[i];
	}
	return NULL;
}

bool wrappers_opens_code(const char *name, size_t n)
{
	const struct wrapper *w;

	if (!name || n == 0)
		return true;
	if (wrappers_find_interp(name, n))
		return true;
	/* "npm" alone is not a wrapper: only "npm exec" is, and a rule on
	 * "npm test" allows no other subcommand */
	w = find_name(name, n);
	return w && !w->sub && w->kind != WRAPPER_NAMES;
}

/* A long option (s, n) without its "=value": does list hold it, or hold
 * exactly one option it is a prefix of (getopt_long takes "--sig" for
 * "--signal")? Prefixes shorter than "--xx" are not taken. */
/* The word of list (" --a --b ") that long option s[0..n) names, exactly
 * or as a unique prefix of at least "--xy" (getopt_long's rule), or NULL;
 * an ambiguous prefix names none (getopt refuses it). */
static const char *long_find(const char *list, const char *s, size_t n)
{
	const char *hit = NULL;
	bool ambiguous = false;

	if (!list || n < 3)
		return NULL;
	for (const char *p = strstr(list, " "); p; p = strstr(p + 1, " ")) {
		if (strncmp(p + 1, s, n) != 0)
			continue;
		if (p[1 + n] == ' ')
			return p + 1; /* exact */
		if (n < 4)
			continue;
		ambiguous = hit != NULL;
		hit = p + 1;
	}
	return ambiguous ? NULL : hit;
}

static bool long_in(const char *list, const char *s, size_t n)
{
	return long_find(list, s, n) != NULL;
}

/* Does long option s[0..n) name word (a list word, ending at a space)? */
static bool long_names(const char *word, const char *name)
{
	size_t k = strlen(name);

	return word && strncmp(word, name, k) == 0 && word[k] == ' ';
}

static bool is_assignment(const char *s, size_t n)
{
	size_t k = 0;

	if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_'))
		k++;
	return k < n && s[k] == '=';
}

/* Is word i (s, n) one of the row's prog_opts (--exec PROG, --exec=PROG,
 * -x PROG, -xPROG)? Then out->prog and prog_off say where PROG is. */
static bool prog_option(const struct wrapper *w, size_t i, const char *s,
			size_t n, struct wrapper_scan *out)
{
	if (s[1] == '-') {
		const char *eq = memchr(s, '=', n);
		size_t kn = eq ? (size_t)(eq - s) : n;

		if (!long_find(w->prog_opts, s, kn) ||
		    in_words(w->long_flags, s, kn))
			return false;
		out->prog = eq ? i : i + 1;
		out->prog_off = eq ? kn + 1 : 0;
		return true;
	}
	if (!in_words(w->prog_opts, s, 2))
		return false;
	out->prog = n > 2 ? i : i + 1;
	out->prog_off = n > 2 ? 2 : 0;
	return true;
}

/* Reads options from word i on; returns the first word after them. */
static size_t scan_options(const struct wrapper *w, size_t i, size_t argc,
			   wrapper_word_fn *get, const void *ctx,
			   struct wrapper_scan *out)
{
	while (i < argc) {
		const char *s;
		size_t n;

		if (!get(ctx, i, &s, &n)) {
			out->dynamic = true;
			return i;
		}
		if (w->cmd_opts && in_words(w->cmd_opts, s, n)) {
			out->cmd = i + 1;
			return argc;
		}
		if (n == 2 && s[0] == '-' && s[1] == '-')
			return i + 1;
		if (w->prog_opts && n >= 2 && s[0] == '-' &&
		    prog_option(w, i, s, n, out)) {
			/* --exec=PROG, -xPROG, or PROG next */
			i += out->prog_off ? 1 : 2;
			continue;
		}
		if (n < 2 || s[0] != '-') {
			/* getopt permutes: fd PATTERN -x CMD */
			if (!w->cmd_opts)
				return i;
			i++;
			continue;
		}
		if ((w->flags & WF_DASH_NUM) && isdigit((unsigned char)s[1])) {
			i++;
			continue;
		}
		if (s[1] == '-') {
			const char *eq = memchr(s, '=', n);
			size_t kn = eq ? (size_t)(eq - s) : n;

			if (w->payload_long && kn <= strlen(w->payload_long) &&
			    kn >= 4 && memcmp(s, w->payload_long, kn) == 0) {
				out->payload = eq ? i : i + 1;
				out->payload_off = eq ? kn + 1 : 0;
				return argc;
			}
			if (w->chdir_long &&
			    (long_names(long_find(w->long_val, s, kn),
					w->chdir_long) ||
			     (kn == strlen(w->chdir_long) &&
			      memcmp(s, w->chdir_long, kn) == 0))) {
				/* --chdir=DIR, or DIR next when it takes one */
				if (eq) {
					out->chdir = i;
					out->chdir_off = kn + 1;
				} else if (long_in(w->long_val, s, kn) &&
					   i + 1 < argc) {
					out->chdir = i + 1;
					out->chdir_off = 0;
				}
			}
			if (eq)
				i++;
			else if (long_in(w->long_val2, s, kn))
				i += 3;
			else if (long_in(w->long_val, s, kn))
				i += 2;
			else
				i++;
			continue;
		}
		/* a cluster: the first option that takes a value takes the
		 * rest of it, or (a required value) the next word */
		size_t next = i + 1;
		for (size_t k = 1; k < n; k++) {
			char c = s[k];
			if (w->payload_short && c == w->payload_short) {
				out->payload = k + 1 < n ? i : i + 1;
				out->payload_off = k + 1 < n ? k + 1 : 0;
				return argc;
			}
			if (w->short_val && strchr(w->short_val, c) && c) {
				if (c == w->chdir_short &&
				    (k + 1 < n || i + 1 < argc)) {
					out->chdir = k + 1 < n ? i : i + 1;
					out->chdir_off = k + 1 < n ? k + 1 : 0;
				}
				if (k + 1 == n)
					next = i + 2;
				break;
			}
			if (w->short_opt && strchr(w->short_opt, c) && c) {
				if (c == w->chdir_short && k + 1 < n) {
					out->chdir = i;
					out->chdir_off = k + 1;
				}
				break;
			}
		}
		i = next;
	}
	return i;
}

void wrappers_scan(const struct wrapper *w, size_t argc, wrapper_word_fn *get,
		   const void *ctx, struct wrapper_scan *out)
{
	size_t i = w->sub ? 2 : 1;

	memset(out, 0, sizeof(*out));
	out->payload = argc;
	out->chdir = argc;
	out->cmd = argc;
	out->prog = argc;
	if (w->flags & WF_OPERANDS_FIRST)
		i += w->operands;
	/* a word known only at run time is taken for an operand, as the
	 * first word that is not an option */
	i = scan_options(w, i, argc, get, ctx, out);
	out->opt_end = i < argc ? i : argc;
	if (out->payload < argc) {
		out->assigns = out->cmd = argc;
		return;
	}
	if (w->cmd_opts) {
		/* after the option, else from a word known only at run time
		 * (it may be the option) */
		if (out->cmd == argc && out->dynamic)
			out->cmd = out->opt_end;
		out->assigns = out->cmd;
		return;
	}
	if (!(w->flags & WF_OPERANDS_FIRST))
		i += w->operands;
	if (i > argc)
		i = argc;
	out->assigns = i;
	while ((w->flags & WF_ASSIGNS) && i < argc) {
		const char *s;
		size_t n;
		if (!get(ctx, i, &s, &n) || !is_assignment(s, n))
			break;
		i++;
	}
	out->cmd = w->prog_opts && out->prog >= argc ? argc : i;
}

const struct wrapper *wrappers_table(size_t *n)
{
	*n = NTABLE;
	return table;
}

bool wrappers_table_sorted(void)
{
	for (size_t i = 1; i < NTABLE; i++)
		if (strcmp(table[i - 1].name, table[i].name) >= 0)
			return false;
	return true;
}

size_t wrappers_shell_alternation(char *buf, size_t cap)
{
	size_t o = 0;

	/* longest first, so that an alternation tried left to right takes
	 * "bash" before "ash" */
	for (size_t len = 16; len > 0; len--)
		for (size_t i = 0; i < NTABLE; i++) {
			size_t n = strlen(table[i].name);
			if (table[i].kind != WRAPPER_SHELL || n != len)
				continue;
			if (o + n + 2 > cap)
				return 0;
			if (o)
				buf[o++] = '|';
			memcpy(buf + o, table[i].name, n);
			o += n;
		}
	if (o >= cap)
		return 0;
	buf[o] = '\0';
	return o;
}
