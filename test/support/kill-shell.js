'use strict';
// A mysqlsh killed mid-way (SIGKILL, as a crash or an operator would): started with spawnShell,
// polled by `reached` (async; truthy once the point is reached, e.g. enough transactions on the
// target), killed there. Returns {atKill: what reached returned, signal, out}; atKill is null when the
// point was never reached within `ms` (the process then ran to its end).
const { spawnShell } = require('./shell');

async function killShellWhen(args, opts, reached, ms = 90000, signal = 'SIGKILL') {
  const child = spawnShell(args, opts);
  let out = '';
  child.stdout.on('data', (x) => { out += x; });
  child.stderr.on('data', (x) => { out += x; });
  const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  let atKill = null;
  const until = Date.now() + ms;
  while (Date.now() < until && atKill === null) {
    const got = await reached();
    if (got) { child.kill(signal); atKill = got; } else await new Promise((r) => setTimeout(r, 30));
  }
  const end = await exited;
  // The server rolls back what the killed sessions had not committed.
  await new Promise((r) => setTimeout(r, 500));
  return { atKill, signal: end.signal, code: end.code, out };
}

module.exports = { killShellWhen };
