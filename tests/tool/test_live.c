// SPDX-License-Identifier: GPL-2.0-or-later
/* `memcgsim run`'s live progress: drawn on a terminal (a pseudo-terminal
 * here), cleared at the end, never on standard output, never with --quiet,
 * and the results are the same bytes with it as without it. */
#include "test_util.h"
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCEN MCS_SOURCE_DIR "/scenarios/lockbench_scope.json"

/* Run memcgsim with @args, standard error on a pseudo-terminal @cols wide
 * when @tty (0: no size set); what came on standard output and on standard
 * error. */
static int run_on_cols(bool tty, unsigned short cols, const char *const *args, GString *out,
		       GString *err)
{
	struct winsize ws = {.ws_row = 24, .ws_col = cols};
	int master = -1, slave = -1, outp[2], errp[2];
	g_assert_cmpint(pipe(outp), ==, 0);
	if (tty)
		g_assert_cmpint(openpty(&master, &slave, NULL, NULL, cols ? &ws : NULL), ==, 0);
	else
		g_assert_cmpint(pipe(errp), ==, 0);
	pid_t pid = fork();
	g_assert_cmpint(pid, >=, 0);
	if (pid == 0) {
		dup2(outp[1], 1);
		dup2(tty ? slave : errp[1], 2);
		GPtrArray *argv = g_ptr_array_new();
		g_ptr_array_add(argv, (gpointer)MCS_BINARY);
		for (; *args; args++)
			g_ptr_array_add(argv, (gpointer)*args);
		g_ptr_array_add(argv, NULL);
		execv(MCS_BINARY, (char **)argv->pdata);
		_exit(127);
	}
	close(outp[1]);
	close(tty ? slave : errp[1]);
	struct pollfd fds[2] = {{.fd = outp[0], .events = POLLIN},
				{.fd = tty ? master : errp[0], .events = POLLIN}};
	GString *into[2] = {out, err};
	for (int open = 2; open;) {
		g_assert_cmpint(poll(fds, 2, -1), >, 0);
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			char buf[4096];
			ssize_t n = read(fds[i].fd, buf, sizeof(buf));
			if (n > 0) {
				g_string_append_len(into[i], buf, n);
				continue;
			}
			g_assert_true(n == 0 ||
				      errno == EIO); /* EIO: the terminal's last writer left */
			close(fds[i].fd);
			fds[i].fd = -1;
			open--;
		}
	}
	int status;
	g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int run_on(bool tty, const char *const *args, GString *out, GString *err)
{
	return run_on_cols(tty, 0, args, out, err);
}

static void test_live_lines(void)
{
	const char *args[] = {
	    "run",	 SCEN,	   "--set", "replicas=2", "--set", "stop.duration_ns=150000000",
	    "--variant", "global", "-j2",   "--format",	  "json",  NULL,
	    NULL};
	GString *plain = g_string_new(NULL), *none = g_string_new(NULL);
	GString *live = g_string_new(NULL), *drawn = g_string_new(NULL);
	g_assert_cmpint(run_on(false, args, plain, none), ==, 0);
	g_assert_cmpint(run_on(true, args, live, drawn), ==, 0);
	/* the same bytes on standard output, nothing on standard error
	 * without a terminal */
	g_assert_cmpuint(plain->len, >, 1000);
	g_assert_cmpstr(live->str, ==, plain->str);
	char *rest = mcs_without_asan_warning(none->str);
	g_assert_cmpstr(rest, ==, "");
	g_free(rest);
	/* on the terminal: the count, a line per running replica with the
	 * share of the 0.15 s, and at the end everything erased */
	g_assert_nonnull(strstr(drawn->str, "memcgsim: 0 of 2 simulations done"));
	g_assert_nonnull(strstr(drawn->str, "  global replica 1/2 "));
	g_assert_nonnull(strstr(drawn->str, "  global replica 2/2 "));
	g_assert_nonnull(strstr(drawn->str, " s simulated of 0.15 s ("));
	g_assert_true(g_str_has_suffix(drawn->str, "\r\033[J"));
	/* --quiet: nothing on the terminal, the same output */
	GString *quiet = g_string_new(NULL), *nothing = g_string_new(NULL);
	args[11] = "--quiet";
	g_assert_cmpint(run_on(true, args, quiet, nothing), ==, 0);
	g_assert_cmpstr(quiet->str, ==, plain->str);
	rest = mcs_without_asan_warning(nothing->str);
	g_assert_cmpstr(rest, ==, "");
	g_free(rest);
	/* a terminal 40 columns wide: no line wraps (the redraw counts lines) */
	GString *narrow = g_string_new(NULL), *cut = g_string_new(NULL);
	args[11] = NULL;
	g_assert_cmpint(run_on_cols(true, 40, args, narrow, cut), ==, 0);
	g_assert_cmpstr(narrow->str, ==, plain->str);
	g_assert_nonnull(strstr(cut->str, "memcgsim: 0 of 2 simulations done"));
	char **lines = g_strsplit(cut->str, "\n", -1);
	GRegex *escapes = g_regex_new("\\033\\[[0-9]*[A-Za-z]|\r", 0, 0, NULL);
	for (char **l = lines; *l; l++) {
		char *shown = g_regex_replace(escapes, *l, -1, 0, "", 0, NULL);
		if (!mcs_asan_warning(shown))
			g_assert_cmpuint(strlen(shown), <=, 39);
		g_free(shown);
	}
	g_strfreev(lines);
	g_regex_unref(escapes);
	for (GString **s =
		 (GString *[]){plain, none, live, drawn, quiet, nothing, narrow, cut, NULL};
	     *s; s++)
		g_string_free(*s, TRUE);
}

