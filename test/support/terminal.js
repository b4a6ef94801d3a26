'use strict';
// The real mysqlsh in a terminal (tmux, a server of its own): what a person types and sees at the prompt.
const { spawnSync } = require('child_process');

const HAVE_TMUX = spawnSync('tmux', ['-V']).status === 0;

// One tmux server of our own (its own socket), so nothing else's sessions are touched.
function terminal(command) {
  const socket = `restore-test-${process.pid}-${Date.now()}`;
  const tmux = (...args) => {
    const r = spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`tmux ${args[0]} failed: ${r.stderr}`);
    return r.stdout;
  };
  tmux('-f', '/dev/null', 'new-session', '-d', '-x', '200', '-y', '50', command);
  tmux('set-option', '-g', 'history-limit', '20000');
  return {
    screen: () => tmux('capture-pane', '-p', '-J', '-S', '-'),
    type: (text) => { tmux('send-keys', '-l', text); tmux('send-keys', 'Enter'); },
    kill: () => spawnSync('tmux', ['-L', socket, 'kill-server']),
  };
}

const PROMPT = / JS> ?$/;
function sleep(ms) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); }

// Waits until the screen has `count` prompts and the last line is one; returns the screen.
function waitForPrompt(term, count, timeoutMs = 120000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const screen = term.screen();
    const lines = screen.replace(/\n+$/, '').split('\n');
    const prompts = lines.filter((l) => / JS> /.test(l) || PROMPT.test(l)).length;
    if (prompts >= count && PROMPT.test(lines[lines.length - 1])) return screen;
    if (Date.now() > until) throw new Error(`no prompt after ${timeoutMs} ms; the screen:\n${screen}`);
    sleep(200);
  }
}

// The text between the n-th prompt line (the command typed) and the next prompt.
function answerTo(screen, n) {
  const lines = screen.split('\n');
  const at = lines.map((l, i) => (/ JS> /.test(l) || PROMPT.test(l) ? i : -1)).filter((i) => i >= 0);
  return lines.slice(at[n - 1] + 1, at[n]).join('\n');
}

// Waits until the screen matches re; returns the screen.
function waitForText(term, re, timeoutMs = 120000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const screen = term.screen();
    if (re.test(screen)) return screen;
    if (Date.now() > until) throw new Error(`${re} not on the screen after ${timeoutMs} ms; the screen:\n${screen}`);
    sleep(200);
  }
}

module.exports = { HAVE_TMUX, terminal, waitForPrompt, waitForText, answerTo };