/* A run to completion (issue 23, item 6): its ETA is given before any
 * replica finishes, from the share of its work done (memhog's pages), not
 * "-:--" until one has. */
static void test_live_eta_to_completion(void)
{
	const char *args[] = {"run",	   MCS_SOURCE_DIR "/scenarios/seeds/list_lru_swap.json",
			      "--set",	   "replicas=1",
			      "--set",	   "workloads.0.size_mb=96",
			      "--variant", "v1-before",
			      "--format",  "json",
			      NULL};
	GString *out = g_string_new(NULL), *drawn = g_string_new(NULL);
	g_assert_cmpint(run_on(true, args, out, drawn), ==, 0);
	GRegex *eta = g_regex_new("memcgsim: 0 of 1 simulations done[^\n]*\033\\[K\r?\n  v1-before "
				  "[^\n]* ETA [0-9]+:[0-9][0-9]\033\\[K\r?\n",
				  0, 0, NULL);
	g_assert_true(g_regex_match(eta, drawn->str, 0, NULL));
	g_regex_unref(eta);
	/* the whole run, from the same pace */
	g_assert_true(g_regex_match_simple("memcgsim: 0 of 1 simulations done; the run: about "
					   "[0-9]+:[0-9][0-9] here, [0-9]+:[0-9][0-9] left\033\\[K",
					   drawn->str, 0, 0));
	g_string_free(out, TRUE);
	g_string_free(drawn, TRUE);
}

/* The whole run's wall time (issue 23, item 6; issue 39, item 7), before
 * any simulation has finished: the head line says what the run takes on
 * this machine, the second variant, queued (-j1), counted at the running
 * one's measured pace, "about", with what is left; and so once it runs. */
static void test_run_eta(void)
{
	const char *args[] = {"run",   SCEN,	     "--set", "stop.duration_ns=300000000",
			      "--set", "replicas=1", "-j1",   "--format",
			      "json",  NULL};
	GString *out = g_string_new(NULL), *drawn = g_string_new(NULL);
	g_assert_cmpint(run_on(true, args, out, drawn), ==, 0);
	g_assert_true(g_regex_match_simple("memcgsim: 0 of 2 simulations done; the run: about "
					   "[0-9]+:[0-9][0-9] here, [0-9]+:[0-9][0-9] left\033\\[K",
					   drawn->str, 0, 0));
	g_assert_false(g_regex_match_simple("the run: at least", drawn->str, 0, 0));
	g_assert_true(g_regex_match_simple("memcgsim: 1 of 2 simulations done; the run: about "
					   "[0-9]+:[0-9][0-9] here, [0-9]+:[0-9][0-9] left\033\\[K",
					   drawn->str, 0, 0));
	g_string_free(out, TRUE);
	g_string_free(drawn, TRUE);
}

/* A sweep's ETA (issue 23, item 6) while a long run goes on after short
 * ones: from the running run's own progress, redrawn as it goes, not the
 * count of runs done (which said 0:00 with seconds left). The scripted
 * slow run: its second point simulates 2000 times longer than its first. */
static void test_sweep_eta(void)
{
	char *dir = g_dir_make_tmp("memcgsim-live-XXXXXX", NULL);
	char *out_dir = g_build_filename(dir, "s", NULL);
	const char *args[] = {"sweep",	    SCEN, "--param", "stop.duration_ns=200000,400000000",
			      "--replicas", "1",  "-j1",     "--out",
			      out_dir,	    NULL};
	GString *out = g_string_new(NULL), *drawn = g_string_new(NULL);
	g_assert_cmpint(run_on(true, args, out, drawn), ==, 0);
	GRegex *eta = g_regex_new("\\] 2/4 runs  50%  elapsed [0-9]+:[0-9][0-9]  ETA "
				  "[0-9]+:[0-9][0-9]\033\\[K",
				  0, 0, NULL);
	GMatchInfo *m;
	bool later = false; /* a frame at 2/4 with time left, not 0:00 */
	for (g_regex_match(eta, drawn->str, 0, &m); g_match_info_matches(m);
	     g_match_info_next(m, NULL)) {
		char *frame = g_match_info_fetch(m, 0);
		later |= !strstr(frame, "ETA 0:00");
		g_free(frame);
	}
	g_match_info_free(m);
	g_regex_unref(eta);
	g_assert_true(later);
	g_string_free(out, TRUE);
	g_string_free(drawn, TRUE);
	mcs_rm_tree(dir);
	g_free(out_dir);
	g_free(dir);
}

/* Without a terminal (issue 39, item 7): a plain line on standard error at
 * the interval asked (1 s here), each the count, the estimate and every
 * running simulation's clock, no escape sequence; none with 0; standard
 * output the same bytes either way. */
static void test_plain_lines(void)
{
	const char *args[] = {
	    "run", SCEN,       "--set", "stop.duration_ns=300000000", "--set", "replicas=1",
	    "-j1", "--format", "json",	"--progress-every",	      "1",     NULL};
	GString *out = g_string_new(NULL), *err = g_string_new(NULL);
	g_assert_cmpint(run_on(false, args, out, err), ==, 0);
	char *said = mcs_without_asan_warning(err->str);
	g_assert_null(strchr(said, '\033'));
	g_assert_null(strchr(said, '\r'));
	char **lines = g_strsplit(said, "\n", -1);
	guint n = g_strv_length(lines);
	g_assert_cmpuint(n, >=, 2); /* one line at least, and the last newline */
	g_assert_cmpstr(lines[n - 1], ==, "");
	for (guint i = 0; i + 1 < n; i++)
		g_assert_true(g_regex_match_simple(
		    "^memcgsim: [01] of 2 simulations done(; the run: about [0-9]+:[0-9][0-9] "
		    "here, "
		    "[0-9]+:[0-9][0-9] left)?; running: (global|per-node) replica 1/1 "
		    "[0-9.e+-]+ s simulated$",
		    lines[i], 0, 0));
	g_strfreev(lines);
	g_free(said);
	GString *out0 = g_string_new(NULL), *err0 = g_string_new(NULL);
	args[10] = "0";
	g_assert_cmpint(run_on(false, args, out0, err0), ==, 0);
	said = mcs_without_asan_warning(err0->str);
	g_assert_cmpstr(said, ==, "");
	g_free(said);
	g_assert_cmpstr(out0->str, ==, out->str);
	for (GString **s = (GString *[]){out, err, out0, err0, NULL}; *s; s++)
		g_string_free(*s, TRUE);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/live/lines", test_live_lines);
	g_test_add_func("/live/eta-to-completion", test_live_eta_to_completion);
	g_test_add_func("/live/run-eta", test_run_eta);
	g_test_add_func("/live/plain-lines", test_plain_lines);
	g_test_add_func("/live/sweep-eta", test_sweep_eta);
	return g_test_run();
}
